// Positions of pair codes when a dense cap × cap table would be too large (large formats, ranks in
// the thousands): open addressing on the code, linear probing, backward-shift deletion, so memory
// follows the number of pairs held, not the square of the rank.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

namespace tdisc::search::flip {

class CodeMap {
public:
  void clear() {
    if (used_ == 0) return;
    for (auto& s : slots_) s = Slot{};
    used_ = 0;
  }
  // The value stored for code, 0 when absent.
  std::uint32_t get(std::uint32_t code) const {
    if (slots_.empty()) return 0;
    for (std::uint32_t s = home(code);; s = (s + 1) & mask_) {
      if (slots_[s].value == 0) return 0;
      if (slots_[s].code == code) return slots_[s].value;
    }
  }
  // Stores value (≠ 0) for code, present or not.
  void put(std::uint32_t code, std::uint32_t value) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    std::uint32_t s = home(code);
    while (slots_[s].value != 0 && slots_[s].code != code) s = (s + 1) & mask_;
    if (slots_[s].value == 0) ++used_;
    slots_[s] = {code, value};
  }
  void erase(std::uint32_t code) {
    if (slots_.empty()) return;
    std::uint32_t hole = home(code);
    while (slots_[hole].code != code || slots_[hole].value == 0) {
      if (slots_[hole].value == 0) return;
      hole = (hole + 1) & mask_;
    }
    slots_[hole] = Slot{};
    --used_;
    for (std::uint32_t j = (hole + 1) & mask_; slots_[j].value != 0; j = (j + 1) & mask_) {
      const std::uint32_t h = home(slots_[j].code);
      if (hole <= j ? (h <= hole || h > j) : (h <= hole && h > j)) {
        slots_[hole] = slots_[j];
        slots_[j] = Slot{};
        hole = j;
      }
    }
  }

private:
  struct Slot {
    std::uint32_t code = 0, value = 0;  // value 0: empty
  };
  std::uint32_t home(std::uint32_t code) const {
    return static_cast<std::uint32_t>((code * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const size_t size = old.empty() ? 1024 : 2 * old.size();
    slots_.assign(size, Slot{});
    mask_ = static_cast<std::uint32_t>(size - 1);
    shift_ = 64 - std::countr_zero(size);
    used_ = 0;
    for (const Slot& s : old)
      if (s.value != 0) put(s.code, s.value);
  }
  std::vector<Slot> slots_;
  size_t used_ = 0;
  std::uint32_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace tdisc::search::flip
