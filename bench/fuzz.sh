#!/usr/bin/env bash
# Fuzz campaign of the readers and the other entry points of outside data (docs/reliability.md): builds the fuzz preset (clang, ASan+UBSan,
# libFuzzer), runs every target for FUZZ_SECONDS (default 600) of wall time, JOBS (default 2) at a time,
# each seeded from tests/fuzz/corpus/<format> in a work copy (WORK, default /tmp/tdisc-fuzz), in
# libFuzzer's fork mode so that one finding does not end the run, with limits on memory (rss 2 GB,
# one allocation 1 GB) and time (10 s an input). Prints per target the executions, findings (crash,
# OOM, timeout artifacts), peak RSS, and writes bench/results/fuzz-<date>.json. Seed: SEED (default
# 1), target t runs with SEED+t. Then: minimise with bench/fuzz_minimise.sh before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-600}
JOBS=${JOBS:-2}
WORK=${WORK:-/tmp/tdisc-fuzz}
SEED=${SEED:-1}
TARGETS=${TARGETS:-"native exp maple fmm-mpl perminov-json fast-matmul flip-cpd alphaevolve-ipynb alphatensor-npz json-input escape ansatz field-scheme gzip run-dir llm-reply"}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j2 --target fuzz_replay $(for t in $TARGETS; do printf "fuzz_%s " "${t//-/_}"; done) >/dev/null
mkdir -p "$WORK"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

run_target() {  # format index
  local format=$1 t=$2 exe dir
  exe=build/fuzz/tests/fuzz/targets/fuzz_${format//-/_}
  dir=$WORK/$format
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp -n tests/fuzz/corpus/"$format"/* "$dir/corpus/" 2>/dev/null || true
  local start end
  start=$(date +%s)
  ASAN_OPTIONS=detect_leaks=1 /usr/bin/time -v -o "$dir/time" "$exe" -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
    -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 -seed=$((SEED + t)) \
    -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/log" 2>&1 || true
  end=$(date +%s)
  echo "$((end - start))" >"$dir/wall_s"
}

i=0
for format in $TARGETS; do
  run_target "$format" "$i" &
  i=$((i + 1))
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 5; done
done
wait
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

rows=""
for format in $TARGETS; do
  dir=$WORK/$format
  # fork mode status lines: "#N: cov: C ft: F corp: K exec/s: E oom/timeout/crash: a/b/c time: Ts job: J dft_time: D"
  last=$(grep -a '^#[0-9]*:' "$dir/log" | tail -1 || true)
  execs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p'); execs=${execs:-0}
  cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p'); cov=${cov:-0}
  found=$(echo "$last" | sed -n 's|.*oom/timeout/crash: \([0-9/]*\).*|\1|p'); found=${found:-0/0/0}
  # the largest resident set of the fuzzer and the jobs it forked (GNU time: max over waited children)
  peak=$(awk -F': ' '/Maximum resident set size/ { printf "%d", $2 / 1024 }' "$dir/time" 2>/dev/null); peak=${peak:-0}
  artifacts=$(ls "$dir/artifacts" 2>/dev/null | wc -l)
  wall=$(cat "$dir/wall_s")
  printf '%-18s wall %4ss  executions %9s  coverage %5s  oom/timeout/crash %-7s  artifacts %3s  peak rss %5s MB\n' \
    "$format" "$wall" "$execs" "$cov" "$found" "$artifacts" "$peak"
  rows="$rows${rows:+,}
    {\"target\": \"$format\", \"wall_s\": $wall, \"executions\": $execs, \"coverage\": $cov, \"oom_timeout_crash\": \"$found\", \"artifacts\": $artifacts, \"peak_rss_mb\": $peak}"
done

out="bench/results/fuzz-$(date -u +%Y-%m-%d)${TAG:+-$TAG}.json"  # TAG: several campaigns a day
cat >"$out.tmp" <<JSON
{
  "benchmark": "fuzz",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "commit": "$(git rev-parse --short=12 HEAD 2>/dev/null || echo nogit)",
  "machine": {"uname": "$(uname -srm)", "nproc": $(nproc), "cpu": "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"},
  "command": "bench/fuzz.sh (FUZZ_SECONDS=$SECONDS_EACH JOBS=$JOBS SEED=$SEED)",
  "seed": $SEED,
  "loadavg_before": "$load_before",
  "loadavg_after": "$load_after",
  "targets": [$rows
  ]
}
JSON
mv "$out.tmp" "$out"
echo "wrote $out"
