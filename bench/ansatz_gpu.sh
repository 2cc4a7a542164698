#!/usr/bin/env bash
# bench/ansatz_gpu.sh: searches inside symmetric ansätze on the GPU (issue 25), one device call.
#   bench/ansatz_gpu.sh --stage DIR    here: tdisc, tests_gpu and their non-CUDA shared libraries → DIR
#   bench/ansatz_gpu.sh DIR            on the GPU machine: the [gpu] seed-space tests, the plain-Adam
#                                      PyTorch probe (bench/ansatz_probe.py) and tdisc in z3xz4 on the same
#                                      card back to back (4,096 starts each), then the rational ansätze
#                                      in ANSATZ_FILES for what remains of BENCH_BUDGET seconds → $OUT
# Environment: BENCH_SEED (1), BENCH_STARTS (4096), BENCH_BUDGET (420), ANSATZ_FILES (space-separated).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
seed=${BENCH_SEED:-1}
starts=${BENCH_STARTS:-4096}
budget=${BENCH_BUDGET:-420}

if [ "${1:-}" = "--stage" ]; then
  set -e
  dir=${2:?stage directory}
  build=${BUILD:-build/ci}
  rm -rf "$dir" && mkdir -p "$dir/lib"
  cp "$build/tdisc" "$build/tests/tests_gpu" bench/ansatz_gpu.sh bench/ansatz_probe.py "$dir/"
  cp algorithms/ansatz/*.json "$dir/" 2>/dev/null || true
  bench/stage_libs.sh "$dir" "$dir/tdisc" "$dir/tests_gpu"
  git rev-parse HEAD > "$dir/commit.txt"
  du -sh "$dir"
  exit 0
fi

dir=${1:?staged directory}
export LD_LIBRARY_PATH=$dir/lib:${LD_LIBRARY_PATH:-}
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/card.txt"
nproc > "$OUT/cores.txt"
"$dir/tests_gpu" "[gpu]" -r compact 2>&1 | tail -5 | tee "$OUT/tests.txt"

# The baseline and tdisc on the same card, back to back, the same number of starts and steps.
[ -n "${SKIP_PROBE:-}" ] || python3 "$dir/ansatz_probe.py" --starts "$starts" --steps 8000 --seed "$seed" | tee "$OUT/probe.json"
threads=$(( $(nproc) - 2 ))
/usr/bin/time -f "%e s" "$dir/tdisc" search --size 4x4 --rank 48 --ring QI --engine numeric --device cuda \
  --threads "$threads" --seed "$seed" --time ${Z3XZ4_TIME:-240}s --out "$OUT/z3xz4" \
  --params "{\"ansatz\":\"z3xz4\",\"ansatz_round\":false,\"restarts\":$starts,\"adam_steps\":8000${Z3XZ4_PARAMS:-}}" \
  > "$OUT/z3xz4.log" 2>&1
tail -3 "$OUT/z3xz4.log"
python3 - "$OUT/z3xz4/events.jsonl" <<'PY' | tee "$OUT/z3xz4.json"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
fin = next((e for e in ev if e.get("event") == "finished"), {})
start = next((e for e in ev if e.get("event") == "numeric_start"), {})
sols = [e for e in ev if e.get("event") == "numerical_solution"]
secs = fin.get("elapsed", 0) or 1e-9
print(json.dumps({"tool": "tdisc z3xz4", "seconds": round(secs, 2), "restarts": fin.get("counters", {}).get("restarts"),
                  "device_seconds": fin.get("counters", {}).get("device_seconds"), "steps": fin.get("counters", {}).get("steps"),
                  "numerical_48s": len(sols),
                  "per_second": len(sols) / secs, "best_residual": min([e["residual"] for e in sols], default=None),
                  "device": start.get("device")}))
PY

# The rational ansätze (groups of published schemes, coefficients from random starts) with the rest.
for f in ${ANSATZ_FILES:-}; do
  left=$(( budget - ($(date +%s) - start) ))
  [ "$left" -gt 20 ] || break
  name=$(basename "$f" .json)
  "$dir/tdisc" search --size 4x4 --rank 48 --ring Q --engine numeric --device cuda --threads "$threads" \
    --seed "$seed" --time "${left}s" --out "$OUT/$name" --params "{\"ansatz\":\"$f\"${ANSATZ_PARAMS:-}}" \
    > "$OUT/$name.log" 2>&1
  tail -2 "$OUT/$name.log"
done
tar czf "$OUT/runs.tgz" -C "$OUT" $(cd "$OUT" && ls -d */ 2>/dev/null) 2>/dev/null
