#!/usr/bin/env bash
# bench/ozaki.sh: the emulated plans (Ozaki-II on INT8 tensor cores, alone and with scheme levels over
# Z/p) beside cuBLAS and the native plans, in one process on one GPU machine (issue 30). Modes:
#   bench/ozaki.sh --stage DIR   (here) copies into DIR the library source (codegen/gemm), this script,
#                                the GEMMul8 driver and, when GEMMUL8_SRC (a GEMMul8 checkout, or the
#                                bare mirror /work/.mirror/RIKEN-RCCS+GEMMul8/repo) is there, GEMMul8's
#                                source to build on the device (a benchmark only, never part of the tree);
#                                With GEMMUL8_LIB (a libgemmul8.a built here for sm_90: nvcc needs no GPU) it is
#                                staged prebuilt, and the device skips GEMMul8's make. With TDISC_BIN (a tdisc
#                                binary) it is staged with its shared libraries, for the tune step.
#   DIR/ozaki.sh [STEP…]         (on the GPU machine) steps: build, ozaki, gemmul8 (default: all three),
#                                check (tdisc_gemm_check: the gemm_gpu test's checks), int8 (tdisc_gemm_int8:
#                                the INT8 product by cublasGemmEx, panels, batched; 14 back to back as oz2 runs
#                                them, by panels of columns or rows, NN, and each cuBLASLt heuristic algorithm),
#                                panels (oz2 at 16384 f64 with one INT8 product, or B in panels of 8192 and
#                                4096 columns: TDISC_OZAKI_PANEL), tune (`tdisc tune --emulated` for f64 and
#                                f32 at 4096, 8192, 16384: the emulated plan table of this card; TUNE_SIZES,
#                                TUNE_DTYPES, TUNE_EMULATED, TUNE_MODULI and TUNE_JSON change what
#                                and where; TDISC_OZAKI_PHASES=1 adds each call's phases to the log).
#                                build: libtdisc_gemm (PLANS=all by default: the native plans too) and
#                                tdisc_gemm_ozaki, GEMMul8 in the background; ozaki: tdisc_gemm_ozaki (cuBLAS,
#                                native, oz2, oz2-s1, oz2-r48 at 4096, 8192, 16384, f64 and f32; wide
#                                exponent range at 4096; moduli sweeps at 4096 and 16384; bit-identity of
#                                every level to oz2; phases at 16384); gemmul8: GEMMul8 on the same inputs.
# Results in $OUT: ozaki.json, gemmul8.json (when built), int8.json, ozaki.log. Exit 1 when a check fails.
# Staged under the repository as stage/ (ignored by git), it reaches the GPU machine as a carried path
# (the device tool's carry: ["stage"]); bench/ozaki_results.py DIR TAG turns a run's files into one result.
# Time: the build (PLANS=all compiles the native plans: a few minutes on 16 cores; PLANS=small builds s1
# only, and "native" then means s1 or cuBLAS), the benchmark (about two minutes), GEMMul8 at most
# GEMMUL8_WAIT (90 s) for its make plus GEMMUL8_TIMEOUT (120 s) for its run.
set -uo pipefail

