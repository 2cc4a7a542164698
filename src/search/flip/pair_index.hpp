// The incremental index of term pairs that share a factor (Kauers–Moosbauer 2022: the flips of a
// scheme): add/remove in O(1) through a position table, and a uniform random flip in O(1).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace tdisc::search::flip {

class PairIndex {
public:
  // Forgets every pair; terms are numbered below cap.
  void reset(int cap) {
    if (cap > cap_) {
      cap_ = cap;
      pos_.assign(static_cast<size_t>(3) * cap_ * cap_, 0);
    } else {
      for (std::uint32_t code : list_) pos_[slot(code)] = 0;
    }
    list_.clear();
  }
  int capacity() const { return cap_; }
  // Pair of terms a ≠ b sharing factor `kind` (0: U, 1: V, 2: W).
  void add(int kind, int a, int b) {
    std::uint32_t code = encode(kind, a, b);
    list_.push_back(code);
    pos_[slot(code)] = static_cast<std::uint32_t>(list_.size());
  }
  void remove(int kind, int a, int b) {
    std::uint32_t code = encode(kind, a, b);
    std::uint32_t& at = pos_[slot(code)];
    std::uint32_t last = list_.back();
    list_[at - 1] = last;
    pos_[slot(last)] = at;
    at = 0;
    list_.pop_back();
  }
  size_t size() const { return list_.size(); }
  // code = kind << 16 | lo << 8 | hi, lo < hi.
  std::uint32_t at(size_t i) const { return list_[i]; }
  static int kind_of(std::uint32_t code) { return static_cast<int>(code >> 16); }
  static int lo_of(std::uint32_t code) { return static_cast<int>((code >> 8) & 255u); }
  static int hi_of(std::uint32_t code) { return static_cast<int>(code & 255u); }

private:
  static std::uint32_t encode(int kind, int a, int b) {
    if (a > b) std::swap(a, b);
    return static_cast<std::uint32_t>(kind) << 16 | static_cast<std::uint32_t>(a) << 8 | static_cast<std::uint32_t>(b);
  }
  size_t slot(std::uint32_t code) const {
    return (static_cast<size_t>(kind_of(code)) * cap_ + lo_of(code)) * cap_ + hi_of(code);
  }
  std::vector<std::uint32_t> list_;  // the pairs, in no order
  std::vector<std::uint32_t> pos_;   // 3 × cap × cap: 1 + position in list_, 0 when absent
  int cap_ = 0;
};

// A uniformly random code of a pair list (PairIndex, or the orbit walker's PositionPairs) from the
// high 32 bits of x; the caller keeps the low bits for the flip's other random choices.
template <class Pairs>
std::uint32_t random_pair(const Pairs& pairs, std::uint64_t x) {
  return pairs.at(static_cast<size_t>(((x >> 32) * pairs.size()) >> 32));
}

}  // namespace tdisc::search::flip
