// SwiftUI's names that the documentation's Swift blocks use, declared for Linux, which has
// no SwiftUI, so that the blocks' calls to tabstore are compiled there too
// (check-snippets.py). Only the shapes: nothing here draws. On Apple platforms the check
// uses the real SwiftUI, which (as here) brings Foundation with it, and with it
// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`, declared below.
@_exported import Foundation

extension FileManager {
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { nil }
}

@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

/// The body of every stub view: a stub draws nothing.
public func noBody() -> Never { fatalError("a stub draws nothing") }

extension Never: View {
    public var body: Never { return noBody() }
}

public struct AnyView: View {
    public var body: Never { return noBody() }
    public init(_ view: some View) {}
}

@MainActor @resultBuilder public enum ViewBuilder {
    public static func buildExpression(_ view: some View) -> AnyView { AnyView(view) }
    public static func buildBlock(_ views: AnyView...) -> AnyView { views.first ?? AnyView(Never?.none) }
    public static func buildIf(_ view: AnyView?) -> AnyView { view ?? AnyView(Never?.none) }
    public static func buildEither(first: AnyView) -> AnyView { first }
    public static func buildEither(second: AnyView) -> AnyView { second }
}

extension Optional: View where Wrapped: View {
    public var body: Never { return noBody() }
}

public struct Text: View {
    public var body: Never { return noBody() }
    public init<S: StringProtocol>(_ content: S) {}
}

public struct Button<Label: View>: View {
    public var body: Never { return noBody() }
}

extension Button where Label == Text {
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

public struct List<Content: View>: View {
    public var body: Never { return noBody() }
    public init(@ViewBuilder content: () -> Content) {}
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    public var body: Never { return noBody() }
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) where Data.Element: Identifiable, ID == Data.Element.ID {}

    public func onMove(perform action: ((IndexSet, Int) -> Void)?) -> Self { self }
    public func onDelete(perform action: ((IndexSet) -> Void)?) -> Self { self }
}

public enum ScenePhase: Sendable, Hashable {
    case background, inactive, active
}

public struct EnvironmentValues {
    public var scenePhase: ScenePhase { .active }
}

@propertyWrapper public struct Environment<Value> {
    private let keyPath: KeyPath<EnvironmentValues, Value>
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

@propertyWrapper public struct State<Value> {
    private let box: Box
    public init(wrappedValue: Value) { box = Box(wrappedValue) }
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
}

extension View {
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View { self }
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void) -> some View { self }
    public func task(_ action: @escaping @Sendable () async -> Void) -> some View { self }
}
