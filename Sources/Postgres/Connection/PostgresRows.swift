/// One SQL statement of a pipeline, with its `$1`, `$2`... parameters as text (nil is NULL).
package struct PostgresStatement: Sendable, Hashable {
    package let sql: String
    package let parameters: [String?]

    package init(_ sql: String, _ parameters: [String?] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}

/// What one statement returned: its rows as text (NULL is nil), and the number of rows
/// it changed.
package struct PostgresRows: Sendable, Hashable {
    /// Rows returned (0 for a statement that returns none).
    package let count: Int
    package let columns: Int
    /// The count in the command tag (`INSERT 0 3` gives 3); 0 when the statement has none.
    package let affectedRows: Int
    /// Row after row.
    private let values: [String?]

    init(count: Int, columns: Int, affectedRows: Int, values: [String?]) {
        self.count = count
        self.columns = columns
        self.affectedRows = affectedRows
        self.values = values
    }

    /// The text of a column, nil for NULL, and for a row or column that is not there
    /// (an empty result reads as NULL: a query for one row may find none).
    package func value(_ row: Int, _ column: Int) -> String? {
        guard (0..<count).contains(row), (0..<columns).contains(column) else { return nil }
        return values[row * columns + column]
    }

    /// The column as an integer; nil for NULL or text that is not an integer.
    package func int(_ row: Int, _ column: Int) -> Int? {
        value(row, column).flatMap { Int($0) }
    }
}
