/// Rows that break the tab rules, as another program leaves them in a valid database: the
/// generator both test targets run every command on. Each damage is SQL for the fixture
/// both backends build (`DamagedRows.fixture`), with what the rule check says first of
/// set "s" (nil when the rows are sound, however extreme their values).
///
/// The fixture: set "s" with tabs a, b, c, d at positions 0...3 (base 0), b selected, and
/// one removed tab e (its index 4); set "o" with tabs x, y.
public struct RowDamage: Sendable, CustomStringConvertible {
    /// What the damage is, as a test's argument shows it.
    public let name: String
    /// Statements that make it, the same on SQLite and PostgreSQL (set "s" named by name).
    public let sql: String
    /// The rule check's first finding about set "s" (`SetDamage.description`); nil: sound.
    public let damage: String?
    /// Whether a server can hold it: its unique (set_id, position) constraint, which no
    /// client can turn off, refuses two tabs at one position.
    public let onServer: Bool

    public var description: String { name }
}

public enum DamagedRows {
    /// `RuleCheck.storedLimit`, which the library's tests compare with this.
    public static let limit = 1 << 53

    static let setID = "(SELECT id FROM tab_set WHERE name = 's')"

    /// Values no tabstore writes, and the ones just inside and outside the range it stores.
    public static let extremes: [Int] = [
        .max, .max - 1, .min, .min + 1, limit + 1, -(limit + 1), limit, -limit, limit - 3, 3 - limit,
    ]

    /// Every damage: the selection's, the positions', and each extreme value as the set's
    /// base, one tab's position, all its tabs' positions, its revision and a removed tab's index.
    public static let all: [RowDamage] = structural + extremes.flatMap(extreme)

    static let notContiguous = "its tabs' positions are not contiguous from its base"
    static let notItsOwn = "its selected tab is not one of its tabs"

    public static let structural: [RowDamage] = [
        RowDamage(
            name: "selection in another set",
            sql: "UPDATE tab_set SET selected_tab_id = (SELECT id FROM tab WHERE title = 'x') WHERE name = 's'",
            damage: notItsOwn, onServer: true
        ),
        RowDamage(name: "selection of no tab", sql: "UPDATE tab_set SET selected_tab_id = 424242 WHERE name = 's'", damage: notItsOwn, onServer: true),
        RowDamage(
            name: "no selection", sql: "UPDATE tab_set SET selected_tab_id = NULL WHERE name = 's'",
            damage: "it has tabs but no selected tab", onServer: true
        ),
        RowDamage(
            name: "a selection without tabs", sql: "DELETE FROM tab WHERE set_id = \(setID)",
            damage: "it has no tabs but a selected tab", onServer: true
        ),
        RowDamage(name: "two tabs at one position", sql: "UPDATE tab SET position = 2 WHERE title = 'b'", damage: notContiguous, onServer: false),
        RowDamage(name: "a gap", sql: "UPDATE tab SET position = 7 WHERE title = 'd'", damage: notContiguous, onServer: true),
        RowDamage(name: "a negative position", sql: "UPDATE tab SET position = -7 WHERE title = 'a'", damage: notContiguous, onServer: true),
        RowDamage(
            name: "positions off the base", sql: "UPDATE tab SET position = position + 1 WHERE set_id = \(setID)",
            damage: notContiguous, onServer: true
        ),
    ]

    static func inRange(_ value: Int) -> Bool { (-limit...limit).contains(value) }

    public static func extreme(_ value: Int) -> [RowDamage] {
        let range = "outside the range tabstore stores"
        let signed = "(-\(limit)...\(limit))", unsigned = "(0...\(limit))"
        // The four tabs moved together to end (or start) at `value`, the base with them.
        let start = value >= 0 ? value - 3 : value
        let end = start + 3
        let whole: String? = if !inRange(start) {
            "its base \(start) is \(range) \(signed)"
        } else if !inRange(end) {
            "a tab's position \(end) is \(range) \(signed)"
        } else {
            nil
        }
        return [
            RowDamage(
                name: "base at \(value)", sql: "UPDATE tab_set SET base = \(value) WHERE name = 's'",
                damage: inRange(value) ? notContiguous : "its base \(value) is \(range) \(signed)", onServer: true
            ),
            RowDamage(
                name: "a position at \(value)", sql: "UPDATE tab SET position = \(value) WHERE title = 'd'",
                damage: inRange(value) ? notContiguous : "a tab's position \(value) is \(range) \(signed)", onServer: true
            ),
            RowDamage(
                name: "all positions and the base from \(start)",
                sql: "UPDATE tab SET position = position + \(start) WHERE set_id = \(setID); UPDATE tab_set SET base = \(start) WHERE name = 's'",
                damage: whole, onServer: true
            ),
            RowDamage(
                name: "revision at \(value)", sql: "UPDATE tab_set SET revision = \(value) WHERE name = 's'",
                damage: (0...limit).contains(value) ? nil : "its revision \(value) is \(range) \(unsigned)", onServer: true
            ),
            RowDamage(
                name: "a removed tab's position at \(value)", sql: "UPDATE closed_tab SET position = \(value) WHERE title = 'e'",
                damage: (0...limit).contains(value) ? nil : "a removed tab's position \(value) is \(range) \(unsigned)", onServer: true
            ),
        ]
    }

    /// The revision a name no set has was left at, at `value`, for the writes that take the
    /// name "gone" (the second set a rename-set reads, or the set an add creates).
    public static func nameRevision(_ value: Int) -> (sql: String, damage: String?) {
        let sql = "INSERT INTO name_revision (name, revision) VALUES ('gone', \(value))"
        let damage = (0...limit).contains(value)
            ? nil : "the revision its name was left at, \(value), is outside the range tabstore stores (0...\(limit))"
        return (sql, damage)
    }
}
