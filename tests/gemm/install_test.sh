#!/bin/sh
# install_test.sh SOURCE NVCC PLANS [gpu]: builds libtdisc_gemm from SOURCE/codegen/gemm with the plan
# set PLANS, installs it into a temporary prefix, builds tests/gemm/example against the installed
# package with find_package(tdisc) and runs it. With "gpu": also the bit-exact checks (tdisc_gemm_check)
# on the GPU. Exit 77 (skipped) without nvcc, or with "gpu" but no GPU.
src=$1 nvcc=$2 plans=$3 mode=${4:-}
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then echo "SKIP: no nvcc"; exit 77; fi
if [ "$mode" = gpu ] && ! (command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU); then
  echo "SKIP: no GPU"; exit 77
fi
set -e
work=$(mktemp -d "${TMPDIR:-/tmp}/tdisc-gemm-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
tools=OFF
[ "$mode" = gpu ] && tools=ON
gen=""
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
cmake -S "$src/codegen/gemm" -B "$work/build" $gen -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DTDISC_GEMM_PLANS="$plans" -DTDISC_GEMM_TOOLS=$tools -DCMAKE_INSTALL_PREFIX="$work/prefix" >"$work/cfg.log" 2>&1 ||
  { cat "$work/cfg.log"; exit 1; }
cmake --build "$work/build" -j "${TDISC_GEMM_JOBS:-2}" >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
cmake --install "$work/build" >/dev/null
test -f "$work/prefix/include/tdisc/gemm.h"
ls "$work/prefix"/lib*/cmake/tdisc/tdiscConfig.cmake
cmake -S "$src/tests/gemm/example" -B "$work/example" $gen -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCUDAToolkit_ROOT="$(dirname "$(dirname "$nvcc")")" >"$work/ecfg.log" 2>&1 || { cat "$work/ecfg.log"; exit 1; }
cmake --build "$work/example" >"$work/ebuild.log" 2>&1 || { cat "$work/ebuild.log"; exit 1; }
"$work/example/gemm_example"
if [ "$mode" = gpu ]; then
  "$work/build/tdisc_gemm_check"
fi
echo "installed package: find_package(tdisc) → tdisc::gemm builds and runs"
