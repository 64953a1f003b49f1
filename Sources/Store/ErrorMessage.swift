/// A message that names text from outside (set names, titles, paths, what a server or
/// a command line said), kept in parts so that it can be written two ways: for a person,
/// with that text made visible (a character that would act on a terminal or hide itself is
/// written as an escape) and long names shortened, and for JSON,
/// whose strings carry any text, with that text whole and as it is.
///
/// Written as a string literal; an interpolated `String` is text from outside, a
/// ``Name`` is a quoted name, anything else (a number) is part of the wording:
/// ```swift
/// let message: ErrorMessage = "no tab set named \(ErrorMessage.Name(name)) in \(path)"
/// message.shown  // for a terminal or a log
/// message.plain  // for a JSON string
/// ```
public struct ErrorMessage: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// One piece of a message.
    public enum Part: Sendable, Hashable {
        /// The message's own words.
        case wording(String)
        /// Text from outside, shown whole.
        case text(String)
        case name(Name)
    }

    /// A name between quotes (none when `quote` is empty), shortened after `limit`
    /// characters when shown to a person.
    public struct Name: Sendable, Hashable, CustomStringConvertible {
        public let text: String
        public let quote: String
        public let limit: Int

        public init(_ text: String, quote: String = "\"", limit: Int = .max) {
            self.text = text
            self.quote = quote
            self.limit = limit
        }

        /// The name for a person: visible, as in ``ErrorMessage/shown``, and shortened.
        public var shown: String {
            quote + VisibleText.shown(shortened) + quote
        }

        /// Quoted and shortened, as it is: for a message built as a `String` (a reason
        /// given to an error), which is made visible when that error is shown.
        public var description: String {
            quote + shortened + quote
        }

        private var shortened: String {
            let scalars = text.unicodeScalars
            guard scalars.count > limit else { return text }
            var result = String.UnicodeScalarView(scalars.prefix(limit))
            result.append("…")
            return String(result)
        }
    }

    /// The message's wording and the outside text in it, in order.
    public private(set) var parts: [Part]

    /// A message made of these parts, in order.
    public init(_ parts: [Part]) {
        self.parts = parts
    }

    public init(stringLiteral value: String) {
        parts = [.wording(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// The message for a person: nothing in it acts on a terminal or hides.
    public var shown: String {
        parts.map { part in
            switch part {
            case let .wording(words): words
            case let .text(text): VisibleText.shown(text)
            case let .name(name): name.shown
            }
        }.joined()
    }

    /// The message with every name and text whole and as it is: for JSON.
    public var plain: String {
        parts.map { part in
            switch part {
            case let .wording(words): words
            case let .text(text): text
            case let .name(name): name.quote + name.text + name.quote
            }
        }.joined()
    }

    /// The message for a person, as ``shown``.
    public var description: String { shown }

    /// Builds a message's parts from a string literal: see ``ErrorMessage``.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.wording(literal)) }
        }

        public mutating func appendInterpolation(_ text: String) {
            parts.append(.text(text))
        }

        public mutating func appendInterpolation(_ text: Substring) {
            parts.append(.text(String(text)))
        }

        public mutating func appendInterpolation(_ name: Name) {
            parts.append(.name(name))
        }

        public mutating func appendInterpolation(_ message: ErrorMessage) {
            parts += message.parts
        }

        /// A number or another value of the message's own making.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            parts.append(.wording(value.description))
        }
    }
}

/// `"text"`, shortened after 60 characters, as every message quotes a name: shown made
/// visible in a message for a person, whole and as it is in JSON.
func quoted(_ text: String) -> ErrorMessage.Name {
    ErrorMessage.Name(text, limit: 60)
}
