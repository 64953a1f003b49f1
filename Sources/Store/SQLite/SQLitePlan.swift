/// Executing a rule's plan on SQLite: each typed write is one cached statement (a run of
/// inserts the same statement run again per row), in the plan's order, inside the write
/// transaction that took the snapshot.
extension Database {
    func execute(_ plan: WritePlan, progress: ((Int) -> Void)?) throws(TabStoreError) {
        var created: [ExactName: Int] = [:]
        var tabsDone = 0
        func id(_ set: SetRef) -> Int {
            switch set {
            case let .id(id): id
            // A set the plan created: its row id is the one its insert got (0 matches no row).
            case let .new(name): created[ExactName(name)] ?? 0
            }
        }
        // By index, not `for write in`: each write is read in place, not copied out whole.
        for place in plan.writes.indices {
            switch plan.writes[place] {
            case let .insertSet(name, revision):
                try execute("INSERT INTO tab_set (name, revision) VALUES (?, ?)", [.text(name), .int(revision)])
                created[ExactName(name)] = lastInsertedID
            case let .renameSet(set, newName):
                try execute("UPDATE tab_set SET name = ? WHERE id = ?", [.text(newName), .int(id(set))])
            case let .deleteSet(set):
                // Its tabs and removed tabs go with it (foreign keys cascade).
                try execute("DELETE FROM tab_set WHERE id = ?", [.int(id(set))])
            case let .retireName(name, revision):
                try execute(
                    """
                    INSERT INTO name_revision (name, revision) VALUES (?1, ?2)
                    ON CONFLICT (name) DO UPDATE SET revision = max(revision, excluded.revision)
                    """, [.text(name), .int(revision)]
                )
            case let .setBase(set, base):
                try execute("UPDATE tab_set SET base = ? WHERE id = ?", [.int(base), .int(id(set))])
            case let .updateSet(set, revision, selecting):
                try updateSet(id(set), revision: revision, selecting: selecting)
            case let .shiftTabs(set, positions, delta):
                try execute(
                    "UPDATE tab SET position = position + ? WHERE set_id = ? AND position >= ? AND position < ?",
                    [.int(delta), .int(id(set)), .int(positions.lowerBound), .int(positions.upperBound)]
                )
            case let .setPosition(tab, position):
                try execute("UPDATE tab SET position = ? WHERE id = ?", [.int(position), .int(tab)])
            case let .insertTabs(tabs, set, firstPosition):
                let insert = try cachedStatement("INSERT INTO tab (set_id, position, title, uuid, payload) VALUES (?, ?, ?, ?, ?)")
                let setID = id(set)
                for (offset, tab) in tabs.enumerated() {
                    try run(insert, [.int(setID), .int(firstPosition + offset), .text(tab.title), .tabID(tab.uuid), SQLValue(packPayload(tab.payload))])
                    tabsDone += 1
                    progress?(tabsDone)
                }
            case let .deleteTabs(ids):
                for tab in ids { try execute("DELETE FROM tab WHERE id = ?", [.int(tab)]) }
            case let .deleteAllTabs(set):
                try execute("DELETE FROM tab WHERE set_id = ?", [.int(id(set))])
            case let .renameTab(tab, title):
                try execute("UPDATE tab SET title = ? WHERE id = ?", [.text(title), .int(tab)])
            case let .setPayload(tab, payload):
                try execute("UPDATE tab SET payload = ? WHERE id = ?", [SQLValue(packPayload(payload)), .int(tab)])
            case let .rememberClosed(tabs, set, limit):
                try rememberClosed(tabs, inSet: id(set), limit: limit)
            case let .deleteClosedTab(closedID):
                try execute("DELETE FROM closed_tab WHERE id = ?", [.int(closedID)])
            case let .forgetClosedTabs(ids):
                try execute("DELETE FROM closed_tab WHERE uuid IN (SELECT value FROM json_each(?))", [.text(jsonArray(ids))])
            case let .forgetClosedTabsBackIn(set):
                try execute(
                    """
                    DELETE FROM closed_tab WHERE set_id = ?1
                    AND EXISTS (SELECT 1 FROM tab WHERE tab.set_id = ?1 AND tab.title = closed_tab.title)
                    """, [.int(id(set))]
                )
            case let .journal(entry):
                try insertJournalRow(entry, setID: entry.set.map(id))
            case let .unlinkJournal(set):
                try execute("UPDATE change SET set_id = NULL WHERE set_id = ?", [.int(id(set))])
            case let .skipTabs(count):
                tabsDone += count
                if count > 0 { progress?(tabsDone) }
            case .recordMutations, .settleMutation, .updateSyncDevice:
                try executeSync(plan.writes[place])
            }
        }
    }

    private func updateSet(_ setID: Int, revision: Int, selecting tab: TabKey?) throws(TabStoreError) {
        switch tab {
        case let .row(tabID)?:
            try execute("UPDATE tab_set SET revision = ?, selected_tab_id = ? WHERE id = ?", [.int(revision), .int(tabID), .int(setID)])
        case let .uuid(uuid)?:
            try execute(
                "UPDATE tab_set SET revision = ?, selected_tab_id = (SELECT id FROM tab WHERE uuid = ?) WHERE id = ?",
                [.int(revision), .tabID(uuid), .int(setID)]
            )
        case let .position(position)?:
            try execute(
                "UPDATE tab_set SET revision = ?1, selected_tab_id = (SELECT id FROM tab WHERE set_id = ?3 AND position = ?2) WHERE id = ?3",
                [.int(revision), .int(position), .int(setID)]
            )
        case nil:
            try execute("UPDATE tab_set SET revision = ?, selected_tab_id = NULL WHERE id = ?", [.int(revision), .int(setID)])
        }
    }

    private func rememberClosed(_ tabs: [ClosingTab], inSet setID: Int, limit: Int) throws(TabStoreError) {
        for tab in tabs {
            try execute(
                "INSERT INTO closed_tab (set_id, title, position, was_selected, uuid, payload) VALUES (?, ?, ?, ?, ?, ?)",
                [.int(setID), .text(tab.title), .int(tab.index), .int(tab.wasSelected ? 1 : 0),
                .tabID(tab.uuid), SQLValue(packPayload(tab.payload))]
            )
        }
        try execute(
            """
            DELETE FROM closed_tab WHERE set_id = ?1 AND id NOT IN
                (SELECT id FROM closed_tab WHERE set_id = ?1 ORDER BY id DESC LIMIT ?2)
            """, [.int(setID), .int(limit)]
        )
    }
}
