// The dimensions ⟨n, m, p⟩ of a matrix-multiplication format as spelt on a command line or in a file
// name: "3x3" (square: ⟨3,3,3⟩, as in the literature), "2x3x4", "2,3,4", "2*3*4" or three digits
// "234"; each dimension 1..64. decomposition::parse_format builds its Format from this, and the
// parameter table checks its format kind with it, so one spelling rule serves both.
#pragma once
#include <array>
#include <optional>
#include <string_view>

namespace tdisc {

std::optional<std::array<int, 3>> format_dims(std::string_view s);

}  // namespace tdisc
