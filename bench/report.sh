#!/usr/bin/env bash
# bench/report.sh — is `tdisc report` fast on a long run? Synthesises a run directory with EVENTS
# events (default 10^6: progress samples of four lanes, improvements, LLM calls and programs, as a
# ten-hour hunt would write), then times `tdisc report` on it REPEATS times and measures the page.
# Target (issue 17): under 5 s and under 5 MB on the 2-core development machine.
# Writes bench/results/report-<date>.json. Environment: TDISC (build/ci/tdisc), EVENTS, REPEATS (3).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/ci/tdisc}
EVENTS=${EVENTS:-1000000} REPEATS=${REPEATS:-3}
[[ -x $TDISC ]] || { echo "bench/report.sh: $TDISC not found" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/run" "$EVENTS" <<'PY'
import json, os, random, sys
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d)
rng = random.Random(20261123)
with open(f"{d}/events.jsonl", "w") as f:
    f.write(json.dumps({"event": "started", "engine": "llm", "seed": 7, "threads": 16, "budget_seconds": 36000,
                        "target": {"format": "4x4x4", "rank": 48, "ring": "Q"}}) + "\n")
    rank, calls = 64, 0
    for i in range(n - 2):
        t = 36000.0 * i / n
        r = rng.random()
        if r < 0.0005 and rank > 49:
            rank -= 1
            f.write(json.dumps({"event": "improved", "elapsed": t, "rank": rank, "ring": "Q", "method": "numeric", "file": f"{d}/best-r{rank}.json"}) + "\n")
        elif r < 0.01:
            calls += 1
            f.write(json.dumps({"event": "llm_call", "call": calls, "model": "m", "kind": "recipe", "outcome": rng.choice(["accepted", "accepted", "schema", "http"]),
                                "attempts": 1, "seconds": 12.0, "sent_at": max(0, t - 12), "finished_at": t, "prompt_tokens": 900, "completion_tokens": 120, "cost_usd": 0.003}) + "\n")
        else:
            f.write(json.dumps({"event": "progress", "elapsed": t, "lane": i % 4, "rank": rank + rng.randint(0, 3), "rate": 2.5e7 + rng.random() * 1e6,
                                "restarts": i, "residual": rng.random() * 1e-3 + 1e-6, "exact_fraction": rng.random()}) + "\n")
    f.write(json.dumps({"event": "finished", "elapsed": 36000.0, "reached": False, "best_rank": rank}) + "\n")
    for r in range(rank, 65):
        open(f"{d}/best-r{r}.json", "w").write("{}")
json.dump({"format": "tdisc-run", "seed": 7}, open(f"{d}/run.json", "w"))
PY
size=$(stat -c %s "$work/run/events.jsonl")
times=()
for i in $(seq "$REPEATS"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  s=$(date +%s.%N); "$TDISC" report "$work/run" -o "$work/report.html" > /dev/null; e=$(date +%s.%N)
  times+=("$(python3 -c "print(round($e - $s, 3))")")
  echo "run $i: ${times[-1]} s (load $load)"
done
page=$(stat -c %s "$work/report.html")
mkdir -p "$ROOT/bench/results"
out=$ROOT/bench/results/report-$(date -u +%Y-%m-%d).json
python3 - "$out" "$EVENTS" "$size" "$page" "$(git -C "$ROOT" rev-parse --short HEAD)" "$(cut -d' ' -f1-3 /proc/loadavg)" "${times[@]}" <<'PY'
import json, sys, statistics, platform, datetime, os
out, events, size, page, commit, load, *times = sys.argv[1:]
t = [float(x) for x in times]
doc = {"bench": "report", "date": datetime.datetime.utcnow().isoformat() + "Z", "machine": platform.node(), "cores": os.cpu_count(),
       "commit": commit, "command": f"bench/report.sh EVENTS={events}", "events": int(events), "events_bytes": int(size),
       "seconds": t, "seconds_median": statistics.median(t), "page_bytes": int(page), "load_after": load}
json.dump(doc, open(out, "w"), indent=1)
print(f"{events} events ({int(size)/1e6:.0f} MB): median {statistics.median(t):.2f} s over {len(t)} runs, page {int(page)/1e6:.2f} MB -> {out}")
PY