if [ "${1:-}" = "--stage" ]; then
  set -e
  dir=${2:?stage directory}
  src=$(cd "$(dirname "$0")/.." && pwd)
  rm -rf "$dir" && mkdir -p "$dir"
  cp -r "$src/codegen/gemm" "$dir/gemm"
  cp -r "$src/codegen/runtime" "$dir/runtime"  # the generated plans include ../../runtime/*.inc
  cp "$src/bench/ozaki.sh" "$src/bench/gemmul8_driver.cu" "$dir/"
  g8=${GEMMUL8_SRC:-/work/.mirror/RIKEN-RCCS+GEMMul8/repo}
  if [ -f "$g8/Makefile" ]; then
    mkdir -p "$dir/gemmul8" && cp -r "$g8/include" "$g8/src" "$g8/Makefile" "$dir/gemmul8/"
  elif git -C "$g8" rev-parse HEAD >/dev/null 2>&1; then  # a bare mirror: its GEMMul8/ folder
    mkdir -p "$dir/gemmul8.tmp" && git -C "$g8" archive HEAD GEMMul8 | tar -x -C "$dir/gemmul8.tmp"
    mkdir -p "$dir/gemmul8" && cp -r "$dir"/gemmul8.tmp/GEMMul8/{include,src,Makefile} "$dir/gemmul8/"
    git -C "$g8" rev-parse HEAD >"$dir/gemmul8/COMMIT"
    rm -rf "$dir/gemmul8.tmp"
  else
    echo "GEMMul8 source not found at $g8: staged without it"
  fi
  rm -f "$dir"/gemmul8/src/*.o
  if [ -n "${GEMMUL8_LIB:-}" ] && [ -d "$dir/gemmul8" ]; then mkdir -p "$dir/gemmul8/lib" && cp "$GEMMUL8_LIB" "$dir/gemmul8/lib/"; fi
  if [ -n "${TDISC_BIN:-}" ]; then
    mkdir -p "$dir/bin/lib" && cp "$TDISC_BIN" "$dir/bin/tdisc"
    ldd "$TDISC_BIN" | awk '/=> \// {print $3}' | grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
      xargs -r -I{} cp -L {} "$dir/bin/lib/"
  fi
  git -C "$src" rev-parse HEAD >"$dir/COMMIT"
  du -sh "$dir"
  exit 0
fi

here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$here/out}
mkdir -p "$OUT"
log=$OUT/ozaki.log
build=${GEMM_BUILD:-/tmp/tdisc-ozaki-build}
export NVIDIA_TF32_OVERRIDE=0  # the f32 baseline must not use TF32
export TDISC_COMMIT=$(cat "$here/COMMIT" 2>/dev/null)
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$build:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
jobs=$(nproc)
status=0
say() { echo "== $* ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$log"; }

step_build() {
  say "build: libtdisc_gemm (plans ${PLANS:-all}) and tdisc_gemm_ozaki with $jobs jobs"
  mkdir -p "$build"
  if [ -d "$here/gemmul8" ] && [ "${GEMMUL8:-1}" = 1 ] && [ ! -f "$here/gemmul8/lib/libgemmul8.a" ]; then
    # in the background; step gemmul8 waits for it
    setsid bash -c 'cd "$1" && nice make -j"$2" BACKEND=cuda GPU_ARCH=90 lib/libgemmul8.a' _ "$here/gemmul8" "$jobs" \
      >"$build/gemmul8-build.log" 2>&1 </dev/null &
    gemmul8_make=$!  # its own session: killed as a group if it outlasts GEMMUL8_WAIT
  fi
  cmake -S "$here/gemm" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTDISC_GEMM_PLANS=${PLANS:-all} \
    -DTDISC_GEMM_TOOLS=ON >>"$log" 2>&1 &&
    cmake --build "$build" -j"$jobs" --target tdisc_gemm_ozaki tdisc_gemm_check tdisc_gemm_int8 >>"$log" 2>&1 ||
    { say "build FAILED"; tail -40 "$log"; return 1; }
  say "build done"
}

gemmul8_make=""
link_gemmul8() {
  if [ -n "$gemmul8_make" ]; then  # at most GEMMUL8_WAIT seconds, so that the run ends inside its limit
    say "waiting for GEMMul8's make (at most ${GEMMUL8_WAIT:-90} s)"
    for _ in $(seq "${GEMMUL8_WAIT:-90}"); do kill -0 "$gemmul8_make" 2>/dev/null || break; sleep 1; done
    if kill -0 "$gemmul8_make" 2>/dev/null; then
      say "GEMMul8's make still running: not measured"; kill -- "-$gemmul8_make" 2>/dev/null; return 0
    fi
  fi
  if [ -f "$here/gemmul8/lib/libgemmul8.a" ]; then
    nvcc -O3 -std=c++20 -gencode arch=compute_90,code=sm_90 -I"$here/gemmul8/include" -I"$here/gemm/include" \
      -I"$here/gemm/tools" "$here/gemmul8_driver.cu" -o "$build/gemmul8_driver" -L"$here/gemmul8/lib" -lgemmul8 \
      -L"$build" -ltdisc_gemm -lcublas -lcublasLt -Xlinker -rpath="$build" >>"$log" 2>&1 && say "GEMMul8 built" ||
      say "GEMMul8 driver did not build (its API may have moved since bench/gemmul8_driver.cu)"
  elif [ -d "$here/gemmul8" ]; then
    say "GEMMul8 did not build: $(tail -5 "$build/gemmul8-build.log" 2>/dev/null | tr '\n' ' ')"
  fi
}

step_ozaki() {
  say "ozaki: cuBLAS, native, ${VARIANTS:-oz2,oz2-s1,oz2-r48} at ${SIZES:-4096,8192,16384}"
  "$build/tdisc_gemm_ozaki" "$OUT/${OZAKI_JSON:-ozaki.json}" --dtypes ${DTYPES:-f64,f32} --sizes ${SIZES:-4096,8192,16384} \
    --variants ${VARIANTS:-oz2,oz2-s1,oz2-r48} --reps ${REPS:-5} --wide-at ${WIDE_AT:-4096} \
    --sweep-at ${SWEEP_AT:-4096,16384} --phases-at ${PHASES_AT:-16384} 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || { say "ozaki: a check FAILED (see above)"; status=1; }
}

step_check() {  # the gemm_gpu test's checks: every compiled plan, the emulated ones with their levels
  say "check: tdisc_gemm_check"
  "$build/tdisc_gemm_check" 2>&1 | tail -${CHECK_TAIL:-25} | tee -a "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || { say "check FAILED"; status=1; }
}

step_int8() {  # the INT8 product alone, by each way of calling cuBLAS(Lt)
  say "int8: tdisc_gemm_int8 at ${INT8_N:-16384}"
  "$build/tdisc_gemm_int8" "$OUT/int8.json" ${INT8_N:-16384} ${REPS:-5} 2>&1 | tee -a "$log"
}

step_panels() {
  for panel in 0 8192 4096; do
    say "panels: oz2 f64 16384, TDISC_OZAKI_PANEL=$panel"
    TDISC_OZAKI_PANEL=$panel "$build/tdisc_gemm_ozaki" "$OUT/panel-$panel.json" --dtypes f64 --sizes 16384 --variants oz2 \
      --reps 3 --wide-at 0 --sweep-at 0 --phases-at 0 2>&1 | grep -E "oz2 |cublas" | tee -a "$log"
  done
}

step_tune() {
  [ -x "$here/bin/tdisc" ] || { say "tune: no tdisc staged (TDISC_BIN)"; return 0; }
  say "tune: tdisc tune --emulated on this card"
  LD_LIBRARY_PATH=$here/bin/lib:$LD_LIBRARY_PATH "$here/bin/tdisc" tune --library "$build/libtdisc_gemm.so" \
    --dtype ${TUNE_DTYPES:-f64,f32} --sizes ${TUNE_SIZES:-4096,8192,16384} --shapes "${TUNE_SHAPES:-}" --leaf ${TUNE_LEAF:-batched} \
    --emulated ${TUNE_EMULATED:-oz2,oz2-s1,oz2-r48} ${TUNE_MODULI:+--moduli $TUNE_MODULI} --reps 3 \
    --out "$OUT/${TUNE_JSON:-plans-emulated.json}" 2>&1 | tee -a "$log"
}

step_gemmul8() {
  [ -x "$build/gemmul8_driver" ] || link_gemmul8
  if [ -x "$build/gemmul8_driver" ]; then
    say "GEMMul8 on the same inputs"
    timeout ${GEMMUL8_TIMEOUT:-120} "$build/gemmul8_driver" "$OUT/${G8_JSON:-gemmul8.json}" --sizes-f64 ${G8_F64:-4096,8192,16384} \
      --sizes-f32 ${G8_F32:-8192,16384} --reps ${REPS:-5} --reps-large 3 --wide-at ${WIDE_AT:-4096} \
      --commit "$(cat "$here/COMMIT" 2>/dev/null)" 2>&1 | tee -a "$log"
  else
    say "GEMMul8: not built, not measured"
  fi
}

echo "commit $(cat "$here/COMMIT" 2>/dev/null), $(date -u +%FT%TZ), $0 $*" | tee -a "$log"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv | tee -a "$log"
steps=("$@")
[ ${#steps[@]} = 0 ] && steps=(build ozaki gemmul8)
for s in "${steps[@]}"; do
  if [ ! -x "$build/tdisc_gemm_ozaki" ] && [ "$s" != build ]; then step_build || exit 1; fi
  "step_$s" || exit 1
done
say "done (status $status)"
exit $status
