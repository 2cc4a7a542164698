// What codegen will build before it writes a line (STYLE §5): can_generate answers with a reason,
// make_plan turns verified level schemes into stages of block operations (Kronecker-merged where small).
#pragma once
#include <string>
#include <vector>

#include "codegen/cse.hpp"
#include "decomposition/scheme.hpp"

namespace tdisc::codegen {

enum class Backend { Cuda, Host };
enum class DType { F32, F64 };
std::string backend_name(Backend b);
std::string dtype_name(DType d);

struct Target {
  Backend backend = Backend::Cuda;
  DType dtype = DType::F32;
  // Consecutive levels are merged into one stage (their Kronecker product: one pass of additions
  // instead of one per level) while the merged rank stays at or below this; 0 never merges.
  int max_fused_rank = 64;
};

struct Answer {
  bool ok = false;
  std::string why_not;  // empty when ok
};

// Whether code can be generated for these level schemes (level 0 outermost): each must verify
// exactly over a characteristic-0 ring and have real coefficients.
Answer can_generate(const std::vector<Scheme>& levels, const Target& target);

// One distinct operand combination Σ c·X_b of source blocks, normalised so that its first
// coefficient is 1 when that division is exact (±2^k), else ±1 (the factor moves into the C side).
struct Operand {
  LinearForm form;           // over source blocks (A: i·m+j, B: j·p+k)
  int source = -1;           // the block itself when form is exactly 1·X_b (no copy needed), else −1
  int slot = -1;             // workspace slot among the non-trivial operands, else −1
  std::vector<int> products; // products that use it, ascending
};

// One stage: a block scheme ⟨n,m,p⟩ of rank R applied once, its products done by the next stage
// or, in the last stage, by the leaf GEMM.
struct Stage {
  Format format;
  int rank = 0;
  std::vector<Operand> a_ops, b_ops;
  std::vector<int> a_of, b_of;  // product r → its operand index, size R
  Program a_prog, b_prog;       // inputs: n·m (m·p) source blocks; outputs: a_ops (b_ops) in order
  Program c_prog;               // inputs: R products; outputs: C blocks i·p+k (n·p of them)
  std::vector<LinearForm> c_cols;  // product r → the C blocks it adds into (var = i·p+k), size R; lean schedule
  int levels = 1;               // how many scheme levels were merged into this stage
  int a_slots() const;          // non-trivial operands (workspace blocks when leaves are separate)
  int b_slots() const;
};

// A stage too wide for the output-major C body and for 16-byte packs (registers would spill); its
// operands, when merged from two levels, are formed level by level.
inline bool wide_stage(int sources, int rank) { return sources > 16 || rank > 64; }

struct Plan {
  Target target;
  std::vector<Stage> stages;
};

// Requires can_generate(levels, target).ok.
Plan make_plan(const std::vector<Scheme>& levels, const Target& target);

}  // namespace tdisc::codegen
