#!/bin/sh
# Re-runs the file-level cases of issue 26's defect table against a built tdisc and prints one line a
# case: what happened, the exit code, wall time and peak RSS (GNU time). The server-side cases (key
# echo, invalid UTF-8, nesting, 1e400, 10^5 terms, size cap) need a scripted server: they are the
# [hostile] cases of tests/llm/test_hostile_server.cpp. Usage: bench/hostile2.sh [TDISC]
set -u
TDISC=${1:-build/ci/tdisc}
W=$(mktemp -d /tmp/tdisc-hostile2.XXXXXX)
trap 'rm -rf "$W"' EXIT

# case NAME CMD…: runs CMD, prints "NAME | exit | wall s | peak MB | first line of stderr".
case_() {
  name=$1; shift
  /usr/bin/time -f "%e %M" -o "$W/time" "$@" >"$W/out" 2>"$W/err"
  code=$?
  read -r wall rss <<EOF2
$(tail -1 "$W/time")
EOF2
  printf '%s | exit %s | %s s | %s MB | %s\n' "$name" "$code" "$wall" "$((rss / 1024))" "$(grep -v '^Command' "$W/err" | head -1 | cut -c1-160)"
}

ALG=algorithms/2x2x2/$(ls algorithms/2x2x2 | grep '^r7-ZT' | head -1)
python3 - "$ALG" "$W/hostile.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["provenance"]["source"] = 'x"""\nimport os; open("PWNED", "w").write("1")\n"""\n\\input{/etc/passwd} <script>alert(1)</script> | a |\u2028m1 = a11'
json.dump(s, open(sys.argv[2], "w"))
PY
for to in python latex slp; do
  case_ "export --to $to, hostile source" "$TDISC" export --to "$to" "$W/hostile.json" -o "$W/out.$to"
done
(cd "$W" && python3 out.python --pure >/dev/null 2>&1; echo "python self-check: exit $?, PWNED written: $([ -e PWNED ] && echo yes || echo no)")
printf 'latex lines starting \\input: %s; slp lines: %s (7 products + 4 entries + 2 comments expected)\n' \
  "$(grep -c '^\\input' "$W/out.latex")" "$(wc -l <"$W/out.slp")"
mkdir -p "$W/cat"
"$TDISC" catalog add "$W/hostile.json" --dir "$W/cat" --name '<img src=x onerror=alert(1)>' >/dev/null 2>&1
case_ "catalog index, hostile name and source" "$TDISC" catalog index --dir "$W/cat" --out "$W/INDEX.md" --html "$W/site"
printf 'INDEX.md raw <img or <script: %s; site exports with a raw """ line break: %s\n' \
  "$(grep -c '<img\|<script' "$W/INDEX.md")" "$(grep -l '^import os' -r "$W/site/exports" 2>/dev/null | wc -l)"

case_ "verify /dev/zero" "$TDISC" verify /dev/zero
printf '{"n": [2, 2, 2],\n "m": 1e400}' >"$W/p.json"
case_ "perminov 1e400" "$TDISC" import --from perminov-json "$W/p.json" -o "$W/p.out.json"
sed 's/"rank": 7/"rank": 1e400/' "$ALG" >"$W/n.json"
case_ "native 1e400" "$TDISC" verify "$W/n.json"
python3 -c 'print("{\"a\":" + "[" * 100000 + "]" * 100000 + "}")' >"$W/deep.json"
case_ "--params @FILE, 100,000 deep" "$TDISC" search --size 2x2 --rank 7 --ring ZT --time 5s -q --params "@$W/deep.json" --out "$W/r0"
case_ "--catalog-dir /dev/null" "$TDISC" search --size 2x2 --rank 6 --ring ZT --meta --catalog-dir /dev/null --time 2s -q --out "$W/r1"

mkdir -p "$W/foreign" && echo mine >"$W/foreign/checkpoint.json"
case_ "--out into a foreign folder" "$TDISC" search --size 2x2 --rank 7 --ring ZT --time 5s -q --out "$W/foreign"
echo "foreign checkpoint.json afterwards: $(cat "$W/foreign/checkpoint.json")"

"$TDISC" search --size 2x2 --rank 6 --ring ZT --threads 1 --seed 1 --time 1s -q --out "$W/run" >/dev/null 2>&1
cp "$W/run/events.jsonl" "$W/saved-events" && printf 'outside\ntorn' >"$W/outside.txt"
rm "$W/run/events.jsonl" && ln -s "$W/outside.txt" "$W/run/events.jsonl"
case_ "--resume, events.jsonl a symlink" "$TDISC" search --resume "$W/run" --time 1s -q
echo "symlink target afterwards: $(tr '\n' '/' <"$W/outside.txt")"
rm "$W/run/events.jsonl" && cp "$W/saved-events" "$W/run/events.jsonl" && truncate -s 2G "$W/run/events.jsonl"
case_ "--resume, 2 GB sparse events.jsonl" "$TDISC" search --resume "$W/run" --time 1s -q
case_ "report, 2 GB sparse events.jsonl" "$TDISC" report "$W/run" -o "$W/r.html"
printf '{"format": "tdisc-checkpoint",\n "elapsed": 1e400}' >"$W/run/checkpoint.json"
case_ "--resume, checkpoint with 1e400" "$TDISC" search --resume "$W/run" --time 1s -q

case_ "llm run against a dead endpoint" env OPENAI_API_KEY=sk-dead-0000 "$TDISC" search --size 2x2 --rank 6 --ring ZT --engine llm \
  --llm-url http://127.0.0.1:9/v1 --llm-model m --params '{"llm":{"engines":"flip","eval_seconds":0.5}}' --time 4s -q --out "$W/llm"
echo "non-finite values in its checkpoint: $(grep -o '"residual":"[-a-z]*"' "$W/llm/checkpoint.json" | sort | uniq -c | tr '\n' ' ')"
case_ "--resume of that run" env OPENAI_API_KEY=sk-dead-0000 "$TDISC" search --resume "$W/llm" --time 3s -q
