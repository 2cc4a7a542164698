#!/usr/bin/env bash
# Rebuilds the catalogue algorithms/ from this repository alone (the published schemes are the copies
# in tests/data/, each with its licence and origin) with the built tdisc: every scheme is imported or
# derived, verified exactly, and filed by 'tdisc catalog add'. Provenance names the upstream file
# (URL at the commit the copy was taken from), not the local copy.
#   algorithms/seed.sh [--clean]     (TDISC=path/to/tdisc, FIXTURES=path, CATALOG_DIR=path override
#                                     the built tdisc, tests/data and algorithms/)
# Named classics are always added; the published schemes go through 'catalog add --if-better',
# which keeps per format (up to permutation) and ring only what nothing in the catalogue matches.
set -euo pipefail
cd "$(dirname "$0")/.."
FIX=${FIXTURES:-tests/data}
CAT=${CATALOG_DIR:-algorithms}
if [ -z "${TDISC:-}" ]; then
  TDISC=build/release/tdisc
  [ -f build/release/build.ninja ] || cmake --preset release >/dev/null
  cmake --build build/release -j2 --target tdisc >/dev/null
fi
[ -d "$FIX" ] || { echo "seed.sh: no fixtures at $FIX" >&2; exit 1; }
if [ "${1:-}" = "--clean" ]; then rm -rf "$CAT"/[0-9]*x[0-9]*x[0-9]*; fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
STAGE="$WORK/stage"
PD="public domain (mathematics)"
# Upstream files at the commits tests/data/*/ORIGIN.md names.
GH=https://github.com
AT="$GH/google-deepmind/alphatensor/blob/1949163da3bef7e3eb268a3ac015fd1c2dbfc767/algorithms"
AE="$GH/google-deepmind/alphaevolve_results/blob/4226acbf237ff9ad10ba7673a2af127a2d8a5971/mathematical_results.ipynb"
PERMINOV="$GH/dronperminov/FastMatrixMultiplication/blob/d17309aafc81f5bcd31795077c3521946788fb3e/schemes"
FMM="the FMM catalogue's Maple file (fmm.univ-lille.fr, Sedoglavic et al.), as mirrored in $PERMINOV/known/tensor"
FMM_LICENCE="not stated by the FMM catalogue; the mirror is MIT (dronperminov/FastMatrixMultiplication)"
FLIPS="$GH/jakobmoosbauer/flips/blob/46436f57ac84621a95586043596ce921fd943f3c"
FM="$GH/arbenson/fast-matmul/blob/132358be7a6ab57c83dd5ce70ece460bd1ec5dfa/codegen/algorithms"
FM_LICENCE="BSD-2-Clause (Sandia), arbenson/fast-matmul"
CPD="$GH/khoruzhii/flip-cpd/blob/9eeb17f487f14103d7128cf290ae61535d8983b1/data/schemes_paper"

