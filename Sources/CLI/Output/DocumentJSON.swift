import TabStoreKit

/// The text of a `tabstore export` file: `TabStoreDocument` as JSON, read and written
/// here, without Foundation. What is about the text (a byte order mark, syntax, keys,
/// types, the format and version header) is checked here; what is about the content
/// (names, titles, selection, a set twice) by `TabStoreDocument.validate()`.
///
/// The keys are those of `TabStoreDocument`'s `Codable` form, so a file written by an
/// app with `JSONEncoder` imports here and an export decodes there.
extension TabStoreDocument {
    /// Reads and checks a document.
    ///
    /// - Throws: `TabStoreError.Code.invalidDocument` naming the first problem and where it is.
    package init(json bytes: [UInt8]) throws(TabStoreError) {
        if let encoding = wideEncoding(of: bytes) {
            throw TabStoreError(.invalidDocument(reason: "it is \(encoding) text; tabstore reads UTF-8 (convert it, for example with iconv -f \(encoding) -t UTF-8)"))
        }
        let root: JSONValue
        do {
            // Editors on some systems start a UTF-8 file with a byte order mark.
            let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
            root = try JSONValue.parse(bytes.starts(with: byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes)
        } catch {
            throw TabStoreError(.invalidDocument(reason: "not valid JSON at \(error)"))
        }
        let members = try DocumentReader.object(root, at: "the document", keys: ["format", "version", "sets"])
        guard case .string(Self.format)? = members["format"] else {
            throw TabStoreError(.invalidDocument(reason: "\"format\" must be \"\(Self.format)\""))
        }
        guard case let .int(version)? = members["version"], Self.readableVersions.contains(version) else {
            if case let .int(version)? = members["version"], version > Self.readableVersions.upperBound {
                throw TabStoreError(.invalidDocument(reason: "\"version\" \(version) is from a newer tabstore (this one reads 1 or 2); upgrade tabstore"))
            }
            throw TabStoreError(.invalidDocument(reason: "\"version\" must be 1 or 2"))
        }
        guard case let .array(sets)? = members["sets"] else {
            throw TabStoreError(.invalidDocument(reason: "\"sets\" must be an array"))
        }
        var entries: [Entry] = []
        for (index, value) in sets.enumerated() {
            entries.append(try DocumentReader.entry(value, at: "sets[\(index)]", version: version))
        }
        self.init(sets: entries)
        try validate()
    }

    /// The document as JSON, pretty-printed unless told otherwise, without a final newline.
    package func json(pretty: Bool = true) -> String {
        let sets = sets.map { entry -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [
                ("name", .string(entry.name)),
                ("selectedIndex", JSONOutput.optional(entry.selectedIndex)),
                ("tabs", .array(entry.tabs.map(JSONValue.string))),
            ]
            if let ids = entry.ids { members.append(("ids", .array(ids.map { .string($0.uuidString) }))) }
            if let payloads = entry.payloads {
                members.append(("payloads", .array(payloads.map { payload in
                    .object(payload.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, .string(payload[$0]!)) })
                })))
            }
            return .object(members)
        }
        let document: JSONValue = .object([
            ("format", .string(Self.format)),
            ("version", .int(Self.version)),
            ("sets", .array(sets)),
        ])
        return document.rendered(pretty: pretty)
    }
}

/// Reads the parts of a document's JSON, naming where a problem is.
private enum DocumentReader {
    /// The members of an object that has exactly the allowed `keys` (no unknown, none twice).
    static func object(
        _ value: JSONValue, at place: String, keys: [String], optionalKeys: [String] = []
    ) throws(TabStoreError) -> [String: JSONValue] {
        guard case let .object(members) = value else {
            throw TabStoreError(.invalidDocument(reason: "\(place) must be an object, not \(value.typeName)"))
        }
        var result: [String: JSONValue] = [:]
        for (key, member) in members {
            guard keys.contains(key) || optionalKeys.contains(key) else {
                throw TabStoreError(.invalidDocument(reason: "\(place): unknown key \(quoted(key))"))
            }
            guard result.updateValue(member, forKey: key) == nil else {
                throw TabStoreError(.invalidDocument(reason: "\(place): key \(quoted(key)) appears twice"))
            }
        }
        for key in keys where result[key] == nil {
            throw TabStoreError(.invalidDocument(reason: "\(place): missing \(quoted(key))"))
        }
        return result
    }

