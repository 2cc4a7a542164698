#!/usr/bin/env bash
# bench/flipgraph.sh [PEER_BINARY] — the flip-graph benchmark of issue 3: flips per second per
# thread on 4x4 over GF2 and ZT, time to 3x3:23 over ZT (median of SEEDS seeds), and time to the
# best known integer rank of each format up to 4x4x4, for tdisc and, when PEER_BINARY (a build of
# dronperminov/ternary_flip_graph's flip_graph, made outside this tree) is given, for the peer on
# the same cases back to back. Prints a table of ratios; writes bench/results/flipgraph-<date>.json.
#
# Environment: TDISC (binary, default build/tdisc), THREADS (2), RATE_SECONDS (15), REPEATS (3),
# SEEDS (10, for 3x3:23), LONG_SEEDS (3, for the other formats), CAP (120: seconds per run),
# FORMATS ("2x2x3:11 … 4x4x4:49"), FORMAT_RING (Z: the formats' targets, reached by a ZT walk or a
# lifted GF2 walk; the peer walks ZT), CASES ("rate t333 formats": which parts to run), RESULT (the JSON path).
# The rate runs plain walks on every thread (--symmetry none) so that a flip means the same for both tools;
# the time-to-target runs use tdisc's defaults (lanes: docs/PERFORMANCE.md).
set -euo pipefail

PEER=${1:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/tdisc}
THREADS=${THREADS:-2}
RATE_SECONDS=${RATE_SECONDS:-15}
REPEATS=${REPEATS:-3}
SEEDS=${SEEDS:-10}
LONG_SEEDS=${LONG_SEEDS:-3}
CAP=${CAP:-120}
PEER_ITERS=${PEER_ITERS:-200000}
FORMATS=${FORMATS:-"2x2x3:11 2x2x4:14 2x3x3:15 2x3x4:20 2x4x4:26 3x3x4:29 3x4x4:38 4x4x4:49"}
FORMAT_RING=${FORMAT_RING:-Z}
CASES=${CASES:-"rate t333 formats"}
WORK=$(mktemp -d /tmp/tdisc-flipbench-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
[[ -x $TDISC ]] || { echo "bench/flipgraph.sh: $TDISC not found (build it: cmake --build build --target tdisc)" >&2; exit 1; }
[[ -z $PEER || -x $PEER ]] || { echo "bench/flipgraph.sh: peer binary $PEER is not executable" >&2; exit 1; }

load() { cut -d' ' -f1-3 /proc/loadavg; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "null"; exit} if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s.%N; }
nulls() { tr ' ' '\n' <<< "$1" | awk '$1=="null" {n++} END {print n+0}'; }
peer_ring() { case $1 in GF2) echo Z2;; GF3) echo Z3;; *) echo ZT;; esac; }
dims() { local f=$1; IFS=x read -r a b c <<< "$f"; echo "-n1 $a -n2 $b -n3 ${c:-$b}"; }

# flips per second per thread of tdisc over RATE_SECONDS on 4x4 (a target it cannot reach).
ours_rate() {
  local ring=$1 seed=$2 out=$WORK/rate-$1-$2
  "$TDISC" search --size 4x4 --rank 30 --ring "$ring" --symmetry none --params "{\"walk_ring\":\"$ring\"}" --threads "$THREADS" --seed "$seed" --time "${RATE_SECONDS}s" -q --out "$out" >/dev/null || true
  jq -r --argjson t "$THREADS" 'select(.event=="finished") | .counters.flips / .elapsed / $t' "$out/events.jsonl"
}

# The peer prints the wall time of each iteration (THREADS runners × PEER_ITERS flips, run in
# parallel); rate per thread = PEER_ITERS / median iteration time.
peer_rate() {
  local ring=$1 seed=$2 log=$WORK/peer-rate-$1-$2.log
  timeout "$RATE_SECONDS" "$PEER" $(dims 4x4x4) --ring "$(peer_ring "$ring")" --count "$THREADS" --threads "$THREADS" \
    --flip-iterations "$PEER_ITERS" --seed "$seed" --target-rank 30 --output-path "$WORK/peer-out" >"$log" 2>&1 || true
  awk -F'[:/]' '/iteration time \(last/ {print $6 + 0}' "$log" | median | awk -v n="$PEER_ITERS" '{ if ($1=="null"||$1==0) print "null"; else print n/$1 }'
}

# Seconds until tdisc reaches format:rank over RING (ZT, Z), or "null" when CAP runs out.
ours_time() {
  local fr=$1 seed=$2 ring=$3 out=$WORK/t-$1-$2 t0 code=0
  t0=$(now)
  "$TDISC" search --size "${fr%:*}" --rank "${fr#*:}" --ring "$ring" --threads "$THREADS" --seed "$seed" --time "${CAP}s" -q --out "$out" >/dev/null || code=$?
  [[ $code == 0 ]] && echo "$(now) - $t0" | bc -l || echo null
}

# The peer checks its target after every iteration of --flip-iterations flips per runner: 10000 keeps that fine.
peer_time() {
  local fr=$1 seed=$2 t0 code=0
  t0=$(now)
  timeout "$CAP" "$PEER" $(dims "${fr%:*}") --ring ZT --count "$THREADS" --threads "$THREADS" --flip-iterations 10000 \
    --seed "$seed" --target-rank "${fr#*:}" --output-path "$WORK/peer-out" >/dev/null 2>&1 || code=$?
  [[ $code == 0 ]] && echo "$(now) - $t0" | bc -l || echo null
}