# stage FORMAT FILE KEY LICENCE SOURCE: import (verified) and file into the staging catalogue.
n=0
stage() {
  local format=$1 file=$2 key=$3 licence=$4 source=$5 out="$WORK/in$((n += 1)).json"
  if [ -n "$key" ]; then "$TDISC" import --from "$format" "$file" --key "$key" -o "$out" >/dev/null
  else "$TDISC" import --from "$format" "$file" -o "$out" >/dev/null; fi
  "$TDISC" catalog add --dir "$STAGE" --source "$source" --licence "$licence" "$out" >/dev/null
}
# small: true when every dimension in "2,4,5", "2x4x5" or "245" (single digits) is at most 5.
small() {
  local d dims key=${1//x/,}
  if [[ "$key" == *,* ]]; then IFS=, read -ra dims <<<"$key"; else dims=($(echo "$key" | grep -o .)); fi
  for d in "${dims[@]}"; do [ "$d" -le 5 ] || return 1; done
}
named() { "$TDISC" catalog add --dir "$CAT" --name "$1" --source "$2" --licence "$3" "$4"; }

echo "== classical algorithms, 2x2x2 … 5x5x5 (sorted formats)"
for a in 2 3 4 5; do for b in $(seq $a 5); do for c in $(seq $b 5); do
  "$TDISC" catalog derive classical "${a}x${b}x${c}" -o "$WORK/classical.json" >/dev/null
  "$TDISC" catalog add --dir "$CAT" --name classical "$WORK/classical.json" >/dev/null
done; done; done

echo "== named classics, typed in (algorithms/sources/) or derived"
S=algorithms/sources
"$TDISC" import --from exp "$S/strassen222-7.exp" -o "$WORK/strassen.json" >/dev/null
"$TDISC" import --from exp "$S/winograd222-7.exp" -o "$WORK/winograd.json" >/dev/null
"$TDISC" import --from exp "$S/laderman333-23.exp" -o "$WORK/laderman.json" >/dev/null
named Strassen "V. Strassen, Gaussian elimination is not optimal, Numer. Math. 13 (1969); typed in as $S/strassen222-7.exp" "$PD" "$WORK/strassen.json"
named Strassen-Winograd "S. Winograd's variant of Strassen (7 multiplications, 15 additions with shared sums; see Probert 1976); typed in as $S/winograd222-7.exp" "$PD" "$WORK/winograd.json"
named Laderman "J. D. Laderman, A noncommutative algorithm for multiplying 3x3 matrices using 23 multiplications, Bull. AMS 82 (1976); typed in as $S/laderman333-23.exp" "$PD" "$WORK/laderman.json"
"$TDISC" catalog derive kron "$WORK/strassen.json" "$WORK/strassen.json" -o "$WORK/ss.json" >/dev/null
named "Strassen x Strassen" "Kronecker square of Strassen (tdisc catalog derive kron)" "$PD" "$WORK/ss.json"
"$TDISC" catalog derive classical 2x2x1 -o "$WORK/c221.json" >/dev/null
"$TDISC" catalog derive join "$WORK/strassen.json" "$WORK/c221.json" --axis p -o "$WORK/hk223.json" >/dev/null
named "Hopcroft-Kerr rank 2x2x3:11" "Strassen joined with the classical 2x2x1 along p (tdisc catalog derive join); the rank of Hopcroft & Kerr, SIAM J. Appl. Math. 20 (1971)" "$PD" "$WORK/hk223.json"
"$TDISC" import --from fast-matmul "$FIX/fast-matmul/hk323-15-94" -o "$WORK/hk323.json" >/dev/null
"$TDISC" catalog derive permute "$WORK/hk323.json" --to 2x3x3 -o "$WORK/hk233.json" >/dev/null
named "Hopcroft-Kerr 2x3x3:15" "$FM/hk323-15-94 (Hopcroft & Kerr 1971, as coded by Benson & Ballard), rotated from 3x2x3 to 2x3x3" "$FM_LICENCE" "$WORK/hk233.json"

echo "== headline published schemes"
"$TDISC" import --from alphatensor-npz "$FIX/alphatensor/factorizations_f2.npz" --key 4,4,4 -o "$WORK/at444f2.json" >/dev/null
named "AlphaTensor 4x4x4:47 mod 2" "$AT/factorizations_f2.npz key 4,4,4 (Fawzi et al., Nature 610, 2022)" CC-BY-4.0 "$WORK/at444f2.json"
"$TDISC" import --from alphaevolve-ipynb "$FIX/alphaevolve/mathematical_results.ipynb" --key 444 -o "$WORK/ae444.json" >/dev/null
named "AlphaEvolve 4x4x4:48 complex" "$AE decomposition_444 (Novikov et al., AlphaEvolve, 2025)" CC-BY-4.0 "$WORK/ae444.json"
"$TDISC" import --from fmm-mpl "$FIX/fmm-catalogue/4x4x4_tensor.mpl" -o "$WORK/fmm444.json" >/dev/null
named "rational 4x4x4:48" "$FMM/4x4x4_tensor.mpl" "$FMM_LICENCE" "$WORK/fmm444.json"
"$TDISC" import --from alphaevolve-ipynb "$FIX/alphaevolve/mathematical_results.ipynb" --key 555 -o "$WORK/ae555.json" >/dev/null
named "AlphaEvolve 5x5x5:93" "$AE decomposition_555 (Novikov et al., AlphaEvolve, 2025)" CC-BY-4.0 "$WORK/ae555.json"

echo "== staging every published scheme up to 5x5x5"
for npz in r f2; do
  for key in $("$TDISC" import --from alphatensor-npz --list-keys "$FIX/alphatensor/factorizations_$npz.npz"); do
    small "$key" && stage alphatensor-npz "$FIX/alphatensor/factorizations_$npz.npz" "$key" CC-BY-4.0 \
      "$AT/factorizations_$npz.npz key $key (Fawzi et al., Nature 610, 2022)"
  done
done
for key in $("$TDISC" import --from alphaevolve-ipynb --list-keys "$FIX/alphaevolve/mathematical_results.ipynb"); do
  small "$key" && stage alphaevolve-ipynb "$FIX/alphaevolve/mathematical_results.ipynb" "$key" CC-BY-4.0 \
    "$AE decomposition_$key (Novikov et al., AlphaEvolve, 2025)"
done
for f in "$FIX"/flips/*.exp; do
  b=$(basename "$f")
  folder=solutions; [ "$b" = 333-27-mod2.exp ] && folder=code   # the standard algorithm lives in code/
  small "${b%%-*}" && stage exp "$f" "" GPL-3.0 "$FLIPS/$folder/$b (Kauers & Moosbauer, flip graphs, 2022-2023)"
done
for f in "$FIX"/fmm-catalogue/*_tensor.mpl; do
  b=$(basename "$f")
  small "${b%%_*}" && stage fmm-mpl "$f" "" "$FMM_LICENCE" "$FMM/$b"
done
for f in "$FIX"/perminov/*.json; do
  b=$(basename "$f")
  ring=${b##*_}; ring=${ring%.json}                               # upstream sorts results by ring
  small "${b%%_*}" && stage perminov-json "$f" "" MIT "$PERMINOV/results/$ring/$b"
done
for b in grey-strassen grey322-11-50 grey333-23-152; do
  stage fast-matmul "$FIX/fast-matmul/$b" "" "$FM_LICENCE" "$FM/$b (Benson & Ballard, PPoPP 2015)"
done
for f in "$FIX"/flip-cpd/gg-333-*.txt "$FIX"/flip-cpd/gg-444-*.txt; do
  stage flip-cpd "$f" "" MIT "$CPD/$(basename "$f")"
done

echo "== best of the staged schemes per format and ring"
"$TDISC" catalog add --if-better --dir "$CAT" "$STAGE"/*/*.json | grep -v '^skipped' || true
echo "== Perminov's ZT records beyond 5 that issue 29's campaigns start from (bench/campaign-*.txt)"
# start FILE: one of Perminov's ZT results (tests/data/perminov, .json or gzip-compressed .json.gz).
start() {
  local b=${1%.gz}
  "$TDISC" import --from perminov-json "$FIX/perminov/$1" -o "$WORK/start.json" >/dev/null
  "$TDISC" catalog add --if-better --dir "$CAT" --licence MIT \
    --source "$PERMINOV/results/ZT/$b (flip graphs; a campaign start of issue 29)" "$WORK/start.json" | grep -v '^skipped' || true
}
for b in 3x3x6_m42 3x6x6_m83 3x6x7_m96; do start ${b}_ZT.json; done
for b in 2x9x10_m143 2x9x11_m157 2x10x12_m188 3x3x8_m56 3x4x7_m64 4x4x6_m73 3x7x8_m128 3x8x8_m146 9x10x15_m864 \
         10x13x14_m1154 11x13x13_m1205 10x12x12_m902 13x14x16_m1820; do start ${b}_ZT.json.gz; done
echo "== joins of two of Perminov's ZT schemes below his ZT value (starts of bench/campaign-zt.txt)"
# pjoin WAS A A_TO B B_TO AXIS [TO]: Perminov's A and B (ZT), permuted to A_TO and B_TO, joined along
# AXIS (and the join permuted to TO).
pjoin() {
  local was=$1 a=$2 a_to=$3 b=$4 b_to=$5 axis=$6 to=${7:-}
  "$TDISC" import --from perminov-json "$FIX/perminov/${a}_ZT.json.gz" -o "$WORK/pa.json" >/dev/null
  "$TDISC" import --from perminov-json "$FIX/perminov/${b}_ZT.json.gz" -o "$WORK/pb.json" >/dev/null
  "$TDISC" catalog derive permute "$WORK/pa.json" --to "$a_to" -o "$WORK/pa.json" >/dev/null
  "$TDISC" catalog derive permute "$WORK/pb.json" --to "$b_to" -o "$WORK/pb.json" >/dev/null
  "$TDISC" catalog derive join "$WORK/pa.json" "$WORK/pb.json" --axis "$axis" -o "$WORK/joined.json" >/dev/null
  [ -z "$to" ] || "$TDISC" catalog derive permute "$WORK/joined.json" --to "$to" -o "$WORK/joined.json" >/dev/null
  "$TDISC" catalog add --if-better --dir "$CAT" --licence MIT --source "derived by tdisc catalog derive: $PERMINOV/results/ZT/${a}_ZT.json \
as $a_to joined along $axis with $PERMINOV/results/ZT/${b}_ZT.json as $b_to${to:+, permuted to $to} (Perminov's ZT value of the format: $was; a campaign start of issue 29)" \
    "$WORK/joined.json" | grep -v '^skipped' || true
}
pjoin 281 2x6x12_m112 2x12x6 2x9x12_m168 2x12x9 p
pjoin 305 2x6x13_m122 2x13x6 2x9x13_m182 2x13x9 p
pjoin 325 2x7x13_m142 2x13x7 2x9x13_m182 2x13x9 p
pjoin 350 2x7x14_m152 2x14x7 2x9x14_m196 2x14x9 p
pjoin 375 2x6x16_m150 2x16x6 2x9x16_m224 2x16x9 p 2x15x16
echo "== ZT schemes first written by 'tdisc search --meta' (a merge of catalogued schemes the walk kept)"
# meta SIZE RANK LICENCE A A_TO B B_TO AXIS: rebuilds the start of 'tdisc search --meta' (seed 1,
# 2026-11-23) by the same constructions, permute then join; a ZT scheme below the classical one.
meta() {
  local size=$1 rank=$2 licence=$3 a=$4 a_to=$5 b=$6 b_to=$7 axis=$8
  "$TDISC" catalog derive permute "$CAT/$a" --to "$a_to" -o "$WORK/meta-a.json" >/dev/null
  "$TDISC" catalog derive permute "$CAT/$b" --to "$b_to" -o "$WORK/meta-b.json" >/dev/null
  "$TDISC" catalog derive join "$WORK/meta-a.json" "$WORK/meta-b.json" --axis "$axis" -o "$WORK/meta.json" >/dev/null
  "$TDISC" catalog add --if-better --dir "$CAT" --licence "$licence" --source "tdisc search --size $size --rank $rank --ring ZT \
--meta --seed 1 (2026-11-23): its start, $a and $b joined along $axis, which the flip walk kept" "$WORK/meta.json" | grep -v '^skipped' || true
}
meta 3x3x4 29 "$FM_LICENCE" 2x3x3/r15-ZT-a7276e5e.json 3x3x2 2x3x3/r15-ZT-a7276e5e.json 3x3x2 p
meta 3x3x5 36 "$FM_LICENCE + $PD" 2x3x3/r15-ZT-a7276e5e.json 3x3x2 3x3x3/r23-ZT-5f0ca47d.json 3x3x3 p
meta 3x4x4 38 CC-BY-4.0 2x3x4/r20-ZT-4848df13.json 3x2x4 2x3x4/r20-ZT-4848df13.json 3x2x4 m

echo "== the published rational 48 sparsified by a rational sandwich (tdisc descend --simplify)"
"$TDISC" descend "$CAT/4x4x4/r48-Q-2fc8ef12.json" --simplify 512 --seed 1 -o "$WORK/r48-sparse.json" >/dev/null
named "rational 4x4x4:48, sparsified" "derived by tdisc descend --simplify 512 --seed 1 from algorithms/4x4x4/r48-Q-2fc8ef12.json \
(the FMM catalogue's rational 48, Dumas–Pernet–Sedoglavic), a rational sandwich: 664 non-zero coefficients against 1,072" \
  "derived from the FMM catalogue's scheme: $FMM_LICENCE" "$WORK/r48-sparse.json" >/dev/null

echo "== tdisc's own finds (provenance in the files: command, seed, commit), after the published ones"
for f in "$S"/tdisc*.json; do "$TDISC" catalog add --dir "$CAT" "$f" >/dev/null; done
echo "== GF2 schemes from the mod-2 47 (tdisc's own) and 60 (starts of bench/campaign-gf2.txt)"
# gf2 OP A B [--axis X] -- LICENCE: tdisc catalog derive OP of two catalogued files, filed over GF2.
gf2() {
  local op=$1 a=$2 b=$3 licence=$4 axis=${5:-}
  "$TDISC" catalog derive $op "$CAT/$a" "$CAT/$b" ${axis:+--axis $axis} -o "$WORK/gf2.json" >/dev/null
  "$TDISC" catalog add --if-better --dir "$CAT" --licence "$licence" --source "derived by tdisc catalog derive $op \
algorithms/$a algorithms/$b${axis:+ --axis $axis} (a campaign start of issue 29)" "$WORK/gf2.json" | grep -v '^skipped' || true
}
OWN47=4x4x4/r47-GF2-de5c8090.json
"$TDISC" catalog derive permute "$CAT/3x4x4/r38-ZT-d208b13f.json" --to 4x4x3 -o "$WORK/443.json" >/dev/null
"$TDISC" catalog derive join "$CAT/$OWN47" "$WORK/443.json" --axis p -o "$WORK/gf2.json" >/dev/null
"$TDISC" catalog add --if-better --dir "$CAT" --licence "CC0-1.0 (derived from tdisc's own schemes)" --source "derived by tdisc \
catalog derive join algorithms/$OWN47 and algorithms/3x4x4/r38-ZT-d208b13f.json (permuted to 4x4x3) --axis p (a campaign start of issue 29)" \
  "$WORK/gf2.json" | grep -v '^skipped' || true
gf2 join $OWN47 $OWN47 "CC0-1.0 (derived from tdisc's own schemes)" p
gf2 join $OWN47 4x4x5/r60-GF2-6221f36f.json "GPL-3.0 (derived from jakobmoosbauer/flips)" p
gf2 kron 2x2x2/r7-ZT-02268ba0.json $OWN47 "CC0-1.0 (Strassen, public domain, and tdisc's own 47)"
gf2 kron $OWN47 $OWN47 "CC0-1.0 (derived from tdisc's own schemes)"
"$TDISC" catalog check --dir "$CAT"
"$TDISC" catalog index --dir "$CAT"
