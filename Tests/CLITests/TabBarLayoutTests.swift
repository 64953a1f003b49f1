import Testing
@testable import TabStoreCLI

@Suite struct TabBarLayoutTests {
    static let nine = ["Home", "All menu", "Reviews", "Photos", "Map", "Info", "Q&A", "Coupons", "Delivery"]

    @Test func tabsThatFitAreDrawnWhole() {
        let layout = TabBarLayout(titles: ["Home", "All menu", "Reviews"], selectedIndex: 1, width: 80)
        #expect(layout.lines(.plain) == [" Home  All menu  Reviews", "       ‾‾‾‾‾‾‾‾"])
        #expect(layout.contentWidth == 25 && layout.visibleWidth == 25 && layout.offset == 0)
        #expect(layout.widthRatio == 1 && layout.leftOffsetRatio == 0 && !layout.scrolls)
    }

    @Test func exactlyFittingDoesNotScroll() {
        let layout = TabBarLayout(titles: ["Home", "All menu", "Reviews"], selectedIndex: 0, width: 25)
        #expect(!layout.scrolls && layout.cells.count == 3)
        #expect(TabBarLayout(titles: ["Home", "All menu", "Reviews"], selectedIndex: 0, width: 24).scrolls)
    }

    @Test func ratiosAreDocument003s() {
        // Cells: Home 6, All menu 10, Reviews 9, Photos 8, Map 5, Info 6, Q&A 5, Coupons 9, Delivery 10.
        let layout = TabBarLayout(titles: Self.nine, selectedIndex: 3, width: 30)
        #expect(layout.contentWidth == 68 && layout.visibleWidth == 28)
        // Reviews..Info fill the 28 columns with Photos nearest the middle.
        #expect(layout.cells.map(\.index) == [2, 3, 4, 5] && layout.offset == 16)
        #expect(layout.widthRatio == 28.0 / 68.0 && layout.leftOffsetRatio == 16.0 / 68.0)
        // round(28/68 * 28) = round(11.53) = 12 wide; round(16/68 * 28) = round(6.59) = 7 in.
        #expect(layout.thumb == TabBarLayout.Thumb(start: 7, width: 12))
        #expect(layout.lines(.plain) == [
            "‹ Reviews  Photos  Map  Info ›",
            "           ‾‾‾‾‾‾",
            " ───────━━━━━━━━━━━━─────────",
        ])
    }

    @Test(arguments: [
        // (visible, content, offset, track) -> (start, width)
        (28, 68, 0, 28, 0, 12),
        (28, 68, 44, 28, 16, 12),  // round(18.1) = 18 would spill past the track: clamped to 16
        (8, 1000, 0, 8, 0, 1),  // a thumb is at least one column
        (8, 1000, 996, 8, 7, 1),
        (10, 20, 5, 10, 3, 5),  // 2.5 rounds away from zero
        (10, 10, 0, 10, 0, 10),
    ])
    func thumbIsRoundedAndClamped(visible: Int, content: Int, offset: Int, track: Int, start: Int, width: Int) {
        #expect(TabBarLayout.thumb(visibleWidth: visible, contentWidth: content, offset: offset, trackWidth: track)
            == TabBarLayout.Thumb(start: start, width: width))
    }

    @Test func theEndsStopTheScroll() {
        let first = TabBarLayout(titles: Self.nine, selectedIndex: 0, width: 30)
        #expect(first.offset == 0 && !first.hidesTabsBefore && first.hidesTabsAfter)
        #expect(first.cells.map(\.index) == [0, 1, 2])
        let last = TabBarLayout(titles: Self.nine, selectedIndex: 8, width: 30)
        // Never past the first tab from which the rest fit, however off-centre that leaves the selection.
        #expect(last.cells.map(\.index) == [6, 7, 8] && last.hidesTabsBefore && !last.hidesTabsAfter)
        #expect(last.thumb == TabBarLayout.Thumb(start: 16, width: 12))
    }

    @Test func wideCharactersTakeTwoColumns() {
        let layout = TabBarLayout(titles: ["홈", "iOS 앱 개발 알아가기", "🍕 피자"], selectedIndex: 2, width: 80)
        #expect(layout.contentWidth == 4 + 22 + 9)
        #expect(layout.cells.map(\.column) == [1, 5, 27])
        #expect(layout.lines(.plain) == [" 홈  iOS 앱 개발 알아가기  🍕 피자", String(repeating: " ", count: 27) + "‾‾‾‾‾‾‾"])
    }

    @Test func aSelectedTabWiderThanTheWindowIsShortened() {
        let layout = TabBarLayout(titles: ["홈", "iOS 앱 개발 알아가기", "리뷰"], selectedIndex: 1, width: 12)
        #expect(layout.cells.map(\.title) == ["iOS 앱…"])
        #expect(layout.lines(.plain) == ["‹ iOS 앱…  ›", "  ‾‾‾‾‾‾‾", " ─━━━──────"])
    }

    @Test func ansiStyleMarksOnlyTheSelectedTitle() {
        let layout = TabBarLayout(titles: Self.nine, selectedIndex: 1, width: 30)
        #expect(layout.lines(.ansi) == [
            "  Home  \u{1B}[1;4mAll menu\u{1B}[0m  Reviews    ›",
            " ━━━━━━━━━━━━────────────────",
        ])
    }

    @Test func noTabsNoLines() {
        let layout = TabBarLayout(titles: [], selectedIndex: nil, width: 30)
        #expect(layout.lines(.plain).isEmpty && layout.widthRatio == 1 && layout.leftOffsetRatio == 0)
    }

    /// Whatever the width and selection: the selected tab is shown, whole tabs in order,
    /// every line within the width, the thumb inside the track.
    @Test(arguments: 10...45)
    func theSelectionIsAlwaysShown(width: Int) {
        let titles = Self.nine + ["홈", "🍕", "iOS 앱 개발 알아가기"]
        for selected in titles.indices {
            let layout = TabBarLayout(titles: titles, selectedIndex: selected, width: width)
            #expect(layout.cells.contains { $0.index == selected }, "width \(width), selected \(selected)")
            let indices = layout.cells.map(\.index)
            #expect(indices == Array(indices.first.map { $0...(indices.last ?? $0) } ?? 0...0))
            for line in layout.lines(.plain) {
                #expect(displayWidth(line) <= width, "width \(width), selected \(selected): \(line)")
            }
            if let thumb = layout.thumb {
                #expect(thumb.start >= 0 && thumb.width >= 1 && thumb.start + thumb.width <= layout.visibleWidth)
            }
        }
    }
}
