#!/usr/bin/env bash
# scripts/screenshots.sh — regenerates docs/img/report-*.png with headless Chromium: a flip run, a
# numeric run, the recorded LLM run (tests/data/report/llm-run), the catalogue index, Strassen's
# scheme page and a GPU benchmark page. Look at each picture after regenerating it.
# Environment: TDISC (default build/ci/tdisc).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/ci/tdisc}
BROWSER=$(command -v chromium || command -v chromium-browser) || { echo "screenshots.sh: no chromium" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shot() {  # page.html out.png height
  "$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
    --window-size=1100,"$3" --screenshot="$2" "file://$1" 2>/dev/null
  echo "wrote ${2#$ROOT/}"
}
"$TDISC" search --size 3x4x4 --rank 38 --ring ZT --seed 2 --time 60s -q --report --out "$work/flip" > /dev/null || true
shot "$work/flip/report.html" "$ROOT/docs/img/report-flip.png" 1500
"$TDISC" search --size 3x3 --rank 23 --ring Q --engine numeric --seed 3 --time 90s -q --report --out "$work/numeric" > /dev/null || true
shot "$work/numeric/report.html" "$ROOT/docs/img/report-numeric.png" 2000
cp -r "$ROOT/tests/data/report/llm-run" "$work/llm"
"$TDISC" report "$work/llm" > /dev/null
shot "$work/llm/report.html" "$ROOT/docs/img/report-llm.png" 2400
"$TDISC" catalog index --dir "$ROOT/algorithms" --out "$work/INDEX.md" --html "$work/cat" > /dev/null
shot "$work/cat/index.html" "$ROOT/docs/img/report-catalogue.png" 1300
shot "$(ls "$work"/cat/schemes/2x2x2_r7-ZT-02268ba0.html)" "$ROOT/docs/img/report-scheme.png" 1250
"$TDISC" bench --report "$work/bench.html" --results "$ROOT/bench/results/gpu-f32-h100.json,$ROOT/bench/results/gpu-f64-h100.json" > /dev/null
shot "$work/bench.html" "$ROOT/docs/img/report-bench.png" 1100
