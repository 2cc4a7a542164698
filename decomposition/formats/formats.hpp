// Every public scheme format, read into and written from tdisc's Scheme (trace form, DESIGN §1).
// Sources that index the third factor by C[i][k] are converted at this boundary.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "decomposition/format.hpp"
#include "decomposition/scheme.hpp"

namespace tdisc {

struct ImportOptions {
  std::string key;             // which scheme of a multi-scheme file: "3,4,5" or "444"
  std::optional<Format> dims;  // --dims, for sources that do not state their dimensions
};

// Reads a scheme in the named format. Throws InputError("FILE:LINE: what") on anything wrong
// (truncated file, wrong dimension, approximate/border-rank scheme, coefficient the ring cannot
// hold, missing key — listing the keys available). Converts C-orientation sources to trace form.
// Sets scheme.ring to what the source says (mod2 → GF2) or else coefficient_ring(); sets
// provenance (method "import", source = path plus the origin/licence when recognisable).
// Does not verify the Brent equations (the caller does, with verifier/verify.hpp).
Scheme import_scheme(const std::string& format, const std::string& path, const ImportOptions& opt = {});
// Text (or bytes) of the scheme in the named format. Throws InputError when the format cannot
// hold the scheme (complex coefficients in a real-only format, dimensions above 9 where indices
// are single digits).
std::string export_scheme(const std::string& format, const Scheme& s);
// native alphatensor-npz alphaevolve-ipynb exp maple fmm-mpl perminov-json fast-matmul flip-cpd
std::vector<std::string> import_formats();
// native exp maple fmm-mpl perminov-json fast-matmul latex python slp
std::vector<std::string> export_formats();
// Lists the keys a multi-scheme file holds ("3,4,5", "444"), for --list-keys and error messages.
// Single-scheme formats return an empty list.
std::vector<std::string> list_keys(const std::string& format, const std::string& path);

}  // namespace tdisc