    /// One set's members with the types the document needs; its content is checked later.
    /// Version 1 has titles only; version 2 may add `ids` and `payloads`.
    static func entry(_ value: JSONValue, at place: String, version: Int) throws(TabStoreError) -> TabStoreDocument.Entry {
        let keys = ["name", "selectedIndex", "tabs"]
        let members = try object(value, at: place, keys: keys, optionalKeys: version == 1 ? [] : ["ids", "payloads"])
        guard case let .string(name)? = members["name"] else {
            throw TabStoreError(.invalidDocument(reason: "\(place).name must be a string"))
        }
        guard case let .array(tabValues)? = members["tabs"] else {
            throw TabStoreError(.invalidDocument(reason: "\(place).tabs must be an array of titles"))
        }
        var tabs: [String] = []
        for (index, tabValue) in tabValues.enumerated() {
            guard case let .string(title) = tabValue else {
                throw TabStoreError(.invalidDocument(reason: "\(place).tabs[\(index)] must be a string, not \(tabValue.typeName)"))
            }
            tabs.append(title)
        }
        let selectedIndex: Int?
        switch members["selectedIndex"] {
        case .null?: selectedIndex = nil
        case let .int(index)?: selectedIndex = index
        // An integer too large for Int is read as a double: out of range for any set, as
        // the check of the index then says.
        case let .double(value)? where value.magnitude >= 0x1p63: selectedIndex = value < 0 ? .min : .max
        default:
            throw TabStoreError(.invalidDocument(reason: "\(place).selectedIndex must be an integer or null, not \(members["selectedIndex"]?.typeName ?? "missing")"))
        }
        var ids: [TabID]?
        if let idValues = members["ids"] {
            guard case let .array(values) = idValues else { throw TabStoreError(.invalidDocument(reason: "\(place).ids must be an array of tab ids")) }
            ids = []
            for (index, value) in values.enumerated() {
                guard case let .string(text) = value, let id = TabID(text) else {
                    throw TabStoreError(.invalidDocument(reason: "\(place).ids[\(index)] must be a tab id (a UUID string)"))
                }
                ids?.append(id)
            }
        }
        var payloads: [[String: String]]?
        if let payloadValues = members["payloads"] {
            guard case let .array(values) = payloadValues else { throw TabStoreError(.invalidDocument(reason: "\(place).payloads must be an array of objects")) }
            payloads = []
            for (index, value) in values.enumerated() {
                guard case let .object(pairs) = value else {
                    throw TabStoreError(.invalidDocument(reason: "\(place).payloads[\(index)] must be an object, not \(value.typeName)"))
                }
                var payload: [String: String] = [:]
                for (key, member) in pairs {
                    guard case let .string(text) = member else {
                        throw TabStoreError(.invalidDocument(reason: "\(place).payloads[\(index)].\(quoted(key)) must be a string, not \(member.typeName)"))
                    }
                    guard payload.updateValue(text, forKey: key) == nil else {
                        throw TabStoreError(.invalidDocument(reason: "\(place).payloads[\(index)]: key \(quoted(key)) appears twice"))
                    }
                }
                payloads?.append(payload)
            }
        }
        return TabStoreDocument.Entry(name: name, selectedIndex: selectedIndex, tabs: tabs, ids: ids, payloads: payloads)
    }
}

/// `"key"`, shortened as the library's messages quote names; made visible when the
/// error is shown to a person.
private func quoted(_ text: String) -> ErrorMessage.Name {
    ErrorMessage.Name(text, limit: 60)
}

/// `UTF-16LE`, `UTF-16BE`, `UTF-32LE` or `UTF-32BE` when `bytes` are text in one of
/// those (by its byte order mark, or by the zero bytes an ASCII character has in them,
/// as JSON starts with one), `nil` else. Such a file is valid JSON to many editors, and
/// "not valid JSON at byte 0" would not say why.
private func wideEncoding(of bytes: [UInt8]) -> String? {
    if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return "UTF-32LE" }
    if bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return "UTF-32BE" }
    if bytes.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
    if bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
    if bytes.count >= 4 {
        let zeros = bytes.prefix(4).map { $0 == 0 }
        if zeros == [false, true, true, true] { return "UTF-32LE" }
        if zeros == [true, true, true, false] { return "UTF-32BE" }
    }
    if bytes.count >= 2 {
        if bytes[0] != 0 && bytes[1] == 0 { return "UTF-16LE" }
        if bytes[0] == 0 && bytes[1] != 0 { return "UTF-16BE" }
    }
    return nil
}
