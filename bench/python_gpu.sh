#!/usr/bin/env bash
# bench/python_gpu.sh: tdisc.torch.matmul on the GPU machine (issue 31): the bit-exact test against the
# C API (tests/python/test_torch_gpu.py) and bench/python_gemm.py, with libtdisc_gemm built here.
#   bench/python_gpu.sh --stage DIR LIB   here: LIB (a libtdisc_gemm.so built with nvcc), tdisc.torch and
#                                         the test and benchmark scripts → DIR
#   bench/python_gpu.sh DIR               on the GPU machine → $OUT (python-gpu.log, python-gemm.json)
# The GPU machine's python3 (3.12, with PyTorch) cannot load the extension module built here for
# Debian's python3 (3.11), so DIR/py/tdisc holds tdisc.torch unchanged under an empty package file:
# tdisc.torch loads libtdisc_gemm through ctypes and needs nothing else from the package.
set -uo pipefail
if [ "${1:-}" = "--stage" ]; then
  set -e
  dir=${2:?stage directory}
  lib=${3:?libtdisc_gemm.so}
  src=$(cd "$(dirname "$0")/.." && pwd)
  mkdir -p "$dir/py/tdisc" "$dir/lib" "$dir/tests" "$dir/bench"
  cp "$src/python/tdisc/torch.py" "$dir/py/tdisc/"
  echo '"""tdisc.torch alone (bench/python_gpu.sh): the extension module is not built for this python3."""' \
    > "$dir/py/tdisc/__init__.py"
  cp -L "$lib" "$dir/lib/libtdisc_gemm.so"
  cp "$src/tests/python/test_torch_gpu.py" "$src/tests/python/support.py" "$dir/tests/"
  cp "$src/bench/python_gemm.py" "$src/bench/bench_json.py" "$src/bench/python_gpu.sh" "$dir/bench/"
  git -C "$src" rev-parse --short=12 HEAD > "$dir/commit.txt"
  exit 0
fi
dir=$(cd "${1:?staged directory}" && pwd)
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export PYTHONPATH=$dir/py TDISC_GEMM_LIBRARY=$dir/lib/libtdisc_gemm.so TDISC_COMMIT=$(cat "$dir/commit.txt")
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  python3 -c 'import sys, torch; print(sys.version.split()[0], torch.__version__, torch.cuda.is_available())'
  python3 "$dir/tests/test_torch_gpu.py" -v; echo "test_torch_gpu exit $?"
  python3 "$dir/bench/python_gemm.py" --sizes "${PYTHON_GEMM_SIZES:-4096,16384}" --reps 10 --out "$OUT/python-gemm.json"
} 2>&1 | tee "$OUT/python-gpu.log"
