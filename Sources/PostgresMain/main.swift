import TabStoreCLI
import TabStoreKit
import TabStorePostgres

// `tabstore-postgres`: the same commands, with PostgreSQL servers served in this process.
TabstoreTool.main(servers: .opened(by: ServerSupport(
    open: { url, options throws(TabStoreError) in try TabStore(postgresURL: url, options: options) },
    openOnceTablesExist: { url, options throws(TabStoreError) in try TabStore.waitingForTables(postgresURL: url, options: options) },
    onStatusChange: { store, report in
        store.onServerStatusChange { change in
            switch change {
            case let .away(error): report(error)
            case .back: report(nil)
            }
        }
    },
    withoutPassword: { TabStore.postgresURLWithoutPassword($0) }
)))
