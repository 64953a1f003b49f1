/// Whether output to `descriptor` may carry escape codes (bold, underline): only on a
/// terminal that understands them, so not when `TERM=dumb` (Emacs shells, some CI logs)
/// and not when `NO_COLOR` is set to anything but the empty string (no-color.org).
func allowsEscapeCodes(on descriptor: Int32, environment: Environment) -> Bool {
    let noColor = environment.value("NO_COLOR").map { !$0.isEmpty } ?? false
    return !noColor && environment.value("TERM") != "dumb" && isTerminal(descriptor)
}
