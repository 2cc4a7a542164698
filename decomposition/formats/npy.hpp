// numpy arrays as stored in .npy files (NEP 1, format versions 1–3) and in numpy's pickles:
// dtype, shape, C or Fortran order, raw little/big-endian data or, for dtype object, the objects.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "decomposition/coeff.hpp"

namespace tdisc::fmt {

// More elements than this in one array are refused (overflow-safe products of the shape).
constexpr long kMaxElements = 1L << 28;

struct NdArray {
  char byte_order = '<';  // '<', '>', '|'
  char kind = 'i';        // 'i' signed, 'u' unsigned, 'f' float, 'b' bool, 'O' object, 'U' UTF-32 text
  int item_size = 8;
  std::vector<long> shape;
  bool fortran = false;
  std::string data;              // raw elements (numeric kinds)
  std::vector<NdArray> objects;  // elements of an object array that are arrays themselves

  long count() const;  // product of the shape; -1 when negative or above kMaxElements
  // Element at a multi-index (row-major or Fortran order as stored); numeric kinds only.
  // Integers exactly; floats exactly when they are multiples of 2^-max_shift, else nullopt.
  std::optional<Coeff> at(const std::vector<long>& index, int max_shift = 16) const;
  // The same at a position in storage order (row-major flattening of index, or Fortran's).
  std::optional<Coeff> at_flat(long flat, int max_shift = 16) const;
  long flat_index(const std::vector<long>& index) const;
};

// "'<i8'" style descr into byte order, kind and size; false when unsupported.
bool parse_descr(const std::string& descr, NdArray& a);
// Parses a .npy file: header, then raw data or (dtype object) the pickle that follows, returned in
// `pickle` for the caller to run. Throws InputError labelled `where`.
NdArray parse_npy(const std::string& bytes, const std::string& path, const std::string& where, std::string& pickle);

}  // namespace tdisc::fmt
