import TabStoreSQLite
import Foundation

enum Unit: String, Sendable {
    case perSecond = "/s"
    case milliseconds = "ms"
    case mebibytes = "MiB"
    /// Requests a call waited for the server's answer to.
    case roundTrips = "round trips"
    /// Times a process's threads were woken, per second.
    case wakeupsPerSecond = "wake-ups/s"
}

/// Which way a row's ratio is taken; each is chosen so the target reads as docs/Performance.md states it.
enum RatioOrder: Sendable {
    /// tabstore ÷ peer: throughput shares, time and memory multiples.
    case tabstoreOverPeer
    /// peer ÷ tabstore: "import at least 0.7 of raw" compares times, faster is higher.
    case peerOverTabstore
    /// The row has a target on its own value only.
    case none
    /// tabstore ÷ peer taken run by run, alternating, and the median of those: a drift in
    /// the machine's speed moves both runs of a pair (whole processes).
    case paired(Double?)
}

/// A row's bound, on the ratio or on the tabstore value itself.
struct Target: Sendable {
    enum Subject: String, Sendable { case ratio, value }
    let subject: Subject
    let isMaximum: Bool
    let bound: Double

    static func ratio(atLeast bound: Double) -> Target { Target(subject: .ratio, isMaximum: false, bound: bound) }
    static func ratio(atMost bound: Double) -> Target { Target(subject: .ratio, isMaximum: true, bound: bound) }
    static func value(atMost bound: Double) -> Target { Target(subject: .value, isMaximum: true, bound: bound) }

    func text(unit: Unit) -> String {
        let sign = isMaximum ? "≤" : "≥"
        switch subject {
        case .ratio: return "ratio \(sign) \(trimmed(bound))"
        case .value: return "\(sign) \(trimmed(bound)) \(unit.rawValue)"
        }
    }

    func isMet(value: Double?, ratio: Double?) -> Bool? {
        guard let measured = subject == .ratio ? ratio : value, measured.isFinite else { return nil }
        return isMaximum ? measured <= bound : measured >= bound
    }
}

/// One line of the table: a tabstore figure, the peer it is compared with, the target.
struct Row: Sendable {
    let key: String
    let figure: String
    let unit: Unit
    let tabstore: Double?
    let peer: Double?
    let peerName: String?
    let ratio: Double?
    /// `nil` for reference rows ("a bare Swift process alone is about ...").
    let target: Target?
    /// Why a value is missing, or what the reader must know to read it.
    let note: String?

    init(
        _ key: String, _ figure: String, unit: Unit, tabstore: Double?, peer: Double? = nil, peerName: String? = nil,
        ratio order: RatioOrder = .tabstoreOverPeer, target: Target?, note: String? = nil
    ) {
        self.key = key
        self.figure = figure
        self.unit = unit
        self.tabstore = tabstore
        self.peer = peer
        self.peerName = peerName
        switch (order, tabstore, peer) {
        case let (.tabstoreOverPeer, mine?, theirs?) where theirs > 0: ratio = mine / theirs
        case let (.peerOverTabstore, mine?, theirs?) where mine > 0: ratio = theirs / mine
        case let (.paired(median), _?, _?): ratio = median
        default: ratio = nil
        }
        self.target = target
        self.note = note
    }

    /// A row whose measurement could not be made; the table still shows it, with why.
    static func missing(_ key: String, _ figure: String, unit: Unit, target: Target?, because note: String) -> Row {
        Row(key, figure, unit: unit, tabstore: nil, target: target, note: note)
    }

    var met: Bool? { target?.isMet(value: tabstore, ratio: ratio) }
}

/// What the table's header says about where the numbers come from.
struct RunFacts: Sendable {
    let quick: Bool
    let folder: String
    let folderIsTmpfs: Bool
    let seconds: Double

    var sqliteVersion: String { String(cString: sqlite3_libversion()) }
    var cpus: Int { ProcessInfo.processInfo.activeProcessorCount }
}

enum Report {
    /// The ratio to two decimals, or to three where two would round it across its bound
    /// (0.8953 against "ratio ≥ 0.9" reads 0.895, not a 0.90 marked not met).
    static func shownRatio(_ ratio: Double, target: Target?) -> String {
        let twoDecimals = String(format: "%.2f", ratio)
        guard let target, let shown = Double(twoDecimals),
              target.isMet(value: nil, ratio: shown) != target.isMet(value: nil, ratio: ratio) else { return twoDecimals }
        return String(format: "%.3f", ratio)
    }

