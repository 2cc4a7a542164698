#!/usr/bin/env bash
# bench/mpi.sh — scaling of an MPI flip search on one host (issue 12): aggregate flips/s at an
# unreachable rank, and seconds to a verified target, with N=1 and N=2 ranks (mpirun -np N, one walker
# thread per rank), over several seeds; also the pool-exchange overhead (N=2 with and without exchange).
# Writes bench/results/mpi-<date>.json (date, machine, commit, command lines, seeds, load averages).
#
# The rate runs start from a plateau state (RATE_FROM, default the catalogue's 4x4 rank-49 ZT scheme):
# a walk's flip rate depends on where it is (from the standard algorithm at ranks 52-57 about 12.5M
# flips per CPU second here, at rank 49 about 10M), and islands that exchange get lower sooner, so a
# run from the standard algorithm mixes the exchange's cost with the search's progress. RATE_FROM=""
# measures from the standard algorithm as before.
#
# Environment: TDISC (build/ci/tdisc), SEEDS ("1 2 3 4 5"), RATE_SECONDS (20), CAP (60: seconds per
# time-to-target run), CASES ("4x4:49:Z:auto 5x5:114:ZT:z3" = size:rank:ring:symmetry), RANKS ("1 2"),
# EXCHANGE (1s), RANK0_RANKS ("4 8": rank 0's cost per message at these N), SECTIONS ("rate ttt rank0"),
# RESULT (output path).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TDISC=${TDISC:-$ROOT/build/ci/tdisc}
SEEDS=${SEEDS:-"1 2 3 4 5"}
RATE_SECONDS=${RATE_SECONDS:-20}
RATE_FROM=${RATE_FROM-algorithms/4x4x4/r49-ZT-ab549ddb.json}
CAP=${CAP:-60}
CASES=${CASES:-"4x4:49:Z:auto 5x5:114:ZT:z3"}
RANKS=${RANKS:-"1 2"}
EXCHANGE=${EXCHANGE:-1s}
RANK0_RANKS=${RANK0_RANKS:-"4 8"}
SECTIONS=${SECTIONS:-"rate ttt rank0"}
OUT=${RESULT:-$ROOT/bench/results/mpi-$(date -u +%Y-%m-%d).json}
WORK=$(mktemp -d /tmp/tdisc-mpibench-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
[[ -x $TDISC ]] || { echo "bench/mpi.sh: $TDISC not found" >&2; exit 1; }
command -v mpirun >/dev/null || { echo "bench/mpi.sh: mpirun not found" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo
MPI="mpirun --oversubscribe --bind-to none"
rows=$WORK/rows.jsonl
: >"$rows"

load() { cut -d' ' -f1-3 /proc/loadavg; }
# value of "key" in the last "finished" event of a run directory
finished() { { grep '"event":"finished"' "$1/events.jsonl" || true; } | tail -n 1 | sed -n "s/.*\"$2\":\([0-9.e+-]*\).*/\1/p"; }
flips_of() { { grep '"event":"finished"' "$1/events.jsonl" || true; } | tail -n 1 | sed -n 's/.*"flips":\([0-9.e+-]*\).*/\1/p'; }
# seconds to the verified target, from its "improved" event
to_target() { { grep '"event":"improved"' "$1/events.jsonl" || true; } | { grep "\"rank\":$2," || true; } | sed -n 's/.*"elapsed":\([0-9.e-]*\).*/\1/p' | head -n 1; }
mpi_seconds() { { grep '"event":"mpi_stats"' "$1/events.jsonl" || true; } | sed -n 's/.*"mpi_seconds":\([0-9.e-]*\).*/\1/p' | head -n 1; }
launch() {  # launch N ARGS…: one process for N=1 (plain tdisc), mpirun otherwise
  local n=$1; shift
  if [[ $n == 1 ]]; then "$TDISC" "$@"; else $MPI -np "$n" "$TDISC" "$@"; fi
}
row() { printf '%s\n' "$1" >>"$rows"; echo "$1"; }

echo "# $(date -u +%FT%TZ) $(nproc) cores, load before: $(load)"
mstat() { { grep '"event":"mpi_stats"' "$1/events.jsonl" || true; } | { grep '"mpi_rank":0' || true; } | sed -n "s/.*\"$2\":\([0-9.e+-]*\).*/\1/p" | head -n 1; }
has() { [[ " $SECTIONS " == *" $1 "* ]]; }
# 1. Rate: 4x4 at rank 40 (unreachable), plain ZT walk, 1 thread per rank; N=2 also without exchange.
has rate && for n in $RANKS; do
  for ex in $EXCHANGE 0; do
    [[ $n == 1 && $ex == 0 ]] && continue
    for seed in $SEEDS; do
      d=$WORK/rate-$n-$ex-$seed
      l0=$(load)
      cmd="search --size 4x4 --rank 40 --ring ZT --symmetry none --threads 1 --seed $seed --time ${RATE_SECONDS}s --mpi-exchange $ex -q --out $d${RATE_FROM:+ --from $ROOT/$RATE_FROM}"
      launch "$n" $cmd >/dev/null 2>&1 || true
      f=$(flips_of "$d"); e=$(finished "$d" elapsed); ms=$(mpi_seconds "$d")
      row "{\"kind\":\"rate\",\"ranks\":$n,\"exchange\":\"$ex\",\"seed\":$seed,\"flips\":${f:-0},\"seconds\":${e:-0},\"mpi_seconds\":${ms:-null},\"load_before\":\"$l0\",\"load_after\":\"$(load)\",\"command\":\"$cmd\"}"
    done
  done
done
# 2. Time to target.
has ttt && for c in $CASES; do
  IFS=: read -r size rank ring sym <<<"$c"
  for n in $RANKS; do
    for seed in $SEEDS; do
      d=$WORK/ttt-$size-$rank-$n-$seed
      l0=$(load)
      cmd="search --size $size --rank $rank --ring $ring --symmetry $sym --threads 1 --seed $seed --time ${CAP}s --mpi-exchange $EXCHANGE -q --out $d"
      launch "$n" $cmd >/dev/null 2>&1 || true
      t=$(to_target "$d" "$rank")
      best=$(finished "$d" best_rank)
      row "{\"kind\":\"time_to_target\",\"case\":\"$size:$rank:$ring:$sym\",\"ranks\":$n,\"seed\":$seed,\"seconds\":${t:-null},\"best_rank\":${best:-null},\"cap\":$CAP,\"load_before\":\"$l0\",\"load_after\":\"$(load)\",\"command\":\"$cmd\"}"
    done
  done
done
# 3. Rank 0's cost per message (CPU time, so a busy machine does not inflate it): N ranks on this host,
#    checkpoints every 2 s so that state-carrying reports and combined checkpoints are counted too.
has rank0 && for n in $RANK0_RANKS; do
  d=$WORK/rank0-$n
  l0=$(load)
  cmd="search --size 4x4 --rank 40 --ring ZT --symmetry none --threads 1 --seed 1 --time ${RATE_SECONDS}s --checkpoint-every 2s -q --out $d"
  $MPI -np "$n" "$TDISC" $cmd >/dev/null 2>&1 || true
  row "{\"kind\":\"rank0\",\"ranks\":$n,\"reports\":$(mstat "$d" reports),\"relay_seconds\":$(mstat "$d" relay_seconds),\"mpi_seconds\":$(mstat "$d" mpi_seconds),\"messages_received\":$(mstat "$d" messages_received),\"bytes_received\":$(mstat "$d" bytes_received),\"messages_sent\":$(mstat "$d" messages_sent),\"checkpoints\":$(mstat "$d" checkpoints),\"checkpoint_seconds\":$(mstat "$d" checkpoint_seconds),\"checkpoint_bytes\":$(stat -c %s "$d/checkpoint.json"),\"load_before\":\"$l0\",\"load_after\":\"$(load)\",\"command\":\"mpirun -np $n tdisc $cmd\"}"
done
echo "# load after: $(load)"

mkdir -p "$(dirname "$OUT")"
{
  printf '{"bench":"mpi","date":"%s","machine":"%s, %s cores","commit":"%s","mpirun":"%s",' \
    "$(date -u +%FT%TZ)" "$(uname -n)" "$(nproc)" "$(git -C "$ROOT" rev-parse --short HEAD)" "$(mpirun --version | head -n 1)"
  printf '"seeds":"%s","rate_seconds":%s,"rate_from":"%s","cap":%s,"exchange":"%s","rows":[' "$SEEDS" "$RATE_SECONDS" "$RATE_FROM" "$CAP" "$EXCHANGE"
  paste -sd, "$rows"
  printf ']}\n'
} >"$OUT"
echo "wrote $OUT"
