// The .npy header ({'descr': '<i8', 'fortran_order': False, 'shape': (3, 16, 49), }) and exact
// element access for integer and float arrays.
#include "decomposition/formats/npy.hpp"

#include <cstring>
#include <regex>

#include "decomposition/error.hpp"

namespace tdisc::fmt {

long NdArray::count() const {
  long c = 1;
  for (long d : shape) c *= d;
  return c;
}

bool parse_descr(const std::string& descr, NdArray& a) {
  std::smatch m;
  if (!std::regex_match(descr, m, std::regex(R"(([<>|=]?)([iufbO])(\d*))"))) return false;
  a.byte_order = m[1].matched && !m[1].str().empty() ? m[1].str()[0] : '|';
  if (a.byte_order == '=') a.byte_order = '<';
  a.kind = m[2].str()[0];
  a.item_size = m[3].str().empty() ? 8 : std::stoi(m[3]);
  if (a.kind == 'O') return true;
  if (a.kind == 'f') return a.item_size == 4 || a.item_size == 8;
  return a.item_size == 1 || a.item_size == 2 || a.item_size == 4 || a.item_size == 8;
}

long NdArray::flat_index(const std::vector<long>& index) const {
  long flat = 0;
  if (fortran)
    for (size_t d = shape.size(); d-- > 0;) flat = flat * shape[d] + index[d];
  else
    for (size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + index[d];
  return flat;
}

std::optional<Coeff> NdArray::at(const std::vector<long>& index, int max_shift) const {
  return at_flat(flat_index(index), max_shift);
}

std::optional<Coeff> NdArray::at_flat(long flat, int max_shift) const {
  size_t off = static_cast<size_t>(flat) * static_cast<size_t>(item_size);
  if (off + static_cast<size_t>(item_size) > data.size()) return std::nullopt;
  unsigned char raw[8];
  std::memcpy(raw, data.data() + off, static_cast<size_t>(item_size));
  if (byte_order == '>')
    for (int k = 0; k < item_size / 2; ++k) std::swap(raw[k], raw[item_size - 1 - k]);
  uint64_t bits = 0;
  for (int k = item_size - 1; k >= 0; --k) bits = (bits << 8) | raw[k];
  if (kind == 'f') {
    double x;
    if (item_size == 8) {
      std::memcpy(&x, &bits, 8);
    } else {
      uint32_t b32 = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b32, 4);
      x = f;
    }
    auto c = Coeff::from_double(x);
    if (!c || c->denominator() > (mpz_class(1) << max_shift)) return std::nullopt;
    return c;
  }
  if (kind == 'i' && item_size < 8 && (bits >> (8 * item_size - 1)) & 1) bits |= ~uint64_t(0) << (8 * item_size);
  if (kind == 'u' || kind == 'b') return Coeff(mpq_class(mpz_class(std::to_string(bits))));
  return Coeff(static_cast<long>(static_cast<int64_t>(bits)));
}

NdArray parse_npy(const std::string& bytes, const std::string& path, const std::string& where, std::string& pickle) {
  auto fail = [&](const std::string& what) { throw InputError(path, 0, where + ": " + what); };
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) fail("not a .npy array (bad magic)");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail("truncated header");
    for (int k = 3; k >= 0; --k) header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + static_cast<size_t>(k)]);
    start = 12;
  } else {
    fail(".npy format version " + std::to_string(major) + " is not supported");
  }
  if (start + header_len > bytes.size()) fail("truncated header");
  std::string header = bytes.substr(start, header_len);
  std::smatch m;
  NdArray a;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']*)')")) || !parse_descr(m[1], a))
    fail("unsupported dtype in header " + header);
  a.fortran = std::regex_search(header, std::regex(R"('fortran_order'\s*:\s*True)"));
  if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))"))) fail("no shape in header " + header);
  std::string dims = m[1];
  static const std::regex number(R"(\d+)");
  for (auto it = std::sregex_iterator(dims.begin(), dims.end(), number); it != std::sregex_iterator(); ++it)
    a.shape.push_back(std::stol(it->str()));
  size_t body = start + header_len;
  if (a.kind == 'O') {
    pickle = bytes.substr(body);
    return a;
  }
  size_t need = static_cast<size_t>(a.count()) * static_cast<size_t>(a.item_size);
  if (bytes.size() - body < need)
    fail("data truncated: " + std::to_string(bytes.size() - body) + " bytes, expected " + std::to_string(need));
  a.data = bytes.substr(body, need);
  return a;
}

}  // namespace tdisc::fmt
