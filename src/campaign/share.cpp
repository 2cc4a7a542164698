// The even split of a campaign's threads, and when a rebalance gives the running searches more.
#include "src/campaign/share.hpp"

#include <algorithm>
#include <numeric>

namespace tdisc::campaign {

std::vector<int> even_split(int threads, int candidates) {
  const int k = std::min(threads, candidates);
  std::vector<int> shares;
  for (int i = 0; i < k; ++i) shares.push_back(threads / k + (i < threads % k ? 1 : 0));
  return shares;
}

bool worth_rebalancing(const std::vector<int>& running, int threads) {
  if (running.empty()) return false;
  const int used = std::accumulate(running.begin(), running.end(), 0);
  if (used >= threads) return false;
  std::vector<int> now = running, then = even_split(threads, static_cast<int>(running.size()));
  std::sort(now.begin(), now.end(), std::greater<>());
  return now != then;
}

}  // namespace tdisc::campaign
