#!/usr/bin/env bash
# bench/numeric_gpu.sh: the numeric engine's CUDA batch against its CPU threads with the same
# schedule (docs/PERFORMANCE.md "Numeric engine on the GPU"). Three modes:
#   bench/numeric_gpu.sh --stage DIR   here: copies tdisc, tests_gpu, tests_numeric and their non-CUDA
#                                      shared libraries into DIR (a GPU machine then needs nothing else);
#   bench/numeric_gpu.sh --cpu         here: the CPU baselines (4x4:48 over Q(i) restarts per hour,
#                                      3x3:23 over Q fraction of restarts that end exact) → $OUT;
#   bench/numeric_gpu.sh DIR           on the GPU machine: [gpu] tests, throughput, quality, 2x4x5:32,
#                                      and a 4x4:48 hunt with what remains of BENCH_BUDGET seconds → $OUT;
#   bench/numeric_gpu.sh --summarise GPU_OUT CPU_OUT  here: writes bench/results/numeric_gpu-<date>.json.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
OUT=${OUT:-$root/out}
mkdir -p "$OUT"
seed=${BENCH_SEED:-1}

if [ "${1:-}" = "--stage" ]; then
  set -e
  dir=${2:?stage directory}
  rm -rf "$dir" && mkdir -p "$dir/lib"
  build=${BUILD:-build/ci}  # e.g. a build configured with -DTDISC_MARCH=x86-64-v4 for an AVX-512 host
  cp "$build/tdisc" "$build/tests/tests_gpu" "$build/tests/tests_numeric" bench/numeric_gpu.sh "$dir/"
  bench/stage_libs.sh "$dir" "$dir/tdisc" "$dir/tests_gpu" "$dir/tests_numeric"
  git rev-parse HEAD > "$dir/commit.txt"
  du -sh "$dir"
  exit 0
fi

if [ "${1:-}" = "--summarise" ]; then
  gpu=${2:?GPU output folder} cpu=${3:?CPU output folder}
  mkdir -p bench/results
  result=${RESULT:-bench/results/numeric_gpu-$(date -u +%F).json}
  python3 - "$gpu" "$cpu" "$result" "$(git rev-parse HEAD)" <<'PY'
import json, os, sys, tarfile, tempfile, datetime
gpu, cpu, result, commit = sys.argv[1:5]
runs = tempfile.mkdtemp()
if os.path.exists(f"{gpu}/runs.tgz"):
    tarfile.open(f"{gpu}/runs.tgz").extractall(runs)
def events(d):
    p = f"{d}/events.jsonl"
    return [json.loads(l) for l in open(p)] if os.path.exists(p) else []
def run_summary(d):
    ev = events(d)
    fin = next((e for e in ev if e.get("event") == "finished"), {})
    start = next((e for e in ev if e.get("event") == "numeric_start"), {})
    batch = next((e for e in reversed(ev) if e.get("event", "").startswith("numeric_batch")), {})
    secs = fin.get("elapsed", 0) or 1e-9
    restarts = fin.get("counters", {}).get("restarts", 0)
    out = {"seconds": secs, "reached": fin.get("reached"), "best_rank": fin.get("best_rank"),
           "restarts": restarts, "restarts_per_hour": restarts / secs * 3600,
           "best_residual": fin.get("counters", {}).get("residual"), "start": start}
    if batch:
        out["batch"] = batch
        out["sweeps_per_second"] = batch["sweeps"] / secs
        out["near_misses_per_hour"] = batch["near_misses"] / secs * 3600
    found = [e for e in ev if e.get("event") in ("improved", "new_best", "best")]
    if found: out["first_improvement"] = found[0]
    curve = [{"t": e.get("elapsed"), "best_residual": e.get("best_residual"), "near_misses": e.get("near_misses"),
              "started": e.get("restarts_started"), "rounding": e.get("rounding")} for e in ev if e.get("event") == "numeric_batch"]
    if curve: out["curve"] = curve
    return out
