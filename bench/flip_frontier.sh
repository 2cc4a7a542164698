#!/usr/bin/env bash
# bench/flip_frontier.sh [PEER_SRC] — symmetric flip walks against the anchor, Moosbauer–Poole's
# symmetric-flips (its C++ FlipSolver22 driven by MatrixMult22.py), on the same targets and cores.
# For each case and seed, alternating tool by tool: seconds to the target (capped), orbit flips per
# second per thread, and the load average. PEER_SRC is a checkout of jakobmoosbauer/symmetric-flips
# made outside this tree; its solver is compiled here into a scratch folder (g++ -O3 -march=native).
# Writes bench/results/flip_frontier-<date>.json and prints one line per run.
#
# Environment: TDISC (build/ci/tdisc), CASES ("5x5:93"), SEEDS ("1 … 10"), CAP (120 s per run),
# THREADS (1: tdisc threads, and as many parallel anchor processes, the first hit counts), RING (GF2:
# the anchor walks mod 2), SYMMETRY or SYM (z3, or s3: the 6-fold walk), PARAMS (extra --params JSON
# for tdisc), TOOLS ("tdisc peer"; "tdisc:z3", "tdisc:s3", "peer:3", "peer:6" pin a symmetry, so
# TOOLS="tdisc:s3 tdisc:z3 peer:6" compares all three run by run).
# The anchor's case file follows its own r5-93-1.txt / r6-153-1.txt (diagonal cubes, flip limit with
# RESET, plus transitions after a fixed count of flips), with its seed set from ours. Its symmetry:
# SYMMETRY 6 with s3, else 3 for 5x5 and 6 for 6x6 (its only 6x6 case file); for a 6-fold 5x5 case
# (no file of theirs) plus transitions after 1e5 terms as MatrixMult22.py suggests, up to rank n³.
# PEER_BIN: a FlipSolver22 compiled beforehand (parallel instances, or a machine without g++); COMMIT:
# the commit to record where the tree is a copy without .git (the device machine).
# PEER_FLIP_LIMIT overrides the anchor's FLIP_LIMIT (terms): it reports a run only when the run ends, so
# a 6x6 comparison within minutes needs shorter runs on both sides (give tdisc the same limit in class
# flips: PARAMS='{"restart_after": LIMIT/6}').
# Flips are counted per orbit class (one tdisc move; the anchor's count divided by 3 or 6) and per
# term (every term an orbit flip changes: the anchor's own count), so z3 and s3 compare both ways.
set -euo pipefail
PEER_SRC=${1:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/ci/tdisc}
CASES=${CASES:-"5x5:93"}
SEEDS=${SEEDS:-"1 2 3 4 5 6 7 8 9 10"}
CAP=${CAP:-120}
THREADS=${THREADS:-1}
RING=${RING:-GF2}
SYMMETRY=${SYMMETRY:-${SYM:-z3}}
PARAMS=${PARAMS:-"{}"}
TOOLS=${TOOLS:-"tdisc peer"}
WORK=$(mktemp -d /tmp/tdisc-frontier-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
[[ -x $TDISC ]] || { echo "bench/flip_frontier.sh: $TDISC not found (cmake --build --preset ci)" >&2; exit 1; }
if [[ $TOOLS == *peer* ]]; then
  [[ -n $PEER_SRC && -f $PEER_SRC/code/FlipSolver22.cpp ]] ||
    { echo "bench/flip_frontier.sh: give a checkout of jakobmoosbauer/symmetric-flips (code/FlipSolver22.cpp) as PEER_SRC" >&2; exit 1; }
  if [[ -n ${PEER_BIN:-} ]]; then cp "$PEER_BIN" "$WORK/FlipSolver22"
  else g++ -O3 -march=native -o "$WORK/FlipSolver22" "$PEER_SRC/code/FlipSolver22.cpp"; fi
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "null"; exit} if (NR%2) print a[(NR+1)/2]; else printf "%.10g\n", (a[NR/2]+a[NR/2+1])/2}'; }

