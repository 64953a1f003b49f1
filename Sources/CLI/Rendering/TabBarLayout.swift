import TabStoreKit

/// A tab bar laid out in a row of terminal columns, as an app's tab bar draws it
/// (Sources/Store/TabStoreKit.docc/SelectionRules.md, "The scroll indicator"):
/// pure layout (titles, selection and width in, lines out), no I/O.
///
/// Each tab is a cell: its title with one space of padding on each side, so titles
/// stand two columns apart. When the cells fit the width, the row is all of them.
/// When not, the row keeps its first and last columns for `‹` and `›` (drawn when tabs
/// are hidden on that side) and shows the `width - 2` columns between as a window onto
/// the cells: whole tabs only, the selected one always among them, as near the centre
/// as the ends allow (UICollectionView's `.centeredHorizontally`, without cutting a
/// tab in half). Below, the scroll indicator, computed by that rule.
///
/// Titles are drawn as every text output shows stored text (``VisibleText``): an escaped
/// character takes the columns of its escape, and a shortened title never ends inside one.
struct TabBarLayout: Sendable, Equatable {
    /// A tab as drawn in the row.
    struct Cell: Sendable, Equatable {
        let index: Int
        /// The title as shown, shortened with `…` only when it alone is wider than the window.
        let title: String
        /// The row column where the title starts (after the padding space).
        let column: Int
        /// The title's width in columns as drawn.
        let titleWidth: Int
    }

    /// The thumb of the scroll indicator, in track columns.
    struct Thumb: Sendable, Equatable {
        let start: Int
        let width: Int
    }

    enum Style: Sendable {
        /// The selected title underlined by a second line of `‾`.
        case plain
        /// The selected title bold and underlined with ANSI SGR codes; no underline line.
        case ansi
    }

    /// The narrowest row drawn; `show --width` refuses less.
    static let minimumWidth = 10
    static let leftMarker = "‹", rightMarker = "›"
    static let underlineCharacter = "‾", trackCharacter = "─", thumbCharacter = "━"

    let width: Int
    /// All cells side by side: the tab bar's `contentSize.width`.
    let contentWidth: Int
    /// The columns the cells are shown in: the tab bar's `bounds.width`. Equal to
    /// `contentWidth` when everything fits.
    let visibleWidth: Int
    /// How far the window is scrolled: the content column shown first (`contentOffset.x`).
    let offset: Int
    let selectedIndex: Int?
    /// The tabs shown, left to right.
    let cells: [Cell]
    let hidesTabsBefore: Bool
    let hidesTabsAfter: Bool
    /// `nil` when everything fits: then there is no indicator.
    let thumb: Thumb?

    /// Document 003's `widthRatio = showingWidth / allWidth`.
    var widthRatio: Double { contentWidth == 0 ? 1 : Double(visibleWidth) / Double(contentWidth) }
    /// Document 003's `leftOffsetRatio = scroll / width`.
    var leftOffsetRatio: Double { contentWidth == 0 ? 0 : Double(offset) / Double(contentWidth) }
    var scrolls: Bool { thumb != nil }

    init(titles storedTitles: [String], selectedIndex: Int?, width requestedWidth: Int) {
        width = max(requestedWidth, Self.minimumWidth)
        let titles = storedTitles.map(VisibleText.shown)
        let titleWidths = titles.map(displayWidth)
        let cellWidths = titleWidths.map { $0 + 2 }
        // starts[k] is where cell k begins in the content; starts[count] is the content width.
        var starts = [0]
        for cellWidth in cellWidths { starts.append((starts.last ?? 0) + cellWidth) }
        contentWidth = starts.last ?? 0
        self.selectedIndex = selectedIndex.flatMap { titles.indices.contains($0) ? $0 : nil }

        guard contentWidth > width, !titles.isEmpty else {
            visibleWidth = contentWidth
            offset = 0
            cells = titles.indices.map { Cell(index: $0, title: titles[$0], column: starts[$0] + 1, titleWidth: titleWidths[$0]) }
            (hidesTabsBefore, hidesTabsAfter, thumb) = (false, false, nil)
            return
        }

        let window = width - 2
        visibleWidth = window
        let selected = self.selectedIndex ?? 0
        let shown = Self.shownTabs(starts: starts, selected: selected, window: window)
        let offset = starts[shown.lowerBound]
        self.offset = offset
        cells = shown.map { index in
            // Only a selected tab alone in the window can be too wide for it.
            let title = cellWidths[index] > window ? truncated(titles[index], toWidth: window - 2) : titles[index]
            return Cell(index: index, title: title, column: 1 + starts[index] - offset + 1, titleWidth: displayWidth(title))
        }
        hidesTabsBefore = shown.lowerBound > 0
        hidesTabsAfter = shown.upperBound < titles.count
        thumb = Self.thumb(visibleWidth: window, contentWidth: contentWidth, offset: offset, trackWidth: window)
    }