def flops_per_sweep(d, R, complex_, pairs):
    # useful arithmetic of one ALS sweep (three factor updates) plus a 25th of the residual check
    c = 8 if complex_ else 2  # flops per multiply-add
    f = 0
    for q in range(3):
        I, J, K = d[q], d[(q + 1) % 3], d[(q + 2) % 3]
        f += c * (R * (R + 1) / 2 * (J + K + 1) + pairs * R + R ** 3 / 6 + I * R * R)
    f += c * 2 * d[0] * d[1] * d[2] * R / 25
    return f
out = {"date": datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"), "commit": commit,
       "command": "bench/numeric_gpu.sh (GPU: one device call; CPU: --cpu here)", "seed": 1, "gpu": {}, "cpu": {}}
for name in sorted(os.listdir(f"{runs}/runs")) if os.path.isdir(f"{runs}/runs") else []:
    out["gpu"][name] = run_summary(f"{runs}/runs/{name}")
for name in sorted(os.listdir(f"{cpu}/runs")) if os.path.isdir(f"{cpu}/runs") else []:
    out["cpu"][name] = run_summary(f"{cpu}/runs/{name}")
for side, d in (("gpu", gpu), ("cpu", cpu)):
    p = f"{d}/quality.jsonl"
    if not os.path.exists(p): continue
    lines = [json.loads(l) for l in open(p)]
    out[side]["quality-3x3-23"] = lines
    # Pooled over seeds, per configuration: exact schemes over restarts recorded and over restarts
    # that ran to an end of their own (cut-offs at the deadline excluded).
    groups = {}
    for q in lines:
        g = groups.setdefault(q.get("name", "?"), {"runs": 0, "seeds": [], "restarts": 0, "completed": 0, "verified": 0,
                                                   "params": q.get("params"), "seconds_each": q.get("seconds")})
        g["runs"] += 1; g["seeds"].append(q.get("seed"))
        for k in ("restarts", "completed", "verified", "started"): g[k] = g.get(k, 0) + q.get(k, 0)
        b = q.get("batch") or {}
        if b:  # GPU: near-misses reached (rounded or still parked), stalls, rounding outcomes
            for k, v in b.get("snap", {}).items(): g["snap_" + k] = g.get("snap_" + k, 0) + v
            for k, v in (q.get("stages") or {}).items():
                if k.startswith("found_by"): g[k] = g.get(k, 0) + v
            for k, v in (("near_misses", b["near_misses"]), ("stalled", sum(b["stalled"].values())),
                         ("rounded", b["rounding"]["found"] + b["rounding"]["repair_failed"] + b["rounding"]["rounding_failed"])):
                g[k] = g.get(k, 0) + v
    for g in groups.values():
        # Per restart, free of the rounding backlog: P(reach a near-miss) × P(a rounded near-miss
        # verifies). Biased upward when the hand-over rounds the most promising first.
        if g.get("rounded"):
            g["per_restart_estimate"] = g["near_misses"] / (g["near_misses"] + g["stalled"]) * g["verified"] / g["rounded"]
        g["fraction_exact"] = g["verified"] / g["restarts"] if g["restarts"] else 0
        g["fraction_exact_completed"] = g["verified"] / g["completed"] if g["completed"] else 0
        g["fraction_exact_started"] = g["verified"] / g["started"] if g.get("started") else 0
        g["verified_per_minute"] = g["verified"] / (g["runs"] * (g["seconds_each"] or 1)) * 60
    out["quality_summary"] = {**out.get("quality_summary", {}), **groups}
for side, d, name in (("gpu", gpu, "gpu.log"), ("cpu", cpu, "cpu.log")):
    p = f"{d}/{name}"
    if os.path.exists(p): out[side]["log_head"] = open(p).read()[:3000]