    /// A Markdown table, readable as plain text too; notes follow it, numbered.
    static func table(_ rows: [Row], facts: RunFacts) -> String {
        var notes: [String] = []
        let body = rows.map { row -> [String] in
            var figure = row.figure
            if let note = row.note {
                // Rows that fail for the same reason share one note.
                if !notes.contains(note) { notes.append(note) }
                figure += " [\(notes.firstIndex(of: note)! + 1)]"
            }
            let peer = row.peer.map { format($0, row.unit) + (row.peerName.map { " \($0)" } ?? "") } ?? "—"
            let met = row.tabstore == nil ? "not measured"
                : row.target == nil ? "(reference)" : row.met.map { $0 ? "yes" : "NO" } ?? "not measured"
            return [
                figure, row.tabstore.map { format($0, row.unit) } ?? "—", peer,
                row.ratio.map { shownRatio($0, target: row.target) } ?? "—",
                row.target?.text(unit: row.unit) ?? "—", met,
            ]
        }
        let header = ["figure", "tabstore", "peer", "ratio", "target", "met"]
        let widths = header.indices.map { column in
            ([header] + body).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        var lines = [
            "TabStoreBench\(facts.quick ? " --quick" : ""): SQLite \(facts.sqliteVersion), \(facts.cpus) CPUs, "
                + "files in \(facts.folder)\(facts.folderIsTmpfs ? " (tmpfs: fsync is free, FULL figures are flattering)" : ""), "
                + String(format: "%.0f s", facts.seconds),
            "",
            line(header),
            "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|",
        ]
        lines += body.map(line)
        lines += ["", summary(rows)]
        if !notes.isEmpty {
            lines.append("")
            lines += notes.enumerated().map { "[\($0.offset + 1)] \($0.element)" }
        }
        return lines.joined(separator: "\n")
    }

    /// `12 of 15 targets met, 3 not met.`, naming the unmeasured ones' count too.
    static func summary(_ rows: [Row]) -> String {
        let targeted = rows.filter { $0.target != nil }
        let met = targeted.filter { $0.met == true }.count
        let unmet = targeted.filter { $0.met == false }.count
        let unmeasured = targeted.count - met - unmet
        var text = "\(met) of \(targeted.count) targets met"
        if unmet > 0 { text += ", \(unmet) not met" }
        if unmeasured > 0 { text += ", \(unmeasured) not measured" }
        return text + "."
    }

    /// One JSON object: the run's facts and every row with its figures, ratio and target.
    static func json(_ rows: [Row], facts: RunFacts) -> String {
        let document = JSONDocument(
            quick: facts.quick, sqliteVersion: facts.sqliteVersion, cpus: facts.cpus,
            folderIsTmpfs: facts.folderIsTmpfs, seconds: rounded(facts.seconds), summary: summary(rows),
            rows: rows.map(JSONRow.init)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A value with the digits that mean something at its size.
    static func format(_ value: Double, _ unit: Unit) -> String {
        switch unit {
        case .perSecond:
            return grouped(Int(value.rounded())) + "/s"
        case .milliseconds:
            let digits = value < 0.1 ? 4 : value < 1 ? 3 : value < 10 ? 2 : value < 100 ? 1 : 0
            return String(format: "%.\(digits)f ms", value)
        case .mebibytes:
            return String(format: "%.1f MiB", value)
        case .roundTrips:
            return String(Int(value.rounded()))
        case .wakeupsPerSecond:
            return String(format: "%.2f wake-ups/s", value)
        }
    }
}

private struct JSONDocument: Encodable {
    let quick: Bool
    let sqliteVersion: String
    let cpus: Int
    let folderIsTmpfs: Bool
    let seconds: Double
    let summary: String
    let rows: [JSONRow]
}

/// A row as JSON: absent values are `null`, never left out, so every row has every key.
private struct JSONRow: Encodable {
    let row: Row

    enum CodingKeys: String, CodingKey {
        case key, figure, unit, tabstore, peer, peerName, ratio, target, met, note
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(row.key, forKey: .key)
        try container.encode(row.figure, forKey: .figure)
        try container.encode(row.unit.rawValue, forKey: .unit)
        try container.encode(row.tabstore.map(rounded), forKey: .tabstore)
        try container.encode(row.peer.map(rounded), forKey: .peer)
        try container.encode(row.peerName, forKey: .peerName)
        try container.encode(row.ratio.map(rounded), forKey: .ratio)
        try container.encode(row.target.map { JSONTarget(target: $0, unit: row.unit) }, forKey: .target)
        try container.encode(row.met, forKey: .met)
        try container.encode(row.note, forKey: .note)
    }
}

/// `{"subject": "ratio", "comparison": "<=", "bound": 1.5, "text": "ratio ≤ 1.5"}`.
private struct JSONTarget: Encodable {
    let subject: String
    let comparison: String
    let bound: Double
    let text: String

    init(target: Target, unit: Unit) {
        subject = target.subject.rawValue
        comparison = target.isMaximum ? "<=" : ">="
        bound = target.bound
        text = target.text(unit: unit)
    }
}

/// Four significant digits: more would be noise, and noise in a diff.
private func rounded(_ value: Double) -> Double {
    guard value.isFinite, value != 0 else { return value }
    let scale = pow(10, 3 - floor(log10(abs(value))))
    return (value * scale).rounded() / scale
}

/// `73,012`: thousands grouped the same way whatever the locale.
private func grouped(_ number: Int) -> String {
    var digits = String(number)
    var index = digits.endIndex
    while digits.distance(from: digits.startIndex, to: index) > 3 {
        index = digits.index(index, offsetBy: -3)
        digits.insert(",", at: index)
    }
    return digits
}

/// `0.8`, `20`, `1.5`: a bound as written in the issue; one that is measured (another
/// row's figure) to at most three decimals.
private func trimmed(_ value: Double) -> String {
    let thousandths = (value * 1000).rounded() / 1000
    return thousandths == thousandths.rounded() ? String(Int(thousandths)) : String(thousandths)
}
