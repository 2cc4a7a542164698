// Project (Kauers–Wood's meta move, issue 29 item 3): deleting rows i, inner indices j or columns k
// of a scheme gives one for the smaller format, and every term whose U, V or W is supported on the
// deleted indices alone vanishes. Which indices to delete matters: best_projection deletes them one
// at a time, each time the index whose deletion makes the most terms vanish (greedy; ties: lowest).
#pragma once
#include <vector>

#include "decomposition/scheme.hpp"

namespace tdisc {

struct ProjectionChoice {
  std::vector<int> keep_i, keep_j, keep_k;  // ascending
  int rank = 0;                             // terms left (rank of restrict_scheme with these indices)
};

// `to` must fit inside s.format dimension by dimension. Cost: O(deletions · (n+m+p) · nnz(s)).
ProjectionChoice best_projection(const Scheme& s, Format to);

}  // namespace tdisc