for f in ("load_before.txt", "load_after.txt"):
    if os.path.exists(f"{cpu}/{f}"): out["cpu"][f[:-4]] = open(f"{cpu}/{f}").read().strip()
t = out["gpu"].get("gpu-4x4-48-QI-throughput")
if t and "sweeps_per_second" in t:
    fl = flops_per_sweep([16, 16, 16], 48, True, 64)
    t["flops_per_sweep"] = fl
    t["tflops"] = fl * t["sweeps_per_second"] / 1e12
    t["share_of_fp64_peak"] = t["tflops"] / 33.5  # H200 FP64 without tensor cores: 33.5 TFLOP/s
    t["seconds_per_sweep_per_restart"] = t["batch"]["slots"] / t["sweeps_per_second"]
c = out["cpu"].get("cpu-4x4-48-QI")
if t and c and c["restarts_per_hour"]:
    out["speedup_restarts_per_hour_vs_one_cpu_thread"] = t["restarts_per_hour"] / c["restarts_per_hour"]
json.dump(out, open(result + ".tmp", "w"), indent=1)
os.replace(result + ".tmp", result)
print(json.dumps({k: v for k, v in out.items() if k != "gpu" and k != "cpu"}, indent=1))
for side in ("gpu", "cpu"):
    for k, v in out[side].items():
        if isinstance(v, dict):
            print(side, k, {x: v.get(x) for x in ("seconds", "restarts", "restarts_per_hour", "best_residual", "reached", "sweeps_per_second", "tflops", "share_of_fp64_peak", "near_misses_per_hour")})
        elif k.startswith("quality"):
            for q in v: print(side, k, {x: q.get(x) for x in ("name", "seed", "seconds", "restarts", "started", "completed", "verified", "fraction_exact", "fraction_exact_completed", "fraction_exact_started", "threads")})
print("written", result)
PY
  exit $?
fi

# One search; its run directory goes to $OUT/runs/NAME (events.jsonl, best files).
search() {
  local name=$1 secs=$2; shift 2
  echo "== $name: tdisc search $* --time ${secs}s --seed $seed (load $(cut -d' ' -f1-3 /proc/loadavg))"
  timeout $((secs + 20)) "$TDISC" search "$@" --time "${secs}s" --seed "$seed" --quiet --out "$OUT/runs/$name"
  echo "== $name: exit $?"
}

# Fraction of restarts ending exact (every verified scheme counted, the run goes on); the line
# carries both readings: of all restarts recorded, and of those that ran to an end of their own.
quality() {
  local name=$1 secs=$2 threads=$3 params=$4 qseed=${5:-$seed}
  echo "== $name: 3x3:23 over Q, ${secs}s, $threads threads, seed $qseed, params $params (load $(cut -d' ' -f1-3 /proc/loadavg))"
  TDISC_BENCH_FORMAT=3x3x3 TDISC_BENCH_RANK=23 TDISC_BENCH_RING=Q TDISC_BENCH_SEED=$qseed \
    TDISC_BENCH_SECONDS=$secs TDISC_BENCH_THREADS=$threads TDISC_BENCH_PARAMS="$params" \
    timeout $((secs + 120)) "$TESTS_NUMERIC" "bench: fraction of numeric restarts that end exact" 2>&1 |
    grep '^{' | sed "s/^{/{\"name\":\"$name\",/" | tee -a "$OUT/quality.jsonl"
}

# 3x3:23 quality over seeds 1..QUALITY_SEEDS: the GPU run and, beside it on one core of the same
# host, the CPU engine with one thread, the same seed and the same wall-clock budget.
quality_seeds() {
  local secs=$1 threads=$2 params=$3
  for s in $(seq 1 "${QUALITY_SEEDS:-10}"); do
    quality cpu-host-3x3-23 "$secs" 1 '{"device":"cpu"}' "$s" &
    quality gpu-3x3-23 "$secs" "$threads" "$params" "$s"
    wait
  done
}

