#!/usr/bin/env bash
# bench/campaign.sh: the campaign over the softest targets of issue #29 (bench/campaign-targets.txt),
# about 9 minutes on every core, then its results as JSON in bench/results/ and a table.
#
#   bench/campaign.sh [TIME] [THREADS]     (defaults: 9m, all cores; TDISC=path/to/tdisc, SEED=29,
#                                           CATALOG=DIR to file into, default runs/<campaign>-catalogue;
#                                           DIR=runs/... continues that campaign: TIME is its total budget)
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
TARGETS=bench/campaign-targets.txt
mkdir -p runs bench/results
COMMAND="$TDISC campaign $TARGETS --skip-missing --threads $THREADS --time $TIME --seed $SEED --dir $DIR --catalog $CATALOG"
echo "$COMMAND"
code=0
$COMMAND || code=$?
# 0: every target reached, 3: some not; anything else is a failure of the campaign itself.
if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then echo "bench/campaign.sh: tdisc campaign exited $code" >&2; exit "$code"; fi

OUT=bench/results/campaign-$STAMP.json
python3 - "$DIR/campaign.json" "$OUT" "$COMMAND" "$(git rev-parse --short HEAD)" "$THREADS" <<'PY'
import json, os, platform, sys, datetime
state_path, out, command, commit, threads = sys.argv[1:]
state = json.load(open(state_path))
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
rows = [{"target": t["name"], "format": t["format"], "ring": t["ring"], "rank_to_beat": t["beat"], "target_rank": t["reach"],
         "start_rank": t.get("start_rank"), "best_rank": t["best_rank"], "seconds": round(t["seconds"], 1), "state": t["status"], "filed": t["filed"],
         "run_dir": t["run_dir"], "seed": t["seed"]} for t in state["targets"]]
result = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
          "machine": f"{platform.node()}, {os.cpu_count()} cores ({cpu})", "threads": int(threads), "commit": commit,
          "command": command, "campaign_seed": state["seed"], "elapsed_seconds": round(state["elapsed"], 1), "targets": rows}
tmp = out + ".tmp"
with open(tmp, "w") as f:
    json.dump(result, f, indent=1)
    f.write("\n")
os.replace(tmp, out)
PY
echo "results: $OUT"
"$TDISC" campaign --status "$DIR"