    /// The whole tabs to show, the selected one among them: of the windows that start at
    /// a tab, the one that puts the selected tab's centre nearest the window's centre
    /// (the leftmost on a tie), never starting after the tab from which all the rest fit.
    private static func shownTabs(starts: [Int], selected: Int, window: Int) -> Range<Int> {
        let count = starts.count - 1
        let contentWidth = starts[count]
        // No scrolling past the end: the first tab from which everything to the right fits.
        let lastFirst = (0..<count).first { contentWidth - starts[$0] <= window } ?? count - 1
        /// The tabs from `first` on that fit the window.
        func run(from first: Int) -> Range<Int> {
            var end = first
            while end < count, starts[end + 1] - starts[first] <= window { end += 1 }
            return first..<end
        }
        var best: (tabs: Range<Int>, distance: Int)?
        var first = min(selected, lastFirst)
        // Only a window that reaches the selected tab's end shows it; walk left until none does.
        while first >= 0, starts[selected + 1] - starts[first] <= window {
            // Twice the distance between the two centres, to stay in integers.
            let distance = abs(starts[selected] + starts[selected + 1] - 2 * starts[first] - window)
            if best.map({ distance <= $0.distance }) ?? true { best = (run(from: first), distance) }
            first -= 1
        }
        // None: the selected tab alone is wider than the window; it is shown shortened.
        return best?.tabs ?? selected..<(selected + 1)
    }

    /// Document 003's indicator in whole columns: the thumb is `widthRatio` of the track
    /// (at least one column) and starts at `leftOffsetRatio` of it, kept inside the track.
    static func thumb(visibleWidth: Int, contentWidth: Int, offset: Int, trackWidth: Int) -> Thumb {
        guard contentWidth > 0, trackWidth > 0 else { return Thumb(start: 0, width: max(trackWidth, 0)) }
        let widthRatio = Double(visibleWidth) / Double(contentWidth)
        let leftOffsetRatio = Double(offset) / Double(contentWidth)
        let width = min(trackWidth, max(1, Int((widthRatio * Double(trackWidth)).rounded())))
        let start = Int((leftOffsetRatio * Double(trackWidth)).rounded())
        return Thumb(start: min(max(0, start), trackWidth - width), width: width)
    }

    /// The lines to print, without trailing spaces: the row; in plain style a line
    /// underlining the selected title; when the tabs scroll, the indicator, whose track
    /// runs under the window's columns. No lines for no tabs.
    func lines(_ style: Style) -> [String] {
        guard !cells.isEmpty else { return [] }
        var lines = [row(style)]
        if style == .plain, let selected = cells.first(where: { $0.index == selectedIndex }) {
            lines.append(String(repeating: " ", count: selected.column) + String(repeating: Self.underlineCharacter, count: selected.titleWidth))
        }
        if let thumb {
            let rest = visibleWidth - thumb.start - thumb.width
            lines.append(" " + String(repeating: Self.trackCharacter, count: thumb.start)
                + String(repeating: Self.thumbCharacter, count: thumb.width) + String(repeating: Self.trackCharacter, count: rest))
        }
        return lines
    }

    private func row(_ style: Style) -> String {
        var row = hidesTabsBefore ? Self.leftMarker : " "
        var column = 1
        for cell in cells {
            row += String(repeating: " ", count: max(0, cell.column - column))
            let isSelected = cell.index == selectedIndex
            row += style == .ansi && isSelected ? "\u{1B}[1;4m\(cell.title)\u{1B}[0m" : cell.title
            column = cell.column + cell.titleWidth
        }
        if hidesTabsAfter {
            row += String(repeating: " ", count: max(0, width - 1 - column)) + Self.rightMarker
        }
        return trimmingTrailingSpaces(row)
    }
}

/// `text` (as shown) cut to at most `width` columns, ending in `…` (after no space) when
/// cut; an escape is kept whole or left out.
func truncated(_ text: String, toWidth width: Int) -> String {
    guard displayWidth(text) > width else { return text }
    var result = ""
    var used = 0
    for piece in drawnPieces(text) {
        let columns = displayWidth(piece)
        if used + columns > width - 1 { break }
        result += piece
        used += columns
    }
    return trimmingTrailingSpaces(result) + "…"
}

/// The pieces a shown text is drawn in: each escape (`\u{1b}`, `\t`, `\\`) is one, any
/// other character one.
private func drawnPieces(_ text: String) -> [String] {
    let characters = Array(text)
    var pieces: [String] = []
    var index = 0
    while index < characters.count {
        // An escape is ASCII, a character a scalar, and at most 12 long: `\u{`, eight digits, `}`.
        if characters[index] == "\\" {
            let following = Array(characters[index...].prefix(12).flatMap(\.unicodeScalars))
            if let length = VisibleText.escapeLength(in: following, at: 0) {
                pieces.append(String(characters[index..<index + length]))
                index += length
                continue
            }
        }
        pieces.append(String(characters[index]))
        index += 1
    }
    return pieces
}

func trimmingTrailingSpaces(_ text: String) -> String {
    var text = text
    while text.last == " " { text.removeLast() }
    return text
}
