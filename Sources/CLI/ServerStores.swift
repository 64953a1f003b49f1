import TabStoreKit

/// How an executable serves a database on a PostgreSQL server: the CLI itself does not
/// depend on the PostgreSQL backend, so that `tabstore` can be linked fully static.
public enum ServerStores: Sendable {
    /// This process opens it (`tabstore-postgres`, which links TabStorePostgres).
    case opened(by: @Sendable (_ url: String, _ options: TabStore.Options) throws(TabStoreError) -> TabStore)
    /// The run goes to the companion executable of this name, given the same arguments,
    /// before anything is printed or read (`tabstore`, which cannot load libpq).
    case handedOver(toCompanion: String)
}
