import Testing
import TabStoreTestSupport
@testable import TabStoreCLI

@Suite struct JSONFuzzTests {
    static let seeds: [[UInt8]] = [
        #"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":["x","홈","😀"]}]}"#,
        #"[1,-0.5,2e10,true,false,null,"\u00e9\ud83d\ude00\n",[],{}]"#,
        #"{"a":{"b":[[],{"c":"x\"y\\z"}]},"d":-12.5E-3}"#,
        #" "홈 화면" "#,
        "12345678901234567890",
    ].map { Array($0.utf8) }

    /// Bytes that steer mutations toward the parser's interesting branches.
    static let interesting: [UInt8] = Array(#"{}[]",:\ u0123456789abcdefABCDEF.-+eEtrufalsn/"#.utf8)
        + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xFF]

    func randomByte(_ random: inout SplitMix64) -> UInt8 {
        random.below(2) == 0
            ? Self.interesting[random.below(Self.interesting.count)]
            : UInt8(truncatingIfNeeded: random.next())
    }

    func mutate(_ seed: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        for _ in 0...random.below(3) {
            let position = random.below(bytes.count + 1)
            switch random.below(5) {
            case 0 where position < bytes.count: bytes[position] = randomByte(&random)
            case 1 where position < bytes.count: bytes[position] ^= 1 << UInt8(random.below(8))
            case 2: bytes.insert(randomByte(&random), at: position)
            case 3 where position < bytes.count: bytes.remove(at: position)
            default: bytes.removeLast(bytes.count - position)  // truncation
            }
        }
        return bytes
    }

    @Test func anyInputParsesAndRoundTripsOrFailsWithAnOffsetInRange() {
        var random = SplitMix64(seed: 20_240_601)
        var parsed = 0, failed = 0
        var problems: [String] = []
        for round in 0..<12_000 {
            let input: [UInt8]
            if round % 4 == 0 {
                input = (0..<random.below(24)).map { _ in randomByte(&random) }
            } else {
                input = mutate(Self.seeds[random.below(Self.seeds.count)], &random)
            }
            do {
                let value = try JSONValue.parse(input)
                parsed += 1
                for pretty in [false, true] {
                    let text = value.rendered(pretty: pretty)
                    if (try? JSONValue.parse(text.utf8)) != value {
                        problems.append("round trip of \(input) via \(text)")
                    }
                }
            } catch {
                failed += 1
                if !(0...input.count).contains(error.offset) || error.reason.isEmpty {
                    problems.append("\(error) for \(input)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(3))")
        #expect(parsed > 500)
        #expect(failed > 1_000)
    }
}
