#!/usr/bin/env bash
# bench/gemm_lib.sh: libtdisc_gemm as a user calls it against cuBLAS in the same process (issue 13),
# the bit-exact checks, `tdisc tune` and GEMMul8 beside it, on one GPU machine. Modes:
#   bench/gemm_lib.sh --stage DIR   (here, after building tdisc in build/ci) copies into DIR the library
#                                   source (codegen/gemm, codegen/runtime), the example, tdisc with its shared libraries
#                                   (for tune), this script, the GEMMul8 driver and GEMMul8's source
#                                   (GEMMUL8_SRC, default /work/peers/GEMMul8/GEMMul8), and with
#                                   PREBUILT=BUILD_DIR a library and tools built here (DIR/prebuilt;
#                                   run them there with GEMM_BUILD=DIR/prebuilt, no build step);
#   bench/gemm_lib.sh --driver BUILD (here) links the GEMMul8 driver (bench/gemmul8_driver.cu) against
#                                   GEMMul8's static library (GEMMUL8_SRC/lib/libgemmul8.a, built by its
#                                   own Makefile outside this repository) and BUILD's libtdisc_gemm,
#                                   into BUILD/gemmul8_driver (staged with PREBUILT=BUILD);
#   DIR/gemm_lib.sh STEP…           (on the GPU machine) with steps: build (library, tools, example,
#                                   GEMMul8), check, tune, sweep, lean, variants, phases, gemmul8. Results go to $OUT:
#                                   gemm-lib-f32.json, gemm-lib-f64.json, plans.json, gemmul8.json, gemm-lib.log.
set -uo pipefail

if [ "${1:-}" = "--driver" ]; then
  set -e
  build=$(cd "${2:?build directory with libtdisc_gemm.so}" && pwd)
  src=$(cd "$(dirname "$0")/.." && pwd)
  g8=${GEMMUL8_SRC:-/work/peers/GEMMul8/GEMMul8}
  nvcc -O3 -std=c++20 -gencode arch=compute_90,code=sm_90 -I"$g8/include" -I"$src/codegen/gemm/include" \
    -I"$src/codegen/gemm/tools" "$src/bench/gemmul8_driver.cu" -o "$build/gemmul8_driver" -L"$g8/lib" -lgemmul8 \
    -L"$build" -ltdisc_gemm -lcublas -lcublasLt -Xlinker -rpath='$ORIGIN'
  ldd "$build/gemmul8_driver" | grep -E 'not found|cublas|tdisc|stdc' || true
  exit 0
fi

