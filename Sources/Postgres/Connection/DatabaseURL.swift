import TabStoreKit
import TabStoreLibPQ

/// A `postgresql://` URL, checked by libpq, that names its server without the password.
package struct DatabaseURL: Sendable, Hashable {
    /// The URL as given, password included: only ever handed to libpq.
    package let text: String
    /// `postgresql://user@host:port/database` with libpq's defaults filled in and never a
    /// password: what messages show.
    package let server: String
    /// The password the URL holds (in its user info or `?password=`), to keep it out of
    /// any message that quotes the URL back.
    let secrets: [String]
    /// How many servers it lists (`h1,h2`): more than one are a primary and its standbys.
    package let hostCount: Int
    /// Its `options` (or `PGOPTIONS`): server settings tabstore sends ahead of its own.
    let options: String?
    /// The password file libpq would refuse to read for this URL, if any.
    let refusedPasswordFile: RefusedPasswordFile?
    /// The `lock_timeout` its `options` set, which stands for the busy timeout; nil when
    /// they set none (or one the server would refuse, and says so when connecting).
    var lockTimeout: Duration? {
        options.flatMap { StartupOptions.value(of: "lock_timeout", in: $0) }.flatMap(StartupOptions.duration)
    }
    /// The schema of tabstore's tables: the first one a `search_path` in `options` names,
    /// else `public`. Never found through the server's search path, where a schema named
    /// like the user, made later, would come first.
    package let schema: String

    /// Whether `text` is meant for the PostgreSQL backend (rather than a file path).
    ///
    /// The scheme in any case, and a scheme without its `//` (which is then refused as a
    /// malformed URL): a near miss must never become a file path (the folders of
    /// `POSTGRESQL://user:pw@host/db` would carry the password on disk).
    package static func isPostgres(_ text: String) -> Bool {
        let scheme = String(text.prefix(11)).lowercased()
        return scheme.hasPrefix("postgresql:") || scheme.hasPrefix("postgres:")
    }

    /// `text` with its scheme in lower case, as libpq needs it; nil when it lacks `//`.
    private static func normalizedScheme(_ text: String) -> String? {
        for scheme in ["postgresql://", "postgres://"] where String(text.prefix(scheme.count)).lowercased() == scheme {
            return scheme + text.dropFirst(scheme.count)
        }
        return nil
    }

    /// - Throws: `TabStoreError.Code.postgresLibraryMissing` when libpq cannot be loaded;
    ///   `.invalidDatabaseURL` (URL shown without its password) when libpq refuses it.
    package init(_ original: String) throws(TabStoreError) {
        guard let text = Self.normalizedScheme(original) else {
            throw TabStoreError(.invalidDatabaseURL(url: Self.withoutPassword(original), reason: "it does not start with postgresql:// or postgres://"))
        }
        let shown = Self.withoutPassword(text)
        guard !text.utf8.contains(0) else {
            throw TabStoreError(.invalidDatabaseURL(url: shown, reason: "it contains a NUL character"))
        }
        let pq = try LibPQ.load().functions
        let secrets = Self.passwords(in: text)
        var message: UnsafeMutablePointer<CChar>?
        guard let parsed = pq.PQconninfoParse(text, &message) else {
            let reason = message.map { String(cString: $0) } ?? "libpq could not parse it"
            if let message { pq.PQfreemem(message) }
            throw TabStoreError(.invalidDatabaseURL(url: shown, reason: hidingSecrets(firstLine(reason), secrets)))
        }
        var values = Self.values(of: parsed)
        pq.PQconninfoFree(parsed)
        // `postgresql://user:secret` (no @host) reads as host `user`, port `secret`: libpq
        // would quote that port back. Refuse it without showing the URL.
        if let port = values["port"], !port.split(separator: ",").allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) {
            guard URLParts(text).hasUserInfo else {
                throw TabStoreError(.invalidDatabaseURL(
                    url: text.hasPrefix("postgres://") ? "postgres://…" : "postgresql://…",
                    reason: "its port is not a number (a password goes in user:password@host)"
                ))
            }
            throw TabStoreError(.invalidDatabaseURL(url: shown, reason: "its port \"\(hidingSecrets(port, secrets))\" is not a number"))
        }
        if let defaults = pq.PQconndefaults() {
            for (keyword, value) in Self.values(of: defaults) where values[keyword] == nil {
                values[keyword] = value
            }
            pq.PQconninfoFree(defaults)
        }
        self.text = text
        self.secrets = secrets + [values["password"]].compactMap { $0 }.filter { !$0.isEmpty }
        hostCount = max(Self.count(values["host"]), Self.count(values["hostaddr"]), 1)
        self.options = values["options"]
        refusedPasswordFile = .of(passfile: values["passfile"], password: values["password"])
        let named = values["options"].flatMap(StartupOptions.firstSchema) ?? "public"
        // `$user` in a search path is the role's own schema.
        schema = named == "$user" ? values["user"] ?? named : named
        // A service's host, port and database come from its file when connecting: the
        // defaults filled in above are not the server's.
        if let service = values["service"], !service.isEmpty {
            self.server = "postgresql service \"" + service + "\""
        } else {
            self.server = serverName(user: values["user"] ?? "", host: values["host"] ?? "",
                                     port: values["port"] ?? "", database: values["dbname"] ?? values["user"] ?? "")
        }
    }

    private static func count(_ list: String?) -> Int {
        list.map { $0.split(separator: ",", omittingEmptySubsequences: false).count } ?? 0
    }

    private static func values(of options: UnsafeMutablePointer<tabstore_pq_conninfo_option>) -> [String: String] {
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return values
    }

    /// `text` with the password left out of its user info and its query (`password=` and
    /// `sslpassword=`, however their names are percent-encoded). Works on malformed URLs too.
    package static func withoutPassword(_ text: String) -> String {
        let parts = URLParts(text)
        return parts.scheme + parts.user + (parts.hasUserInfo ? "@" : "") + parts.rest
            + (parts.query.map { query in
                let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { !isSecret($0) }
                return kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
            } ?? "")
    }

    /// Every password-like value written in `text`, raw and percent-decoded.
    static func passwords(in text: String) -> [String] {
        let parts = URLParts(text)
        var found = parts.password.map { [$0] } ?? []
        for parameter in (parts.query ?? "").split(separator: "&") where isSecret(parameter) {
            if let equals = parameter.firstIndex(of: "=") { found.append(String(parameter[parameter.index(after: equals)...])) }
        }
        found += found.compactMap(percentDecoded)
        return found.filter { !$0.isEmpty }
    }

    /// A query parameter that holds a password, or whose name cannot be decoded (and so might).
    private static func isSecret(_ parameter: Substring) -> Bool {
        let name = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let decoded = percentDecoded(String(name)) else { return true }
        return decoded == "password" || decoded == "sslpassword"
    }
}

