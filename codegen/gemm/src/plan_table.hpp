// Plan logic of libtdisc_gemm, host-only so that the host backend and the CPU tests run exactly this
// code: the plan tables `tdisc tune` writes (keyed by GPU model, cuBLAS version and dtype), the choice
// of plan for a (dtype, m, n, k), and the workspace policy (write-once, lean grouped, or cuBLAS).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace tdisc_gemm {

typedef long long i64;

// One tuned shape: the fastest plan there ("cublas": none of ours beat cuBLAS) and its leaf mode.
struct Entry {
  i64 m = 0, n = 0, k = 0;
  std::string plan;
  int leaf = 0;          // 0 separate, 1 batched, 2 streams
  double speedup = 1;    // over cuBLAS where it was tuned
  int moduli = 0;        // emulated plans ("oz2…"): the number of moduli (0: the dtype's default)
  bool emulated = false;  // an entry of the emulated choice: an "oz2…" plan, or "accuracy": "emulated"
                          // (so that a tuned "cublas" says cuBLAS beats every emulated plan there)
};

// Emulated plans (Ozaki-II, "oz2", "oz2-s1", …) share the tables but are chosen only when the caller
// allows emulation (tdisc_gemm_set_accuracy).
bool emulated_plan(const std::string& plan);

struct Table {
  std::string gpu;       // "NVIDIA H200"
  int cublas = 0;        // cublasGetVersion, e.g. 130000
  int dtype = 0;         // 0 f32, 1 f64
  std::vector<Entry> entries;
};

struct TableSet {
  std::vector<Table> tables;
  std::string error;     // empty when the text parsed
};

// Reads the JSON `tdisc tune` writes: {"format": "tdisc-gemm-plans", "version": 1, "tables": [{"gpu",
// "cublas", "dtype": "f32"|"f64", "entries": [{"m", "n", "k", "plan", "leaf", "speedup"}…]}…]}.
TableSet parse_tables(const std::string& json);

// The table for this GPU, cuBLAS and dtype: the same GPU and cuBLAS version first, then the same GPU,
// then any table of the dtype (another GPU's table is a guess); nullptr when none has the dtype.
const Table* find_table(const TableSet& set, const std::string& gpu, int cublas, int dtype);

// The entry nearest to (m, n, k) in log scale (each dimension weighs alike) among those no larger than
// (m, n, k) in any dimension by more than 25 %; none such, or no table, gives cuBLAS. Among native
// entries only, or with `emulated` among emulated entries only.
Entry select_entry(const Table* table, i64 m, i64 n, i64 k, bool emulated = false);

// Workspace functions of a compiled plan (the generated workspace_bytes).
typedef size_t (*WorkspaceFn)(i64 M, i64 N, i64 K, int leaf, int group);

struct Schedule {
  bool fits = false;      // false: not even the lean schedule fits; run cuBLAS
  int group = 0;          // 0: write-once; g ≥ 1: lean, g products at a time
  size_t plan_bytes = 0;  // the plan's workspace
  size_t extra_bytes = 0; // transposed copies of operands
  std::string why;        // one line for the plan object
};

// The workspace policy: the write-once schedule when it fits in `limit` (with `extra` bytes for the
// transposed operands), else — when `allow_lean` — the lean grouped schedule with the largest group
// ≤ last_rank that fits, else nothing (cuBLAS). Lean is opt-in: on the H200 it lost to cuBLAS at every
// size measured (docs/PERFORMANCE.md), so a limit too small for write-once means cuBLAS by default.
// `explain` false leaves `why` empty (the per-call path of the library builds no strings).
Schedule choose_schedule(WorkspaceFn ws, i64 m, i64 n, i64 k, int leaf, int last_rank, size_t extra, size_t limit,
                         bool allow_lean, bool explain = true);

// Bytes of one copied operand (op(X) materialised column-major): rows × cols elements, 256-aligned.
size_t copy_bytes(i64 rows, i64 cols, size_t element);

// The largest of the three operands in bytes: the lean schedule's workspace bound (issue 13).
size_t operand_bytes(i64 m, i64 n, i64 k, size_t element);

}  // namespace tdisc_gemm