# The anchor's case file for n×n:rank, from its own examples (same cubes, limits and plus policy).
peer_case() {
  local n=$1 rank=$2 seed=$3 symm=$4
  local cubes limit plus plimit
  case $n in
    5) cubes="10001 01010 00100"; limit=100000000; plus=50000;;
    6) cubes="110000 001100 000011"; limit=1000000000; plus=500000;;
    *) echo "bench/flip_frontier.sh: no anchor case for ${n}x$n" >&2; exit 1;;
  esac
  limit=${PEER_FLIP_LIMIT:-$limit}
  plimit=0
  if [[ $symm == 6 ]]; then plimit=$((n * n * n)); [[ $n == 5 ]] && plus=100000; fi
  cat <<EOF
MATRIX_SIZE: $n
RANDOM_SEED: $seed
NUMBER_OF_SOLVES: 100000
PRINT_OUTPUT: STANDARD
SCHEME_STYLE: FULL
WRITE_LOG: NO
RUN_TYPE: NEW
TARGET: $rank
SAVE: $rank
SYMMETRY: $symm
DIAGONAL_CUBES: $cubes
FLIP_LIMIT: $limit
TERMINATION_STRATEGY: RESET
PLUS_TRANSITION_AFTER: $plus
PLUS_TRANSITION_LIMIT: $plimit
PLUS_TRANSITION_RANDOM: NO
MAXIMUM_SIZE: NONE
EOF
}

