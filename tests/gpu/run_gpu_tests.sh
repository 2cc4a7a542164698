#!/bin/sh
# Runs the [gpu] cases of TESTS_BINARY when a GPU and nvcc are present; otherwise exit 77 (skipped).
bin=$1
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q GPU; then
  echo "SKIP: no GPU"
  exit 77
fi
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ] && [ -z "${CUDA_HOME:-}" ]; then
  echo "SKIP: no nvcc"
  exit 77
fi
exec "$bin" "[gpu]"
