#!/usr/bin/env bash
# Adds to the committed corpus (tests/fuzz/corpus/<format>) only the inputs of a campaign
# (WORK/<format>/corpus, see bench/fuzz.sh) that reach coverage the committed corpus does not
# (libFuzzer -merge=1), and copies crash/OOM/timeout artifacts into tests/fuzz/crashes/<format>.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-/tmp/tdisc-fuzz}
TARGETS=${TARGETS:-"native exp maple fmm-mpl perminov-json fast-matmul flip-cpd alphaevolve-ipynb alphatensor-npz"}
for format in $TARGETS; do
  exe=build/fuzz/tests/fuzz/targets/fuzz_${format//-/_}
  [ -d "$WORK/$format/corpus" ] || continue
  "$exe" -merge=1 -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 "tests/fuzz/corpus/$format" "$WORK/$format/corpus" \
    >"$WORK/$format/merge.log" 2>&1 || echo "merge of $format: see $WORK/$format/merge.log"
  if ls "$WORK/$format/artifacts/"* >/dev/null 2>&1; then
    mkdir -p "tests/fuzz/crashes/$format"
    cp "$WORK/$format/artifacts/"* "tests/fuzz/crashes/$format/"
  fi
  printf '%-18s corpus %4d files %6s\n' "$format" "$(ls "tests/fuzz/corpus/$format" | wc -l)" "$(du -sh "tests/fuzz/corpus/$format" | cut -f1)"
done
du -sh tests/fuzz/corpus
