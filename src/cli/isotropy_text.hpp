// One way to print an isotropy and to label a computation's refusals with its file, shared by
// `tdisc symmetry` and `tdisc descend`.
#pragma once
#include <string>

#include "base/error.hpp"
#include "decomposition/symmetry.hpp"

namespace tdisc::cli {

// "I" or "[a b; c d]".
std::string matrix_line(const CoeffMatrix& m);
// " transpose, shift 1, P [..], Q [..], S [..]" (the outer parts only where present).
std::string isotropy_line(const Isotropy& x);

// Runs a computation on `path`'s scheme, labelling its refusals with the file.
template <class F>
auto on_file(const std::string& path, F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError(path, 0, e.what());
  }
}

}  // namespace tdisc::cli