ROWS=()   # "name|unit|ours|peer|better" (better: high or low)
JSON_CASES=()
record() {  # name unit better ours_values peer_values
  local name=$1 unit=$2 better=$3 ours=$4 peer=$5 om pm
  om=$(tr ' ' '\n' <<< "$ours" | awk '$1!="null" && $1!=""' | median)
  pm=null
  [[ -n $PEER ]] && pm=$(tr ' ' '\n' <<< "$peer" | awk '$1!="null" && $1!=""' | median)
  ROWS+=("$name|$unit|$om|$pm|$better|$(wc -w <<< "$ours")|$(nulls "$ours")|$(nulls "$peer")")
  JSON_CASES+=("$(jq -n --arg name "$name" --arg unit "$unit" --arg better "$better" --arg ours "$ours" --arg peer "$peer" \
    --arg om "$om" --arg pm "$pm" '{name:$name, unit:$unit, better:$better,
      ours:{runs:($ours|split(" ")|map(select(length>0))|map(if .=="null" then null else tonumber end)), median:($om|fromjson? // null)},
      peer:{runs:($peer|split(" ")|map(select(length>0))|map(if .=="null" then null else tonumber end)), median:($pm|fromjson? // null)}}')")
}

LOAD_BEFORE=$(load)
echo "tdisc flip-graph benchmark: $THREADS threads, load $LOAD_BEFORE, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" >&2

if [[ " $CASES " == *" rate "* ]]; then
  for ring in GF2 ZT; do
    ours="" peer=""
    for k in $(seq 1 "$REPEATS"); do  # alternate the two tools so both see the same load
      ours+=" $(ours_rate "$ring" "$k")"
      [[ -n $PEER ]] && peer+=" $(peer_rate "$ring" "$k")"
      echo "  rate $ring run $k: ours$ours | peer$peer" >&2
    done
    record "flips/s/thread 4x4 $ring" "flips/s" high "$ours" "$peer"
  done
fi

if [[ " $CASES " == *" t333 "* ]]; then
  ours="" peer=""
  for s in $(seq 1 "$SEEDS"); do
    ours+=" $(ours_time 3x3x3:23 "$s" ZT)"
    [[ -n $PEER ]] && peer+=" $(peer_time 3x3x3:23 "$s")"
  done
  echo "  3x3:23 ZT: ours$ours | peer$peer" >&2
  record "time to 3x3:23 ZT ($SEEDS seeds)" "s" low "$ours" "$peer"
fi

if [[ " $CASES " == *" formats "* ]]; then
  for fr in $FORMATS; do
    ours="" peer=""
    for s in $(seq 1 "$LONG_SEEDS"); do
      ours+=" $(ours_time "$fr" "$s" "$FORMAT_RING")"
      [[ -n $PEER ]] && peer+=" $(peer_time "$fr" "$s")"
    done
    echo "  $fr $FORMAT_RING (peer ZT): ours$ours | peer$peer" >&2
    record "time to $fr $FORMAT_RING ($LONG_SEEDS seeds)" "s" low "$ours" "$peer"
  done
fi

LOAD_AFTER=$(load)
printf '\n%-34s %14s %14s %8s   %s\n' "case" "tdisc" "peer" "ratio" "(unreached within ${CAP}s: tdisc/peer)"
for row in "${ROWS[@]}"; do
  IFS='|' read -r name unit om pm better n onull pnull <<< "$row"
  ratio=$(awk -v o="$om" -v p="$pm" -v b="$better" 'BEGIN { if (o=="null"||p=="null"||o==0||p==0) print "-"; else if (b=="high") printf "%.2fx", o/p; else printf "%.2fx", p/o }')
  fmt() { awk -v x="$1" -v u="$unit" 'BEGIN { if (x=="null") print "-"; else if (u=="flips/s") printf "%.2fM", x/1e6; else printf "%.2fs", x }'; }
  printf '%-34s %14s %14s %8s   %s/%s\n' "$name" "$(fmt "$om")" "$(fmt "$pm")" "$ratio" "$onull" "$pnull"
done
echo "(ratio > 1: tdisc better; load before/after: $LOAD_BEFORE / $LOAD_AFTER)"

DATE=$(date -u +%Y-%m-%d)
OUT=${RESULT:-$ROOT/bench/results/flipgraph-$DATE.json}
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
printf '%s\n' "${JSON_CASES[@]}" | jq -s --arg date "$(date -u +%FT%TZ)" --arg commit "$COMMIT" --arg cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
  --arg cores "$(nproc)" --arg lb "$LOAD_BEFORE" --arg la "$LOAD_AFTER" --arg threads "$THREADS" --arg peer "${PEER:-}" \
  --arg cmd "bench/flipgraph.sh ${PEER:-}" --arg rate_s "$RATE_SECONDS" --arg cap "$CAP" \
  '{date:$date, commit:$commit, command:$cmd, machine:{cpu:$cpu, cores:($cores|tonumber), load_before:$lb, load_after:$la},
    threads:($threads|tonumber), rate_seconds:($rate_s|tonumber), cap_seconds:($cap|tonumber), peer:$peer, cases:.}' > "$OUT"
echo "results: $OUT"
