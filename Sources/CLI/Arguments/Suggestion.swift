/// "Did you mean": the known name nearest to a mistyped one, as git and
/// swift-argument-parser answer an unknown command.
enum Suggestion {
    /// The candidate within a small edit distance of `typed`, ignoring case (one edit for
    /// names of up to four characters, two for longer ones); the first in `candidates`
    /// order on a tie; `nil` when none is that close.
    static func nearest(to typed: String, in candidates: [String]) -> String? {
        let limit = typed.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        // Case is not a letter apart: 'LIST' and '--JSON' are 'list' and '--json' typed
        // with caps lock on, whatever their length.
        let folded = Array(typed.lowercased())
        for candidate in candidates {
            let distance = editDistance(folded, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// `; did you mean 'list'?`, or nothing.
    static func clause(for typed: String, in candidates: [String]) -> String {
        nearest(to: typed, in: candidates).map { "; did you mean \(shown($0))?" } ?? ""
    }

    /// Insertions, deletions, substitutions and swaps of two neighbours, one each
    /// ("selcet" is one swap from "select").
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the usual table: the swap looks two rows back.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], twoBack[j - 2] + 1)
                }
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
