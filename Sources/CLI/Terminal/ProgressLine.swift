#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress line on standard error for long work: `import` now; `export --output` and
/// `backup` can use it the same way.
///
/// Drawn only when standard error is a terminal and not with `--json`, and only once the
/// work has run `delay` (about half a second), so quick work prints nothing. Redrawn at
/// most every `interval` with a carriage return and spaces, never escape codes (fine
/// with `TERM=dumb` and `NO_COLOR`), and erased by `finish()` before the result is printed.
final class ProgressLine {
    private let label: String
    private let unit: String
    private let write: ((String) -> Void)?
    private let interval: Duration
    private let clock = ContinuousClock()
    private var nextDraw: ContinuousClock.Instant
    private var drawnWidth = 0

    /// `label` starts the line (`import`), `unit` names what is counted (`tabs`); `write`
    /// is `nil` when nothing is to be drawn.
    init(label: String, unit: String, delay: Duration = .milliseconds(500), interval: Duration = .milliseconds(100),
         write: ((String) -> Void)?) {
        self.label = label
        self.unit = unit
        self.write = write
        self.interval = interval
        nextDraw = clock.now.advanced(by: delay)
    }

    /// Draws on standard error when it is a terminal and `json` is false; started now.
    static func onStandardError(label: String, unit: String, json: Bool) -> ProgressLine {
        let drawn = !json && isTerminal(STDERR_FILENO)
        return ProgressLine(label: label, unit: unit, write: drawn ? { ProcessOutput.printStandardError($0) } : nil)
    }

    /// `import: 120000/500000 tabs (24%)`, when it is time to draw.
    func update(_ done: Int, of total: Int) {
        guard let write else { return }
        let now = clock.now
        guard now >= nextDraw else { return }
        nextDraw = now.advanced(by: interval)
        let percent = total > 0 ? done * 100 / total : 100
        let text = "\(label): \(done)/\(total) \(unit) (\(percent)%)"
        write("\r" + text + String(repeating: " ", count: max(0, drawnWidth - text.count)))
        drawnWidth = text.count
    }

    /// Erases the line, if one was drawn, leaving the cursor at the start of it.
    func finish() {
        guard let write, drawnWidth > 0 else { return }
        write("\r" + String(repeating: " ", count: drawnWidth) + "\r")
        drawnWidth = 0
    }
}
