#!/usr/bin/env bash
# bench/flip_gf2.sh — the hit rate of 4x4:47 over GF2 (AlphaTensor's mod-2 rank): independent runs of
# `tdisc search --size 4x4 --rank 47 --ring GF2 --symmetry none`, all at once (one process per
# seed and recipe, THREADS threads each), each capped at CAP seconds. Per run: the seconds to 49, 48
# and 47 (from events.jsonl), the best rank, and whether best-r47.json verifies exactly over GF2.
# Writes bench/results/flip_gf2-<UTC time>.json (or $OUT/flip_gf2.json when OUT is set, as on the
# device machine) and prints one line per run. Needs no python.
#
# Environment: TDISC (build/ci/tdisc), SEEDS ("1 2 3"), THREADS (2), CAP (3600 s), RECIPES: lines of
# "label JSON" (default: one recipe, "default {}"), e.g.
#   RECIPES=$'plain {}\nundo {"undo_dead_ends":true}' SEEDS="1 2 3 4" THREADS=1 CAP=240 bench/flip_gf2.sh
# RUNS (a scratch folder for the run directories, default a temporary one), COMMIT (the commit to record,
# for a staged binary run outside its checkout).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/ci/tdisc}
SEEDS=${SEEDS:-"1 2 3"}
THREADS=${THREADS:-2}
CAP=${CAP:-3600}
RECIPES=${RECIPES:-"default {}"}
RUNS=${RUNS:-$(mktemp -d)}
[ -x "$TDISC" ] || { echo "tdisc: $TDISC: not built" >&2; exit 1; }
mkdir -p "$RUNS"

merge() {  # the recipe's params with walk_ring GF2 (a recipe may not set another ring)
  local p=$1
  if [ "$p" = "{}" ]; then echo '{"walk_ring":"GF2"}'; else echo "{\"walk_ring\":\"GF2\",${p#\{}"; fi
}

# Calls "$1 LABEL PARAMS SEED DIR" for every recipe and seed, in the current shell.
each_run() {
  local fn=$1 line label s
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    label=${line%% *}
    for s in $SEEDS; do "$fn" "$label" "$(merge "${line#* }")" "$s" "$RUNS/$label-s$s"; done
  done <<<"$RECIPES"
}

launch() {  # label params seed dir
  rm -rf "$4"
  "$TDISC" search --size 4x4 --rank 47 --ring GF2 --symmetry none --threads "$THREADS" --seed "$3" \
    --time "${CAP}s" --params "$2" --out "$4" >"$4.log" 2>&1 &
  pids+=($!)
}

started=$(date -u +%FT%TZ)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
pids=()
each_run launch
# the load half-way through the cap, sampled beside the runs (they may all end sooner)
(sleep $((CAP / 2)); cut -d' ' -f1-3 /proc/loadavg >"$RUNS/.load_mid") &
sampler=$!
for p in "${pids[@]}"; do wait "$p"; done
kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
load_mid=$(cat "$RUNS/.load_mid" 2>/dev/null || echo "runs ended before half the cap")

# seconds at which the run's best first reached rank R (empty: never)
reached() { grep -h '"event":"improved"' "$1/events.jsonl" 2>/dev/null | grep "\"rank\":$2," | head -1 |
  sed -n 's/.*"elapsed":\([0-9.e+-]*\).*/\1/p'; }
best() { grep -h '"event":"improved"' "$1/events.jsonl" 2>/dev/null | sed -n 's/.*"rank":\([0-9]*\),.*/\1/p' | sort -n | head -1; }
flips() { grep -h '"event":"finished"' "$1/events.jsonl" 2>/dev/null | tail -1 | sed -n 's/.*"flips":\([0-9.e+]*\).*/\1/p'; }

record() {  # label params seed dir
  local label=$1 params=$2 s=$3 dir=$4 t49 t48 t47 b verified=false
  t49=$(reached "$dir" 49); t48=$(reached "$dir" 48); t47=$(reached "$dir" 47); b=$(best "$dir")
  if [ -f "$dir/best-r47.json" ] && "$TDISC" verify "$dir/best-r47.json" >/dev/null 2>&1; then verified=true; fi
  total=$((total + 1)); [ -n "$t47" ] && hits47=$((hits47 + 1)); [ -n "$t48$t47" ] && hits48=$((hits48 + 1))
  printf '%-10s seed %-3s best %-3s 49: %-8s 48: %-8s 47: %-8s verified %s\n' "$label" "$s" "${b:--}" "${t49:--}" "${t48:--}" "${t47:--}" "$verified"
  [ -n "$runs" ] && runs+=","
  runs+=$(printf '\n    {"recipe":"%s","params":%s,"seed":%s,"best":%s,"t49":%s,"t48":%s,"t47":%s,"r47_verified":%s,"flips":%s}' \
    "$label" "$params" "$s" "${b:-null}" "${t49:-null}" "${t48:-null}" "${t47:-null}" "$verified" "$(flips "$dir" | grep . || echo null)")
}
runs=""
hits47=0; hits48=0; total=0
each_run record
echo "reached 47: $hits47 of $total runs; 48 or lower: $hits48 of $total (cap ${CAP}s, $THREADS threads each)"

commit=${COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}
cpus=$(nproc 2>/dev/null || echo "?")
model=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || echo "?")
if [ -n "${OUT:-}" ]; then file=$OUT/flip_gf2.json; else mkdir -p "$ROOT/bench/results"; file=$ROOT/bench/results/flip_gf2-$(date -u +%Y%m%dT%H%M%SZ).json; fi
cat >"$file.tmp" <<EOF
{
  "bench": "flip_gf2",
  "target": "4x4:47 over GF2, --symmetry none",
  "date": "$started",
  "machine": {"host": "$(hostname)", "cpus": $cpus, "model": "$model"},
  "commit": "$commit",
  "command": "tdisc search --size 4x4 --rank 47 --ring GF2 --symmetry none --threads $THREADS --seed S --time ${CAP}s --params P",
  "threads_per_run": $THREADS, "cap_seconds": $CAP, "seeds": "$SEEDS", "parallel_runs": $total,
  "loadavg": {"before": "$load_before", "middle": "$load_mid", "after": "$(cut -d' ' -f1-3 /proc/loadavg)"},
  "hits47": $hits47, "hits48": $hits48, "runs": [$runs
  ]
}
EOF
mv "$file.tmp" "$file"
echo "wrote $file"
if [ -n "${OUT:-}" ]; then  # the found schemes and the logs come back from the device machine
  (cd "$RUNS" && tar czf "$OUT/flip_gf2-runs.tgz" --exclude=checkpoint.json --exclude='best-r5*.json' --exclude='best-r6*.json' . ) || true
fi
