// The number-field scheme file, `tdisc-field-scheme` version 1 (docs/number-fields.md): a native
// scheme whose coefficients are elements of a number field K, written as polynomials in z = ζ_n and
// r (r^k = β), and the field itself as its spec and its name.
//
//   {"format": "tdisc-field-scheme", "version": 1, "n": 4, "m": 4, "p": 4, "rank": 48,
//    "field": "12:3:1 + z^3", "field_name": "Q(ζ_12, r) with r^3 = 1 + z^3 (z = ζ_12)",
//    "orientation": "trace", "u": [["1/2*z", "0", …], …], "v": […], "w": […], "provenance": {…}}
#pragma once
#include <string>

#include "decomposition/field_scheme.hpp"

namespace tdisc {

// Whether text is a tdisc-field-scheme file (its "format" field), without parsing it in full.
bool looks_like_field_scheme(const std::string& text);
// Throws InputError("PATH:LINE: …") on a malformed file; does not verify the Brent equations.
FieldScheme parse_field_scheme(const std::string& text, const std::string& path);
FieldScheme read_field_scheme(const std::string& path);
std::string field_scheme_text(const FieldScheme& s);
void write_field_scheme(const std::string& path, const FieldScheme& s);  // atomic

}  // namespace tdisc
