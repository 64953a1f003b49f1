// The floor a Swift process cannot go below: the bench times this against tabstore and sqlite3.
print("hello")
