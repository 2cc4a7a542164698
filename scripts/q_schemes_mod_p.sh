#!/usr/bin/env bash
# scripts/q_schemes_mod_p.sh DIR COMMIT DATE [TDISC]: the rational schemes of Perminov's
# schemes/results/Q/*.json (dronperminov/FastMatrixMultiplication, MIT; copied into DIR from a checkout at
# COMMIT) that hold mod 2 or mod 3, as lines "format ring rank source date" for best_known_table.py --extra.
# Each file is imported (verified exactly over Q), then verified exactly over GF2 and over GF3: a scheme
# whose denominators are units mod p is a scheme over GF(p) only if tdisc's verifier says so. The schemes
# themselves are not stored; their ranks are facts with their source.
set -euo pipefail
dir=${1:?directory of Perminov Q .json files} commit=${2:?commit} date=${3:?date} tdisc=${4:-build/ci/tdisc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in "$dir"/*.json; do
  name=$(basename "$f" .json)
  "$tdisc" import --from perminov-json "$f" -o "$work/s.json" >/dev/null 2>"$work/err" ||
    { echo "skipped $name: $(tail -1 "$work/err")" >&2; continue; }
  read -r format rank < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%dx%dx%d" % (d["n"], d["m"], d["p"]), len(d["u"]))' "$work/s.json")
  for ring in GF2 GF3; do
    if "$tdisc" verify --ring "$ring" "$work/s.json" >/dev/null 2>&1; then
      printf '%s\t%s\t%s\tdronperminov/FastMatrixMultiplication@%s schemes/results/Q/%s.json (MIT) over Q, verified exactly over %s by tdisc\t%s\n' \
        "$format" "$ring" "$rank" "$commit" "$name" "$ring" "$date"
    fi
  done
done
