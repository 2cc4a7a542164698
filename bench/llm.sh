#!/usr/bin/env bash
# bench/llm.sh — does the pipelined LLM loop keep the CPU busy? Runs `tdisc search --engine llm`
# against bench_llm_server (127.0.0.1, no model needed): answers after 5–20 s, a seeded mix of good,
# useless and broken recipes. For each seed, back to back on the same machine: the sequential loop
# (TDISC_OLD, a tdisc built before the pipeline: ask, wait, evaluate) and the pipelined loop
# (TDISC, --llm-concurrency K). Both get the same evaluation time per recipe seed. Two phases:
# throughput on an unreachable target (RANK-1: each run lasts TIME; evaluations per minute, i.e.
# programs stored + fallbacks cut short), and time to target on RANK (capped at TIME). Writes
# bench/results/llm-pipeline-<date>.json and prints a summary.
#
# Environment: TDISC (default build/ci/tdisc), TDISC_OLD (required), SERVER (default
# build/ci/bench_llm_server), SEEDS (5), TIME (90 s), K (4), EVAL (6 s), SIZE (3x3), RANK (23),
# RING (Q), ENGINE (numeric).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/ci/tdisc}
SERVER=${SERVER:-$ROOT/build/ci/bench_llm_server}
TDISC_OLD=${TDISC_OLD:?set TDISC_OLD to a tdisc binary with the sequential loop}
SEEDS=${SEEDS:-5} TIME=${TIME:-90} K=${K:-4} EVAL=${EVAL:-6}
SIZE=${SIZE:-3x3} RANK=${RANK:-23} RING=${RING:-Q} ENGINE=${ENGINE:-numeric}
[[ -x $SERVER ]] || cmake --build "$(dirname "$SERVER")" --target bench_llm_server >/dev/null
for b in "$TDISC" "$TDISC_OLD" "$SERVER"; do [[ -x $b ]] || { echo "bench/llm.sh: $b not found" >&2; exit 1; }; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results=()

# One run: server up (its own seed), tdisc against it, metrics from events.jsonl.
run_one() {  # label binary seed extra-flags rank
  local label=$1 bin=$2 seed=$3 extra=$4 rank=$5 dir=$work/$1-$3-$5
  "$SERVER" --seed "$seed" --port-file "$work/port" --log "$work/server-$label-$seed-$rank.json" --engine "$ENGINE" >/dev/null &
  local spid=$!
  for _ in $(seq 50); do [[ -s $work/port ]] && break; sleep 0.1; done
  local port; port=$(cat "$work/port"); rm -f "$work/port"
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  local cmd="$bin search --size $SIZE --rank $rank --ring $RING --engine llm --threads 1 --time ${TIME}s --seed $seed -q
    --llm-url http://127.0.0.1:$port/v1 --llm-model scripted --llm-max-calls 1000 $extra
    --params {\"llm\":{\"engines\":\"$ENGINE\",\"eval_seconds\":$EVAL,\"timeout\":30}} --out $dir"
  set +e; $cmd >/dev/null 2>&1; local rc=$?; set -e
  kill -TERM $spid; wait $spid || true
  python3 - "$dir/events.jsonl" "$work/server-$label-$seed-$rank.json" "$label" "$seed" "$rc" "$load" "$rank" "$cmd" <<'PY' >> "$work/rows.jsonl"
import json, sys
events, server, label, seed, rc, load, rank, cmd = sys.argv[1:]
ev = [json.loads(l) for l in open(events)]
programs = sum(e.get("event") == "llm_program" for e in ev)
yielded = sum(e.get("event") == "llm_fallback_yielded" for e in ev)
finished = [e for e in ev if e.get("event") == "finished"]
elapsed = max([e.get("elapsed", 0) for e in ev if "elapsed" in e] or [0])
hits = [e["elapsed"] for e in ev if e.get("event") == "improved" and e["rank"] <= int(rank)]
reqs = json.load(open(server))
print(json.dumps({"loop": label, "seed": int(seed), "rank": int(rank), "exit": int(rc), "load1": float(load), "elapsed_s": elapsed,
  "evaluations": programs + yielded, "evaluations_per_min": 60 * (programs + yielded) / max(elapsed, 1e-9),
  "requests": len(reqs), "time_to_target_s": hits[0] if hits else None, "command": " ".join(cmd.split())}))
PY
  tail -1 "$work/rows.jsonl"
}

for rank in $((RANK - 1)) "$RANK"; do
  for seed in $(seq 1 "$SEEDS"); do
    run_one sequential "$TDISC_OLD" "$seed" "" "$rank"
    run_one pipelined "$TDISC" "$seed" "--llm-concurrency $K" "$rank"
  done
done

mkdir -p "$ROOT/bench/results"
out=$ROOT/bench/results/llm-pipeline-$(date -u +%Y-%m-%d).json
python3 - "$work/rows.jsonl" "$out" "$(git -C "$ROOT" rev-parse --short HEAD)" "$0 SEEDS=$SEEDS TIME=$TIME K=$K EVAL=$EVAL $SIZE:$RANK/$RING $ENGINE" <<'PY'
import json, sys, statistics, platform, os, datetime
rows = [json.loads(l) for l in open(sys.argv[1])]
target = max(x["rank"] for x in rows)
def summary(loop):
    thr = [x for x in rows if x["loop"] == loop and x["rank"] < target]   # unreachable: whole budget
    ttt = [x for x in rows if x["loop"] == loop and x["rank"] == target]
    t = [x["time_to_target_s"] for x in ttt if x["time_to_target_s"] is not None]
    return {"throughput_runs": len(thr), "evaluations_per_min_median": statistics.median(x["evaluations_per_min"] for x in thr),
            "requests_per_run_median": statistics.median(x["requests"] for x in thr),
            "target_runs": len(ttt), "reached": len(t), "time_to_target_median_s": statistics.median(t) if t else None,
            # a run that did not reach the target counts its whole budget (TIME)
            "time_to_target_median_capped_s": statistics.median(x["time_to_target_s"] if x["time_to_target_s"] is not None else x["elapsed_s"] for x in ttt),
            "time_to_target_s": [x["time_to_target_s"] for x in ttt]}
s, p = summary("sequential"), summary("pipelined")
doc = {"bench": "llm-pipeline", "date": datetime.datetime.utcnow().isoformat() + "Z", "machine": platform.node(),
       "cores": os.cpu_count(), "commit": sys.argv[3], "command": sys.argv[4], "rows": rows,
       "sequential": s, "pipelined": p,
       "evaluations_per_min_ratio": p["evaluations_per_min_median"] / max(s["evaluations_per_min_median"], 1e-9)}
json.dump(doc, open(sys.argv[2], "w"), indent=1)
print(f"sequential: {s}\npipelined:  {p}\nratio of evaluations/min (medians): {doc['evaluations_per_min_ratio']:.2f}")
print("wrote", sys.argv[2])
PY
