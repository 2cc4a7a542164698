// Point-to-point messages between ranks, each a tag and a text (JSON). post() never blocks: the
// text is kept until MPI has sent it. Only one thread at a time may use a Channel (the pump).
#pragma once
#include <deque>
#include <memory>
#include <optional>
#include <string>

namespace tdisc::search::mpi {

enum Tag : int { kSetup = 1, kReport = 2, kControl = 3, kMigrants = 4, kBye = 5, kJob = 6, kResult = 7 };

struct Message {
  int from = -1;
  int tag = 0;
  std::string body;
};

// What a rank spent on messages: the exchange overhead reported at the end of a run.
struct ChannelStats {
  long sent = 0, received = 0;
  double bytes_sent = 0, bytes_received = 0;
  double seconds = 0;  // CPU time inside MPI calls
};

class Channel {
public:
  Channel();
  ~Channel();
  void post(int to, Tag tag, std::string body);  // non-blocking send
  std::optional<Message> poll();                 // the next arrived message, if any
  // Waits at most `seconds` for a message with this tag (from anyone when from < 0).
  std::optional<Message> wait(Tag tag, int from, double seconds);
  // Waits at most `seconds` for posted sends to complete; false when some did not.
  bool drain(double seconds);
  const ChannelStats& stats() const { return stats_; }

private:
  struct Pending;
  void reap();  // frees the buffers of completed sends
  std::deque<std::unique_ptr<Pending>> pending_;
  ChannelStats stats_;
};

}  // namespace tdisc::search::mpi
