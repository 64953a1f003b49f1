#if TABSTORE_THREAD_SANITIZER
import TabStoreKit

/// The tests' locks too are ones ThreadSanitizer sees (see TabStoreKit's
/// `ThreadSanitizedMutex`); declared here, it is the `Mutex` of this module, where
/// TabStorePostgres's and Synchronization's would be two.
typealias Mutex = ThreadSanitizedMutex
#endif
