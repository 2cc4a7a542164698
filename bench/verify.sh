#!/usr/bin/env bash
# Verification speed (issue 2: "verifying a 6x6x6 rank-153 scheme takes well under a second").
# Builds tdisc and bench_verify (preset release, or BUILD_DIR), derives a 6x6x6 scheme of rank
# 7·23 = 161 as the Kronecker product of the catalogue's 2x2x2:7 and 3x3x3:23, times
# 'tdisc verify' end to end and the verifier in-process (REPEAT runs), also times the flips
# 6x6x6:164 (mod 2) (tests/data/flips/666-164-mod2.exp), and writes bench/results/verify-<date>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build/release}
REPEAT=${REPEAT:-20}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then cmake --preset release >/dev/null; BUILD_DIR=build/release; fi
cmake --build "$BUILD_DIR" -j2 --target tdisc bench_verify >/dev/null
TDISC="$BUILD_DIR/tdisc"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

s222=$("$TDISC" catalog best --size 2x2x2 --ring ZT --exact | cut -d' ' -f1)
s333=$("$TDISC" catalog best --size 3x3x3 --ring ZT --exact | cut -d' ' -f1)
"$TDISC" catalog derive kron "$s222" "$s333" -o "$WORK/666-161.json" >/dev/null

# End to end: process start, reading the file, verifying, statistics, printing.
t0=$(date +%s.%N)
"$TDISC" verify "$WORK/666-161.json"
t1=$(date +%s.%N)
cli_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
printf 'tdisc verify 6x6x6:161 end to end: %.3f s\n' "$cli_s"

inproc=$("$BUILD_DIR/bench_verify" "$WORK/666-161.json" "$REPEAT")
echo "in-process: $inproc"

extra='null'
flips="tests/data/flips/666-164-mod2.exp"
if "$TDISC" import --from exp "$flips" -o "$WORK/666-164.json" >/dev/null 2>&1; then
  extra=$("$BUILD_DIR/bench_verify" "$WORK/666-164.json" "$REPEAT")
  echo "in-process, flips 666-164-mod2 over GF2: $extra"
fi

date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
out="bench/results/verify-$(date -u +%Y-%m-%d).json"
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || echo unknown)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo nogit)
dirty=$(git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo true || echo false)
cat >"$out.tmp" <<JSON
{
  "benchmark": "verify",
  "date": "$date_utc",
  "commit": "$commit",
  "dirty": $dirty,
  "machine": {"uname": "$(uname -srm)", "nproc": $(nproc), "cpu": "$cpu"},
  "command": "bench/verify.sh (BUILD_DIR=$BUILD_DIR REPEAT=$REPEAT)",
  "scheme": "kronecker of $(basename "$s222") and $(basename "$s333")",
  "cli_end_to_end_s": $cli_s,
  "in_process": $inproc,
  "in_process_flips_666_164_gf2": $extra
}
JSON
mv "$out.tmp" "$out"
echo "wrote $out"
