#!/usr/bin/env bash
# Benchmarks of the numeric engine (issue 4): success rate and time to an exactly verified scheme
# from random starts, per target and seed, plus the repair check on the published 4x4:48 schemes.
# Usage: bench/numeric.sh [BUILD_DIR]   (env: JOBS=1 parallel seeds, TARGETS="F R RING SECONDS FIRST:COUNT;…",
#        RESULT=path of the JSON written, default bench/results/numeric-<date>.json)
# Writes bench/results/numeric-<date>.json. Keep it bounded on shared machines (JOBS ≤ cores).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/ci}
[ -f "$BUILD/build.ninja" ] || { cmake --preset ci >/dev/null; BUILD=build/ci; }  # tests_numeric: a preset with tests
cmake --build "$BUILD" -j2 --target bench_numeric tests_numeric >/dev/null
BIN=$BUILD/bench_numeric
TESTS=$BUILD/tests/tests_numeric
JOBS=${JOBS:-1}
TARGETS=${TARGETS:-"2x2x2 7 Q 120 1:10;2x2x3 11 Q 300 1:10;2x3x3 15 Q 300 1:10;3x3x3 23 Q 300 1:10;2x4x5 32 Q 3600 1:1;4x4x4 48 Q 3600 1:1"}
OUT=${RESULT:-bench/results/numeric-$(date -u +%Y-%m-%d).json}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
IFS=';' read -ra rows <<<"$TARGETS"
for row in "${rows[@]}"; do
  read -r fmt rank ring seconds seeds <<<"$row"
  first=${seeds%%:*}
  count=${seeds##*:}
  echo "== $fmt rank $rank over $ring, seeds $seeds, $seconds s each, $JOBS at a time" >&2
  for ((s = first; s < first + count; ++s)); do
    while (($(jobs -rp | wc -l) >= JOBS)); do sleep 1; done
    TDISC_BENCH_FORMAT=$fmt TDISC_BENCH_RANK=$rank TDISC_BENCH_RING=$ring TDISC_BENCH_SEEDS=$s:1 \
      TDISC_BENCH_SECONDS=$seconds "$BIN" 2>&1 | grep '^{' >"$TMP/$fmt-$rank-$s.json" &
  done
  wait
  cat "$TMP/$fmt-$rank-"*.json >&2
done
"$TESTS" "[slow]" -s 2>&1 | grep -E '^(alphaevolve|fmm-catalogue) 4x4:48' >"$TMP/repair.txt" || true
cat "$TMP/repair.txt" >&2

python3 - "$TMP" "$OUT" "$load_before" "$TARGETS" "$JOBS" <<'PY'
import glob, json, os, platform, statistics, subprocess, sys
tmp, out, load_before, targets, jobs = sys.argv[1:6]
runs = [json.loads(l) for f in sorted(glob.glob(tmp + "/*.json")) for l in open(f) if l.strip()]
summary = {}
for r in runs:
    key = f'{r["format"]}:{r["rank"]}/{r["ring"]}'
    summary.setdefault(key, []).append(r)
table = {}
for key, rs in summary.items():
    ok = [r["seconds"] for r in rs if r["found"]]
    table[key] = {"seeds": len(rs), "found": len(ok),
                  "median_seconds_found": statistics.median(ok) if ok else None,
                  "max_seconds": max(r["seconds"] for r in rs),
                  "restarts_total": sum(r["restarts"] for r in rs)}
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
doc = {"date": subprocess.run(["date", "-u", "+%Y-%m-%dT%H:%M:%SZ"], capture_output=True, text=True).stdout.strip(),
       "commit": commit, "machine": {"host": platform.node(), "cpus": os.cpu_count(),
       "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"),
       "load_before": load_before, "load_after": open("/proc/loadavg").read().split()[:3]},
       "targets": targets, "parallel_seeds": int(jobs), "summary": table, "runs": runs,
       "repair_check": [l.strip() for l in open(tmp + "/repair.txt")]}
json.dump(doc, open(out, "w"), indent=1)
print("wrote", out)
PY
