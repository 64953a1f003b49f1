print("tabstore")
