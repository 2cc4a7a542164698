// The native file, `tdisc-scheme` version 1 (DESIGN §3): JSON with the dimensions, rank, ring,
// orientation "trace", coefficients as strings, one term per line, and provenance.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "decomposition/scheme.hpp"

namespace tdisc {

// Parses native text; `path` only labels error messages. Throws InputError("PATH:LINE: …").
// Checks dimensions, rank = number of terms, coefficient syntax, and that the coefficients fit the
// declared ring. Does not verify the Brent equations (that is the verifier's job).
Scheme parse_native(const std::string& text, const std::string& path);
Scheme read_native(const std::string& path);
// Native text, one term per line; provenance fields that are empty are left out.
std::string native_text(const Scheme& s);
void write_native(const std::string& path, const Scheme& s);  // atomic; PATH ending .gz: gzip

nlohmann::json provenance_json(const Provenance& p);
Provenance provenance_from_json(const nlohmann::json& j);

}  // namespace tdisc
