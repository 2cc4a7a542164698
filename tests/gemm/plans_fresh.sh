#!/bin/sh
# CTest gemm_plans_fresh: the committed plans of libtdisc_gemm (codegen/gemm/plans/*.cuh, which the
# standalone library build compiles) must be what the generator writes today. Regenerates them with
# the built tdisc into a temporary folder (codegen/gemm/plans/generate.sh) and compares file by file;
# the banner's "(git COMMIT)" names the generating binary's commit and is left out of the comparison.
#   tests/gemm/plans_fresh.sh SOURCE_DIR TDISC
# On a difference: run codegen/gemm/plans/generate.sh build/ci/tdisc from the repository root and commit.
set -eu
src=$1
tdisc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
codegen/gemm/plans/generate.sh "$tdisc" "$tmp" >"$tmp/generate.log" 2>&1 || { cat "$tmp/generate.log"; exit 1; }
strip() { sed '1s/(git [^)]*)/(git …)/' "$1"; }
stale=0
for committed in codegen/gemm/plans/*.cuh; do
  name=$(basename "$committed")
  if [ ! -f "$tmp/$name" ]; then
    echo "gemm_plans_fresh: $committed is committed but generate.sh no longer writes it"; stale=1; continue
  fi
  strip "$committed" >"$tmp/$name.committed"
  strip "$tmp/$name" >"$tmp/$name.fresh"
  if ! cmp -s "$tmp/$name.committed" "$tmp/$name.fresh"; then
    echo "gemm_plans_fresh: $committed differs from what generate.sh writes now:"
    diff "$tmp/$name.committed" "$tmp/$name.fresh" | head -20
    stale=1
  fi
done
for fresh in "$tmp"/*.cuh; do
  [ -f "codegen/gemm/plans/$(basename "$fresh")" ] || { echo "gemm_plans_fresh: generate.sh writes $(basename "$fresh"), which is not committed"; stale=1; }
done
if [ "$stale" -ne 0 ]; then
  echo "gemm_plans_fresh: regenerate with codegen/gemm/plans/generate.sh build/ci/tdisc (from the repository root) and commit"
  exit 1
fi
echo "gemm_plans_fresh: $(ls codegen/gemm/plans/*.cuh | wc -l) plans match the generator"
