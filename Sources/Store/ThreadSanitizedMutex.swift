#if TABSTORE_THREAD_SANITIZER
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Mutex` in a build for ThreadSanitizer (`-DTABSTORE_THREAD_SANITIZER`, `.ci/run`): on
/// Linux, TSan does not see the ordering Synchronization's `Mutex` gives (a futex it does
/// not intercept) and reports every value it guards as a race. A pthread mutex it does
/// see. Only the calls the library makes; never in a build that ships.
package final class ThreadSanitizedMutex<Value: ~Copyable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // Behind a pointer, not a stored property: TSan takes an access to a value of no size
    // (`()`) at the object's own address for a race with reads of the object.
    private let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)

    package init(_ initialValue: consuming sending Value) {
        value.initialize(to: initialValue)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    package func withLock<Result: ~Copyable, Failure: Error>(_ body: (inout sending Value) throws(Failure) -> sending Result) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}

/// In this module, `Mutex` is the one TSan sees.
typealias Mutex = ThreadSanitizedMutex
#endif
