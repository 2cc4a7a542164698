#!/usr/bin/env bash
# bench/meta.sh [PEER_META_BINARY] — meta flips over every format n ≤ m ≤ p up to 5x5x6: for each,
# tdisc search --meta (starts from catalogued schemes of neighbouring formats, never the format
# itself) and, when given, Perminov's meta_flip_graph (dronperminov/ternary_flip_graph, built outside
# this tree) started from the same neighbouring catalogue schemes, back to back, same budget, one
# thread each. Prints a table; writes bench/results/meta-<date>.json.
#
# Environment: TDISC (binary, default build/ci/tdisc), BUDGET (seconds per format and tool, 15),
# SEED (1), FORMATS (default: all 30 formats 2 ≤ n ≤ m ≤ 5, m ≤ p ≤ 6), SOTA (fmm_sota.json, default
# algorithms/best-known/), CATALOG (algorithms/), RESULT (JSON path),
# PEER_FLIPS (flips per runner between the peer's meta phases, 100000), KEEP (folder to keep run dirs).
# Targets are the best known ternary (ZT) ranks below; a tool "reached" a format when its best rank
# there is at most that. The peer reports ranks of each format it visits ("Rank of AxBxC was improved
# … to R", validated by the peer before it saves); tdisc's ranks are verified exactly before written.
set -euo pipefail

PEER=${1:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/ci/tdisc}
BUDGET=${BUDGET:-15}
SEED=${SEED:-1}
SOTA=${SOTA:-$ROOT/algorithms/best-known/fmm_sota.json}
CATALOG=${CATALOG:-$ROOT/algorithms}
PEER_FLIPS=${PEER_FLIPS:-100000}
WORK=${KEEP:-$(mktemp -d /tmp/tdisc-metabench-XXXXXX)}
mkdir -p "$WORK"
[[ -n ${KEEP:-} ]] || trap 'rm -rf "$WORK"' EXIT
[[ -x $TDISC ]] || { echo "bench/meta.sh: $TDISC not found (cmake --build --preset ci)" >&2; exit 1; }
[[ -z $PEER || -x $PEER ]] || { echo "bench/meta.sh: peer binary $PEER is not executable" >&2; exit 1; }
command -v jq >/dev/null || { echo "bench/meta.sh: needs jq" >&2; exit 1; }

# Best known ranks over {-1,0,1} (ZT) for the sweep's formats: facts as tabulated in
# dronperminov/ternary_flip_graph src/known_ranks.cpp (2025) and the FMM catalogue.
declare -A ZT_RANK=(
  [2x2x2]=7 [2x2x3]=11 [2x2x4]=14 [2x2x5]=18 [2x2x6]=21 [2x3x3]=15 [2x3x4]=20 [2x3x5]=25 [2x3x6]=30
  [2x4x4]=26 [2x4x5]=33 [2x4x6]=39 [2x5x5]=40 [2x5x6]=47 [3x3x3]=23 [3x3x4]=29 [3x3x5]=36 [3x3x6]=42
  [3x4x4]=38 [3x4x5]=47 [3x4x6]=54 [3x5x5]=58 [3x5x6]=68 [4x4x4]=49 [4x4x5]=61 [4x4x6]=73 [4x5x5]=76
  [4x5x6]=90 [5x5x5]=93 [5x5x6]=110)
if [[ -z ${FORMATS:-} ]]; then
  FORMATS=""
  for n in 2 3 4 5; do for m in $(seq $n 5); do for p in $(seq $m 6); do FORMATS+=" ${n}x${m}x${p}"; done; done; done
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
sota_rank() {  # best known rank of any ring (fmm_sota.json), sorted format
  IFS=x read -r a b c <<< "$1"
  [[ -f $SOTA ]] || { echo null; return; }
  jq --argjson a "$a" --argjson b "$b" --argjson c "$c" \
    '[.entries[] | select((.format|sort) == ([$a,$b,$c]|sort)) | .rank] | min // null' "$SOTA"
}
catalogue_rank() {  # our catalogue's best rank usable over ZT (any permutation), or null
  local line
  line=$("$TDISC" catalog best --size "$1" --ring ZT --dir "$CATALOG" 2>/dev/null) || { echo null; return; }
  awk '{print $2}' <<< "$line"
}

