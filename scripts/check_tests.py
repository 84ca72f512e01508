#!/usr/bin/env python3
"""Checks that ctest runs every doctest case of contactlab_tests (or of another
doctest executable), each exactly once.

doctest_discover_tests turns each listed case into one ctest entry whose
command is `contactlab_tests --test-case=NAME`. A name that CMake or doctest's
filter mishandles breaks that silently: "a; b" became two entries, "a" and
" b", that each selected no case and passed. So this script fails when
  (a) a case name holds a character that discovery or the filters mishandle,
      or a case is marked skip (ctest would never run it);
  (b) ctest's entries for contactlab_tests are not as many as the cases;
  (c) an entry's own command, with --count, does not select exactly one case.

Usage: scripts/check_tests.py [BUILD_DIR [EXECUTABLE]]   (default: build contactlab_tests)
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

BANNER_RULE = "=" * 79
COUNT_LINE = re.compile(r"^\[doctest\] unskipped test cases passing the current filters: (\d+)$", re.M)

# Characters with a meaning to CMake lists (';', '[', ']', '\\') or to doctest's
# filters ('*', '?' are wildcards; ',' is escaped by doctest's CMake script).
BAD_CHARACTERS = {
    ";": "splits the CMake list into two ctest entries",
    "*": "is a doctest filter wildcard",
    "?": "is a doctest filter wildcard",
    "[": "is a CMake bracket",
    "]": "is a CMake bracket",
    "\\": "is an escape for CMake and for doctest's filters",
}


def run(command, cwd=None):
    """Exit status and stdout; stderr is appended only where the command failed."""
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, timeout=120)
    if result.returncode != 0:
        return result.returncode, result.stdout + result.stderr
    return result.returncode, result.stdout


def doctest_count(output):
    found = COUNT_LINE.findall(output)
    return int(found[-1]) if found else None


def list_cases(executable, *extra):
    """The case names, in doctest's order, and doctest's own count of them."""
    status, output = run([executable, "--list-test-cases", *extra])
    if status != 0:
        sys.exit(f"check_tests: {executable} --list-test-cases failed ({status}):\n{output}")
    names = [line for line in output.split("\n")
             if line != BANNER_RULE and not line.startswith("[doctest] ")]
    # The output ends with a newline: drop the one empty string after it.
    if names and names[-1] == "":
        names.pop()
    return names, doctest_count(output)


def name_problems(names):
    problems = []
    for name in names:
        if name == "":
            problems.append("a test case has an empty name (discovery drops it)")
            continue
        for char, why in BAD_CHARACTERS.items():
            if char in name:
                problems.append(f"test case '{name}': '{char}' {why}")
        if name != name.strip():
            problems.append(f"test case '{name}': a leading or trailing space")
    return problems


def ctest_entries(build_dir, executable):
    status, output = run(["ctest", "--show-only=json-v1"], cwd=build_dir)
    if status != 0:
        sys.exit(f"check_tests: ctest --show-only=json-v1 failed in {build_dir} ({status}):\n{output}")
    tests = json.loads(output).get("tests", [])
    return [t for t in tests
            if t.get("command") and os.path.basename(t["command"][0]) == executable]


def entry_property(entry, name, default=None):
    for prop in entry.get("properties", []):
        if prop.get("name") == name:
            return prop.get("value")
    return default


def count_selected(entry):
    """How many cases the entry's own command selects (doctest --count)."""
    status, output = run(entry["command"] + ["--count"], cwd=entry_property(entry, "WORKING_DIRECTORY"))
    if status != 0:
        return None, output
    return doctest_count(output), output


def main():
    build_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    name = sys.argv[2] if len(sys.argv) > 2 else "contactlab_tests"
    executable = os.path.join(build_dir, "tests", name)
    if not os.access(executable, os.X_OK):
        sys.exit(f"check_tests: {executable} not found (build first)")
    failures = []

    # (a) The names, and no case marked skip.
    names, reported = list_cases(executable)
    if reported != len(names):
        failures.append(f"doctest reports {reported} test cases but {len(names)} names were read from its list")
    failures += name_problems(names)
    all_names, _ = list_cases(executable, "--no-skip")
    for name in sorted(set(all_names) - set(names)):
        failures.append(f"test case '{name}' is marked skip: ctest never runs it")

    # (b) One ctest entry per case.
    entries = ctest_entries(build_dir, name)
    if len(entries) != len(names):
        failures.append(f"ctest has {len(entries)} entries running {name} but doctest has {len(names)} test cases")
        entry_names = {e["name"] for e in entries}
        for name in names:
            if name not in entry_names:
                failures.append(f"test case '{name}' has no ctest entry of its name")
        for name in sorted(entry_names - set(names)):
            failures.append(f"ctest entry '{name}' is no doctest case")
    for entry in entries:
        if entry_property(entry, "DISABLED") or entry_property(entry, "WILL_FAIL"):
            failures.append(f"ctest entry '{entry['name']}' is DISABLED or WILL_FAIL")

    # (c) Each entry selects exactly one case.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for entry, (count, output) in zip(entries, pool.map(count_selected, entries)):
            if count is None:
                failures.append(f"ctest entry '{entry['name']}': its command with --count failed:\n{output}")
            elif count != 1:
                failures.append(f"ctest entry '{entry['name']}' selects {count} test cases, not 1")

    if failures:
        print("check_tests: FAILED", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    print(f"check_tests: {len(names)} doctest cases of {name}, each run by exactly one ctest entry")
    return 0


if __name__ == "__main__":
    sys.exit(main())
