import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// `info` flags a payload column that is not what tabstore writes: every payload the rules
/// take packs to text it accepts and reads back the same, and every other text is flagged
/// exactly when reading it back and packing it again would not give it.
@Suite struct StoredPayloadTests {
    /// Keys and values of the kinds apps store, with the bytes the packing counts.
    static let pieces = ["", "k", "route", "/store/1", "é", "e\u{301}", "a:b", "12:", "🙂", "tab 7"]

    @Test(arguments: 0..<8)
    func whatTheRulesTakePacksToTextThatIsAccepted(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<200 {
            var payload: [String: String] = [:]
            for _ in 0..<random.below(5) {
                let key = Self.pieces[1 + random.below(Self.pieces.count - 1)]
                payload[key] = Self.pieces[random.below(Self.pieces.count)]
            }
            let text = packPayload(payload)
            #expect(isStoredPayload(text), "\(String(describing: text))")
            #expect(samePayload(unpackPayload(text), payload))
        }
    }

    @Test(arguments: 0..<8)
    func anyOtherTextIsFlagged(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("0123:kv\u{0}é")
        for _ in 0..<500 {
            let text = String((0..<random.below(13)).map { _ in alphabet[random.below(alphabet.count)] })
            // Compared byte for byte: canonically equivalent text is other text.
            let readBack = packPayload(unpackPayload(text)).map { Array($0.utf8) }
            let payloadIsValid = (try? validPayload(unpackPayload(text))) != nil
            #expect(isStoredPayload(text) == (readBack == Array(text.utf8) && payloadIsValid), "\(text.debugDescription)")
        }
        #expect(isStoredPayload(nil))
        #expect(!isStoredPayload(""))
        #expect(!isStoredPayload("1:k5:v"))
        #expect(!isStoredPayload("0:1:v"))
        #expect(!isStoredPayload("1:b1:v1:a1:v"))
        // Two keys a dictionary takes for one: no payload tabstore holds packs to it.
        #expect(!isStoredPayload("3:e\u{301}1:w2:é1:v"))
        #expect(isStoredPayload("3:e\u{301}1:w"))
    }
}
