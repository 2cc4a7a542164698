#!/usr/bin/env bash
# Fault soak of the run directory (docs/reliability.md): starts a search that cannot reach its
# target, kills it with SIGKILL at a random moment KILLS times in a row (default 50), resuming each
# time, with checkpoints every PERIOD seconds (default 0.5, so that many kills land during checkpoint
# and best-file writes). After each kill: every JSON file parses, every events.jsonl line parses
# (after the resume's repair), every best-r<R>.json verifies, and the progress lost — the session's
# search time (from its started/resumed event to the kill) minus the elapsed time its checkpoints
# gained — is recorded. Seed: SEED (default 1)
# drives the kill moments and the search. Writes bench/results/soak-<date>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
KILLS=${KILLS:-50}
PERIOD=${PERIOD:-0.5}
SEED=${SEED:-1}
BUILD_DIR=${BUILD_DIR:-build/ci}
TDISC=${TDISC:-$BUILD_DIR/tdisc}
[ -x "$TDISC" ] || { echo "soak.sh: build tdisc first (cmake --build --preset ci)"; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
RUN=$WORK/run
RANDOM=$SEED
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
search_args="--size 3x3 --rank 19 --ring ZT --threads 1 --time 1h --checkpoint-every $PERIOD -q"

elapsed_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("elapsed", 0))' "$1" 2>/dev/null || echo 0; }

check_files() {  # prints the number of problems found in the run directory
  python3 - "$RUN" <<'PY'
import json, os, sys
d = sys.argv[1]; bad = 0
for name in os.listdir(d):
    p = os.path.join(d, name)
    if name.endswith(".json"):
        try: json.load(open(p))
        except Exception as e: print(f"  {name}: {e}", file=sys.stderr); bad += 1
print(bad)
PY
}

kills=0 resumes=0 problems=0 unverified=0 max_loss=0 total_loss=0 torn_repairs=0 first_missing=0
# The moment a session starts searching: its "started"/"resumed" event appears in events.jsonl
# (process start-up, reading and verifying the best files, is not search progress to lose).
starts() { local n; n=$(grep -c '"event":"\(started\|resumed\)"' "$RUN/events.jsonl" 2>/dev/null || true); echo "${n:-0}"; }
session_start() {  # events seen before the launch
  local seen=$1 until=$(( $(date +%s) + 20 ))
  while [ "$(starts)" -le "$seen" ] &&
        [ "$(date +%s)" -lt "$until" ]; do sleep 0.01; done
  date +%s.%N
}

"$TDISC" search $search_args --seed "$SEED" --out "$RUN" >"$WORK/log" 2>&1 &
pid=$!
started=$(session_start 0)
before=0
for k in $(seq 1 "$KILLS"); do
  sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.3 + 2.7 * r / 32767 }')"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  stopped=$(date +%s.%N)
  kills=$((kills + 1))
  # A parse failure of a finished file is a problem; temporaries (*.tmp-*) are left for the resume.
  bad=$(check_files 2>>"$WORK/problems" | tail -1); problems=$((problems + ${bad:-0}))
  for b in "$RUN"/best-r*.json; do
    [ -e "$b" ] || continue
    "$TDISC" verify "$b" >/dev/null 2>&1 || { unverified=$((unverified + 1)); echo "  $b does not verify" >>"$WORK/problems"; }
  done
  if [ -f "$RUN/checkpoint.json" ]; then
    after=$(elapsed_of "$RUN/checkpoint.json")
    loss=$(awk -v s="$started" -v e="$stopped" -v a="$after" -v b="$before" 'BEGIN { l = (e - s) - (a - b); printf "%.3f", l < 0 ? 0 : l }')
  else
    first_missing=$((first_missing + 1)); after=0
    loss=$(awk -v s="$started" -v e="$stopped" 'BEGIN { printf "%.3f", e - s }')
  fi
  max_loss=$(awk -v a="$max_loss" -v b="$loss" 'BEGIN { print (b > a ? b : a) }')
  total_loss=$(awk -v a="$total_loss" -v b="$loss" 'BEGIN { print a + b }')
  before=$after
  seen=$(starts)
  "$TDISC" search --resume "$RUN" --time 1h --checkpoint-every "$PERIOD" -q >"$WORK/log" 2>&1 &
  pid=$!
  started=$(session_start "$seen")
  resumes=$((resumes + 1))
done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
# The last resume must succeed and leave a clean directory: run it to its end.
"$TDISC" search --resume "$RUN" --time 2s --checkpoint-every "$PERIOD" -q >"$WORK/final" 2>&1 && final=0 || final=$?
torn_repairs=$(grep -c "temporary file\|torn last line" "$WORK/final" || true)
bad=$(check_files 2>>"$WORK/problems" | tail -1); problems=$((problems + ${bad:-0}))
events_bad=$(python3 -c '
import json,sys
bad=0
for line in open(sys.argv[1]):
    try: json.loads(line)
    except Exception: bad+=1
print(bad)' "$RUN/events.jsonl")
resumed_events=$(grep -c '"resumed"' "$RUN/events.jsonl" || true)
best=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("best_rank"))' "$RUN/checkpoint.json")
mean_loss=$(awk -v t="$total_loss" -v k="$kills" 'BEGIN { printf "%.3f", t / k }')
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
[ -s "$WORK/problems" ] && cat "$WORK/problems"
printf 'kills %d  resumes %d  resumed events %d  final exit %d  unparsable files %d  unparsable event lines %d\n' \
  "$kills" "$resumes" "$resumed_events" "$final" "$problems" "$events_bad"
printf 'best files that do not verify %d  best rank %s  progress lost per kill: max %.3f s, mean %s s (checkpoint period %s s)\n' \
  "$unverified" "$best" "$max_loss" "$mean_loss" "$PERIOD"
out="bench/results/soak-$(date -u +%Y-%m-%d).json"
cat >"$out.tmp" <<JSON
{
  "benchmark": "soak",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "commit": "$(git rev-parse --short=12 HEAD 2>/dev/null || echo nogit)",
  "machine": {"uname": "$(uname -srm)", "nproc": $(nproc)},
  "command": "bench/soak.sh (KILLS=$KILLS PERIOD=$PERIOD SEED=$SEED)",
  "search": "tdisc search $search_args --seed $SEED",
  "seed": $SEED,
  "loadavg_before": "$load_before",
  "loadavg_after": "$load_after",
  "kills": $kills, "resumes": $resumes, "resumed_events": $resumed_events, "final_exit": $final,
  "unparsable_files": $problems, "unparsable_event_lines": $events_bad, "unverified_best_files": $unverified,
  "kills_before_first_checkpoint": $first_missing,
  "best_rank": $best,
  "checkpoint_period_s": $PERIOD, "max_loss_s": $max_loss, "mean_loss_s": $mean_loss
}
JSON
mv "$out.tmp" "$out"
echo "wrote $out"
