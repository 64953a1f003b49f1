#!/usr/bin/env python3
"""Checks facts the documents take from the code against the code, so that they cannot go
stale unseen. Run by .ci/run.

- Samples/GRDBComparison/README.md: each file's lines of code (neither blank nor only a
  comment, as its `grep` command counts them) and all its lines (`wc -l`).
- CONTRIBUTING.md: the products its layout lists for Package.swift are the package's
  products (`swift package dump-package`), no more and no fewer.
- README.md: every product its manifest snippet depends on is a product of the package;
  its requirements line names the manifest's tools version and platforms; the version it
  names, the one its snippet depends on, CHANGELOG.md's newest release and
  `tabstore --version` (Sources/CLI/Program.swift) are one version."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as text:
        return text.read()


def line_counts(path):
    lines = read(path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    code = [line for line in lines if line.strip() and not line.strip().startswith("//")]
    return len(code), len(lines)


rows = re.findall(r"^\| `([^`]+)` \([^)]*\) \| (\d+) \| (\d+) \|$", read("Samples/GRDBComparison/README.md"), re.M)
if not rows:
    failures.append("Samples/GRDBComparison/README.md: no line count table found")
for path, code, total in rows:
    actual = line_counts(path)
    if actual != (int(code), int(total)):
        failures.append("Samples/GRDBComparison/README.md says %s has %s lines of code and %s lines; it has %d and %d"
                        % (path, code, total, actual[0], actual[1]))

manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                                     capture_output=True, text=True).stdout)
products = {product["name"] for product in manifest["products"]}
# The layout's Package.swift entry: its line and the indented lines that continue it.
contributing = read("CONTRIBUTING.md").split("\n")
start = next((number for number, line in enumerate(contributing) if line.startswith("Package.swift ")), len(contributing))
end = start + 1
while end < len(contributing) and contributing[end].startswith(" "):
    end += 1
layout = " ".join(contributing[start:end])
listed = set(re.findall(r"\b(TabStore[A-Za-z]*|tabstore(?:-[a-z]+)?)\b", layout))
if listed != products:
    failures.append("CONTRIBUTING.md's layout lists the products %s; Package.swift has %s"
                    % (", ".join(sorted(listed)) or "none", ", ".join(sorted(products))))

for name in re.findall(r'\.product\(name: "([^"]+)", package: "tabstore"\)', read("README.md")):
    if name not in products:
        failures.append("README.md depends on the product %s, which Package.swift does not have" % name)

readme = read("README.md")
requirements = next((paragraph for paragraph in readme.split("\n\n") if paragraph.startswith("Requirements:")), "")
tools = manifest["toolsVersion"]["_version"]
tools = re.sub(r"\.0$", "", tools)
if "tools\nversion is %s" % tools not in requirements and "tools version is %s" % tools not in requirements:
    failures.append("README.md's requirements do not give the manifest's tools version, %s" % tools)
names = {"macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS"}
for platform in manifest["platforms"]:
    shown = "%s %s" % (names.get(platform["platformName"], platform["platformName"]), re.sub(r"\.0$", "", platform["version"]))
    if shown not in requirements.replace("\n", " "):
        failures.append("README.md's requirements do not name %s, a platform of Package.swift" % shown)

versions = {
    "CHANGELOG.md's newest release": next(iter(re.findall(r"^## (\d+\.\d+\.\d+) - \d{4}-\d{2}-\d{2}$", read("CHANGELOG.md"), re.M)), None),
    "README.md's current version": next(iter(re.findall(r"current version is (\d+\.\d+\.\d+)", readme)), None),
    "README.md's dependency": next(iter(re.findall(r'from: "(\d+\.\d+\.\d+)"', readme)), None),
    "tabstore --version": next(iter(re.findall(r'static let version = "([^"]+)"', read("Sources/CLI/Program.swift"))), None),
}
if len(set(versions.values())) != 1 or None in versions.values():
    failures.append("the versions disagree: " + ", ".join("%s %s" % (where, version) for where, version in versions.items()))

if failures:
    sys.exit("check-facts:\n" + "\n".join(failures))
print("documentation facts: line counts, products (%s), requirements and version %s as the code has them"
      % (", ".join(sorted(products)), versions["tabstore --version"]))
