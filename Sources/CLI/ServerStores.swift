import TabStoreKit

/// How an executable serves a database on a PostgreSQL server: the CLI itself does not
/// depend on the PostgreSQL backend, so that `tabstore` can be linked fully static.
public enum ServerStores: Sendable {
    /// This process serves it (`tabstore-postgres`, which links TabStorePostgres).
    case opened(by: ServerSupport)
    /// The run goes to the companion executable of this name, given the same arguments,
    /// before anything is printed or read (`tabstore`, which cannot load libpq).
    case handedOver(toCompanion: String)
}

/// What the CLI needs of the PostgreSQL backend, handed in by the executable that links it.
public struct ServerSupport: Sendable {
    /// Opens the database at a `postgresql://` URL.
    public var open: @Sendable (_ url: String, _ options: TabStore.Options) throws(TabStoreError) -> TabStore
    /// Opens it once it has tabstore's tables, waiting for them (`watch` before the first `add`).
    public var openOnceTablesExist: @Sendable (_ url: String, _ options: TabStore.Options) throws(TabStoreError) -> TabStore
    /// Calls `report` each time the store's server goes away (with why) and comes back (nil).
    public var onStatusChange: @Sendable (_ store: TabStore, _ report: @escaping @Sendable (_ away: TabStoreError?) -> Void) -> Void
    /// The URL as messages show it: without its password (the same URL when it has none).
    public var withoutPassword: @Sendable (_ url: String) -> String

    public init(
        open: @escaping @Sendable (_ url: String, _ options: TabStore.Options) throws(TabStoreError) -> TabStore,
        openOnceTablesExist: @escaping @Sendable (_ url: String, _ options: TabStore.Options) throws(TabStoreError) -> TabStore,
        onStatusChange: @escaping @Sendable (_ store: TabStore, _ report: @escaping @Sendable (_ away: TabStoreError?) -> Void) -> Void,
        withoutPassword: @escaping @Sendable (_ url: String) -> String
    ) {
        self.open = open
        self.openOnceTablesExist = openOnceTablesExist
        self.onStatusChange = onStatusChange
        self.withoutPassword = withoutPassword
    }
}
