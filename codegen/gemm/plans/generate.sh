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
# Each plan is thin (tdisc codegen --thin): its stage tables and kernels, written once for any element
# type; codegen/runtime/cuda_plan.inc instantiates it for f32 and for f64 with the hand-written runtime
# around it (codegen/gemm/src/plan_entry.cu.in). A build of libtdisc_gemm inside the tdisc tree runs
# this script at build time with the tdisc it builds; the standalone build compiles the committed copies.
set -eu
tdisc=${1:-build/ci/tdisc}
dir=${2:-codegen/gemm/plans}
s=codegen/schemes
gen() { "$tdisc" codegen --thin "$@"; }
gen $s/strassen.json --levels 1 -o $dir/s1.cuh
gen $s/strassen.json --levels 2 -o $dir/s2.cuh
gen $s/r48-4x4x4-Q.json --levels 1 -o $dir/r48.cuh
gen $s/r48-4x4x4-Q.json $s/strassen.json --levels 2 -o $dir/r48s.cuh
gen $s/r48-4x4x4-Q.json $s/strassen.json --levels 2 --fuse-rank 336 -o $dir/r48m.cuh
gen $s/r48-4x4x4-Q.json $s/r48-4x4x4-Q.json --levels 2 -o $dir/r48r.cuh
