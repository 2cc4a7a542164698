#!/usr/bin/env bash
# bench/llm_improve.sh — does the LLM program database pick better recipes? Runs the "llm" engine against a scripted chat-completions
# server on 127.0.0.1 (no model needed) that proposes three numeric recipes for 2x2x3 rank 11 over
# Q (one worse, two better); the recipe the program database prefers is then re-measured against
# the numeric engine's default recipe on six fresh seeds, run alternately. Prints the database and
# the two mean times to target; writes bench/results/llm-<date>.txt.
#
# Environment: BUILD_DIR (default build/ci; configured with the ci preset, which has the tests, when absent).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD_DIR=${BUILD_DIR:-build/ci}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then cmake --preset ci >/dev/null; BUILD_DIR=build/ci; fi
cmake --build "$BUILD_DIR" -j2 --target bench_llm >/dev/null
TESTS=$BUILD_DIR/bench_llm
mkdir -p "$ROOT/bench/results"
OUT=$ROOT/bench/results/llm-improve-$(date -u +%Y-%m-%d).txt
{
  echo "# bench/llm.sh $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
  "$TESTS" "[improve]" -s 2>&1 | grep -E "^(programs|  #|fresh|  default|  database|  speed-up)|test cases|All tests"
} | tee "$OUT"
