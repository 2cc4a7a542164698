// The incremental index of term pairs that share a factor (Kauers–Moosbauer 2022: the flips of a
// scheme): add/remove in O(1) through a position table, and a uniform random flip in O(1).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "src/search/flip/code_map.hpp"

namespace tdisc::search::flip {

class PairIndex {
public:
  // Terms numbered below kMaxTerms; a dense position table up to kDenseCap terms (3 MB), a CodeMap above.
  static constexpr int kMaxTerms = 1 << 15, kDenseCap = 512;
  // Forgets every pair; terms are numbered below cap.
  void reset(int cap) {
    TDISC_REQUIRE(cap <= kMaxTerms, "PairIndex: terms are numbered below 32768");
    if (dense_) {
      for (std::uint32_t code : list_) pos_[slot(code)] = 0;
    } else {
      map_.clear();
    }
    list_.clear();
    cap_ = std::max(cap_, cap);
    dense_ = cap_ <= kDenseCap;
    if (dense_ && pos_.size() < static_cast<size_t>(3) * cap_ * cap_) pos_.assign(static_cast<size_t>(3) * cap_ * cap_, 0);
  }
  int capacity() const { return cap_; }
  // Pair of terms a ≠ b sharing factor `kind` (0: U, 1: V, 2: W).
  void add(int kind, int a, int b) {
    std::uint32_t code = encode(kind, a, b);
    list_.push_back(code);
    put(code, static_cast<std::uint32_t>(list_.size()));
  }
  void remove(int kind, int a, int b) {
    std::uint32_t code = encode(kind, a, b);
    const std::uint32_t at = get(code);
    std::uint32_t last = list_.back();
    list_[at - 1] = last;
    put(last, at);
    drop(code);
    list_.pop_back();
  }
  size_t size() const { return list_.size(); }
  // code = kind << 30 | lo << 15 | hi, lo < hi.
  std::uint32_t at(size_t i) const { return list_[i]; }
  static int kind_of(std::uint32_t code) { return static_cast<int>(code >> 30); }
  static int lo_of(std::uint32_t code) { return static_cast<int>((code >> 15) & 0x7FFFu); }
  static int hi_of(std::uint32_t code) { return static_cast<int>(code & 0x7FFFu); }

private:
  static std::uint32_t encode(int kind, int a, int b) {
    if (a > b) std::swap(a, b);
    return static_cast<std::uint32_t>(kind) << 30 | static_cast<std::uint32_t>(a) << 15 | static_cast<std::uint32_t>(b);
  }
  size_t slot(std::uint32_t code) const {
    return (static_cast<size_t>(kind_of(code)) * cap_ + lo_of(code)) * cap_ + hi_of(code);
  }
  std::uint32_t get(std::uint32_t code) const { return dense_ ? pos_[slot(code)] : map_.get(code); }
  void put(std::uint32_t code, std::uint32_t at) {
    if (dense_) pos_[slot(code)] = at;
    else map_.put(code, at);
  }
  void drop(std::uint32_t code) {
    if (dense_) pos_[slot(code)] = 0;
    else map_.erase(code);
  }
  std::vector<std::uint32_t> list_;  // the pairs, in no order
  std::vector<std::uint32_t> pos_;   // dense: 3 × cap × cap, 1 + position in list_, 0 when absent
  CodeMap map_;                      // above kDenseCap terms: code → 1 + position in list_
  int cap_ = 0;
  bool dense_ = true;
};

// A uniformly random code of a pair list (PairIndex, or the orbit walker's PositionPairs) from the
// high 32 bits of x; the caller keeps the low bits for the flip's other random choices.
template <class Pairs>
std::uint32_t random_pair(const Pairs& pairs, std::uint64_t x) {
  return pairs.at(static_cast<size_t>(((x >> 32) * pairs.size()) >> 32));
}

}  // namespace tdisc::search::flip
