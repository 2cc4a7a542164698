#!/bin/sh
# The report pages in a real browser (headless Chromium): each kind of page loads with no console
# message (the pages' Content-Security-Policy turns any load from elsewhere into one), holds its
# plots and the numbers it must show, and names no http(s) resource. Exit 77 (skipped) without
# Chromium. Usage: browser_test.sh TDISC SOURCE_DIR
set -u
TDISC=$1 SRC=$2
BROWSER=$(command -v chromium || command -v chromium-browser || true)
[ -n "$BROWSER" ] || { echo "SKIPPED: no chromium"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# Loads $1 (an HTML file); the DOM goes to $1.dom, the browser's log to $1.log.
load() {
  timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --no-first-run --enable-logging=stderr --v=0 \
    --user-data-dir="$work/profile" --dump-dom "file://$1" > "$1.dom" 2> "$1.log"
}

# No console message, no external resource, and each id given present in the DOM.
check_page() {  # page id…
  page=$1; shift
  load "$page" || { bad "$page: chromium failed"; return; }
  if grep -q ":CONSOLE" "$page.log"; then bad "$page: console message: $(grep ':CONSOLE' "$page.log" | head -1)"; fi
  if grep -Eq '(src|href)="https?:' "$page.dom"; then bad "$page: refers to a network resource"; fi
  for id in "$@"; do grep -q "id=\"$id\"" "$page.dom" || bad "$page: no element #$id"; done
}

# The best rank the page shows must be the lowest rank among the run's verified best files.
check_best_rank() {  # page run_dir
  shown=$(sed -n 's/.*<span id="best-rank">\([0-9]*\)<\/span>.*/\1/p' "$1.dom" | head -1)
  files=$(ls "$2" | sed -n 's/^best-r\([0-9]*\)\.json$/\1/p' | sort -n | head -1)
  [ -n "$shown" ] && [ "$shown" = "$files" ] || bad "$1: best rank shown '$shown', best file r$files"
  echo "  $1: best rank $shown = best-r$files.json"
}

# 0. The detector itself: a page that loads an image from the network must be caught.
cat > "$work/control.html" <<'HTML'
<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head>
<body><img src="http://127.0.0.1:9/x.png"></body></html>
HTML
load "$work/control.html"
grep -q ":CONSOLE" "$work/control.html.log" || bad "control page: a blocked network load was not reported (the test could not fail)"

# 1. Run pages: a flip run and a numeric run made here (--report), and a recorded LLM run.
"$TDISC" search --size 2x2x3 --rank 11 --ring ZT --seed 1 --time 30s -q --report --out "$work/flip" > /dev/null || bad "flip search failed"
check_page "$work/flip/report.html" summary best-rank plot-rank plot-throughput improvements run-json
check_best_rank "$work/flip/report.html" "$work/flip"
"$TDISC" search --size 2x2 --rank 7 --ring Q --engine numeric --seed 3 --time 60s -q --report --out "$work/numeric" > /dev/null || bad "numeric search failed"
check_page "$work/numeric/report.html" best-rank plot-rank plot-residual plot-rounded
check_best_rank "$work/numeric/report.html" "$work/numeric"
cp -r "$SRC/tests/data/report/llm-run" "$work/llm"
"$TDISC" report "$work/llm" > /dev/null || bad "tdisc report on the LLM run failed"
check_page "$work/llm/report.html" best-rank llm-timeline llm-outcomes llm-calls plot-llm-tokens
check_best_rank "$work/llm/report.html" "$work/llm"
calls=$(grep -c '"event":"llm_call"' "$work/llm/events.jsonl")
grep -q "<span id=\"llm-calls\">$calls</span>" "$work/llm/report.html.dom" || bad "LLM page: call count is not $calls"
grep -q 'class="grid elite-grid"' "$work/llm/report.html.dom" || bad "LLM page: no MAP-Elites grid"

# 2. The catalogue: the index and one scheme page (Strassen: rank 7, stability 12).
"$TDISC" catalog index --dir "$SRC/algorithms" --out "$work/INDEX.md" --html "$work/cat" > /dev/null || bad "catalog index --html failed"
check_page "$work/cat/index.html" best-ranks scheme-list
strassen=$(ls "$work/cat/schemes/" | grep '2x2x2_r7-ZT-02268ba0' | head -1)
check_page "$work/cat/schemes/$strassen" scheme-facts verdict factors export-links
grep -q '<span id="stability">12</span>' "$work/cat/schemes/$strassen.dom" || bad "Strassen's page: stability is not 12"
grep -q 'valid over ZT' "$work/cat/schemes/$strassen.dom" || bad "Strassen's page: not shown valid over ZT"

# 3. A GPU benchmark result.
"$TDISC" bench --report "$work/bench.html" --results "$SRC/tests/data/report/gpu-f32-h100.json" > /dev/null || bad "bench --report failed"
check_page "$work/bench.html" plot-speedup plot-error
grep -q "data-name=\"strassen L1 separate f32\"" "$work/bench.html.dom" || bad "bench page: no Strassen curve"

[ $fail -eq 0 ] && echo "all report pages passed in $("$BROWSER" --version)"
exit $fail
