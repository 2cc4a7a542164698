#!/bin/sh
# Generated CUDA compiles for sm_90 (and sm_90a) with nvcc: f32 and f64, one and two levels,
# merged and recursive stages, a thin plan for both dtypes, the bench harness and libtdisc_gemm's
# tools. Exit 77 (skipped) when nvcc is absent.
# Usage: nvcc_compile.sh TDISC NVCC SOURCE_DIR
set -eu
tdisc=$1 nvcc=${2:-} src=$3
if [ "$nvcc" = none ]; then
  echo "SKIP: configured with TDISC_CUDA=OFF"
  exit 77
fi
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  nvcc=$(command -v nvcc || true)
fi
if [ -z "$nvcc" ]; then
  echo "SKIP: nvcc not found"
  exit 77
fi
dir=$(mktemp -d /tmp/tdisc-nvcc-XXXXXX)
trap 'rm -rf "$dir"' EXIT
s=$src/codegen/schemes/strassen.json w=$src/codegen/schemes/winograd.json
"$tdisc" codegen "$s" --levels 1 --dtype f32 --namespace a -o "$dir/a.cu"
"$tdisc" codegen "$w" "$s" --levels 2 --dtype f64 --fuse-rank 0 --namespace b -o "$dir/b.cu"
"$tdisc" codegen "$s" --levels 2 --dtype f32 --namespace c -o "$dir/c.cu"
printf '#include "a.cu"\n#include "b.cu"\n#include "c.cu"\n' > "$dir/all.cu"
"$nvcc" -std=c++17 -O2 -gencode arch=compute_90,code=sm_90 -c "$dir/all.cu" -o "$dir/all.o"
# A thin plan (stages for any T) instantiated for f32 and f64 in one unit, as libtdisc_gemm does.
"$tdisc" codegen "$w" --levels 2 --thin -o "$dir/thin.cuh"
for t in float double; do
  printf '#define TDISC_PLAN_NS thin_%s\n#define TDISC_PLAN_T %s\n#define TDISC_PLAN_STAGES "thin.cuh"\n#include "cuda_plan.inc"\n' $t $t
done > "$dir/thin.cu"
"$nvcc" -std=c++17 -O2 -gencode arch=compute_90,code=sm_90 -I"$dir" -I"$src/codegen/runtime" -c "$dir/thin.cu" -o "$dir/thin.o"
# The benchmark harness compiles too (tdisc bench --prepare writes it with its variants).
"$tdisc" bench "$s" --levels 1 --dtype f32 --prepare "$dir/bench" >/dev/null
"$nvcc" -std=c++17 -O2 -gencode arch=compute_90,code=sm_90 -I"$dir/bench" -c "$dir/bench/bench_main.cu" -o "$dir/bench.o"
# libtdisc_gemm's measurement tools on the same harness (codegen/runtime/harness.cuh); -O0: a compile check.
for t in bench check ozaki; do
  "$nvcc" -std=c++17 -O0 -gencode arch=compute_90,code=sm_90 -I"$src/codegen/gemm/include" \
    -c "$src/codegen/gemm/tools/$t.cu" -o "$dir/tool_$t.o"
done
echo "PASS: generated CUDA, the bench harness and the GEMM tools compile for sm_90 with $nvcc"
