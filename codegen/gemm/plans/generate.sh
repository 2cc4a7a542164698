#!/bin/sh
# Rewrites the built-in plans of libtdisc_gemm from the verified schemes in codegen/schemes/ with
# `tdisc codegen` (run from the repository root: codegen/gemm/plans/generate.sh build/ci/tdisc [OUT_DIR];
# OUT_DIR defaults to codegen/gemm/plans; CTest gemm_plans_fresh writes a temporary one and compares).
#   s1   Strassen, one level                         2x2:7
#   s2   Strassen twice, merged into one stage       4x4:49
#   r48  the rational 4x4x4 rank 48 (FMM catalogue)  4x4:48
#   r48s r48 over Strassen, two stages               8x8:336 (48 × 7), for the largest sizes
#   r48m r48 and Strassen merged into one stage      8x8:336: one pass of additions per side (less
#        traffic than r48s, 1.7× its workspace)
#   r48r r48 over r48, two stages                    16x16:2304 (48 × 48), for n ≥ 32768 f64 (leaves of
#        n/16; additions: r48's on n/4 blocks once, then on n/16 blocks 48 times)
# The plans #include the hand-written runtime (codegen/runtime/*.inc, ../../runtime from here) instead
# of carrying a copy each: thin files, one source of the runtime.
set -eu
tdisc=${1:-build/ci/tdisc}
dir=${2:-codegen/gemm/plans}
s=codegen/schemes
gen() { "$tdisc" codegen --runtime-include ../../runtime "$@"; }
for dt in f32 f64; do
  gen $s/strassen.json --levels 1 --dtype $dt --namespace tdisc_plan_s1_$dt -o $dir/s1_$dt.cu
  gen $s/strassen.json --levels 2 --dtype $dt --namespace tdisc_plan_s2_$dt -o $dir/s2_$dt.cu
  gen $s/r48-4x4x4-Q.json --levels 1 --dtype $dt --namespace tdisc_plan_r48_$dt -o $dir/r48_$dt.cu
  gen $s/r48-4x4x4-Q.json $s/strassen.json --levels 2 --dtype $dt --namespace tdisc_plan_r48s_$dt \
    -o $dir/r48s_$dt.cu
  gen $s/r48-4x4x4-Q.json $s/strassen.json --levels 2 --fuse-rank 336 --dtype $dt \
    --namespace tdisc_plan_r48m_$dt -o $dir/r48m_$dt.cu
  gen $s/r48-4x4x4-Q.json $s/r48-4x4x4-Q.json --levels 2 --dtype $dt --namespace tdisc_plan_r48r_$dt \
    -o $dir/r48r_$dt.cu
done
