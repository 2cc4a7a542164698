// What a scheme file's name says about it: "444-47-mod2.exp", "grey333-23-152", "gg-333-rank23-…",
// "2x4x5_m33_ZT.json", "factorizations_f2.npz" carry dimensions, rank or ring in their names.
#pragma once
#include <optional>
#include <string>

#include "decomposition/format.hpp"
#include "decomposition/formats/formats.hpp"

namespace tdisc::fmt {

struct NameHints {
  std::optional<Format> dims;
  std::optional<int> rank;
  bool mod2 = false;  // "mod2", "f2", "gf2", "z2" as a word of the name: valid modulo 2 only
};

// Reads the base name of path (folders ignored).
NameHints name_hints(const std::string& path);
std::string base_name(const std::string& path);

// The dimensions to use: --dims when given, else the name's, else nullopt.
std::optional<Format> chosen_dims(const NameHints& h, const ImportOptions& opt);

// "a12" style names of matrix entries, 1-based, digits run together when every dimension is ≤ 9
// (the convention of every text format here), else "a1_12".
std::string entry_name(char letter, int row, int col, bool wide);

}  // namespace tdisc::fmt
