#!/usr/bin/env python3
"""Compiles every Swift block of README.md and of the DocC articles (Sources/Store/
TabStoreKit.docc/*.md), and every Swift block of a library doc comment that is a whole file
(it starts with an `import`: DocC shows it on the symbol's page), so that a block a reader
copies compiles. Other doc comment blocks are fragments of their symbol's context and are
not compiled. Run by .ci/run after `swift build`, against the modules that build made.

- A block with `import PackageDescription` is a package manifest: `swift package
  dump-package` must read it.
- A block whose first line of code is an `import` is a source file, compiled as it is.
- Any other block is the body of a function `@MainActor ... async throws`, with `store`
  (a TabStore) and `tab` (a Tab) given, and TabStoreKit, TabStoreFoundation and Foundation
  imported.

Everything is compiled in Swift 6 mode (complete concurrency checking), as an app would be.
Errors point at the README's or article's own lines (#sourceLocation). On Linux, SwiftUI is
the stub in Tests/Documentation/Stubs (it checks the calls to tabstore, not SwiftUI's)."""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCUMENTS = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "Sources/Store/TabStoreKit.docc/*.md")))


LIBRARY_SOURCES = sorted(os.path.relpath(p, ROOT) for folder in ["Sources/Store", "Sources/FoundationBridge", "Sources/Postgres"]
                         for p in glob.glob(os.path.join(ROOT, folder, "**/*.swift"), recursive=True))


def doc_comment_blocks(source):
    """(first line number of the code, code) for each ```swift block of a `///` comment."""
    found, code, start = [], None, 0
    with open(os.path.join(ROOT, source), encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            stripped = line.strip()
            if not stripped.startswith("///"):
                code = None
                continue
            content = stripped[3:]
            content = content[1:] if content.startswith(" ") else content
            if code is None and content.strip() == "```swift":
                code, start = [], number + 1
            elif code is not None and content.strip() == "```":
                found.append((start, "".join(code)))
                code = None
            elif code is not None:
                code.append(content + "\n")
    return found


def blocks(document):
    """(first line number of the code, code) for each ```swift block."""
    found, code, start = [], None, 0
    with open(os.path.join(ROOT, document), encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            stripped = line.strip()
            if code is None and stripped == "```swift":
                code, start = [], number + 1
            elif code is not None and stripped == "```":
                found.append((start, "".join(code)))
                code = None
            elif code is not None:
                code.append(line)
    return found


def kind(code):
    if "import PackageDescription" in code:
        return "manifest"
    for line in code.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("//"):
            return "file" if stripped.startswith("import ") else "statements"
    return "statements"


def main():
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    built = os.path.join(bin_path, "Modules")
    if not os.path.exists(os.path.join(built, "TabStoreFoundation.swiftmodule")):
        sys.exit("check-snippets: build first (swift build): no modules in " + built)
    failures, counts = [], {"manifest": 0, "file": 0, "statements": 0}
    with tempfile.TemporaryDirectory() as work:
        # Each file block is compiled as a module of its own (two may declare the same
        # type); the function bodies all together.
        modules, bodies = [], []
        found = [(document, block) for document in DOCUMENTS for block in blocks(document)]
        found += [(source, block) for source in LIBRARY_SOURCES for block in doc_comment_blocks(source)
                  if kind(block[1]) == "file"]
        commented = sorted({document for document, _ in found if document.endswith(".swift")})
        for document, (line, code) in found:
            what = kind(code)
            counts[what] += 1
            name = re.sub(r"[^A-Za-z0-9]", "_", document) + "_%d" % line
            if what == "manifest":
                package = os.path.join(work, name)
                os.makedirs(package)
                with open(os.path.join(package, "Package.swift"), "w") as manifest:
                    manifest.write(code)
                result = subprocess.run(["swift", "package", "dump-package"], cwd=package, capture_output=True, text=True)
                if result.returncode != 0:
                    failures.append("%s:%d: the manifest does not load:\n%s" % (document, line, result.stderr))
                continue
            source = os.path.join(work, name + ".swift")
            location = '#sourceLocation(file: "%s", line: %d)\n' % (document, line)
            with open(source, "w", encoding="utf-8") as out:
                if what == "file":
                    out.write(location + code)
                else:
                    out.write("import Foundation\nimport TabStoreFoundation\nimport TabStoreKit\n\n"
                              "@MainActor func %s(store: TabStore, tab: Tab) async throws {\n" % name
                              + location + code + "#sourceLocation()\n}\n")
            if what == "file":
                modules.append((name, [source]))
            else:
                bodies.append(source)
        # The C modules the library's modules import: SQLite's, and the module map SwiftPM
        # made for the libpq declarations (TabStorePostgres imports them).
        flags = ["-swift-version", "6", "-I", built,
                 "-Xcc", "-fmodule-map-file=" + os.path.join(ROOT, "Sources/CSQLite/module.modulemap"),
                 "-Xcc", "-fmodule-map-file=" + os.path.join(bin_path, "TabStoreLibPQ.build/module.modulemap")]
        if sys.platform != "darwin":
            stubs = os.path.join(work, "stubs")
            os.makedirs(stubs)
            result = subprocess.run(["swiftc", "-swift-version", "6", "-parse-as-library", "-module-name", "SwiftUI",
                                     "-emit-module", "-emit-module-path", os.path.join(stubs, "SwiftUI.swiftmodule"),
                                     os.path.join(ROOT, "Tests/Documentation/Stubs/SwiftUI.swift")],
                                    cwd=work, capture_output=True, text=True)
            if result.returncode != 0:
                sys.exit("check-snippets: the SwiftUI stub does not compile:\n" + result.stderr)
            flags += ["-I", stubs]
        if bodies:
            modules.append(("TabStoreSnippets", bodies))
        for module, sources in modules:
            objects = os.path.join(work, "objects-" + module)
            os.makedirs(objects)
            # -c, not -typecheck: some diagnostics (Swift 6's data-race checks among them) come later.
            result = subprocess.run(["swiftc", "-c", "-parse-as-library", "-module-name", module] + flags + sources,
                                    cwd=objects, capture_output=True, text=True)
            if result.returncode != 0:
                failures.append(result.stderr)
    if failures:
        sys.exit("check-snippets: a Swift block of the documentation does not compile:\n" + "\n".join(failures))
    print("documentation snippets: %d files, %d function bodies and %d manifests compile (%s)"
          % (counts["file"], counts["statements"], counts["manifest"], ", ".join(DOCUMENTS + commented)))


main()
