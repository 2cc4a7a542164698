#!/usr/bin/env bash
# bench/ansatz_subgroups.sh: searches for exact rational 4x4:48s inside SUBGROUPS of the published
# rational 48's symmetry group (order 64), and sorts every distinct find into equivalence classes:
# equivalent to the published 48 (tdisc symmetry --to exits 0) or not (exit 3: a new scheme).
#   bench/ansatz_subgroups.sh --stage DIR    here: tdisc, its non-CUDA shared libraries, the 48 → DIR
#   bench/ansatz_subgroups.sh DIR            on the GPU machine → $OUT (summary.jsonl, new/*.json)
# Environment: BENCH_SEED (1), SUBGROUPS ("0,1,2 0,4 0,1 1,2 0 2": generator lists as tdisc symmetry
# prints them), SUBGROUP_TIME (60 s each), BENCH_DEVICE (cuda).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
seed=${BENCH_SEED:-1}
published=r48-Q-2fc8ef12.json

if [ "${1:-}" = "--stage" ]; then
  set -e
  dir=${2:?stage directory}
  build=${BUILD:-build/ci}
  rm -rf "$dir" && mkdir -p "$dir/lib"
  cp "$build/tdisc" bench/ansatz_subgroups.sh "algorithms/4x4x4/$published" "$dir/"
  bench/stage_libs.sh "$dir" "$dir/tdisc"
  git rev-parse HEAD > "$dir/commit.txt"
  du -sh "$dir"
  exit 0
fi

dir=$(cd "${1:?staged directory}" && pwd)
export LD_LIBRARY_PATH=$dir/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name --format=csv,noheader > "$OUT/card.txt" 2>/dev/null || echo none > "$OUT/card.txt"
threads=$(( $(nproc) > 3 ? $(nproc) - 2 : 2 ))
mkdir -p "$OUT/new" "$OUT/work"
for gens in ${SUBGROUPS:-0,1,2 0,4 0,1 1,2 0 2}; do
  name=sub-${gens//,/-}
  work=$OUT/work/$name
  mkdir -p "$work/finds"
  "$dir/tdisc" symmetry "$dir/$published" --generators "$gens" -o "$work/ansatz.json" > "$work/symmetry.txt"
  "$dir/tdisc" search --size 4x4 --rank 48 --ring Q --engine numeric --device "${BENCH_DEVICE:-cuda}" \
    --threads "$threads" --seed "$seed" --time "${SUBGROUP_TIME:-60}s" --out "$work/run" \
    --params "{\"ansatz\":\"$work/ansatz.json\",\"keep_going\":true}" > "$work/search.log" 2>&1
  # Every distinct find as a file, then its class against the published 48, 14 at a time.
  python3 - "$work/run/events.jsonl" "$work/finds" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "exact_found" and "native" in e:
        open(f"{sys.argv[2]}/{e['sha256'][:12]}.json", "w").write(e["native"])
PY
  ls "$work/finds"/*.json 2>/dev/null | xargs -r -P "$threads" -I{} sh -c \
    '"$0" symmetry {} --to "$1" > /dev/null 2>&1; echo "$? {}"' "$dir/tdisc" "$dir/$published" > "$work/classes.txt"
  for f in $(awk '$1 == 3 {print $2}' "$work/classes.txt"); do cp "$f" "$OUT/new/$name-$(basename "$f")"; done
  python3 - "$gens" "$work" <<'PY' | tee -a "$OUT/summary.jsonl"
import json, sys, re
gens, work = sys.argv[1], sys.argv[2]
head = open(f"{work}/symmetry.txt").readline()
order = re.search(r"subgroup <[^>]*> of order (\d+)", head)
params = re.search(r"(\d+) seed parameters", open(f"{work}/symmetry.txt").read())
ev = [json.loads(l) for l in open(f"{work}/run/events.jsonl")]
fin = next((e for e in ev if e.get("event") == "finished"), {})
codes = [int(l.split()[0]) for l in open(f"{work}/classes.txt")]
print(json.dumps({"generators": gens, "order": int(order.group(1)) if order else None,
                  "seed_parameters": int(params.group(1)) if params else None,
                  "seconds": fin.get("elapsed"), "restarts": fin.get("counters", {}).get("restarts"),
                  "exact": fin.get("counters", {}).get("exact", 0),
                  "distinct": sum(1 for e in ev if e.get("event") == "exact_found" and "native" in e),
                  "equivalent_to_published": codes.count(0), "inequivalent": codes.count(3),
                  "undecided": len(codes) - codes.count(0) - codes.count(3)}))
PY
done
# The new classes: their own groups and rank types.
for f in "$OUT"/new/*.json; do
  [ -e "$f" ] || continue
  "$dir/tdisc" symmetry "$f" 2>&1 | head -2 >> "$OUT/new-groups.txt"
done
tar czf "$OUT/new.tgz" -C "$OUT" new 2>/dev/null
rm -rf "$OUT/new"; tar czf "$OUT/logs.tgz" -C "$OUT" $(cd "$OUT" && ls work/*/symmetry.txt work/*/search.log work/*/classes.txt 2>/dev/null)
rm -rf "$OUT/work"
