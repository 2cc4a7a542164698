// Names and inclusions of the coefficient rings.
#include "decomposition/ring.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace tdisc {

namespace {
constexpr std::array<std::string_view, 6> kNames{"GF2", "GF3", "ZT", "Z", "Q", "QI"};
}

std::string_view ring_name(Ring r) { return kNames[static_cast<int>(r)]; }

std::optional<Ring> parse_ring(std::string_view s) {
  std::string up(s);
  std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return std::toupper(c); });
  if (up == "F2" || up == "MOD2" || up == "Z2") return Ring::GF2;
  if (up == "F3" || up == "MOD3" || up == "Z3") return Ring::GF3;
  for (size_t i = 0; i < kNames.size(); ++i)
    if (up == kNames[i]) return static_cast<Ring>(i);
  return std::nullopt;
}

int ring_characteristic(Ring r) {
  if (r == Ring::GF2) return 2;
  if (r == Ring::GF3) return 3;
  return 0;
}

bool ring_is_modular(Ring r) { return ring_characteristic(r) != 0; }

bool ring_contains(Ring outer, Ring inner) {
  if (ring_is_modular(outer) || ring_is_modular(inner)) return outer == inner;
  return static_cast<int>(outer) >= static_cast<int>(inner);
}

std::string ring_list() { return "GF2, GF3, ZT, Z, Q, QI"; }

}  // namespace tdisc
