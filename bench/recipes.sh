#!/usr/bin/env bash
# bench/recipes.sh — the recipe table (algorithms/recipes.json, docs/recipes.md) against the hand-typed
# expert recipe and against the plan without a table, per row, over SEEDS: time to target. Each run
# is `tdisc search --size S --rank R --ring RING --threads THREADS --seed s --time CAP`, then
#   table:  nothing more (the plan runs the table's row),
#   expert: the command the docs give for the record (EXPERT below),
#   today:  --recipes <a missing file> --params {"portfolio_every":0} (no table, and the lanes' threads
#           stay where they start: the default before the table and the portfolio),
#   portfolio: the same as table, named for held-out targets that no row fits (the plan runs the
#           lanes side by side and moves threads toward the lane that improves; bench/heldout.sh).
# Runs one at a time (a 2-core machine gives each the same load), or JOBS at once on a larger host
# (JOBS × THREADS ≤ its cores: the device's 16 cores run 16 one-thread runs side by side). Time to target is the "elapsed" of
# the run's first "improved" event at the target rank (events.jsonl); a run that misses counts CAP.
# Writes bench/results/recipes-<UTC date>.json (or $OUT/recipes.json) and prints one line per run
# and a summary per row (with the portfolio's thread moves per run). EVIDENCE=1 writes each row's table median/max/hits into the table's
# "evidence" (the measured rows only; machine, commit and this command with them).
#
# Environment: TDISC (build/ci/tdisc), ROWS (default "3x3:23:ZT 4x4:47:GF2 5x5:93:Z"), SEEDS ("1 … 10"),
# THREADS (1), JOBS (1), CAP (120 s), RECIPES ("table expert today"), TABLE (algorithms/recipes.json),
# RUNS (scratch folder), OUT, COMMIT, EVIDENCE, STEM (the result's name: recipes).
# TITLE: the result's title on docs/PERFORMANCE.md (bench/README.md; default: the stem and the rows).
# The long row on the 16-core host (one run per core at once is not what this script does; give it
# time instead):  ROWS=6x6:153:GF2 SEEDS="1 2 3 4 5 6 7 8 9 10" THREADS=16 CAP=540 bench/recipes.sh
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/ci/tdisc}
ROWS=${ROWS:-"3x3:23:ZT 4x4:47:GF2 5x5:93:Z"}
SEEDS=${SEEDS:-"1 2 3 4 5 6 7 8 9 10"}
THREADS=${THREADS:-1}
CAP=${CAP:-120}
RECIPES=${RECIPES:-"table expert today"}
JOBS=${JOBS:-1}
TABLE=${TABLE:-$ROOT/algorithms/recipes.json}
RUNS=${RUNS:-$(mktemp -d)}
[ -x "$TDISC" ] || { echo "tdisc: $TDISC: not built" >&2; exit 1; }
mkdir -p "$RUNS"

# The expert's flags for SIZE:RANK:RING, as docs/search-flip.md and docs/search-numeric.md give them.
expert() {
  case "$1" in
    3x3:23:*) echo "--symmetry z3" ;;
    4x4:47:GF2) echo "--symmetry none --params {\"undo_dead_ends\":true,\"dead_end_restart\":100000,\"fresh\":1}" ;;
    5x5:93:GF2) echo "--symmetry z3" ;;
    5x5:93:*) echo "--symmetry z3 --params {\"walk_ring\":\"GF2\"}" ;;
    6x6:153:GF2) echo "--symmetry s3" ;;
    6x6:153:*) echo "--symmetry s3 --params {\"walk_ring\":\"GF2\"}" ;;
    4x4:48:Q) echo "--engine numeric --params {\"ansatz\":\"$ROOT/algorithms/ansatz/4x4x4-r48-Q-2fc8ef12.json\"}" ;;
    2x4x5:32:Q) echo "--engine numeric --params {\"ansatz\":\"$ROOT/algorithms/ansatz/2x4x5-r32-Q-d328f48b.json\"}" ;;
    *) echo "" ;;
  esac
}

