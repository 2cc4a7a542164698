#!/usr/bin/env bash
# bench/ozaki_error.sh [K] [ROWS] [SEED]: the Ozaki-II error on the host (bench_ozaki_error, the library's
# own integer maths) for the scaling rule of the library (rounded, one real limit) and the rule it replaced
# (truncated, integer bits), at each moduli count,
# f64 and f32, uniform and wide-range inputs; writes bench/results/ozaki-error-<date>.json. No GPU: the
# error of an exact emulation does not depend on where its integer products run. The baseline is a plain
# FMA dot product (a proxy for cuBLAS's error; the device tune measures against cuBLAS itself).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
k=${1:-16384} rows=${2:-16} seed=${3:-1}
cmake --build "$ROOT/build/ci" --target bench_ozaki_error >/dev/null
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
load_before=$(cut -d' ' -f1 /proc/loadavg)
"$ROOT/build/ci/bench_ozaki_error" "$k" "$rows" "$seed" >"$raw"
python3 - "$raw" "$ROOT" "$k" "$rows" "$seed" "$load_before" "$(git -C "$ROOT" rev-parse --short HEAD)" <<'PY'
import json, os, platform, sys, time
raw, root, k, rows, seed, load, commit = sys.argv[1:]
sys.path.insert(0, os.path.join(root, "bench"))
from bench_json import write_result
runs = json.load(open(raw))["runs"]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
by = {(r["dtype"], r["inputs"], r["moduli"], r["rule"]): r for r in runs}
table = []
for (dtype, inputs, n, rule), r in sorted(by.items()):
    if rule != "rounded":
        continue
    p = by[(dtype, inputs, n, "truncated")]
    print(f"{dtype} {inputs:7} {n:2} moduli: error {p['ratio']:.3g}x -> {r['ratio']:.3g}x the plain dot product's "
          f"(line limit 2^{r['limit_bits']:.2f})")
    table.append({"case": f"{dtype} {inputs}, {n} moduli", "value": f"{r['ratio']:.3g}×", "baseline": f"{p['ratio']:.3g}×",
                  "ratio": round(r["error"] / p["error"], 3)})
rows_shown = [t for t in table if t["case"].split(", ")[1] in ("7 moduli", "14 moduli")]
result = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "machine": f"VM ({os.cpu_count()} cores, {cpu}), load {load}",
          "commit": commit, "command": f"bench/ozaki_error.sh {k} {rows} {seed}", "k": int(k), "rows": int(rows),
          "seed": int(seed), "runs": runs}
write_result(result, None, root, "ozaki-error", summary={
    "area": "Ozaki/emulation",
    "title": f"Ozaki-II error on the host, k = {k}: rounded scaling to one real limit (value) against truncation to integer bits (baseline), "
             "each as a multiple of a plain FMA dot product's error",
    "rows": rows_shown})
PY
