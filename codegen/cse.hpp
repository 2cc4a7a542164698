// Straight-line programs for the addition chains of one recursion level, with common subexpressions
// shared greedily by pairs (as in Strassen–Winograd's 15-addition form; cf. Benson–Ballard 2015, §4).
#pragma once
#include <string>
#include <vector>

#include "decomposition/coeff.hpp"

namespace tdisc::codegen {

struct Term {
  int var = 0;  // 0..inputs-1: an input block; inputs+t: temporary t
  Coeff coeff;
};
using LinearForm = std::vector<Term>;  // sorted by var, no zero coefficients

// temps[t] may use inputs and temps[0..t-1]; outputs may use inputs and any temp.
struct Program {
  int inputs = 0;
  std::vector<LinearForm> temps;
  std::vector<LinearForm> outputs;
  // Additions (and subtractions) the program performs: Σ (terms − 1) over temps and outputs.
  long additions() const;
};

// ±2^k (k any integer): multiplying or dividing by it is exact in binary floating point.
bool exact_scale(const Coeff& c);

// The program that evaluates each output form, sharing pairs c1·x + c2·y that occur (up to a common
// factor ±2^k, so no rounding is introduced) in at least two forms, most frequent first, until no
// pair repeats.
Program share_subexpressions(int inputs, std::vector<LinearForm> outputs);
// Each output written out over the inputs alone (temps substituted), terms sorted, zeros dropped.
std::vector<LinearForm> expand(const Program& prog);
// The program with nothing shared (for comparison and tests).
Program plain_program(int inputs, std::vector<LinearForm> outputs);

}  // namespace tdisc::codegen