if [ "${1:-}" = "--cpu" ]; then
  TDISC=$root/build/ci/tdisc TESTS_NUMERIC=$root/build/ci/tests/tests_numeric
  cat /proc/loadavg > "$OUT/load_before.txt"
  {
    echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) · $(nproc) cores · commit $(git rev-parse --short HEAD)"
    search cpu-4x4-48-QI ${CPU_SECONDS:-120} --size 4x4 --rank 48 --ring QI --engine numeric --device cpu --threads 1
    quality cpu-3x3-23 ${CPU_SECONDS:-120} 1 '{"device":"cpu"}'
    echo "load after: $(cat /proc/loadavg)"
    cat /proc/loadavg > "$OUT/load_after.txt"
  } 2>&1 | tee "$OUT/cpu.log"
  exit 0
fi

stage=${1:?usage: bench/numeric_gpu.sh STAGE_DIR}
export LD_LIBRARY_PATH=$root/$stage/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
TDISC=$root/$stage/tdisc TESTS_NUMERIC=$root/$stage/tests_numeric
threads=$(( $(nproc) - 2 ))  # one core for the driver, one for the CPU baseline run alongside
budget=${BENCH_BUDGET:-540}
t0=$(date +%s)
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
  echo "commit $(cat $stage/commit.txt) · $(nproc) cores · rounding threads $threads"
  echo "== tests: tests_gpu [numeric]"
  if [ -z "${SKIP_TESTS:-}" ]; then
    timeout 180 "$root/$stage/tests_gpu" "[numeric]" -d yes
    echo "== tests: exit $?"
  fi
  [ -n "${SKIP_THROUGHPUT:-}" ] || {
  # The CPU engine, one thread, on this host's otherwise idle core, beside the GPU run (same schedule).
  search cpu-host-4x4-48-QI ${T_THROUGHPUT:-60} --size 4x4 --rank 48 --ring QI --engine numeric --device cpu --threads 1 &
  search gpu-4x4-48-QI-throughput ${T_THROUGHPUT:-60} --size 4x4 --rank 48 --ring QI --engine numeric --device cuda --threads $threads
  wait
  }
  if [ -n "${VARIANTS:-}" ]; then
    # Diagnosis: one 3x3:23 run per GPU parameter set (one JSON object per line of VARIANTS), each
    # beside a CPU one-thread run of the next seed.
    k=0
    while IFS= read -r v; do
      k=$((k + 1))
      quality "cpu-host-3x3-23-v$k" ${T_QUALITY:-30} 1 '{"device":"cpu"}' $k &
      quality "gpu-3x3-23-v$k" ${T_QUALITY:-30} $threads "$v" 1
      wait
    done <<< "$VARIANTS"
    [ -n "${ONLY_VARIANTS:-}" ] && { echo "== done after $(( $(date +%s) - t0 )) s"; exit 0; }
  fi
  if [ "${QUALITY_SEEDS:-10}" -gt 0 ]; then
    gpu_quality_params=${GPU_QUALITY_PARAMS:-'{"device":"cuda"}'}
    quality_seeds ${T_QUALITY:-20} $threads "$gpu_quality_params"
  fi
  [ "${T_245:-90}" -gt 0 ] && search gpu-2x4x5-32 ${T_245:-90} --size 2x4x5 --rank 32 --ring Q --engine numeric --device cuda --threads $threads
  left=$(( budget - ($(date +%s) - t0) ))
  [ $left -gt 30 ] && seed=$((seed + 1)) && search gpu-4x4-48-hunt $left --size 4x4 --rank 48 --ring QI --engine numeric --device cuda --threads $threads --params "${HUNT_PARAMS:-{\}}"
  echo "== done after $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/gpu.log"
tar czf "$OUT/runs.tgz" -C "$OUT" runs && rm -rf "$OUT/runs"