# The sorted formats one index away (±1 on one axis) that the catalogue holds over ZT: the peer's starts.
neighbours() {
  IFS=x read -r a b c <<< "$1"
  local out=() d f s
  for d in "$((a-1)) $b $c" "$((a+1)) $b $c" "$a $((b-1)) $c" "$a $((b+1)) $c" "$a $b $((c-1))" "$a $b $((c+1))"; do
    read -r x y z <<< "$d"
    (( x >= 2 && y >= 2 && z >= 2 )) || continue
    s=$(printf '%s\n' "$x" "$y" "$z" | sort -n | paste -sd x)
    [[ " ${out[*]:-} " == *" $s "* ]] && continue
    out+=("$s")
  done
  echo "${out[@]:-}"
}

# The peer's input: each neighbour's best ZT scheme as its txt form ("n m p R", then U, V, W flattened).
peer_input() {
  local f=$1 file=$2 count=0 body="" nb path
  for nb in $(neighbours "$f"); do
    path=$("$TDISC" catalog best --size "$nb" --ring ZT --dir "$CATALOG" 2>/dev/null | awk '{print $1}') || continue
    [[ -n $path ]] || continue
    "$TDISC" export --to perminov-json "$path" -o "$WORK/nb.json" >/dev/null 2>&1 || continue
    body+=$(jq -r '"\(.n|join(" ")) \(.m)", (.u|flatten|join(" ")), (.v|flatten|join(" ")), (.w|flatten|join(" "))' "$WORK/nb.json")$'\n'
    count=$((count + 1))
  done
  printf '%s\n%s' "$count" "$body" > "$file"
  echo "$count"
}

ours() {  # format target → "best seconds_to_best exit start"
  local f=$1 target=$2 out=$WORK/ours-$1 code=0
  rm -rf "$out"
  "$TDISC" search --size "$f" --rank "$target" --ring ZT --meta --catalog-dir "$CATALOG" --time "${BUDGET}s" --threads 1 \
    --seed "$SEED" -q --out "$out" > "$WORK/ours-$f.log" 2>&1 || code=$?
  local best t start
  best=$(jq -s '[.[] | select(.event=="improved") | .rank] | min // null' "$out/events.jsonl" 2>/dev/null || echo null)
  t=$(jq -s '[.[] | select(.event=="improved")] | last | .elapsed // null' "$out/events.jsonl" 2>/dev/null || echo null)
  start=$(grep -m1 '^meta: round 1:' "$WORK/ours-$f.log" | sed 's/^meta: round 1: //; s/, start rank.*//' || true)
  [[ -n $start ]] || start=$(grep -m1 'tdisc:' "$WORK/ours-$f.log" || echo "none")
  echo "$best|$t|$code|$start"
}

peer() {  # format → "best count_of_inputs"
  local f=$1 in=$WORK/peer-$1.txt log=$WORK/peer-$1.log n
  n=$(peer_input "$f" "$in")
  [[ $n -gt 0 ]] || { echo "null|0"; return; }
  rm -rf "$WORK/peer-out-$f"; mkdir -p "$WORK/peer-out-$f"
  timeout "$BUDGET" "$PEER" -i "$in" -m --ring ZT --count 8 --threads 1 --meta-probability 0.5 --meta-min-dimension 2 \
    --meta-max-dimension 6 --flip-iterations "$PEER_FLIPS" --seed "$SEED" -o "$WORK/peer-out-$f" > "$log" 2>&1 || true
  local best
  best=$(grep -E "^Rank of $f was improved" "$log" | sed -E 's/.* to ([0-9]+).*/\1/' | sort -n | head -1)
  echo "${best:-null}|$n"
}

