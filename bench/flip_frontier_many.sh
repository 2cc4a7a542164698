#!/usr/bin/env bash
# bench/flip_frontier_many.sh [PEER_SRC] — bench/flip_frontier.sh on a machine with many idle cores
# (the device machine's CPUs): one single-thread process per (seed, tool), all tools of a seed at the
# same time, as many seeds at once as there are physical cores per tool, in ROUNDS rounds. Each
# process is a whole flip_frontier.sh run with one seed and one tool, so every row is measured as the
# sequential script measures it; only the scheduling differs (tools side by side, not alternating).
# Merges the rows into RESULT (default bench/results/flip_frontier-many-<date>.json) and prints the
# summary: hits, median time to target (capped runs count as misses), orbit flips/s per thread.
#
# Environment: as flip_frontier.sh (CASES, CAP, RING, SYMMETRY, PARAMS, TDISC, PEER_BIN, COMMIT), and
# TOOLS ("tdisc peer"), ROUNDS (2), PER_ROUND (physical cores / number of tools), FIRST_SEED (1).
set -euo pipefail
PEER_SRC=${1:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOLS=${TOOLS:-"tdisc peer"}
read -r -a tools <<< "$TOOLS"
cores=$(lscpu -p=core,socket 2>/dev/null | grep -v '^#' | sort -u | wc -l)
[[ $cores -ge 1 ]] || cores=$(nproc)
PER_ROUND=${PER_ROUND:-$((cores / ${#tools[@]}))}
[[ $PER_ROUND -ge 1 ]] || PER_ROUND=1
ROUNDS=${ROUNDS:-2}
FIRST_SEED=${FIRST_SEED:-1}
CAP=${CAP:-120}
DATE=$(date -u +%F)
RESULT=${RESULT:-$ROOT/bench/results/flip_frontier-many-$DATE.json}
PARTS=$(mktemp -d /tmp/tdisc-many-XXXXXX)
trap 'rm -rf "$PARTS"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "# $(date -u +%FT%TZ) $(hostname) physical cores $cores, logical $(nproc); $PER_ROUND seeds x ${#tools[@]} tools at once, $ROUNDS rounds, cap ${CAP}s; load $(load)"
seed=$FIRST_SEED
for ((round = 0; round < ROUNDS; round++)); do
  for ((i = 0; i < PER_ROUND; i++)); do
    for tool in "${tools[@]}"; do
      part=$PARTS/$seed-${tool//:/_}
      TOOLS=$tool SEEDS=$seed CAP=$CAP THREADS=1 RESULT=$part.json \
        bash "$ROOT/bench/flip_frontier.sh" "$PEER_SRC" > "$part.log" 2>&1 &
    done
    seed=$((seed + 1))
  done
  wait
  grep -h -v '^#\|: hit ' "$PARTS"/*.log | sort -k4 -n | tail -n $((PER_ROUND * ${#tools[@]})) || true
done
rows=$(jq -s '[.[].runs[]]' "$PARTS"/*.json)
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "null"; exit} if (NR%2) print a[(NR+1)/2]; else printf "%.10g\n", (a[NR/2]+a[NR/2+1])/2}'; }
summary="[]"
for tool in "${tools[@]}"; do
  for c in $(jq -r '.[].case' <<< "$rows" | sort -u); do
    sel=$(jq -c --arg t "$tool" --arg c "$c" '[.[] | select(.tool==$t and .case==$c)]' <<< "$rows")
    hits=$(jq '[.[] | select(.seconds != null)] | length' <<< "$sel")
    total=$(jq 'length' <<< "$sel")
    med=$(jq -r --argjson cap "$CAP" '.[] | (.seconds // ($cap + 1))' <<< "$sel" | median)
    med=$(awk -v m="$med" -v cap="$CAP" 'BEGIN {if (m == "null" || m > cap) print "null"; else print m}')
    rate=$(jq -r '.[] | select(.orbit_flips_per_s_per_thread != null) | .orbit_flips_per_s_per_thread' <<< "$sel" | median)
    times=$(jq -r '[.[] | .seconds // "cap"] | map(tostring) | join(" ")' <<< "$sel")
    echo "$tool $c: hit $hits/$total within ${CAP}s, median time $med s (capped runs count as misses), median orbit flips/s/thread $rate; times: $times"
    summary=$(jq -c --arg t "$tool" --arg c "$c" --argjson h "$hits" --argjson n "$total" --argjson m "$med" --argjson r "$rate" \
      '. + [{tool:$t, case:$c, hits:$h, runs:$n, median_seconds:$m, median_orbit_flips_per_s_per_thread:$r}]' <<< "$summary")
  done
done
mkdir -p "$(dirname "$RESULT")"
jq -n --arg date "$(date -u +%FT%TZ)" --arg host "$(hostname)" --arg cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')" \
  --arg commit "${COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}" --arg cmd "$0 $*" \
  --argjson cores "$cores" --argjson logical "$(nproc)" --argjson per "$PER_ROUND" --argjson rounds "$ROUNDS" --argjson cap "$CAP" \
  --arg tools "$TOOLS" --arg ring "${RING:-GF2}" --arg symmetry "${SYMMETRY:-${SYM:-z3}}" --arg params "${PARAMS:-{\}}" \
  --arg load "$(load)" --argjson rows "$rows" --argjson summary "$summary" \
  '{date:$date, machine:$host, cpu:$cpu, commit:$commit, command:$cmd, physical_cores:$cores, logical_cpus:$logical,
    seeds_per_round:$per, rounds:$rounds, cap_seconds:$cap, threads_per_run:1, tools:$tools, ring:$ring, symmetry:$symmetry,
    params:$params, scheduling:"every tool of a seed at the same time, one process per core", load_after:$load,
    rows:$rows, summary:$summary}' > "$RESULT.tmp"
mv "$RESULT.tmp" "$RESULT"
echo "# wrote $RESULT; load $(load)"
