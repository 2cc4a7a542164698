// The symmetric walker's flips: pairs of factor positions (3·orbit + slot) of different orbits that
// hold the same factor, with O(1) add/remove and a uniform draw in O(1) (as pair_index.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "src/search/flip/code_map.hpp"

namespace tdisc::search::flip {

class PositionPairs {
public:
  // A dense position table up to kDenseCap positions (4 MB), a CodeMap above (large formats).
  static constexpr int kDenseCap = 1024;
  // Forgets every pair; positions are numbered below cap (< 65536).
  void reset(int cap) {
    TDISC_REQUIRE(cap <= 65536, "PositionPairs: positions are numbered below 65536");
    if (dense_) {
      for (std::uint32_t code : list_) at_[slot(code)] = 0;
    } else {
      map_.clear();
    }
    list_.clear();
    cap_ = std::max(cap_, cap);
    dense_ = cap_ <= kDenseCap;
    if (dense_ && at_.size() < static_cast<size_t>(cap_) * cap_) at_.assign(static_cast<size_t>(cap_) * cap_, 0);
  }
  int capacity() const { return cap_; }
  void add(int a, int b) {
    const std::uint32_t code = encode(a, b);
    list_.push_back(code);
    put(code, static_cast<std::uint32_t>(list_.size()));
  }
  void remove(int a, int b) {
    const std::uint32_t code = encode(a, b);
    const std::uint32_t at = get(code);
    const std::uint32_t last = list_.back();
    list_[at - 1] = last;
    put(last, at);
    drop(code);
    list_.pop_back();
  }
  size_t size() const { return list_.size(); }
  std::uint32_t at(size_t i) const { return list_[i]; }  // code = lo << 16 | hi, lo < hi
  static int lo_of(std::uint32_t code) { return static_cast<int>(code >> 16); }
  static int hi_of(std::uint32_t code) { return static_cast<int>(code & 0xFFFFu); }

private:
  static std::uint32_t encode(int a, int b) {
    if (a > b) std::swap(a, b);
    return static_cast<std::uint32_t>(a) << 16 | static_cast<std::uint32_t>(b);
  }
  size_t slot(std::uint32_t code) const { return static_cast<size_t>(lo_of(code)) * cap_ + hi_of(code); }
  std::uint32_t get(std::uint32_t code) const { return dense_ ? at_[slot(code)] : map_.get(code); }
  void put(std::uint32_t code, std::uint32_t at) {
    if (dense_) at_[slot(code)] = at;
    else map_.put(code, at);
  }
  void drop(std::uint32_t code) {
    if (dense_) at_[slot(code)] = 0;
    else map_.erase(code);
  }
  std::vector<std::uint32_t> list_;  // the pairs, in no order
  std::vector<std::uint32_t> at_;    // dense: cap × cap, 1 + position in list_, 0 when absent
  CodeMap map_;                      // above kDenseCap positions: code → 1 + position in list_
  int cap_ = 0;
  bool dense_ = true;
};

}  // namespace tdisc::search::flip
