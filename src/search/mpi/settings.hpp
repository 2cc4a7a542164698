// The knobs of an MPI search (tdisc search --mpi-exchange, --mpi-timeout; docs/mpi.md).
#pragma once

namespace tdisc::search::mpi {

struct Settings {
  double exchange_seconds = 1;     // island migration period of the flip walks (0: none)
  double timeout_seconds = 10;     // a rank silent this long is taken as lost: the job ends
  double report_seconds = 0.2;     // heartbeat/report period of every rank
  double checkpoint_seconds = 30;  // the run's checkpoint period (followers send their state as often)
  int migrants = 8;                // states of a flip walk's pool sent per exchange, lowest rank first
};

}  // namespace tdisc::search::mpi
