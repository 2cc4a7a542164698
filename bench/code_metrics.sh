#!/usr/bin/env bash
# bench/code_metrics.sh [REV…]: the code-shape numbers of issue 28 for each revision (default HEAD),
# one JSON object per line: hand-written and generated lines (generated = what .gitattributes marks
# linguist-generated), lines and project includes of src/cli/cmd_search.cpp, functions over 80 lines
# in hand-written C++/CUDA (Universal Ctags' end: field), file(GLOB) calls in CMake files. Reads the
# revisions with `git archive` into a temporary folder; builds and runs nothing. GENERATED="GLOB…" adds
# patterns counted as generated (for revisions older than their .gitattributes line).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ctags >/dev/null || { echo "code_metrics: needs universal-ctags" >&2; exit 1; }
revs=("$@")
[ ${#revs[@]} -gt 0 ] || revs=(HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for rev in "${revs[@]}"; do
  dir="$work/$(git rev-parse --short "$rev")"
  mkdir -p "$dir"
  git archive "$rev" | tar -x -C "$dir"
  python3 - "$dir" "$(git rev-parse --short "$rev")" <<'PY'
import fnmatch, json, os, re, subprocess, sys
root, rev = sys.argv[1:]
generated = os.environ.get("GENERATED", "").split()
ga = os.path.join(root, ".gitattributes")
if os.path.exists(ga):
    for line in open(ga):
        parts = line.split()
        if len(parts) > 1 and not line.startswith("#") and "linguist-generated" in parts[1:]:
            generated.append(parts[0])
code_ext = (".cpp", ".hpp", ".h", ".cu", ".cuh", ".cc", ".inc", ".py", ".sh", ".cmake")
hand = gen = 0
sources = []
globs = 0
for d, _, files in os.walk(root):
    for f in files:
        path = os.path.join(d, f)
        rel = os.path.relpath(path, root)
        if f == "CMakeLists.txt" or f.endswith(".cmake"):
            globs += len(re.findall(r"file\s*\(\s*GLOB", open(path, errors="replace").read()))
        if not (f.endswith(code_ext) or f == "CMakeLists.txt") or rel.startswith("tests/data/"):
            continue
        n = sum(1 for _ in open(path, errors="replace"))
        if any(fnmatch.fnmatch(rel, g) for g in generated):
            gen += n
        else:
            hand += n
            if f.endswith((".cpp", ".hpp", ".h", ".cu", ".cuh", ".cc")):
                sources.append(path)
long_functions = []
out = subprocess.run(["ctags", "--languages=C++,CUDA", "--map-CUDA=+.cuh", "--kinds-C++=f", "--kinds-CUDA=f",
                      "--fields=+ne", "-o", "-"] + sources, capture_output=True, text=True).stdout
for line in out.splitlines():
    fields = line.split("\t")
    attrs = dict(x.split(":", 1) for x in fields[3:] if ":" in x)
    if "line" in attrs and "end" in attrs:
        length = int(attrs["end"]) - int(attrs["line"]) + 1
        if length > 80:
            long_functions.append(f"{os.path.relpath(fields[1], root)}:{attrs['line']} {fields[0]} ({length})")
cmd = os.path.join(root, "src/cli/cmd_search.cpp")
cmd_lines = sum(1 for _ in open(cmd)) if os.path.exists(cmd) else None
cmd_includes = len(re.findall(r'^#include "', open(cmd).read(), re.M)) if os.path.exists(cmd) else None
print(json.dumps({"commit": rev, "hand_written_lines": hand, "generated_lines": gen, "cmd_search_lines": cmd_lines,
                  "cmd_search_project_includes": cmd_includes, "functions_over_80_lines": len(long_functions),
                  "file_glob_calls": globs, "long_functions": sorted(long_functions)}))
PY
done
