// Messages between ranks over MPI: MPI_Isend with the text kept alive until MPI_Test says it has
// gone, MPI_Iprobe + MPI_Recv for arrivals (sizes from MPI_Get_count), the time spent counted.
#include "src/search/mpi/channel.hpp"

#include <mpi.h>

#include <chrono>
#include <thread>

#include "base/error.hpp"
#include "src/search/mpi/world.hpp"

namespace tdisc::search::mpi {

struct Channel::Pending {
  std::string body;
  MPI_Request request = MPI_REQUEST_NULL;
};

namespace {

// Adds the CPU time of the MPI calls it wraps to stats.seconds (CPU, not wall: the machines these
// costs are measured on are shared).
struct Timed {
  ChannelStats& stats;
  double t0 = thread_cpu_time();
  ~Timed() { stats.seconds += thread_cpu_time() - t0; }
};

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw IoError("mpi", 0, std::string(what) + " failed: " + std::string(text, static_cast<size_t>(len)));
}

Message receive(const MPI_Status& status, ChannelStats& stats) {
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  Message m{status.MPI_SOURCE, status.MPI_TAG, std::string(static_cast<size_t>(count), '\0')};
  check(MPI_Recv(m.body.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Recv");
  ++stats.received;
  stats.bytes_received += count;
  return m;
}

}  // namespace

Channel::Channel() = default;

Channel::~Channel() {
  for (auto& p : pending_)  // a send that never completed (a lost peer): let MPI forget it
    if (p->request != MPI_REQUEST_NULL) MPI_Request_free(&p->request);
}

void Channel::post(int to, Tag tag, std::string body) {
  Timed t{stats_};
  reap();
  auto p = std::make_unique<Pending>();
  p->body = std::move(body);
  check(MPI_Isend(p->body.data(), static_cast<int>(p->body.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD, &p->request),
        "MPI_Isend");
  ++stats_.sent;
  stats_.bytes_sent += static_cast<double>(p->body.size());
  pending_.push_back(std::move(p));
}

void Channel::reap() {
  for (auto it = pending_.begin(); it != pending_.end();) {
    int done = 0;
    check(MPI_Test(&(*it)->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    it = done ? pending_.erase(it) : it + 1;
  }
}

std::optional<Message> Channel::poll() {
  Timed t{stats_};
  reap();
  int flag = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status), "MPI_Iprobe");
  if (!flag) return std::nullopt;
  return receive(status, stats_);
}

std::optional<Message> Channel::wait(Tag tag, int from, double seconds) {
  const double until = MPI_Wtime() + seconds;
  for (;;) {
    {
      Timed t{stats_};
      reap();
      int flag = 0;
      MPI_Status status;
      check(MPI_Iprobe(from < 0 ? MPI_ANY_SOURCE : from, tag, MPI_COMM_WORLD, &flag, &status), "MPI_Iprobe");
      if (flag) return receive(status, stats_);
    }
    if (MPI_Wtime() >= until) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

bool Channel::drain(double seconds) {
  const double until = MPI_Wtime() + seconds;
  for (;;) {
    {
      Timed t{stats_};
      reap();
    }
    if (pending_.empty()) return true;
    if (MPI_Wtime() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace tdisc::search::mpi
