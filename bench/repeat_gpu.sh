#!/usr/bin/env bash
# bench/repeat_gpu.sh: does a GPU find repeat? Runs each seed twice, back to back, on the same card,
# and compares the scheme found (sha256) and the restart that found it (issue 25, item 5).
#   bench/repeat_gpu.sh TDISC "SEARCH ARGS" "SEEDS"   → $OUT/repeat.jsonl, one line per seed
# Example: bench/repeat_gpu.sh stage/tdisc "--size 2x4x5 --rank 32 --time 60s" "1 2 3"
set -uo pipefail
tdisc=${1:?tdisc binary}
args=${2:?search arguments}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
threads=$(( $(nproc) > 3 ? $(nproc) - 2 : 2 ))
for s in ${3:-1 2}; do
  for k in 1 2; do
    # shellcheck disable=SC2086
    "$tdisc" search $args --engine numeric --device cuda --threads "$threads" --seed "$s" \
      --out "$OUT/repeat-$s-$k" > "$OUT/repeat-$s-$k.log" 2>&1
  done
  python3 - "$OUT" "$s" "$args" <<'PY' | tee -a "$OUT/repeat.jsonl"
import glob, hashlib, json, sys
out, seed, args = sys.argv[1], sys.argv[2], sys.argv[3]
def find(k):
    files = sorted(glob.glob(f"{out}/repeat-{seed}-{k}/best-r*.json"))
    if not files: return None
    j = json.load(open(files[-1]))
    body = json.dumps([j.get("u"), j.get("v"), j.get("w")])
    return {"file": files[-1].split("/")[-1], "restart": j.get("provenance", {}).get("restart"),
            "coefficients_sha256": hashlib.sha256(body.encode()).hexdigest()[:16]}
a, b = find(1), find(2)
print(json.dumps({"args": args, "seed": int(seed), "first": a, "second": b,
                  "repeated": a is not None and a == b}))
PY
done
