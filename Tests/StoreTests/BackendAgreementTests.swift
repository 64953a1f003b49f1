import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// What a file accepts, a server accepts, and the other way round: the same calls with
/// the same text (NUL, controls, bidirectional marks, noncharacters, long and combining
/// text) give the same outcome on both backends, so a file's export always imports into
/// a server. A server once refused a whole import for a NUL in a payload a file took.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct BackendAgreementTests {
    /// Pieces the generated text is made of: each a kind of text one backend could treat
    /// differently from the other.
    static let pieces = [
        "a", "Tab", "é", "e\u{301}", "홈", "😀", "1", "-1", " ", "\t", "\u{0}", "\u{1}", "\u{7F}", "\u{85}", "\u{200B}",
        "\u{202E}", "\u{2028}", "\u{FEFF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}", "\"", "'", "\\", ",", ":", "=",
        "%", "{", "}", "[", "NULL", "\r\n", String(repeating: "x", count: 250), String(repeating: "ü", count: 130),
    ]

    /// Text of zero to three pieces.
    static func text(_ random: inout SplitMix64) -> String {
        (0..<random.below(4)).map { _ in pieces[random.below(pieces.count)] }.joined()
    }

    /// One call, to be made on both stores.
    enum Call {
        case add(titles: [String], set: String, payload: [String: String])
        case setPayload([String: String], set: String)
        case rename(title: String, set: String)
        case renameSet(String, to: String)
        case importSet(TabStoreDocument.Entry)

        static func random(_ random: inout SplitMix64, sets: [String]) -> Call {
            let set = sets.isEmpty || random.below(3) == 0 ? BackendAgreementTests.text(&random) : sets[random.below(sets.count)]
            let payload = random.below(2) == 0 ? [:] : [BackendAgreementTests.text(&random): BackendAgreementTests.text(&random)]
            switch random.below(5) {
            case 0: return .add(titles: [BackendAgreementTests.text(&random), BackendAgreementTests.text(&random)], set: set, payload: payload)
            case 1: return .setPayload(payload, set: set)
            case 2: return .rename(title: BackendAgreementTests.text(&random), set: set)
            case 3: return .renameSet(set, to: BackendAgreementTests.text(&random))
            default:
                let titles = [BackendAgreementTests.text(&random), BackendAgreementTests.text(&random)]
                return .importSet(.init(name: set, selectedIndex: 1, tabs: titles, payloads: [payload, [:]]))
            }
        }

        /// What the call did: nothing thrown, or the error.
        func outcome(on store: TabStore) -> TabStoreError? {
            thrownError { () throws(TabStoreError) in
                switch self {
                case let .add(titles, set, payload): try store.add(titles, to: set, payload: payload, creatingSet: true)
                case let .setPayload(payload, set): try store.setPayload(payload, for: .index(0), in: set)
                case let .rename(title, set): try store.rename(.index(-1), to: title, in: set)
                case let .renameSet(set, name): try store.renameSet(set, to: name)
                case let .importSet(entry): try store.importDocument(TabStoreDocument(sets: [entry]), replace: true)
                }
            }
        }
    }

    /// The stores' contents without their ids (each store makes its own).
    private func contents(_ store: TabStore) throws -> [TabStoreDocument.Entry] {
        try store.export().sets.map { entry in
            var entry = entry
            entry.ids = nil
            return entry
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aFileAndAServerAcceptAndRefuseTheSameCalls(seed: UInt64) throws {
        let file = try StoreBackend.sqlite.makeStore()
        let server = try StoreBackend.postgres.makeStore()
        var random = SplitMix64(seed: seed)
        for _ in 0..<150 {
            let call = Call.random(&random, sets: try file.tabSets().map(\.name))
            let onFile = call.outcome(on: file)
            let onServer = call.outcome(on: server)
            #expect(onFile == onServer, "\(String(reflecting: call))")
            guard onFile == onServer else { return }
        }
        #expect(try contents(file) == contents(server))
        // What the file holds imports into a new server database as it is.
        let copy = try StoreBackend.postgres.makeStore()
        try copy.importDocument(try file.export())
        #expect(try contents(copy) == contents(file))
    }

    @Test func aNulInATabsDataIsRefusedByEveryBackendNamingWhere() throws {
        for backend in StoreBackend.allCases {
            let store = try backend.makeStore()
            try store.add(["a"], to: "s", creatingSet: true)
            #expect(thrownError { () throws(TabStoreError) in try store.setPayload(["k\u{0}": "v"], for: .index(0), in: "s") }
                == TabStoreError(.payloadContainsNUL(key: "k\u{0}", inValue: false)), "\(backend)")
            #expect(thrownError { () throws(TabStoreError) in try store.add(["b"], to: "s", payload: ["k": "v\u{0}"]) }
                == TabStoreError(.payloadContainsNUL(key: "k", inValue: true)), "\(backend)")
            let document = TabStoreDocument(sets: [.init(name: "t", selectedIndex: 0, tabs: ["x"], payloads: [["route": "/a\u{0}"]])])
            let refused = thrownError { () throws(TabStoreError) in try store.importDocument(document) }
            #expect(refused == TabStoreError(.invalidDocument(reason: #"sets[0].payloads[0]: the value of tab data key "route" contains a NUL character (U+0000), which no database of tabstore's can store"#)))
            #expect(try store.export().sets.map(\.name) == ["s"])
            #expect(try store.tabSet(named: "s").tabs.map(\.payload) == [[:]])
        }
    }
}
