#!/usr/bin/env bash
# bench/flip_large.sh — flips per second of one plain walker on 4x4 (one-word factors, the path every
# 4x4 and 5x5 search runs) and on large formats (2 and 4 words per factor, ranks in the thousands),
# in the same run, back to back, so the ratio "large / 4x4" is measured under one load (issue 29
# item 1: within 2× of 4x4's speed per flip). Each case: `tdisc search --size F --rank R --ring RING
# --symmetry none --threads 1 --seed SEED --time SECONDS` from the standard algorithm (R below reach,
# so the walk runs the whole budget); rate = the median of the progress events' flips/s (one every 2 s
# once the walker runs: the start-up, which verifies and writes the standard scheme, is not counted).
# With BASE=path/to/another/tdisc the 4x4 cases also run on that binary (a before/after comparison).
# Writes bench/results/flip_large-<UTC date>.json (or $RESULT) with date, machine, commit, load and
# the command of every case. Needs jq.
#
# A run whose walker never reported (the start-up took the whole budget: 16x16x16 verifies and writes
# its 4096-term standard scheme first, about 10 s under load) counts as null; give 16x16x16 at least 20 s.
# Environment: TDISC (build/ci/tdisc), BASE (unset), SECONDS_EACH (20), SEED (1), REPEATS (2),
# RINGS ("GF2 ZT"), CASES ("4x4x4:30 10x10x10:700 12x12x12:1000 16x16x16:3000"), RESULT.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/ci/tdisc}
BASE=${BASE:-}
SECONDS_EACH=${SECONDS_EACH:-20}
SEED=${SEED:-1}
REPEATS=${REPEATS:-2}
RINGS=${RINGS:-"GF2 ZT"}
CASES=${CASES:-"4x4x4:30 10x10x10:700 12x12x12:1000 16x16x16:3000"}
RESULT=${RESULT:-$ROOT/bench/results/flip_large-$(date -u +%F).json}
WORK=$(mktemp -d /tmp/tdisc-flip-large-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
[[ -x $TDISC ]] || { echo "bench/flip_large.sh: $TDISC not built (cmake --build --preset ci --target tdisc)" >&2; exit 1; }
[[ -z $BASE || -x $BASE ]] || { echo "bench/flip_large.sh: BASE=$BASE is not executable" >&2; exit 1; }

load() { cut -d' ' -f1-3 /proc/loadavg; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "null"; exit} if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# One run: prints the rate (flips/s) and leaves the command in $WORK/cmd.
rate() {  # binary format rank ring tag
  local out=$WORK/$5-$2-$4 cmd
  cmd="search --size $2 --rank $3 --ring $4 --symmetry none --params {\"walk_ring\":\"$4\"} --threads 1 --seed $SEED --time ${SECONDS_EACH}s -q --out RUN_DIR"
  echo "$cmd" >"$WORK/cmd"
  rm -rf "$out"
  "$1" ${cmd/RUN_DIR/$out} >/dev/null 2>&1 || true
  jq -r 'select(.event=="progress" and .rate != null and .rate > 0) | .rate' "$out/events.jsonl" | median
}


LOAD_BEFORE=$(load)
JSON_CASES=()
declare -A MEDIAN
for ring in $RINGS; do
  for c in $CASES; do
    fmt=${c%:*} rank=${c#*:}
    bins=("new:$TDISC")
    [[ -n $BASE && $fmt == 4x4x4 ]] && bins+=("base:$BASE")
    for b in "${bins[@]}"; do
      tag=${b%%:*} bin=${b#*:} runs=""
      for ((k = 0; k < REPEATS; ++k)) ; do runs+="$(rate "$bin" "$fmt" "$rank" "$ring" "$tag") "; done
      med=$(tr ' ' '\n' <<<"$runs" | awk 'NF && $1!="null"' | median)
      MEDIAN[$tag-$fmt-$ring]=$med
      printf '%-5s %-4s %-9s rank %-5s %12.0f flips/s  (runs: %s)\n' "$tag" "$ring" "$fmt" "$rank" "$med" "$runs"
      JSON_CASES+=("$(jq -n --arg binary "$tag" --arg ring "$ring" --arg format "$fmt" --argjson rank "$rank" --arg runs "$runs" \
        --argjson median "$med" --arg cmd "tdisc $(cat "$WORK/cmd")" \
        '{binary:$binary, ring:$ring, format:$format, target_rank:$rank, command:$cmd, median_flips_per_s:$median,
          runs:($runs|split(" ")|map(select(length>0)|if .=="null" then null else tonumber end))}')")
    done
  done
done

# large / 4x4 per ring (the brief's bar: at least 0.5)
RATIOS=()
for ring in $RINGS; do
  for c in $CASES; do
    fmt=${c%:*}
    [[ $fmt == 4x4x4 ]] && continue
    r=$(awk -v a="${MEDIAN[new-$fmt-$ring]}" -v b="${MEDIAN[new-4x4x4-$ring]}" 'BEGIN {printf "%.3f", a / b}')
    echo "ratio $ring $fmt / 4x4x4: $r"
    RATIOS+=("$(jq -n --arg ring "$ring" --arg format "$fmt" --argjson ratio "$r" '{ring:$ring, format:$format, over_4x4:$ratio}')")
  done
  if [[ -n $BASE ]]; then
    r=$(awk -v a="${MEDIAN[new-4x4x4-$ring]}" -v b="${MEDIAN[base-4x4x4-$ring]}" 'BEGIN {printf "%.3f", a / b}')
    echo "ratio $ring 4x4x4 new / base: $r"
    RATIOS+=("$(jq -n --arg ring "$ring" --argjson ratio "$r" '{ring:$ring, format:"4x4x4", new_over_base:$ratio}')")
  fi
done

mkdir -p "$(dirname "$RESULT")"
jq -n --arg date "$(date -u +%FT%TZ)" --arg host "$(hostname)" --argjson cpus "$(nproc)" \
  --arg model "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
  --arg commit "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  --arg command "$0 (SECONDS_EACH=$SECONDS_EACH SEED=$SEED REPEATS=$REPEATS RINGS='$RINGS' CASES='$CASES' BASE=${BASE:-none})" \
  --arg load_before "$LOAD_BEFORE" --arg load_after "$(load)" \
  --argjson cases "[$(IFS=,; echo "${JSON_CASES[*]}")]" --argjson ratios "[$(IFS=,; echo "${RATIOS[*]}")]" \
  '{bench:"flip_large", date:$date, machine:{host:$host, cpus:$cpus, model:$model}, commit:$commit, command:$command,
    load:{before:$load_before, after:$load_after}, cases:$cases, ratios:$ratios}' >"$RESULT.tmp"
mv "$RESULT.tmp" "$RESULT"
echo "wrote ${RESULT#$ROOT/}"
