// Terms grouped by equal factor, one open-addressing hash table per factor kind, so a changed
// factor finds the terms it now shares with (and stops sharing with) in O(bucket), not O(rank).
#pragma once
#include <cstdint>
#include <vector>

#include "src/search/flip/field.hpp"

namespace tdisc::search::flip {

// Multiplicative hashing (the table takes the high bits); a word of W words folds word by word.
inline std::uint64_t mix(std::uint64_t v, std::uint64_t k) { return v * k; }
template <int W>
std::uint64_t mix(const Bits<W>& v, std::uint64_t k) {
  std::uint64_t h = 0;
  for (int i = 0; i < W; ++i) h = (h ^ v.w[i]) * k;
  return h;
}
inline std::uint64_t factor_hash(std::uint64_t v) { return mix(v, 0x9E3779B97F4A7C15ull); }
template <int W>
std::uint64_t factor_hash(const Bits<W>& v) { return mix(v, 0x9E3779B97F4A7C15ull); }
template <class Wd>
std::uint64_t factor_hash(const PlanesOf<Wd>& v) { return mix(v.p, 0x9E3779B97F4A7C15ull) ^ mix(v.n, 0xC2B2AE3D27D4EB4Full); }

template <class Vec>
class Buckets {
public:
  // Empty table for terms numbered below cap.
  void reset(int cap) {
    int bits = 4;
    while ((1 << bits) < 4 * cap) ++bits;
    shift_ = 64 - bits;
    mask_ = (1u << bits) - 1;
    slots_.assign(std::size_t(1) << bits, Slot{});
    next_.assign(cap, -1);
  }
  // The slot holding key (which must be present).
  std::uint32_t find(const Vec& key) const {
    std::uint32_t s = home(key);
    while (slots_[s].head < 0 || !(slots_[s].key == key)) s = (s + 1) & mask_;
    return s;
  }
  // The slot holding key, claimed (empty bucket) when key is absent.
  std::uint32_t find_or_add(const Vec& key) {
    std::uint32_t s = home(key);
    while (slots_[s].head >= 0 && !(slots_[s].key == key)) s = (s + 1) & mask_;
    slots_[s].key = key;
    return s;
  }
  int first(std::uint32_t slot) const { return slots_[slot].head; }
  int next(int t) const { return next_[t]; }
  // Adds term t to the bucket in `slot` (from find_or_add).
  void push(std::uint32_t slot, int t) {
    next_[t] = slots_[slot].head;
    slots_[slot].head = static_cast<std::int16_t>(t);
  }
  // Removes term t from the bucket in `slot`; an emptied slot is closed (slots may move).
  void unlink(std::uint32_t slot, int t) {
    if (slots_[slot].head == t) {
      slots_[slot].head = static_cast<std::int16_t>(next_[t]);
    } else {
      int u = slots_[slot].head;
      while (next_[u] != t) u = next_[u];
      next_[u] = next_[t];
    }
    next_[t] = -1;
    if (slots_[slot].head < 0) close_gap(slot);
  }
  // Conveniences for rebuilds.
  int head(const Vec& key) const {
    for (std::uint32_t s = home(key);; s = (s + 1) & mask_) {
      if (slots_[s].head < 0) return -1;
      if (slots_[s].key == key) return slots_[s].head;
    }
  }
  void insert(const Vec& key, int t) { push(find_or_add(key), t); }
  int count(const Vec& key) const {  // terms holding key
    int c = 0;
    for (int u = head(key); u >= 0; u = next(u)) ++c;
    return c;
  }

private:
  struct Slot {
    Vec key{};
    std::int16_t head = -1;  // −1: empty slot
  };
  std::uint32_t home(const Vec& key) const { return static_cast<std::uint32_t>(factor_hash(key) >> shift_); }
  // Backward-shift deletion keeps every probe chain unbroken without tombstones.
  void close_gap(std::uint32_t hole) {
    for (std::uint32_t j = (hole + 1) & mask_; slots_[j].head >= 0; j = (j + 1) & mask_) {
      std::uint32_t h = home(slots_[j].key);
      bool movable = hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
      if (movable) {
        slots_[hole] = slots_[j];
        slots_[j].head = -1;
        hole = j;
      }
    }
  }
  std::vector<Slot> slots_;
  std::vector<std::int16_t> next_;  // next member of the same bucket, −1 at the end
  int shift_ = 60;
  std::uint32_t mask_ = 15;
};

}  // namespace tdisc::search::flip
