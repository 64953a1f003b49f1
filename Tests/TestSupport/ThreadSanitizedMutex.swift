#if TABSTORE_THREAD_SANITIZER
import TabStoreKit

/// The test support's locks too are ones ThreadSanitizer sees (see TabStoreKit's
/// `ThreadSanitizedMutex`): the shared test server is asked for databases from many
/// threads at once.
typealias Mutex = ThreadSanitizedMutex
#endif
