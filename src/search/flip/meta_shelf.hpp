// The schemes a meta walk may start from: the catalogue's best scheme per format usable over the
// walk's ring, permuted to the orientation asked for, never the target format itself.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/catalog/catalogue.hpp"

namespace tdisc::search::flip {

class Shelf {
public:
  // entries: the catalogue; usable: the ring the walk needs (ZT for a ZT walk, GF2/GF3 for modular
  // ones); target: excluded with all its permutations (the walk must come from a neighbour).
  Shelf(std::vector<CatalogueEntry> entries, Ring usable, Format target);

  // The best scheme for exactly format f: a catalogued one (rotated/transposed to f), or for a
  // format with a dimension 1 the classical algorithm (rank n·m·p is optimal there). nullopt when
  // neither exists, or f is a permutation of the target.
  std::optional<Scheme> scheme(Format f) const;
  // Its rank without loading it (nullopt as above).
  std::optional<int> rank(Format f) const;
  // A short name for messages: "2x2x2:7 (r7-ZT-02268ba0)" or "1x2x2:4 (classical)".
  std::string name(Format f) const;
  // The sorted formats with a catalogued scheme (the target excluded).
  std::vector<Format> formats() const;
  Ring usable() const { return usable_; }

private:
  std::optional<CatalogueEntry> entry(Format f) const;
  std::vector<CatalogueEntry> all_;
  std::map<Format, CatalogueEntry> best_;  // by sorted format
  Ring usable_;
  Format target_;
};

// Whether a dimension is 1: the classical algorithm is optimal there (rank n·m·p), so the shelf
// makes such schemes itself.
bool has_unit_dimension(Format f);

// The six (or fewer, when dimensions repeat) orientations of a format.
std::vector<Format> permutations_of(Format f);

}  // namespace tdisc::search::flip
