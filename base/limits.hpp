// Limits every reader applies before it recurses or allocates, so that a damaged or hostile file is
// refused with "FILE:LINE: what is wrong" instead of exhausting the stack or the memory
// (docs/reliability.md lists them and the fuzzing that found each). The limits on a scheme's size
// and its coefficients' text are in decomposition/scheme_limits.hpp.
#pragma once
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace tdisc {

// Brackets, braces and parentheses nested deeper than this are refused (real files nest ≤ 6).
constexpr int kMaxNesting = 200;
// A decompressed archive entry is at most this large (AlphaTensor's largest .npy is 140 KB).
constexpr size_t kMaxInflatedBytes = size_t{256} << 20;

// Ceilings on the bytes one read may bring into memory, by kind of input (docs/reliability.md has
// the table). TDISC_MAX_INPUT_MB=N in the environment sets every ceiling to N MiB instead.
enum class InputKind {
  scheme_file,   // 64 MiB: any format tdisc imports (the largest public file is 1.3 MB); gzip is inflated
  gzip_member,   // 64 MiB: a gzip file read as its compressed bytes (cwschemes objects)
  run_file,      // 64 MiB: checkpoint.json, best-r*.json, lock, run.json
  params,        // 1 MiB: --params @FILE
  server_reply,  // 16 MiB: one HTTP reply of an LLM server
  results,       // 64 MiB: bench --results and report inputs
};
size_t input_ceiling(InputKind kind);
// The general ceiling of one JSON text (json_input.hpp), for callers that name no kind.
constexpr size_t kMaxJsonBytes = size_t{64} << 20;

// A decimal count made of digits only and at most max; nullopt otherwise (no std::stoi exceptions).
std::optional<long> parse_count(std::string_view digits, long max);
// At most 60 characters of text for an error message, "…" marking a cut.
std::string excerpt(std::string_view text);
// A JSON value for an error message: scalars as written, arrays and objects by kind (dumping a
// deeply nested value would recurse without bound).
std::string json_excerpt(const nlohmann::json& v);

}  // namespace tdisc
