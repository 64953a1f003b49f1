#if TABSTORE_THREAD_SANITIZER
import TabStoreKit

/// In this module too, `Mutex` is the one ThreadSanitizer sees (TabStoreKit's `ThreadSanitizedMutex`).
typealias Mutex = ThreadSanitizedMutex
#endif
