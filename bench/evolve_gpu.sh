#!/usr/bin/env bash
# bench/evolve_gpu.sh: AlphaEvolve's recipe terms, restart culling and the recipe-evolution loop on the
# GPU (issue 25 item 4), one device call of at most 9 minutes.
#   bench/evolve_gpu.sh --stage DIR    here: tdisc, tests_gpu and their non-CUDA shared libraries → DIR
#   bench/evolve_gpu.sh DIR            on the GPU machine: the recipe-term [gpu] tests (GPU against CPU);
#                                      (a) numerical z3xz4 4x4:48s per second with the best known recipe
#                                      and with culling variants, same seed and time each; (b) a short
#                                      `tdisc evolve` from that recipe → $OUT (summary.jsonl line by line)
# Environment: BENCH_SEED (1), VARIANT_TIME (40 s per variant), CULLS (the culling variants, "AT:RESIDUAL"
# pairs), EVOLVE_GENERATIONS (2), EVOLVE_POPULATION (4), EVOLVE_TIME (15 s per recipe).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
seed=${BENCH_SEED:-1}
vtime=${VARIANT_TIME:-40}
# Culling at half the steps below 0.3 kept the 3 known solution restarts of seed 1 (residuals 0.08–0.12
# there) and 2 of 30 random ones on the CPU (docs/search-numeric.md); the others explore.
culls=${CULLS:-"0.5:0.3 0.5:0.5 0.375:0.5 0.25:1.5"}
base='"ansatz":"z3xz4","ansatz_round":false,"adam_steps":8000,"adam_lr":0.02,"init_scale":0.2'

if [ "${1:-}" = "--stage" ]; then
  set -e
  dir=${2:?stage directory}
  build=${BUILD:-build/ci}
  rm -rf "$dir" && mkdir -p "$dir/lib"
  cp "$build/tdisc" "$build/tests/tests_gpu" bench/evolve_gpu.sh "$dir/"
  bench/stage_libs.sh "$dir" "$dir/tdisc" "$dir/tests_gpu"
  git rev-parse HEAD > "$dir/commit.txt"
  du -sh "$dir"
  exit 0
fi

dir=${1:?staged directory}
export LD_LIBRARY_PATH=$dir/lib:${LD_LIBRARY_PATH:-}
summary=$OUT/summary.jsonl
: > "$summary"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/card.txt"
cp "$dir/commit.txt" "$OUT/" 2>/dev/null || true
threads=$(( $(nproc) > 3 ? $(nproc) - 2 : 1 ))

# GPU against CPU: the seed-space Adam with and without the recipe terms, step for step.
timeout 90 "$dir/tests_gpu" "seed-space Adam on the GPU*,the recipe terms on the GPU*" -r compact 2>&1 | tail -5 | tee "$OUT/tests.txt"
echo "{\"stage\":\"tests\",\"result\":$(tail -1 "$OUT/tests.txt" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))')}" >> "$summary"

# (a) numerical z3xz4 48s per second: the best known recipe, then each culling variant, same seed and time.
variant() {  # NAME EXTRA-PARAMS
  local name=$1 extra=$2
  "$dir/tdisc" search --size 4x4 --rank 48 --ring QI --engine numeric --device cuda --threads "$threads" \
    --seed "$seed" --time "${vtime}s" --out "$OUT/$name" --params "{$base$extra}" > "$OUT/$name.log" 2>&1
  python3 - "$OUT/$name/events.jsonl" "$name" "{$base$extra}" <<'PY' | tee -a "$summary"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
fin = next((e for e in ev if e.get("event") == "finished"), {})
c = fin.get("counters", {})
sols = [e for e in ev if e.get("event") == "numerical_solution"]
secs = fin.get("elapsed", 0) or 1e-9
print(json.dumps({"stage": "z3xz4", "variant": sys.argv[2], "params": json.loads(sys.argv[3]), "seconds": round(secs, 2),
                  "restarts": c.get("restarts"), "culled": c.get("culled", 0), "device_seconds": c.get("device_seconds"),
                  "numerical_48s": len(sols), "per_second": round(len(sols) / secs, 3),
                  "best_residual": min([e["residual"] for e in sols], default=None)}))
PY
}
variant best ""
for cv in $culls; do
  at=${cv%%:*}; res=${cv##*:}
  variant "cull-$at-$res" ",\"cull_at\":$at,\"cull_residual\":$res"
done

# (b) a short evolution from the best known recipe with culling at 0.5 (every recipe scored on the same seed).
gens=${EVOLVE_GENERATIONS:-2}; pop=${EVOLVE_POPULATION:-4}; etime=${EVOLVE_TIME:-15}
timeout $(( gens * pop * (etime + 15) + 30 )) "$dir/tdisc" evolve --size 4x4 --rank 48 --ring QI \
  --params "{$base,\"cull_at\":0.5,\"cull_residual\":0.3}" \
  --generations "$gens" --population "$pop" --time "${etime}s" --seed "$seed" --threads "$threads" --device cuda \
  --out "$OUT/evolve" 2>&1 | tee "$OUT/evolve.log"
python3 - "$OUT/evolve/evolve.json" <<'PY' | tee -a "$summary"
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    print(json.dumps({"stage": "evolve", "error": str(e)})); sys.exit()
print(json.dumps({"stage": "evolve", "complete": j["complete"], "evaluations": len(j["evaluations"]),
                  "best": j["best"], "best_params": j["best_params"],
                  "rates": [round(e["finds_per_second"], 3) for e in j["evaluations"]]}))
PY
tar czf "$OUT/runs.tgz" -C "$OUT" $(cd "$OUT" && ls -d */ 2>/dev/null) 2>/dev/null