/// A URL cut where libpq cuts it: user info runs to an `@` met before any `/`.
private struct URLParts {
    var scheme = ""
    var user = ""
    var password: String?
    var hasUserInfo = false
    /// Hosts, ports and database path.
    var rest = ""
    var query: String?

    init(_ text: String) {
        var remainder = Substring(text)
        if let range = text.firstRange(of: "://") {
            scheme = String(text[..<range.upperBound])
            remainder = text[range.upperBound...]
        } else if let colon = text.firstIndex(of: ":"), ["postgres", "postgresql"].contains(text[..<colon].lowercased()) {
            // A scheme without its `//` (`postgres:u:pw@h/db`): what follows is still user info.
            scheme = String(text[...colon])
            remainder = text[text.index(after: colon)...]
        }
        if let end = remainder.firstIndex(where: { $0 == "@" || $0 == "/" }), remainder[end] == "@" {
            hasUserInfo = true
            let info = remainder[..<end]
            if let colon = info.firstIndex(of: ":") {
                user = String(info[..<colon])
                password = String(info[info.index(after: colon)...])
            } else {
                user = String(info)
            }
            remainder = remainder[remainder.index(after: end)...]
        }
        if let mark = remainder.firstIndex(of: "?") {
            query = String(remainder[remainder.index(after: mark)...])
            remainder = remainder[..<mark]
        }
        rest = String(remainder)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// `postgresql://user@host:port/database`, each part percent-encoded where a URL needs it.
/// Several hosts (`h1,h2`) pair with their ports as libpq pairs them.
func serverName(user: String, host: String, port: String, database: String) -> String {
    let hosts = host.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let ports = port.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let addresses = hosts.enumerated().map { index, host -> String in
        let shownHost = host.contains(":") ? "[" + host + "]" : percentEncoded(host)
        let port = ports.count == hosts.count ? ports[index] : (ports.first ?? "")
        return port.isEmpty ? shownHost : shownHost + ":" + port
    }
    return "postgresql://" + percentEncoded(user) + "@" + addresses.joined(separator: ",") + "/" + percentEncoded(database)
}

private func percentEncoded(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            result.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            result += "%" + (hex.count == 1 ? "0" + hex : hex)
        }
    }
    return result
}

/// nil when `text` holds a `%` not followed by two hex digits, or decodes to invalid UTF-8.
private func percentDecoded(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8)[...]
    while let byte = iterator.popFirst() {
        guard byte == UInt8(ascii: "%") else {
            bytes.append(byte)
            continue
        }
        guard iterator.count >= 2,
              let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16) else { return nil }
        bytes.append(value)
        iterator = iterator.dropFirst(2)
    }
    return String(validating: bytes, as: UTF8.self)
}

/// The first line of a libpq message, without its trailing blanks.
func firstLine(_ message: String) -> String {
    let line = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    return String(line.reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
}

/// `message` with any of `secrets` inside its quoted parts (where libpq quotes what it was
/// given) replaced by `<password>`.
func hidingSecrets(_ message: String, _ secrets: [String]) -> String {
    let sorted = secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    guard sorted.contains(where: { message.contains($0) }) else { return message }
    var pieces = message.split(separator: "\"", omittingEmptySubsequences: false).map(String.init)
    for index in pieces.indices where index % 2 == 1 {
        for secret in sorted { pieces[index] = pieces[index].replacing(secret, with: "<password>") }
    }
    let hidden = pieces.joined(separator: "\"")
    // Still showing outside quotes: say less rather than leak it (a short secret matching
    // libpq's own words is a coincidence, not a leak).
    let leaked = sorted.contains { $0.count >= 4 && hidden.contains($0) }
    return leaked ? "libpq refused it (its message quotes the password)" : hidden
}
