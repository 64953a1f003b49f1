#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Titles and set names: non-empty, at most this many characters, no control characters.
public let maximumNameLength = 256
/// Titles and set names: at most this many UTF-8 bytes, so that what a name costs to store,
/// send and compare is bounded, however many combining marks its characters carry.
public let maximumNameBytes = 1024

/// The problem with `name` as a title or set name, or `nil` when it is fine.
///
/// Names are stored exactly as given (any Unicode, no normalization); only what
/// would break a one-line display, or make it show something other than what is
/// stored, is refused.
func nameProblem(_ name: String) -> TabStoreError.NameProblem? {
    if name.isEmpty { return .empty }
    let bytes = name.utf8.count
    if bytes > maximumNameBytes { return .tooManyBytes(bytes: bytes) }
    // Most names are short printable ASCII: fine without counting characters or
    // looking up Unicode properties (imports check 100,000 titles).
    switch printableASCII(name) {
    case .visible?: return nil
    case .blank?: return .noVisibleCharacter
    case nil: break
    }
    let characters = name.count
    if characters > maximumNameLength { return .tooLong(characters: characters) }
    var visible = false
    for scalar in name.unicodeScalars {
        if scalar.properties.generalCategory == .control { return .controlCharacter(scalar: scalar.value) }
        if isMisleading(scalar) { return .misleadingCharacter(scalar: scalar.value) }
        if !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint { visible = true }
    }
    return visible ? nil : .noVisibleCharacter
}

/// Bidirectional embeddings, overrides and isolates reorder the text around them, and
/// the line and paragraph separators break a line: a bar or listing would not show
/// what is stored.
func isMisleading(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
    default: return false
    }
}

func validTitle(_ title: String) throws(TabStoreError) {
    if let problem = nameProblem(title) { throw TabStoreError(.invalidTitle(title: title, problem: problem)) }
}

func validSetName(_ name: String) throws(TabStoreError) {
    if let problem = nameProblem(name) { throw TabStoreError(.invalidSetName(name: name, problem: problem)) }
}

/// A title or set name compared and hashed by its UTF-8 bytes, as SQLite compares it:
/// Swift's `==` would equate canonically equivalent strings ("é" and "e\u{301}"),
/// the stored data does not.
package struct ExactName: Hashable, Sendable {
    package let text: String

    package init(_ text: String) {
        self.text = text
    }

    package static func == (lhs: ExactName, rhs: ExactName) -> Bool {
        sameBytes(lhs.text, rhs.text)
    }

    package func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }
}

/// Whether `name` is short printable ASCII, and then whether it shows anything but
/// spaces; nil for anything else. Read in place where the string allows.
private func printableASCII(_ name: String) -> PrintableASCII? {
    func scan(_ bytes: some Collection<UInt8>) -> PrintableASCII? {
        guard bytes.count <= maximumNameLength else { return nil }
        var result = PrintableASCII.blank
        for byte in bytes {
            guard byte >= 0x20 && byte <= 0x7E else { return nil }
            if byte != 0x20 { result = .visible }
        }
        return result
    }
    return name.utf8.withContiguousStorageIfAvailable(scan) ?? scan(name.utf8)
}

private enum PrintableASCII { case visible, blank }

/// Whether two titles or names are the same bytes, as SQLite and PostgreSQL compare
/// them: Swift's `==` equates canonically equivalent strings ("é" and "e\u{301}").
package func sameBytes(_ a: String, _ b: String) -> Bool {
    a.utf8.elementsEqual(b.utf8)
}

extension TabStoreError {
    /// Why a title or set name is refused (``nameProblem(_:)``).
    package enum NameProblem: Sendable, Hashable, Codable, CustomStringConvertible {
        case empty
        case tooLong(characters: Int)
        /// More UTF-8 bytes than ``maximumNameBytes`` (a few characters can carry many
        /// combining marks).
        case tooManyBytes(bytes: Int)
        case controlCharacter(scalar: UInt32)
        /// Only whitespace and invisible characters.
        case noVisibleCharacter
        /// A bidirectional control (U+202A-U+202E, U+2066-U+2069) or U+2028/U+2029.
        case misleadingCharacter(scalar: UInt32)

        package var description: String {
            switch self {
            case .empty: return "it is empty"
            case let .tooLong(count): return "it has \(count) characters, more than the \(maximumNameLength) allowed"
            case let .tooManyBytes(bytes): return "it has \(bytes) bytes of UTF-8, more than the \(maximumNameBytes) allowed"
            case let .controlCharacter(scalar): return "it contains the control character \(hexScalar(scalar))"
            case .noVisibleCharacter: return "it has no visible character"
            case let .misleadingCharacter(scalar):
                return "it contains \(hexScalar(scalar)), a bidirectional control or line separator that can make a display misleading"
            }
        }
    }
}

private func hexScalar(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
