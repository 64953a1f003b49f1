/// A message that names text from outside (set names, titles, paths, what a server or
/// a command line said), kept in parts so that it can be written two ways: for a person,
/// with that text made visible (``VisibleText``) and long names shortened, and for JSON,
/// whose strings carry any text, with that text whole and as it is.
///
/// Written as a string literal; an interpolated `String` is text from outside, a
/// ``Name`` is a quoted name, anything else (a number) is part of the wording:
/// ```swift
/// let message: ErrorMessage = "no tab set named \(quoted(name)) in \(path)"
/// ```
package struct ErrorMessage: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    package enum Part: Sendable, Hashable {
        /// The message's own words.
        case wording(String)
        /// Text from outside, shown whole.
        case text(String)
        case name(Name)
    }

    /// A name between quotes (none when `quote` is empty), shortened after `limit`
    /// characters when shown to a person.
    package struct Name: Sendable, Hashable, CustomStringConvertible {
        package let text: String
        package let quote: String
        package let limit: Int

        package init(_ text: String, quote: String = "\"", limit: Int = .max) {
            self.text = text
            self.quote = quote
            self.limit = limit
        }

        /// The name for a person: visible, shortened.
        package var shown: String {
            quote + VisibleText.shown(shortened) + quote
        }

        /// Quoted and shortened, as it is: for a message built as a `String` (a reason
        /// given to an error), which is made visible when that error is shown.
        package var description: String {
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

    package private(set) var parts: [Part]

    package init(_ parts: [Part]) {
        self.parts = parts
    }

    package init(stringLiteral value: String) {
        parts = [.wording(value)]
    }

    package init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// The message for a person: nothing in it acts on a terminal or hides.
    package var shown: String {
        parts.map { part in
            switch part {
            case let .wording(words): words
            case let .text(text): VisibleText.shown(text)
            case let .name(name): name.shown
            }
        }.joined()
    }

    /// The message with every name and text whole and as it is: for JSON.
    package var plain: String {
        parts.map { part in
            switch part {
            case let .wording(words): words
            case let .text(text): text
            case let .name(name): name.quote + name.text + name.quote
            }
        }.joined()
    }

    package var description: String { shown }

    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        package mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.wording(literal)) }
        }

        package mutating func appendInterpolation(_ text: String) {
            parts.append(.text(text))
        }

        package mutating func appendInterpolation(_ text: Substring) {
            parts.append(.text(String(text)))
        }

        package mutating func appendInterpolation(_ name: Name) {
            parts.append(.name(name))
        }

        package mutating func appendInterpolation(_ message: ErrorMessage) {
            parts += message.parts
        }

        /// A number or another value of the message's own making.
        package mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            parts.append(.wording(value.description))
        }
    }
}
