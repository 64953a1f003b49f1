#if TABSTORE_THREAD_SANITIZER
@testable import TabStoreKit

/// The tests' locks too are ones ThreadSanitizer sees (see TabStoreKit's `ThreadSanitizedMutex`).
typealias Mutex = ThreadSanitizedMutex
#endif
