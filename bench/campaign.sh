#!/usr/bin/env bash
# bench/campaign.sh: the campaign over the softest targets of issue #29 (bench/campaign-targets.txt),
# about 9 minutes on every core, then its results as JSON in bench/results/ and a table.
#
#   bench/campaign.sh [TIME] [THREADS]     (defaults: 9m, all cores; TDISC=path/to/tdisc, SEED=29,
#                                           CATALOG=DIR to file into, default runs/<campaign>-catalogue;
#                                           DIR=runs/... continues that campaign: TIME is its total budget;
#                                           TARGETS=FILE another list, e.g. bench/campaign-gf2.txt;
#                                           MACHINE=words the result names instead of this host)
#
# The LITA starting files are not in git (khoruzhii/lita states no licence); copy them first:
#   mkdir -p runs/inputs && cp /work/ext/derived/pass1/13x14x14-r1593-Q.json \
#       /work/ext/derived/pass1/15x14x14-r1789-Q.json runs/inputs/
# A target whose starting file is missing is skipped, and the campaign says so (--skip-missing).
set -euo pipefail
cd "$(dirname "$0")/.."
TIME=${1:-9m}
THREADS=${2:-$(nproc)}
SEED=${SEED:-29}
TDISC=${TDISC:-}
if [ -z "$TDISC" ]; then
  for candidate in build/release/tdisc build/ci/tdisc; do
    if [ -x "$candidate" ]; then TDISC=$candidate; break; fi
  done
fi
[ -n "$TDISC" ] && [ -x "$TDISC" ] || { echo "bench/campaign.sh: no tdisc binary (build it, or set TDISC)" >&2; exit 1; }
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
DIR=${DIR:-runs/campaign-h29-$STAMP}
CATALOG=${CATALOG:-$DIR-catalogue}
TARGETS=${TARGETS:-bench/campaign-targets.txt}
mkdir -p runs bench/results
COMMAND="$TDISC campaign $TARGETS --skip-missing --threads $THREADS --time $TIME --seed $SEED --dir $DIR --catalog $CATALOG"
echo "$COMMAND"
code=0
$COMMAND || code=$?
# 0: every target reached, 3: some not; anything else is a failure of the campaign itself.
if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then echo "bench/campaign.sh: tdisc campaign exited $code" >&2; exit "$code"; fi

OUT=bench/results/campaign-$STAMP.json
python3 - "$DIR/campaign.json" "$OUT" "$COMMAND" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$THREADS" "$TARGETS" "${MACHINE:-}" <<'PY'
import json, os, platform, sys, datetime
sys.path.insert(0, "bench")
from bench_json import write_result
state_path, out, command, commit, threads, targets, machine = sys.argv[1:]
state = json.load(open(state_path))


def counters(run_dir):
    """Flips and restarts of a target's search, from its checkpoint (absent before the first one)."""
    try:
        c = json.load(open(os.path.join(run_dir, "checkpoint.json"))).get("counters", {})
        return int(c.get("flips", 0)), int(c.get("restarts", 0))
    except (OSError, ValueError):
        return 0, 0


cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
rows, page = [], []
for t in state["targets"]:
    flips, restarts = counters(t["run_dir"])
    rows.append({"target": t["name"], "format": t["format"], "ring": t["ring"], "rank_to_beat": t["beat"], "target_rank": t["reach"],
                 "start_rank": t.get("start_rank"), "best_rank": t["best_rank"], "seconds": round(t["seconds"], 1), "state": t["status"],
                 "filed": t["filed"], "run_dir": t["run_dir"], "seed": t["seed"], "flips": flips, "restarts": restarts})
    best = t["best_rank"]
    page.append({"case": "%s over %s, %s → %s" % (t["format"], t["ring"], t.get("start_rank"), t["reach"]),
                 "value": ("reached %d" % best) if t["status"] == "reached" else
                          ("not reached (best %s)" % (best if best is not None else "the start")),
                 "work": "%.1e flips, %d restarts in %.0f s" % (flips, restarts, t["seconds"])})
result = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
          "machine": machine or f"{platform.node()}, {os.cpu_count()} cores ({cpu})", "threads": int(threads), "commit": commit,
          "command": command, "campaign_seed": state["seed"], "elapsed_seconds": round(state["elapsed"], 1), "targets": rows}
write_result(result, out, ".", "campaign", {"area": "Campaign", "title": "%s (bench/campaign.sh)" % targets, "rows": page})
PY
echo "results: $OUT"
"$TDISC" campaign --status "$DIR"
