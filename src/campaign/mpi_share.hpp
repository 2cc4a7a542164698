// tdisc campaign under mpirun: rank k runs the targets whose index is k modulo the number of ranks,
// each as a single-process search; every change of a target's state (and each verified improvement to
// file, as native text) goes to rank 0, which keeps campaign.json and the catalogue (docs/campaign.md).
#pragma once
#include <functional>
#include <iosfwd>
#include <vector>

#include "src/campaign/runner.hpp"

namespace tdisc::campaign {

// lead_state: rank 0's state to start from (it checks DIR and reads or makes campaign.json); its
// error ends every rank. threads_auto: --threads 0, the host's cores shared by its ranks.
int run_under_mpi(CampaignConfig config, const std::vector<CampaignTarget>& targets,
                  const std::function<CampaignState()>& lead_state, bool threads_auto, std::ostream& out);

}  // namespace tdisc::campaign
