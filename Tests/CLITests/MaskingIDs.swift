import Foundation

/// Output with every tab id (a version 4 UUID) written as `ID`: the ids are random, the
/// rest of the output is exact. Tests that check the ids themselves are in TabIDCommandTests.
extension Output {
    var maskingIDs: Output { Output(code: code, stdout: maskingTabIDs(stdout), stderr: maskingTabIDs(stderr)) }
}

func maskingTabIDs(_ text: String) -> String {
    text.replacing(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/, with: "ID")
}
