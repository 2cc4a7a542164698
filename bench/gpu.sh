#!/usr/bin/env bash
# bench/gpu.sh: generated GEMMs against cuBLAS on the GPU in one call: exact checks, errors, timings,
# the table (DESIGN §6, docs/PERFORMANCE.md "GPU kernels"). Two modes:
#   bench/gpu.sh --stage      (on a machine with tdisc built in build/ and nvcc) fills devbin/ with tdisc,
#                             tests_gpu, their shared libraries and the compiled harnesses, so a bare GPU
#                             machine needs nothing else;
#   bench/gpu.sh DTYPE [tests] (on the GPU machine) runs the harness of DTYPE (f32 or f64), writes
#                             $OUT/gpu-DTYPE.json and the log, and with "tests" also the [gpu] tests.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
schemes=${BENCH_SCHEMES:-"codegen/schemes/strassen.json@1 codegen/schemes/strassen.json@2 codegen/schemes/winograd.json@1 codegen/schemes/r48-4x4x4-Q.json@1"}
levels=1,2

if [ "${1:-}" = "--stage" ]; then
  set -e
  nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  rm -rf devbin && mkdir -p devbin/lib
  cp build/tdisc build/tests/tests_gpu devbin/
  for b in devbin/tdisc devbin/tests_gpu; do
    ldd "$b" | awk '/=> \// {print $3}' | grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
      xargs -r -I{} cp -Lu {} devbin/lib/
  done
  for dt in f32 f64; do
    build/tdisc bench $schemes --levels $levels --dtype $dt --prepare devbin/h-$dt
    (cd devbin/h-$dt && NVCC=$nvcc sh build.sh) &
  done
  wait
  ls -la devbin devbin/h-f32/bench devbin/h-f64/bench
  exit 0
fi

dt=${1:-f32}
OUT=${OUT:-$root/out}
mkdir -p "$OUT"
export NVIDIA_TF32_OVERRIDE=0  # the f32 baseline must not use TF32, whatever the environment says
export TDISC_COMMIT=${TDISC_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null)}  # into the JSON (harness.cuh)
export LD_LIBRARY_PATH=$root/devbin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export TDISC=$root/devbin/tdisc TDISC_SOURCE=$root
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
  --format=csv | tee "$OUT/device-$dt.txt"
h=devbin/h-$dt
if [ ! -x $h/bench ] || ! ldd $h/bench >/dev/null 2>&1; then
  echo "harness missing: building it here"
  if [ ! -f $h/bench_main.cu ]; then "$TDISC" bench $schemes --levels $levels --dtype $dt --prepare $h || exit 1; fi
  (cd $h && sh build.sh) || exit 1
fi
sizes=${BENCH_SIZES:-2048,4096,6144,8192,12288,16384,20480}
shapes=${BENCH_SHAPES:-16384x8192x12288,10001x9999x10007,20480x4096x16384}
set -x
timeout ${BENCH_TIMEOUT:-420} $h/bench --sizes $sizes --shapes $shapes --leaf ${BENCH_LEAF:-all} --reps 20 --warmup 3 \
  --json "$OUT/gpu-$dt.json" \
  2>&1 | tee "$OUT/bench-$dt.log"
rc=${PIPESTATUS[0]}
set +x
if [ "${2:-}" = "tests" ]; then
  sh tests/gpu/run_gpu_tests.sh devbin/tests_gpu 2>&1 | tail -5 | tee "$OUT/tests-gpu.log"
fi
echo "== summary ($dt, harness exit $rc) =="
grep -E "^(device|variant|exact checks|fast_p)" "$OUT/bench-$dt.log"
grep -E " (separate|batched|streams) +[0-9]" "$OUT/bench-$dt.log"
exit $rc
