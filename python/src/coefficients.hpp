// NumPy arrays of coefficients ↔ the term-major coefficient matrices of a Scheme (DESIGN §1): U is
// R × n·m (or R × n × m), V is R × m·p (R × m × p), W is R × p·n (R × p × n, W_r[k][i] at k·n+i).
#pragma once
#include <optional>
#include <pybind11/numpy.h>
#include <string>
#include <utility>

#include "decomposition/scheme.hpp"
#include "python/src/bindings.hpp"

namespace tdisc::python {

// One factor read from Python. dims: (rows, cols) of each term when the array was 3-D.
struct Factor {
  CoeffMatrix matrix;  // R × width
  std::optional<std::pair<int, int>> dims;
};

// Accepts what numpy.asarray makes an array of: integer dtypes; float and complex dtypes whose parts
// are multiples of 2^-16 (as the .npy reader accepts); object arrays of int, fractions.Fraction,
// float, complex or coefficient text ("1/2-1/2i"); str arrays of coefficient text. `name` ("U")
// labels the ValueError naming the first entry that is not an exact coefficient.
Factor factor_from_array(py::handle array, const std::string& name);

// The factor as an R × width array. dtype "auto": int64 when every coefficient is an integer that
// fits, an object array of fractions.Fraction when all are real, complex128 when every part is exact
// in a double, else objects (Fraction where real, the native text "1/3+i" where not). "int64",
// "object", "complex128" and "str" (the native text) force one; a value they cannot hold exactly is
// a ValueError.
py::array factor_to_array(const CoeffMatrix& m, const std::string& name, const std::string& dtype);

}  // namespace tdisc::python