flags_for() {  # recipe row
  case "$1" in
    table|portfolio) echo "--recipes $TABLE" ;;
    expert) echo "--recipes $RUNS/no-table.json $(expert "$2")" ;;
    today) echo "--recipes $RUNS/no-table.json --params {\"portfolio_every\":0}" ;;
  esac
}

started=$(date -u +%FT%TZ)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
lines="$RUNS/runs.tsv"
: >"$lines"
# One run: ROW SEED RECIPE; its line goes to $lines (one short append: whole even from parallel jobs).
run_one() {
      local row=$1 s=$2 recipe=$3 size rank ring dir cmd code t best moves recipe_id
      IFS=: read -r size rank ring <<<"$row"
      dir="$RUNS/$size-$rank-$ring-$recipe-s$s"
      rm -rf "$dir"
      # shellcheck disable=SC2046 # the flags are words; the JSON holds no spaces
      cmd=("$TDISC" search --size "$size" --rank "$rank" --ring "$ring" --threads "$THREADS" --seed "$s" --time "${CAP}s" -q --out "$dir" $(flags_for "$recipe" "$row"))
      "${cmd[@]}" >"$dir.log" 2>&1
      code=$?
      t=$(grep -h '"event":"improved"' "$dir/events.jsonl" 2>/dev/null | grep "\"rank\":$rank," | head -1 | sed -n 's/.*"elapsed":\([0-9.e+-]*\).*/\1/p')
      best=$(grep -h '"event":"improved"' "$dir/events.jsonl" 2>/dev/null | sed -n 's/.*"rank":\([0-9]*\),.*/\1/p' | sort -n | head -1)
      moves=$(grep -c '"event":"portfolio_move"' "$dir/events.jsonl" 2>/dev/null)
      recipe_id=$(sed -n 's/^  recipe: table row \([^ ]*\) .*/\1/p; s/^  recipe: no row.*/portfolio/p' "$dir.log" | head -1)
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$row" "$recipe" "$s" "${t:-}" "${best:-}" "$code" "${recipe_id:-}" "${moves:-0}" "${cmd[*]:1}" >>"$lines"
      printf '%-12s %-9s seed %-3s exit %s  %s  best %s  (%s, %s moves)\n' "$row" "$recipe" "$s" "$code" "${t:+reached in ${t}s}" "${best:--}" "${recipe_id:-?}" "${moves:-0}"
}

for row in $ROWS; do
  for s in $SEEDS; do
    for recipe in $RECIPES; do
      if [ "$JOBS" -gt 1 ]; then
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
        run_one "$row" "$s" "$recipe" &
      else
        run_one "$row" "$s" "$recipe"
      fi
    done
  done
done
wait
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

commit=${COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}
machine="$(hostname), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
command=${COMMAND:-"ROWS=\"$ROWS\" SEEDS=\"$SEEDS\" THREADS=$THREADS JOBS=$JOBS CAP=$CAP RECIPES=\"$RECIPES\" bench/recipes.sh"}
python3 - "$lines" "$ROOT" "${OUT:-}" "$started" "$load_before" "$load_after" "$commit" "$machine" "$command" "$CAP" "$THREADS" "$TABLE" "${EVIDENCE:-0}" "${STEM:-recipes}" <<'EOF'
import json, os, statistics, sys
lines, root, out, started, lb, la, commit, machine, command, cap, threads, table, evidence, stem = sys.argv[1:]
cap = float(cap)
sys.path.insert(0, os.path.join(root, "bench"))
from bench_json import write_result
runs = []
for l in open(lines):
    row, recipe, seed, t, best, code, rid, moves, cmd = l.rstrip("\n").split("\t")
    runs.append({"row": row, "recipe": recipe, "seed": int(seed), "seconds": float(t) if t else None,
                 "best": int(best) if best else None, "exit": int(code), "plan": rid, "portfolio_moves": int(moves),
                 "command": cmd})