# One anchor run: THREADS processes (seeds seed·100+k), each its own sequence of restarts, each in a
# session of its own so that the run ends with its solver processes (the first hit or the cap ends it);
# prints "seconds best orbit_flips_per_s_per_process orbit_flips_to_target runs terms_per_orbit_flip"
# (seconds null when the cap ran out).
peer_run() {
  local n=$1 rank=$2 seed=$3 symm=$4 dir=$WORK/peer-$1-$2-$3-$4
  mkdir -p "$dir"
  local t0 pids=() k
  t0=$(now)
  for ((k = 0; k < THREADS; k++)); do
    mkdir -p "$dir/$k"
    peer_case "$n" "$rank" $((seed * 100 + k)) "$symm" > "$dir/$k/case.txt"
    (cd "$dir/$k" && FLIPSOLVER=$WORK/FlipSolver22 RANK=$rank PEER_SRC=$PEER_SRC exec setsid bash -c \
      'python3 -u "$PEER_SRC/code/MatrixMult22.py" case.txt 2>&1 | while IFS= read -r line; do
         echo "$line"; [[ $line == *"Best: $RANK "* ]] && echo "HIT $(date +%s.%N)"; done > out.log') &
    pids+=($!)
  done
  while :; do
    grep -qh '^HIT' "$dir"/*/out.log 2>/dev/null && break
    awk -v a="$(now)" -v b="$t0" -v c="$CAP" 'BEGIN {exit !(a - b >= c)}' && break
    sleep 0.2
  done
  for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  local hit t best speed runs
  hit=$(grep -h '^HIT' "$dir"/*/out.log 2>/dev/null | awk '{print $2}' | sort -g | head -1)
  if [[ -n $hit ]]; then t=$(awk -v a="$hit" -v b="$t0" 'BEGIN {printf "%.2f", a - b}'); else t=null; fi
  best=$(grep -ho 'Best: [0-9]*' "$dir"/*/out.log | awk '{print $2}' | sort -g | head -1)
  # "Speed: N megaflips/min" counts every term of an orbit flip (3 for Z3, 6 for the 6-fold walk)
  local per=$symm
  speed=$(grep -ho 'Speed: [0-9]* megaflips/min' "$dir"/*/out.log | awk -v p=$per '{s += $2; c++} END {if (c) printf "%.0f", s / c * 1e6 / 60 / p; else print "null"}')
  runs=$(grep -hc 'Best:' "$dir"/*/out.log | awk '{s += $1} END {print s + 0}')
  # orbit flips to the target: the hitting process's runs up to the hit (its siblings' work is not counted)
  local work=null f
  for f in "$dir"/*/out.log; do
    grep -q '^HIT' "$f" || continue
    work=$(awk -v r="$rank" -v p=$per '/Best:/ {for (i = 1; i < NF; i++) if ($i == "Flips:") s += $(i + 1)}
             $0 ~ "Best: " r " " {print int(s / p); exit}' "$f")
    break
  done
  echo "$t ${best:-null} $speed ${work:-null} $runs $per"
}

# One tdisc run: prints "seconds best orbit_flips_per_s_per_thread orbit_flips_to_target restarts terms_per_orbit_flip".
tdisc_run() {
  local n=$1 rank=$2 seed=$3 sym=$4 out=$WORK/tdisc-$1-$2-$3-$4 t best rate restarts work
  "$TDISC" search --size "${n}x$n" --rank "$rank" --ring "$RING" --symmetry "$sym" --params "$PARAMS" \
    --threads "$THREADS" --seed "$seed" --time "${CAP}s" -q --out "$out" > "$out.log" 2>&1 || true
  t=$(jq -r --argjson r "$rank" 'select(.event=="improved" and .rank==$r) | .elapsed' "$out/events.jsonl" | head -1)
  [[ -n $t ]] && t=$(printf '%.2f' "$t") || t=null
  best=$(jq -r 'select(.event=="improved") | .rank' "$out/events.jsonl" | sort -g | head -1)
  rate=$(jq -r --argjson t "$THREADS" 'select(.event=="finished") | (.counters.flips / .elapsed / $t | floor)' "$out/events.jsonl")
  restarts=$(jq -r 'select(.event=="finished") | (.counters.restarts // 0)' "$out/events.jsonl")
  work=$(jq -r 'select(.event=="finished") | if .reached then (.counters.flips | floor) else null end' "$out/events.jsonl")
  echo "$t ${best:-null} ${rate:-null} ${work:-null} ${restarts:-0} $([[ $sym == s3 ]] && echo 6 || echo 3)"
}

# The symmetry a tool entry runs: tdisc:z3, tdisc:s3, peer:3, peer:6, or from SYMMETRY and the format.
tool_symmetry() {
  local tool=$1 n=$2
  [[ $tool == *:* ]] && { echo "${tool#*:}"; return; }
  if [[ $tool == peer ]]; then
    if [[ $SYMMETRY == s3 || $n == 6 ]]; then echo 6; else echo 3; fi
  else
    echo "$SYMMETRY"
  fi
}

DATE=$(date -u +%F)
OUT=${RESULT:-$ROOT/bench/results/flip_frontier-$DATE.json}
COMMIT=${COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}
echo "# $(date -u +%FT%TZ) $(hostname) commit $COMMIT threads=$THREADS cap=${CAP}s ring=$RING symmetry=$SYMMETRY params=$PARAMS tools=$TOOLS peer_flip_limit=${PEER_FLIP_LIMIT:-case file} load: $(load)"
rows="[]"
for c in $CASES; do
  IFS=x: read -r n _ rank <<< "$c"
  for seed in $SEEDS; do
    for tool in $TOOLS; do
      l0=$(load)
      sym=$(tool_symmetry "$tool" "$n")
      if [[ $tool == peer* ]]; then r=$(peer_run "$n" "$rank" "$seed" "$sym"); else r=$(tdisc_run "$n" "$rank" "$seed" "$sym"); fi
      l1=$(load)
      read -r t best rate work extra per <<< "$r"
      terms=$(awk -v r="$rate" -v p="$per" 'BEGIN {if (r == "null") print "null"; else printf "%.0f", r * p}')
      printf '%-9s %sx%s:%s seed %-3s time %-8s best %-5s orbit flips/s/thread %-10s (terms %-10s) to target %-11s %s load %s -> %s\n' \
        "$tool" "$n" "$n" "$rank" "$seed" "$t" "$best" "$rate" "$terms" "$work" "$([[ $tool == peer* ]] && echo "runs $extra" || echo "restarts $extra")" "$l0" "$l1"
      rows=$(jq -c --arg tool "$tool" --arg sym "$sym" --arg case "$c" --argjson seed "$seed" --argjson t "$t" --argjson best "$best" \
        --argjson rate "$rate" --argjson terms "$terms" --argjson work "$work" --argjson extra "${extra:-0}" --arg l0 "$l0" --arg l1 "$l1" \
        '. + [{tool:$tool, symmetry:$sym, case:$case, seed:$seed, seconds:$t, best:$best, orbit_flips_per_s_per_thread:$rate,
               term_flips_per_s_per_thread:$terms, orbit_flips_to_target:$work, runs_or_restarts:$extra,
               load_before:$l0, load_after:$l1}]' <<< "$rows")
    done
  done
done

summary="[]"
for c in $CASES; do
  for tool in $TOOLS; do
    hits=$(jq -r --arg c "$c" --arg tool "$tool" '[.[] | select(.case==$c and .tool==$tool and .seconds != null)] | length' <<< "$rows")
    total=$(jq -r --arg c "$c" --arg tool "$tool" '[.[] | select(.case==$c and .tool==$tool)] | length' <<< "$rows")
    # the median over all runs, a capped run counting as the cap (so it is null when most runs miss)
    med=$(jq -r --arg c "$c" --arg tool "$tool" --argjson cap "$CAP" '.[] | select(.case==$c and .tool==$tool) | (.seconds // ($cap + 1))' <<< "$rows" | median)
    med=$(awk -v m="$med" -v cap="$CAP" 'BEGIN {if (m == "null" || m > cap) print "null"; else print m}')
    rate=$(jq -r --arg c "$c" --arg tool "$tool" '.[] | select(.case==$c and .tool==$tool and .orbit_flips_per_s_per_thread != null) | .orbit_flips_per_s_per_thread' <<< "$rows" | median)
    terms=$(jq -r --arg c "$c" --arg tool "$tool" '.[] | select(.case==$c and .tool==$tool and .term_flips_per_s_per_thread != null) | .term_flips_per_s_per_thread' <<< "$rows" | median)
    best=$(jq -r --arg c "$c" --arg tool "$tool" '[.[] | select(.case==$c and .tool==$tool and .best != null) | .best] | min' <<< "$rows")
    echo "$tool $c: hit $hits/$total within ${CAP}s, median time ${med} s (capped runs count as misses), best $best, median orbit flips/s/thread $rate (terms $terms)"
    summary=$(jq -c --arg tool "$tool" --arg c "$c" --argjson h "$hits" --argjson n "$total" --argjson m "$med" --argjson r "$rate" \
      --argjson tr "$terms" --argjson b "$best" \
      '. + [{tool:$tool, case:$c, hits:$h, runs:$n, median_seconds:$m, best:$b, median_orbit_flips_per_s_per_thread:$r,
             median_term_flips_per_s_per_thread:$tr}]' <<< "$summary")
  done
done
echo "# load after: $(load)"
mkdir -p "$(dirname "$OUT")"
jq -n --arg date "$(date -u +%FT%TZ)" --arg host "$(hostname)" --arg cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')" \
  --arg commit "$COMMIT" --arg cmd "$0 $*" --arg cases "$CASES" --arg seeds "$SEEDS" --argjson cap "$CAP" --argjson threads "$THREADS" \
  --arg ring "$RING" --arg symmetry "$SYMMETRY" --arg params "$PARAMS" --arg load "$(load)" --argjson rows "$rows" --argjson summary "$summary" \
  --arg tools "$TOOLS" --arg peer_limit "${PEER_FLIP_LIMIT:-case file}" \
  '{date:$date, machine:$host, cpu:$cpu, commit:$commit, command:$cmd, cases:$cases, seeds:$seeds, cap_seconds:$cap, threads:$threads,
    ring:$ring, symmetry:$symmetry, params:$params, tools:$tools, peer_flip_limit:$peer_limit, load_after:$load,
    summary:$summary, runs:$rows}' > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "# wrote $OUT"
