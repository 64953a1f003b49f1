import TabStoreCLI
import TabStoreKit
import TabStorePostgres

// `tabstore-postgres`: the same commands, with PostgreSQL servers opened in this process.
TabstoreTool.main(servers: .opened { url, options throws(TabStoreError) in try TabStore(postgresURL: url, options: options) })
