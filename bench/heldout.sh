#!/usr/bin/env bash
# bench/heldout.sh — held-out targets: formats and ranks that no row of the recipe table
# (algorithms/recipes.json) serves, run with no flag (the plan's portfolio: the flip engine's lanes side
# by side, threads moved toward the lane that improves) against today's default (no table, and the
# threads stay where they start: --recipes <missing> --params {"portfolio_every":0}), one run at a
# time, per seed: time to target. Both are the same binary; the flag turns off only what this branch
# added, so the difference is the portfolio's (docs/recipes.md#held-out-targets).
# The rule (issue 27): no row's median time to target (a miss counts CAP) may be worse than 1.2×
# today's. Prints one line per run and a summary per row, and exits 1 when a row breaks the rule.
# Writes bench/results/heldout-<UTC date>.json (or $OUT/heldout.json) through bench/recipes.sh.
#
# Environment: TDISC, ROWS (below), SEEDS ("1 2 3 4 5"), THREADS (2), JOBS (1: runs at once), CAP (60 s), OUT, RUNS.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROWS=${ROWS:-"2x3x3:15:Z 2x2x5:18:Z 2x3x4:20:GF2 2x4x4:26:Z 3x3x4:29:Z 4x4:49:Z"}
SEEDS=${SEEDS:-"1 2 3 4 5"}
THREADS=${THREADS:-2}
CAP=${CAP:-60}
RUNS=${RUNS:-$(mktemp -d)}
export ROWS SEEDS THREADS CAP RUNS
mkdir -p "$RUNS"
COMMAND="ROWS=\"$ROWS\" SEEDS=\"$SEEDS\" THREADS=$THREADS JOBS=${JOBS:-1} CAP=$CAP bench/heldout.sh" RECIPES="portfolio today" STEM=heldout \
  "$ROOT/bench/recipes.sh" | tee "$RUNS/heldout.log"
[ "${PIPESTATUS[0]}" = 0 ] || exit 1
# every run of the portfolio must have been planned as one (a row that fits is no held-out target)
if grep -E '^[^ ]+ +portfolio +seed ' "$RUNS/heldout.log" | grep -v '(portfolio,' >/dev/null; then
  echo "heldout: a target of ROWS has a row in the recipe table: not held out" >&2
  exit 1
fi
if grep -E 'portfolio/today ([0-9.]+)x' -o "$RUNS/heldout.log" | awk '{sub("x","",$2); if ($2 > 1.2) bad=1} END {exit !bad}'; then
  echo "heldout: a row's portfolio median is more than 1.2x today's" >&2
  exit 1
fi
