#!/usr/bin/env bash
# bench/flip_symmetry.sh — time to target with and without --symmetry z3 (Moosbauer–Poole 2025 walks)
# for each case and seed: seconds from the start to the verified target (the "improved" event of
# events.jsonl), or "-/B" with the best rank B when the cap ran out. One line per run, then the load average.
#
# Environment: TDISC (build/tdisc), THREADS (2), SEEDS ("1 2 3 4 5"), CAP (60: seconds per run),
# CASES ("3x3:23:ZT 3x3:23:GF2 4x4:49:ZT 4x4:49:GF2"), MODES ("z3 none"), PARAMS (extra --params JSON).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/tdisc}
THREADS=${THREADS:-2}
SEEDS=${SEEDS:-"1 2 3 4 5"}
CAP=${CAP:-60}
CASES=${CASES:-"3x3:23:ZT 3x3:23:GF2 4x4:49:ZT 4x4:49:GF2"}
MODES=${MODES:-"z3 none"}
PARAMS=${PARAMS:-"{}"}
WORK=$(mktemp -d /tmp/tdisc-z3bench-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
[[ -x $TDISC ]] || { echo "bench/flip_symmetry.sh: $TDISC not found" >&2; exit 1; }

echo "# $(date -u +%FT%TZ) threads=$THREADS cap=${CAP}s params=$PARAMS load: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in $CASES; do
  IFS=: read -r size rank ring <<< "$c"
  for mode in $MODES; do
    line="$size:$rank $ring symmetry=$mode:"
    for seed in $SEEDS; do
      out=$WORK/$size-$rank-$ring-$mode-$seed
      log=$("$TDISC" search --size "$size" --rank "$rank" --ring "$ring" --symmetry "$mode" --params "$PARAMS" \
              --threads "$THREADS" --seed "$seed" --time "${CAP}s" -q --out "$out" 2>&1 || true)
      # seconds from the start to the verified target, from events.jsonl (ms precision)
      t=$(grep '"event":"improved"' "$out/events.jsonl" | grep "\"rank\":$rank," | sed -n 's/.*"elapsed":\([0-9.e-]*\).*/\1/p' | head -1 || true)
      if [[ -n $t ]]; then t=$(printf '%.2fs' "$t"); else t="-/$(sed -n 's/.*best rank \([0-9]*\).*/\1/p' <<< "$log")"; fi
      line+=" $t"
    done
    echo "$line"
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
