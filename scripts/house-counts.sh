#!/usr/bin/env bash
# The house-keeping counts of the Swift sources: functions over 100 and 150 lines, public
# declarations without a doc comment, `try?`, and files over 700 lines.
#
#   scripts/house-counts.sh            counts for Sources/ as a whole and per module
#   scripts/house-counts.sh --list     also lists each long function, undocumented declaration and long file
#
# The counts are estimates from the text, not from the compiler: a function runs from its `func`,
# `init` or `deinit` to its closing brace; a public declaration is documented when a `///` line
# (or the end of a `/** */` block) stands above it and its attributes; extensions and imports are
# not declarations here. Test time is not counted here: time `scripts/test.sh` itself.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os, re, sys

LIST = "--list" in sys.argv
ROOT = "Sources"

def strip_code(line, state):
    """The line without comments and string contents; state carries a block comment or a
    multi-line string across lines."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        if state["block"]:
            j = line.find("*/", i)
            if j < 0:
                return "".join(out)
            state["block"] = False
            i = j + 2
            continue
        if state["multi"]:
            j = line.find('"""', i)
            if j < 0:
                return "".join(out)
            state["multi"] = False
            out.append('""')
            i = j + 3
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] = True
            i += 2
            continue
        if line.startswith('"""', i):
            state["multi"] = True
            i += 3
            continue
        if c == '"':
            j = i + 1
            depth = 0
            while j < n:
                if line[j] == "\\":
                    if j + 1 < n and line[j + 1] == "(":
                        depth += 1
                        j += 2
                        continue
                    j += 2
                    continue
                if depth and line[j] == ")":
                    depth -= 1
                elif line[j] == '"' and not depth:
                    break
                j += 1
            out.append('""')
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)

FUNC = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|mutating|nonmutating|nonisolated|convenience|required|isolated|consuming|borrowing|@inlinable|@usableFromInline)\s+)*(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b)")
PUBLIC = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:static|final|override|mutating|nonisolated|convenience|required|indirect|class)\s+)*(public|open)\s+(?!import\b)(?!extension\b)")
ATTR = re.compile(r"^\s*@[\w.]+(\([^)]*\))?\s*$")

def module_of(path):
    parts = path.split(os.sep)
    return parts[1] if len(parts) > 2 else parts[0]

long_funcs, undocumented, long_files = [], [], []
tries = {}
files = []
for dirpath, dirnames, filenames in os.walk(ROOT):
    dirnames.sort()
    for name in sorted(filenames):
        if name.endswith(".swift"):
            files.append(os.path.join(dirpath, name))

for path in files:
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    module = module_of(path)
    if len(lines) > 700:
        long_files.append((path, len(lines), module))
    state = {"block": False, "multi": False}
    code = [strip_code(l, state) for l in lines]
    tries[module] = tries.get(module, 0) + sum(len(re.findall(r"\btry\?", c)) for c in code)
    # Functions: from the declaration to the brace that closes its body.
    for i, c in enumerate(code):
        m = FUNC.match(c)
        if not m:
            continue
        depth, opened, end = 0, False, None
        paren = 0
        for j in range(i, len(code)):
            for ch in code[j]:
                if ch in "([":
                    paren += 1
                elif ch in ")]":
                    paren -= 1
                elif ch == "{":
                    depth += 1
                    opened = True
                elif ch == "}":
                    depth -= 1
                    if opened and depth == 0:
                        end = j
                        break
            if end is not None:
                break
            if not opened and j > i and code[j].strip() == "" and paren <= 0:
                break  # a protocol requirement: no body
        if end is not None:
            length = end - i + 1
            if length > 100:
                long_funcs.append((path, i + 1, length, m.group(1).strip(), module))
    # Public declarations and their doc comments.
    for i, c in enumerate(code):
        if not PUBLIC.match(c):
            continue
        k = i - 1
        while k >= 0 and ATTR.match(lines[k]):
            k -= 1
        above = lines[k].strip() if k >= 0 else ""
        if not (above.startswith("///") or above.endswith("*/")):
            undocumented.append((path, i + 1, lines[i].strip(), module))

def per_module(rows, key):
    counts = {}
    for r in rows:
        counts[key(r)] = counts.get(key(r), 0) + 1
    return counts

f100 = [r for r in long_funcs if r[2] > 100]
f150 = [r for r in long_funcs if r[2] > 150]
print(f"functions over 100 lines:       {len(f100)}")
print(f"functions over 150 lines:       {len(f150)}")
print(f"undocumented public declarations: {len(undocumented)}")
print(f"try? in Sources:                {sum(tries.values())}")
print(f"files over 700 lines:           {len(long_files)}")
print()
print(f"{'module':<20} {'fn>100':>7} {'undoc':>6} {'try?':>5} {'>700':>5}")
mods = sorted(set(module_of(p) for p in files))
fc = per_module(f100, lambda r: r[4]); uc = per_module(undocumented, lambda r: r[3])
lc = per_module(long_files, lambda r: r[2])
for m in mods:
    print(f"{m:<20} {fc.get(m,0):>7} {uc.get(m,0):>6} {tries.get(m,0):>5} {lc.get(m,0):>5}")
if LIST:
    print("\nfunctions over 100 lines:")
    for p, line, n, name, _ in sorted(f100, key=lambda r: -r[2]):
        print(f"  {n:4}  {p}:{line}  {name}")
    print("\nfiles over 700 lines:")
    for p, n, _ in long_files:
        print(f"  {n:5}  {p}")
    print("\nundocumented public declarations:")
    for p, line, text, _ in undocumented:
        print(f"  {p}:{line}  {text[:100]}")
PY
