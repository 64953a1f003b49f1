import Testing
@testable import TabStoreCLI

/// Every place of every tabstore command that takes an integer refuses a value that is not
/// one with the same sentence, which says why: the name of the place and the reason, never
/// "invalid" alone.
@Suite struct IntegerRefusalTests {
    /// A command line that gives `value` to one integer place of one command.
    struct Place: CustomTestStringConvertible, Sendable {
        let command: String
        let label: String
        /// The command line up to the value.
        let prefix: [String]
        /// The least value the place takes, when it has one.
        let minimum: Int?
        var testDescription: String { "\(command) \(label)" }
    }

    /// Each integer option (`--at`, `--limit`, `--index` ...) of each command, given right after
    /// the command's name, and each integer argument (`move`'s `<to>`), after single values
    /// for the arguments before it.
    static let places: [Place] = Program.spec.commands.flatMap { command -> [Place] in
        let options = command.options.compactMap { option -> Place? in
            let minimum: Int?
            switch option.kind {
            case let .integer(_, least): minimum = least
            case .index, .indexArgument: minimum = nil
            case .flag, .value, .titleArgument, .idArgument: return nil
            }
            return Place(command: command.name, label: option.label, prefix: [command.name, "--\(option.name)"], minimum: minimum)
        }
        var before: [String] = []
        var arguments: [Place] = []
        for argument in command.arguments {
            if case .index = argument.kind {
                arguments.append(Place(command: command.name, label: argument.label, prefix: [command.name] + before + ["--"], minimum: nil))
            }
            guard argument.arity == .required else { break }
            before.append("a")
        }
        return options + arguments
    }

    static func refusal(_ place: Place, _ value: String) -> String? {
        guard case let .failure(error) = ArgumentScanner(program: Program.spec).scan(place.prefix + [value]).action else { return nil }
        return error.message.shown
    }

    @Test func theCommandsHaveIntegerPlaces() {
        let described = Set(Self.places.map(\.testDescription))
        #expect(described.isSuperset(of: ["move <to>", "add --at <index>", "history --limit <count>", "select --if-revision <revision>", "show --width <columns>"]))
    }

    @Test(arguments: places)
    func aValueThatIsNoIntegerIsRefusedSayingSo(place: Place) {
        for value in ["x", "1.5", "1e3", "+1", "0x10", "٣"] {
            #expect(Self.refusal(place, value) == "The value '\(value)' is invalid for '\(place.label)': it is not an integer", "\(value)")
        }
    }

    @Test(arguments: places.filter { ($0.minimum ?? .min) > .min })
    func aValueBelowTheLeastIsRefusedNamingIt(place: Place) throws {
        let minimum = try #require(place.minimum)
        for value in [String(minimum - 1), "-99999999999999999999"] {
            #expect(Self.refusal(place, value) == "The value '\(value)' is invalid for '\(place.label)': the minimum is \(minimum)", "\(value)")
        }
        #expect(Self.refusal(place, "99999999999999999999")
            == "The value '99999999999999999999' is invalid for '\(place.label)': the maximum is \(Int.max)")
    }
}
