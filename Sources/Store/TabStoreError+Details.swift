/// The details a caller reads from an error, beside its ``TabStoreError/code`` and its
/// ``TabStoreError/message``: each is `nil` for a code that does not carry it, so that a
/// code added later (or a detail added to a code) breaks no caller.
extension TabStoreError {
    /// The set the error is about: the set a tab, an index, a revision or a title was
    /// looked for in, the set that exists or does not, the set name refused as invalid.
    public var setName: String? {
        switch reason {
        case let .setNotFound(set), let .setAlreadyExists(set), let .tabNotFound(_, set), let .tabIDNotFound(_, set),
             let .indexOutOfRange(_, _, set), let .indexTextOutOfRange(_, _, set), let .ambiguousTab(_, _, _, set),
             let .insertionIndexOutOfRange(_, _, set), let .insertionIndexTextOutOfRange(_, _, set),
             let .offsetOutOfRange(_, _, set), let .insertionOffsetOutOfRange(_, _, set),
             let .duplicateTitle(_, set), let .emptySet(set), let .revisionMismatch(set, _, _), let .missingSetRevision(set, _, _),
             let .noClosedTabs(set), let .tabIDInUse(_, set, _), let .damagedSet(set, _), let .editCancelled(set),
             let .tooManyPendingEdits(set, _):
            set
        case let .invalidSetName(name, _):
            name
        default:
            nil
        }
    }

    /// The tab title named: one not found (``Code/tabNotFound``), one already in the set
    /// (``Code/duplicateTitle``), one given twice (``Code/repeatedTitle``) or refused
    /// (``Code/invalidTitle``).
    public var title: String? {
        switch reason {
        case let .tabNotFound(title, _), let .duplicateTitle(title, _), let .repeatedTitle(title), let .invalidTitle(title, _):
            title
        default:
            nil
        }
    }

    /// The index or offset that was out of range, as the call gave it (``Code/indexOutOfRange``,
    /// ``Code/insertionIndexOutOfRange``, ``Code/offsetOutOfRange``, ``Code/insertionOffsetOutOfRange``).
    public var index: Int? {
        switch reason {
        case let .indexOutOfRange(index, _, _), let .insertionIndexOutOfRange(index, _, _),
             let .offsetOutOfRange(index, _, _), let .insertionOffsetOutOfRange(index, _, _):
            index
        default: nil
        }
    }

    /// How many tabs the set had when an index or offset was out of range (each of the six
    /// out-of-range codes).
    public var tabCount: Int? {
        switch reason {
        case let .indexOutOfRange(_, count, _), let .indexTextOutOfRange(_, count, _),
             let .insertionIndexOutOfRange(_, count, _), let .insertionIndexTextOutOfRange(_, count, _),
             let .offsetOutOfRange(_, count, _), let .insertionOffsetOutOfRange(_, count, _):
            count
        default:
            nil
        }
    }

    /// The PostgreSQL server, as `postgresql://user@host:port/database` (never with a
    /// password), for each code of a server that could not serve the call.
    public var server: String? {
        switch reason {
        case let .serverUnavailable(server, _), let .connectionLost(server, _), let .server(server, _, _, _),
             let .serverNotAnswering(server, _, _), let .standby(server), let .permissionDenied(server, _, _, _),
             let .notUTF8(server, _), let .schemaNotFound(server, _):
            server
        default:
            nil
        }
    }

    /// How long the server was waited for before it was given up on
    /// (``Code/serverNotAnswering``), in whole seconds.
    public var secondsWaited: Int? {
        if case let .serverNotAnswering(_, seconds, _) = reason { return seconds }
        return nil
    }
}