if [ "${1:-}" = "--stage" ]; then
  set -e
  dir=${2:?stage directory}
  src=$(cd "$(dirname "$0")/.." && pwd)
  rm -rf "$dir" && mkdir -p "$dir/bin/lib"
  cp -r "$src/codegen/gemm" "$dir/gemm"
  cp -r "$src/codegen/runtime" "$dir/runtime"  # the plans' runtime and the measurement harness (../runtime)
  cp -r "$src/tests/gemm/example" "$dir/example"
  cp "$src/bench/gemm_lib.sh" "$src/bench/gemmul8_driver.cu" "$dir/"
  cp "$src/build/ci/tdisc" "$dir/bin/"
  ldd "$dir/bin/tdisc" | awk '/=> \// {print $3}' | grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
    xargs -r -I{} cp -Lu {} "$dir/bin/lib/"
  g8=${GEMMUL8_SRC:-/work/peers/GEMMul8/GEMMul8}
  if [ -d "$g8" ] && [ ! -f "${PREBUILT:-/nonexistent}/gemmul8_driver" ]; then  # source, to build there
    mkdir -p "$dir/gemmul8" && cp -r "$g8/include" "$g8/src" "$g8/Makefile" "$dir/gemmul8/" && rm -f "$dir"/gemmul8/src/*.o
  fi
  if [ -n "${PREBUILT:-}" ]; then
    mkdir -p "$dir/prebuilt"
    cp -P "$PREBUILT"/libtdisc_gemm.so* "$PREBUILT/tdisc_gemm_check" "$PREBUILT/tdisc_gemm_bench" "$dir/prebuilt/"
    [ -f "$PREBUILT/tdisc_gemm_phases" ] && cp "$PREBUILT/tdisc_gemm_phases" "$dir/prebuilt/"
    [ -f "$PREBUILT/gemmul8_driver" ] && cp "$PREBUILT/gemmul8_driver" "$dir/prebuilt/"
  fi
  git -C "$src" rev-parse HEAD >"$dir/COMMIT"
  du -sh "$dir"
  exit 0
fi

here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$here/out}
mkdir -p "$OUT"
log=$OUT/gemm-lib.log
build=${GEMM_BUILD:-/tmp/tdisc-gemm-build}
export NVIDIA_TF32_OVERRIDE=0  # the f32 baseline must not use TF32, whatever the environment says
export TDISC_COMMIT=$(cat "$here/COMMIT" 2>/dev/null)  # written into the benchmarks' JSON
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$build:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
case $build in "$here"/*) export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$here/bin/lib ;; esac  # built here: our C++ runtime
jobs=$(nproc)
say() { echo "== $* ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$log"; }

# Shapes of the sweep: squares 1024…32768, ragged, tall, wide, skinny (small k, large k), transposed.
SQUARES=1024,2048,3072,4096,6144,8192,12288,16384,20480,24576,32768
OTHERS=10001x9999x10007,5001x4999x5003,20001x19999x20003,32768x4096x4096,49152x8192x8192,4096x32768x4096
OTHERS=$OTHERS,8192x49152x8192,16384x16384x1024,16384x16384x2048,32768x32768x4096,2048x2048x32768,4096x4096x65536
OTHERS=$OTHERS,16384x8192x12288,20480x4096x16384,tn:8192x8192x8192,nt:8192x8192x8192,tt:16384x16384x16384
OTHERS=$OTHERS,tn:10001x9999x10007,nt:16384x8192x12288,tt:4096x4096x4096
SHAPES=${SWEEP_SHAPES:-$(echo $SQUARES | sed 's/\([0-9]*\)/\1x\1x\1/g'),$OTHERS}

step_build() {
  say "build: libtdisc_gemm (all plans, tools) with $jobs jobs"
  mkdir -p "$build"
  if [ -d "$here/gemmul8" ]; then
    (cd "$here/gemmul8" && make -j"$jobs" BACKEND=cuda GPU_ARCH=90 lib/libgemmul8.a >"$build/gemmul8-build.log" 2>&1 ||
       true) &
  fi
  cmake -S "$here/gemm" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTDISC_GEMM_PLANS=all -DTDISC_GEMM_TOOLS=ON \
    -DCMAKE_INSTALL_PREFIX="$build/prefix" >>"$log" 2>&1 &&
    cmake --build "$build" -j"$jobs" >>"$log" 2>&1 && cmake --install "$build" >>"$log" 2>&1 || { say "build FAILED"; tail -30 "$log"; return 1; }
  cmake -S "$here/example" -B "$build/example" -G Ninja -DCMAKE_PREFIX_PATH="$build/prefix" >>"$log" 2>&1 &&
    cmake --build "$build/example" >>"$log" 2>&1 || { say "example build FAILED"; return 1; }
  wait
  if [ -f "$here/gemmul8/lib/libgemmul8.a" ]; then
    nvcc -O3 -std=c++20 -gencode arch=compute_90,code=sm_90 -I"$here/gemmul8/include" -I"$here/gemm/include" \
      -I"$here/gemm/tools" "$here/gemmul8_driver.cu" -o "$build/gemmul8_driver" -L"$here/gemmul8/lib" -lgemmul8 \
      -L"$build" -ltdisc_gemm -lcublas -lcublasLt -Xlinker -rpath="$build" >>"$log" 2>&1 && say "GEMMul8 built" ||
      say "GEMMul8 driver did not build"
  else
    say "GEMMul8 did not build: $(tail -5 "$build/gemmul8-build.log" 2>/dev/null | tr '\n' ' ')"
  fi
  say "build done"
}

step_check() {
  say "check: bit-exact against cuBLAS, fallbacks; installed example"
  (cd "$build" && ./tdisc_gemm_check) 2>&1 | tee -a "$log" | grep -Ev '^ok ' | tail -20
  [ "${PIPESTATUS[0]}" = 0 ] || say "check FAILED"
  if [ -x "$build/example/gemm_example" ]; then "$build/example/gemm_example" 2>&1 | tail -3 | tee -a "$log"; fi
}

step_tune() {
  say "tune"
  LD_LIBRARY_PATH=$here/bin/lib:$build "$here/bin/tdisc" tune --library "$build/libtdisc_gemm.so" \
    --out "$OUT/plans.json" ${TUNE_ARGS:-} 2>&1 | tee -a "$log" | tail -3
}

step_sweep() {
  local table=${PLANS:-$OUT/plans.json}
  [ -f "$table" ] && export TDISC_GEMM_PLANS=$table
  for dt in ${DTYPES:-f32 f64}; do
    say "sweep $dt (plan table: ${TDISC_GEMM_PLANS:-built-in})"
    "$build/tdisc_gemm_bench" --dtype $dt --shapes "$SHAPES" --reps 20 --warmup 2 --json "$OUT/${SWEEP_NAME:-gemm-lib}-$dt.json" \
      ${SWEEP_ARGS:-} 2>&1 | tee -a "$log"
  done
}

step_lean() {
  for dt in ${DTYPES:-f32 f64}; do
    say "lean schedule and leaf variants, $dt"
    "$build/tdisc_gemm_bench" --dtype $dt --shapes ${LEAN_SHAPES:-8192x8192x8192,16384x16384x16384} --lean \
      --variants ${VARIANTS:-r48:0:0,r48:1:0,r48:2:0,r48s:0:0,r48s:1:0,r48s:2:0} --reps 20 --warmup 2 \
      --json "$OUT/gemm-lean-$dt.json" 2>&1 | tee -a "$log"
  done
}

step_variants() {  # forced plans (name:leaf:group) beside cuBLAS and the library's own choice
  for dt in ${DTYPES:-f64}; do
    say "forced plans, $dt: ${VARIANTS:-r48s:0:0,r48s:2:0,r48m:0:0,r48m:1:0,r48m:2:0} at ${VARIANT_SHAPES:-16384x16384x16384}"
    "$build/tdisc_gemm_bench" --dtype $dt --shapes ${VARIANT_SHAPES:-16384x16384x16384} \
      --variants ${VARIANTS:-r48s:0:0,r48s:2:0,r48m:0:0,r48m:1:0,r48m:2:0} --reps ${REPS:-10} --warmup 2 \
      --json "$OUT/${VARIANT_NAME:-gemm-variants}-$dt.json" 2>&1 | tee -a "$log"
  done
}

step_phases() {  # where the time of r48m goes at n = 16384 f64 (tdisc_gemm_phases; session gemm6)
  say "phases: r48m/r48s/r48 at ${PHASES_N:-16384} f64, additions beside the leaves, pipelined prototype"
  "$build/tdisc_gemm_phases" --n ${PHASES_N:-16384} --reps ${REPS:-5} \
    --json "$OUT/${PHASES_NAME:-gemm-phases}-f64.json" ${PHASES_ARGS:-} 2>&1 | tee -a "$log"
}

step_gemmul8() {
  if [ -x "$build/gemmul8_driver" ]; then
    say "GEMMul8 beside cuBLAS and tdisc"
    "$build/gemmul8_driver" "$OUT/gemmul8.json" --commit "$(cat "$here/COMMIT" 2>/dev/null)" ${GEMMUL8_ARGS:-} 2>&1 |
      tee -a "$log"
  else
    say "GEMMul8: not built, not measured"
  fi
}

echo "commit $(cat "$here/COMMIT" 2>/dev/null), $(date -u +%FT%TZ), $0 $*" | tee -a "$log"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv | tee -a "$log"
for s in "$@"; do
  if [ ! -x "$build/tdisc_gemm_bench" ] && [ "$s" != build ]; then step_build || exit 1; fi
  "step_$s" || exit 1
done
say "done"
