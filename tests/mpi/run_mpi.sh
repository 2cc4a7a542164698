#!/bin/sh
# Whole MPI searches (docs/mpi.md): run_mpi.sh TDISC reach|resume|killed. Exit 0 passed, 1 failed,
# 77 skipped (no mpirun, or tdisc built without MPI). Leaves its run directories in mpi-test-<case>/.
tdisc=$1
case_=$2
# TDISC_BINARY in the tests is tdisc; mpirun must be on PATH for the llm case too
command -v mpirun >/dev/null 2>&1 || { echo "mpirun not found: skipped"; exit 77; }
# root in CI containers: Open MPI refuses to run as root unless told
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# no network in CI: keep Open MPI on this host's shared memory and loopback
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
mpi="mpirun --oversubscribe"
dir=$(pwd)/mpi-test-$case_
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAILED ($case_): $*"; for f in "$dir"/*.log; do echo "--- $f"; tail -n 20 "$f"; done; exit 1; }
ranks_in_checkpoint() {  # the number of per-rank states in a checkpoint.json ({"mpi":{"engine":…,"ranks":N},…}), or -1
  n=$(grep -o '"mpi":{[^}]*}' "$1" 2>/dev/null | sed -n 's/.*"ranks":\([0-9]*\).*/\1/p' | head -n 1)
  echo "${n:--1}"
}
events_with() { grep -c "$2" "$1/events.jsonl" 2>/dev/null || true; }

$mpi -np 2 "$tdisc" search --size 2x2 --rank 7 --time 5s --out "$dir/probe" -q >"$dir/probe.log" 2>&1
if grep -q "built without MPI" "$dir/probe.log"; then echo "tdisc built without MPI: skipped"; exit 77; fi

case $case_ in
reach)
  # 3 ranks on 2 cores: 3x3 rank 23 over ZT, flip walks exchanging pools every 0.5 s
  $mpi -np 3 "$tdisc" search --size 3x3 --rank 23 --ring ZT --threads 1 --seed 7 --time 90s --mpi-exchange 0.5s \
      --out "$dir/run" -q >"$dir/reach.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || fail "exit $rc, expected 0 (target reached)"
  ls "$dir/run"/best-r23.json >/dev/null 2>&1 || fail "no best-r23.json in the run directory"
  "$tdisc" verify "$dir/run/best-r23.json" >/dev/null || fail "best-r23.json does not verify"
  [ "$(events_with "$dir/run" '"event":"rank_started"')" -eq 2 ] || fail "expected rank_started from ranks 1 and 2"
  [ "$(events_with "$dir/run" '"mpi_rank":2')" -ge 1 ] || fail "no event names rank 2 as its origin"
  [ "$(ranks_in_checkpoint "$dir/run/checkpoint.json")" -eq 3 ] || fail "checkpoint.json does not hold 3 ranks' states"
  ;;
resume)
  # 3x3 rank 19 is below the border rank bound: the budget always ends first (exit 3)
  $mpi -np 3 "$tdisc" search --size 3x3 --rank 19 --ring ZT --threads 1 --seed 5 --time 4s --checkpoint-every 1s \
      --out "$dir/run" -q >"$dir/first.log" 2>&1
  rc=$?
  [ $rc -eq 3 ] || fail "first session: exit $rc, expected 3"
  [ "$(ranks_in_checkpoint "$dir/run/checkpoint.json")" -eq 3 ] || fail "first session: checkpoint without 3 ranks"
  $mpi -np 2 "$tdisc" search --resume "$dir/run" --threads 1 --time 3s -q >"$dir/second.log" 2>&1
  rc=$?
  [ $rc -eq 3 ] || fail "resumed session: exit $rc, expected 3"
  grep -q '"resumed_from_ranks":3' "$dir/run/events.jsonl" || fail "no mpi event with resumed_from_ranks 3"
  [ "$(ranks_in_checkpoint "$dir/run/checkpoint.json")" -eq 2 ] || fail "resumed session: checkpoint without 2 ranks"
  grep '"event":"walkers_restored"' "$dir/run/events.jsonl" | grep -q '"mpi_rank":1' || fail "rank 1 restored no walkers"
  # and gathered into one process, without mpirun
  before=$(grep -c '"event":"walkers_restored"' "$dir/run/events.jsonl")
  "$tdisc" search --resume "$dir/run" --threads 1 --time 2s -q >"$dir/third.log" 2>&1
  rc=$?
  [ $rc -eq 3 ] || fail "single-process resume: exit $rc, expected 3"
  [ "$(grep -c '"event":"walkers_restored"' "$dir/run/events.jsonl")" -gt "$before" ] || fail "single-process resume restored no walkers"
  grep -q '"mpi"' "$dir/run/checkpoint.json" && fail "single-process resume still wrote a per-rank checkpoint"
  ;;
