// Moves of the meta flip graph (Kauers–Wood 2025, after Moosbauer–Poole): each carries catalogued
// schemes of neighbouring formats to a start scheme of the target format; flip walks then lower its rank.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "decomposition/constructions.hpp"
#include "src/search/engine.hpp"
#include "src/search/flip/meta_shelf.hpp"
#include "src/search/flip/rng.hpp"

namespace tdisc::search::flip {

// One way into the target format: a move applied to one or two shelf schemes.
struct MetaStart {
  std::string move;      // "extend", "project", "merge" or "product"
  std::string describe;  // "extend 2x2x2:7 (r7-ZT-02268ba0) along p", printed and stored
  int rank = 0;          // rank of the start (for project: of one draw; other draws may differ)
  std::function<Scheme(Rng&)> build;  // the start scheme in the target format (project draws indices)
};

// meta_extend.cpp: ⟨n−1,m,p;R⟩ → ⟨n,m,p;R+mp⟩ (likewise along m and p): the missing slice is
// computed by the classical products, i.e. a join with the classical ⟨1,m,p⟩.
std::vector<MetaStart> extend_starts(Format target, const Shelf& shelf);
// meta_project.cpp: ⟨n',m',p'⟩ ≥ target, at most `depth` indices more in all: keep a random subset
// of rows/inner/columns (restrict_scheme), dropping the terms that vanish.
std::vector<MetaStart> project_starts(Format target, const Shelf& shelf, int depth);
// meta_merge.cpp: ⟨n1,m,p⟩ ⊕ ⟨n2,m,p⟩ = ⟨n1+n2,m,p⟩ (join), both parts of dimension ≥ 2 on the axis.
std::vector<MetaStart> merge_starts(Format target, const Shelf& shelf);
// meta_product.cpp: ⟨a,b,c⟩ ⊗ ⟨d,e,f⟩ = ⟨ad,be,cf⟩ (kronecker), neither factor ⟨1,1,1⟩.
std::vector<MetaStart> product_starts(Format target, const Shelf& shelf);

// meta_detour.cpp: `best` (a scheme of the target format) goes out one index along `axis` (extend),
// is walked there for `seconds` by the flip walkers of `walk` (its ring and parameters; results
// verified), and comes back by dropping a random index on that axis (project). Stops with `run`.
Scheme detour(const Scheme& best, Axis axis, const EngineConfig& walk, double seconds, const Reporter& run, Rng& rng);

// Every start of the four moves, lowest rank first (ties: the order above, then the description).
std::vector<MetaStart> meta_starts(Format target, const Shelf& shelf, int project_depth);

// The axis name ("n", "m", "p") and the dimension of a format along it.
const char* meta_axis_name(Axis a);
int& meta_dimension(Format& f, Axis a);

}  // namespace tdisc::search::flip