summary = {}
for r in runs:
    s = summary.setdefault(r["row"], {}).setdefault(r["recipe"], {"seeds": 0, "hits": 0, "times": [], "portfolio_moves": 0})
    s["seeds"] += 1
    s["portfolio_moves"] += r["portfolio_moves"]
    s["hits"] += r["seconds"] is not None
    s["times"].append(r["seconds"] if r["seconds"] is not None else cap)  # a miss counts the cap
for row, recipes in summary.items():
    for name, s in recipes.items():
        s["median_s"] = statistics.median(s["times"]); s["max_s"] = max(s["times"])
    if "table" in recipes and "expert" in recipes and recipes["expert"]["median_s"] > 0:
        recipes["table_over_expert"] = recipes["table"]["median_s"] / recipes["expert"]["median_s"]
    if "table" in recipes and "today" in recipes and recipes["table"]["median_s"] > 0:
        recipes["today_over_table"] = recipes["today"]["median_s"] / recipes["table"]["median_s"]
    if "portfolio" in recipes and "today" in recipes and recipes["today"]["median_s"] > 0:
        recipes["portfolio_over_today"] = recipes["portfolio"]["median_s"] / recipes["today"]["median_s"]
    print(row + ": " + "; ".join(f"{n} {s['hits']}/{s['seeds']} median {s['median_s']:.2f}s max {s['max_s']:.2f}s"
                                  for n, s in recipes.items() if isinstance(s, dict))
          + (f"; table/expert {recipes['table_over_expert']:.2f}x" if "table_over_expert" in recipes else "")
          + (f"; today/table {recipes['today_over_table']:.2f}x" if "today_over_table" in recipes else "")
          + (f"; portfolio/today {recipes['portfolio_over_today']:.2f}x" if "portfolio_over_today" in recipes else ""))
result = {"benchmark": stem, "date": started, "machine": machine, "commit": commit, "command": command,
          "threads": int(threads), "cap_s": cap, "load_before": lb, "load_after": la,
          "note": "a run that misses the target counts the cap in median and max", "summary": summary, "runs": runs}
rows = [{"case": row + ", %s thread(s), cap %g s" % (threads, cap), "seeds": str(recipes[next(iter(recipes))]["seeds"]),
         "value": "; ".join("%s %d/%d, median %.2f s" % (n, s["hits"], s["seeds"], s["median_s"])
                            for n, s in recipes.items() if isinstance(s, dict)),
         "ratio": "table/expert %.2f×" % recipes["table_over_expert"] if "table_over_expert" in recipes else None}
        for row, recipes in summary.items()]
page = {"area": "Recipes", "title": os.environ.get("TITLE") or stem + ": " + ", ".join(summary), "rows": rows}
write_result(result, os.path.join(out, stem + ".json") if out else None, root, stem, summary=page)
if evidence == "1":  # the measured rows' evidence in the table, rewritten one row a line
    t = json.load(open(table))
    for row, recipes in summary.items():
        if "table" not in recipes: continue
        ring = row.split(":")[2]
        for r in t["rows"]:
            s = recipes["table"]
            plans = {x["plan"] for x in runs if x["row"] == row and x["recipe"] == "table"}
            if r["id"] in plans:
                r["evidence"] = {"seeds": s["seeds"], "hits": s["hits"], "median_s": round(s["median_s"], 3), "max_s": round(s["max_s"], 3),
                                 "ring": ring, "threads": int(threads), "cap_s": cap, "machine": machine + ", load " + lb, "commit": commit,
                                 "command": command, "expert_median_s": round(recipes.get("expert", {}).get("median_s", 0), 3),
                                 "source": "bench/recipes.sh"}
    body = ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in t["rows"])
    text = '{"format": "tdisc-recipes", "version": 1,\n "about": ' + json.dumps(t.get("about", "")) + ',\n "rows": [\n' + body + "\n]}\n"
    open(table + ".tmp", "w").write(text); os.replace(table + ".tmp", table)
    print("evidence written to " + table)
EOF
