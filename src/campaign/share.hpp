// How a campaign shares its threads among targets: an even split over the targets that may run,
// in file order, at most one target per thread (pure functions, tested in tests/campaign).
#pragma once
#include <vector>

namespace tdisc::campaign {

// threads split over `candidates` targets: min(threads, candidates) entries, each at least 1,
// differing by at most one, the larger shares first; summing to threads.
std::vector<int> even_split(int threads, int candidates);

// Whether interrupting the running searches (holding `running` threads each) and restarting them
// with an even split of `threads` gives some of them more: the threads of a finished target go to the others.
bool worth_rebalancing(const std::vector<int>& running, int threads);

}  // namespace tdisc::campaign