LOAD_BEFORE=$(load)
echo "tdisc meta bench: ${BUDGET}s per format and tool, seed $SEED, 1 thread each, load $LOAD_BEFORE, $(nproc) cores" >&2
printf '%-7s %6s %6s %6s %8s %8s %8s  %s\n' format sota ZT cat tdisc peer t_tdisc start
ROWS=()
for f in $FORMATS; do
  target=${ZT_RANK[$f]:-}
  [[ -n $target ]] || { echo "bench/meta.sh: no best known ZT rank for $f in the table" >&2; exit 1; }
  sota=$(sota_rank "$f"); cat_rank=$(catalogue_rank "$f")
  t0=$(now); IFS='|' read -r obest otime ocode ostart <<< "$(ours "$f" "$target")"; owall=$(echo "$(now) - $t0" | bc -l)
  pbest=null pinputs=0 pwall=null
  if [[ -n $PEER ]]; then t0=$(now); IFS='|' read -r pbest pinputs <<< "$(peer "$f")"; pwall=$(echo "$(now) - $t0" | bc -l); fi
  printf '%-7s %6s %6s %6s %8s %8s %8s  %s\n' "$f" "$sota" "$target" "$cat_rank" "$obest" "$pbest" "$otime" "$ostart"
  ROWS+=("$(jq -n --arg f "$f" --argjson sota "$sota" --argjson zt "$target" --argjson cat "$cat_rank" --argjson ob "$obest" \
    --argjson ot "$otime" --argjson oc "$ocode" --arg os "$ostart" --argjson ow "$owall" --argjson pb "$pbest" \
    --argjson pi "$pinputs" --argjson pw "$pwall" \
    '{format:$f, best_known:$sota, best_known_zt:$zt, catalogue_zt:$cat,
      tdisc:{best:$ob, reached:($ob != null and $ob <= $zt), seconds_to_best:$ot, exit:$oc, start:$os, wall:$ow},
      peer:{best:$pb, reached:($pb != null and $pb <= $zt), inputs:$pi, wall:$pw}}')")
done
LOAD_AFTER=$(load)

DATE=$(date -u +%Y-%m-%d)
OUT=${RESULT:-$ROOT/bench/results/meta-$DATE.json}
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
printf '%s\n' "${ROWS[@]}" | jq -s --arg date "$(date -u +%FT%TZ)" --arg commit "$COMMIT" \
  --arg cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" --arg cores "$(nproc)" --arg lb "$LOAD_BEFORE" \
  --arg la "$LOAD_AFTER" --arg peer "${PEER:-}" --arg cmd "BUDGET=$BUDGET SEED=$SEED bench/meta.sh ${PEER:-}" \
  --argjson budget "$BUDGET" --argjson seed "$SEED" --argjson flips "$PEER_FLIPS" \
  '{date:$date, commit:$commit, command:$cmd, machine:{cpu:$cpu, cores:($cores|tonumber), load_before:$lb, load_after:$la},
    budget_seconds:$budget, seed:$seed, threads:1,
    tdisc_command:"tdisc search --size F --rank ZT_RANK --ring ZT --meta --time BUDGET --threads 1 --seed SEED",
    peer:$peer, peer_command:"meta_flip_graph -i NEIGHBOURS.txt -m --ring ZT --count 8 --threads 1 --meta-probability 0.5 --meta-min-dimension 2 --meta-max-dimension 6 --flip-iterations PEER_FLIPS --seed SEED (timeout BUDGET)",
    peer_flips:$flips, formats:.,
    summary:{formats:length, tdisc_reached:(map(select(.tdisc.reached))|length), peer_reached:(map(select(.peer.reached))|length)}}' > "$OUT"
jq -r '.summary | "reached the best known ZT rank: tdisc \(.tdisc_reached)/\(.formats), peer \(.peer_reached)/\(.formats)"' "$OUT"
echo "(load before/after: $LOAD_BEFORE / $LOAD_AFTER) results: $OUT"
