import TabStoreKit

/// A positional argument after scanning, typed by its declared kind.
enum ArgumentValue: Sendable, Equatable {
    case text(String)
    case tab(TabRef)
    case index(TypedIndex)
}

/// An option after scanning.
enum OptionValue: Sendable, Equatable {
    case flag
    case text(String)
    case integer(Int)
    case index(TypedIndex)
}

/// What the scanner found for one command: values by argument name, options by long name.
///
/// The scanner guarantees required values are present and typed; the accessors still
/// throw a usage error rather than trap if a command asks for something undeclared.
struct ParsedArguments: Sendable, Equatable {
    var command: String
    var values: [String: [ArgumentValue]] = [:]
    var options: [String: OptionValue] = [:]

    func text(_ name: String) throws(CLIError) -> String {
        guard case let .text(text)? = values[name]?.first else { throw missing(name) }
        return text
    }

    func optionalText(_ name: String) -> String? {
        guard case let .text(text)? = values[name]?.first else { return nil }
        return text
    }

    func texts(_ name: String) -> [String] {
        (values[name] ?? []).compactMap { value in
            if case let .text(text) = value { return text }
            return nil
        }
    }

    func tab(_ name: String) throws(CLIError) -> TabRef {
        guard case let .tab(ref)? = values[name]?.first else { throw missing(name) }
        return ref
    }

    func tabs(_ name: String) -> [TabRef] {
        (values[name] ?? []).compactMap { value in
            if case let .tab(ref) = value { return ref }
            return nil
        }
    }

    func index(_ name: String) throws(CLIError) -> TypedIndex {
        guard case let .index(index)? = values[name]?.first else { throw missing(name) }
        return index
    }

    func flag(_ name: String) -> Bool {
        options[name] == .flag
    }

    func integerOption(_ name: String) -> Int? {
        guard case let .integer(integer)? = options[name] else { return nil }
        return integer
    }

    func indexOption(_ name: String) -> TypedIndex? {
        guard case let .index(index)? = options[name] else { return nil }
        return index
    }

    func textOption(_ name: String) -> String? {
        guard case let .text(text)? = options[name] else { return nil }
        return text
    }

    private func missing(_ name: String) -> CLIError {
        .usage(UsageError(message: "Missing expected argument '<\(name)>'", command: command))
    }
}
