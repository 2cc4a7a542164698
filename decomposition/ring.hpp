// Coefficient rings a scheme can be valid over (DESIGN §1). The ring is part of a scheme's identity.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace tdisc {

// GF2, GF3: valid modulo p only. ZT ⊂ Z ⊂ Q ⊂ QI in characteristic 0 (ZT = coefficients in {-1,0,1}).
enum class Ring { GF2, GF3, ZT, Z, Q, QI };

std::string_view ring_name(Ring r);
std::optional<Ring> parse_ring(std::string_view s);  // case-insensitive; accepts "F2"/"mod2" aliases
int ring_characteristic(Ring r);                      // 2, 3 or 0
bool ring_is_modular(Ring r);
// Characteristic-0 rings ordered by inclusion: ZT < Z < Q < QI. Modular rings are not comparable.
bool ring_contains(Ring outer, Ring inner);
std::string ring_list();  // "GF2, GF3, ZT, Z, Q, QI" for messages

}  // namespace tdisc