killed)
  $mpi -np 3 "$tdisc" search --size 3x3 --rank 19 --ring ZT --threads 1 --seed 9 --time 120s --checkpoint-every 1s \
      --mpi-timeout 5s --out "$dir/run" -q >"$dir/killed.log" 2>&1 &
  job=$!
  pid=""
  for _ in $(seq 1 60); do  # the pid of rank 1, from its rank_started event, once a 3-rank checkpoint exists
    sleep 1
    [ "$(ranks_in_checkpoint "$dir/run/checkpoint.json")" -eq 3 ] || continue
    pid=$(grep '"event":"rank_started"' "$dir/run/events.jsonl" | grep '"mpi_rank":1' | sed 's/.*"pid":\([0-9]*\).*/\1/' | head -n 1)
    [ -n "$pid" ] && break
  done
  [ -n "$pid" ] || { kill $job; fail "rank 1 never started"; }
  sleep 2  # a checkpoint with every rank's walkers
  kill -9 "$pid"
  for _ in $(seq 1 60); do kill -0 $job 2>/dev/null || break; sleep 1; done
  if kill -0 $job 2>/dev/null; then kill $job; fail "the job still runs 60 s after rank 1 was killed (hang)"; fi
  wait $job
  rc=$?
  [ $rc -ne 0 ] || fail "the job exited 0 after losing a rank"
  grep -Eq "rank 1|signal 9|Killed" "$dir/killed.log" || fail "no message names the lost rank"
  [ "$(ranks_in_checkpoint "$dir/run/checkpoint.json")" -eq 3 ] || fail "checkpoint.json is not a valid 3-rank checkpoint"
  $mpi -np 2 "$tdisc" search --resume "$dir/run" --threads 1 --time 2s -q >"$dir/resumed.log" 2>&1
  rc=$?
  [ $rc -eq 3 ] || fail "resume after the kill: exit $rc, expected 3"
  grep -q '"resumed_from_ranks":3' "$dir/run/events.jsonl" || fail "the resumed session did not start from the 3-rank state"
  ;;
exchange)
  # pools cross the ring, at most --mpi-migrants states each: 4 walkers per rank fill a level with more
  # than 2 states; 3x3 rank 19 is out of reach, so the budget ends the run (exit 3). 8 walkers on 2
  # busy cores received only 4 or 5 pools in 4 s, as few as one of them with 2 states; in 10 s 6 to 9,
  # 4 to 6 of them with 2: enough exchanges for a slow or busy machine to see a pool of 2 states.
  $mpi -np 2 "$tdisc" search --size 3x3 --rank 19 --ring ZT --threads 4 --seed 11 --time 10s --mpi-exchange 0.2s \
      --mpi-migrants 2 --out "$dir/run" -q >"$dir/exchange.log" 2>&1
  rc=$?
  [ $rc -eq 3 ] || fail "exit $rc, expected 3 (budget)"
  for r in 0 1; do
    stats=$(grep '"event":"mpi_stats"' "$dir/run/events.jsonl" | grep "\"mpi_rank\":$r" | head -n 1)
    pools=$(echo "$stats" | sed -n 's/.*"pools_received":\([0-9]*\).*/\1/p')
    states=$(echo "$stats" | sed -n 's/.*"states_received":\([0-9]*\).*/\1/p')
    [ "${pools:-0}" -ge 1 ] || fail "rank $r received no pool"
    [ "$states" -le $((2 * pools)) ] || fail "rank $r received $states states in $pools pools (at most 2 each)"
    [ "$states" -gt "$pools" ] || fail "rank $r never received more than one state per pool: the bound was not exercised"
  done
  ;;
numeric)
  # the numeric engine: rank k takes restarts k, k+2, … and GPU k of its host (device_index), checked on the CPU engine
  $mpi -np 2 "$tdisc" search --size 2x2x3 --rank 11 --ring Q --engine numeric --threads 1 --seed 3 --time 90s \
      --out "$dir/run" -q >"$dir/numeric.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || fail "exit $rc, expected 0 (target reached)"
  grep '"event":"numeric_start"' "$dir/run/events.jsonl" | grep '"mpi_rank":1' | grep '"first_restart":1' |
    grep '"restart_stride":2' | grep -q '"device_index":1' || fail "rank 1 did not start at restart 1, stride 2, device 1"
  grep '"event":"numeric_start"' "$dir/run/events.jsonl" | grep '"mpi_rank":0' | grep -q '"device_index":0' || fail "rank 0 not on device 0"
  ;;
campaign)
  # tdisc campaign on 2 ranks: targets dealt by index (rank 0: 1st and 3rd, rank 1: 2nd); rank 0 keeps
  # campaign.json and files every target reached, including rank 1's (sent as native text, verified again)
  printf '2x2x2 GF2 reach=7\n2x2x3 ZT reach=11\n3x3 GF2 reach=23\n' >"$dir/targets.txt"
  $mpi -np 2 "$tdisc" campaign "$dir/targets.txt" --threads 1 --time 120s --seed 4 --dir "$dir/c" \
      --catalog "$dir/cat" >"$dir/campaign.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || fail "exit $rc, expected 0 (every target reached)"
  [ "$(grep -c '"status": "reached"' "$dir/c/campaign.json")" -eq 3 ] || fail "campaign.json does not say 3 targets reached"
  [ "$(ls "$dir"/cat/*/*.json | wc -l)" -eq 3 ] || fail "the catalogue does not hold the 3 schemes"
  grep -q '\[t2-2x2x3-ZT-r11\] started on rank 1' "$dir/campaign.log" || fail "target 2 did not run on rank 1"
  grep -q '\[t1-2x2x2-GF2-r7\] started on rank 0' "$dir/campaign.log" || fail "target 1 did not run on rank 0"
  grep -q '2x2x3/r11-' "$dir/cat/INDEX.md" || fail "INDEX.md does not list rank 1's scheme"
  ;;
llm)
  [ -n "${3:-}" ] || { echo "llm case: the tests_mpi binary is the third argument"; exit 1; }
  "$3" "[.mpi]" || fail "tests_mpi [.mpi] failed"
  ;;
*) echo "unknown case $case_"; exit 1 ;;
esac
echo "passed ($case_)"
