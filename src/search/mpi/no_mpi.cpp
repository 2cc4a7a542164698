// Stands in for world.cpp and channel.cpp in builds without MPI: a search started under mpirun
// stops with "built without MPI" instead of running the same search N times side by side.
#include <chrono>
#include <cstdlib>

#include "base/error.hpp"
#include "src/search/mpi/channel.hpp"
#include "src/search/mpi/world.hpp"

namespace tdisc::search::mpi {

World init() {
  throw UsageError("started under mpirun, but this tdisc was built without MPI (install Open MPI and rebuild with -DTDISC_MPI=ON)");
}

void finalize() {}
void abort_job(int code) { std::_Exit(code); }

struct Channel::Pending {};
Channel::Channel() = default;
Channel::~Channel() = default;
void Channel::post(int, Tag, std::string) { TDISC_REQUIRE(false, "Channel::post: built without MPI"); }
std::optional<Message> Channel::poll() { return std::nullopt; }
std::optional<Message> Channel::wait(Tag, int, double) { return std::nullopt; }
bool Channel::drain(double) { return true; }
void Channel::reap() {}

}  // namespace tdisc::search::mpi
