// The .npy header ({'descr': '<i8', 'fortran_order': False, 'shape': (3, 16, 49), }) and exact
// element access for integer and float arrays.
#include "decomposition/formats/npy.hpp"

#include <cstring>

#include "base/error.hpp"
#include "base/limits.hpp"

namespace tdisc::fmt {

long NdArray::count() const {
  long c = 1;
  for (long d : shape) {
    if (d < 0 || (d > 0 && c > kMaxElements / d)) return -1;
    c *= d;
  }
  return c;
}

bool parse_descr(const std::string& descr, NdArray& a) {
  // [<>|=]? kind digits* — scanned by hand: std::regex recursed per digit (a stack overflow on a
  // long dtype, found by fuzzing).
  std::string_view d = descr;
  a.byte_order = '|';
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) a.byte_order = d[0], d.remove_prefix(1);
  if (a.byte_order == '=') a.byte_order = '<';
  if (d.empty() || std::string_view("iufbOU").find(d[0]) == std::string_view::npos) return false;
  a.kind = d[0];
  d.remove_prefix(1);
  if (a.kind == 'U') {  // fixed-width UTF-32 text of that many characters (metadata strings)
    auto chars = parse_count(d, 1L << 20);
    if (!chars || *chars < 1) return false;
    a.item_size = static_cast<int>(*chars) * 4;
    return true;
  }
  auto size = d.empty() ? std::optional<long>(8) : parse_count(d, 16);
  if (!size) return false;
  a.item_size = static_cast<int>(*size);
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
  if (kind == 'O' || kind == 'U' || item_size > 8 || flat < 0) return std::nullopt;
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

namespace {

// The text after "'key':" in a .npy header dict, up to the end of the header; nullopt when absent.
std::optional<std::string> header_value(const std::string& header, const std::string& key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return std::nullopt;
  size_t colon = header.find_first_not_of(" \t", at + key.size() + 2);
  if (colon == std::string::npos || header[colon] != ':') return std::nullopt;
  size_t value = header.find_first_not_of(" \t", colon + 1);
  if (value == std::string::npos) return std::nullopt;
  std::string v = header.substr(value);
  if (v[0] == '\'') {
    size_t close = v.find('\'', 1);
    return close == std::string::npos ? std::nullopt : std::optional<std::string>(v.substr(0, close + 1));
  }
  return v;
}

// "3, 16, 49" or "49," or "" (a scalar) into dims; false on anything else.
bool parse_shape(const std::string& text, std::vector<long>& shape) {
  size_t k = 0;
  for (;;) {
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
    if (k >= text.size()) return true;
    size_t start = k;
    while (k < text.size() && text[k] >= '0' && text[k] <= '9') ++k;
    auto d = parse_count(std::string_view(text).substr(start, k - start), kMaxElements);
    if (!d || shape.size() >= 32) return false;
    shape.push_back(*d);
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
    if (k < text.size() && text[k] != ',') return false;
    if (k < text.size()) ++k;
  }
}

}  // namespace

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
  if (header_len > bytes.size() - start) fail("truncated header");
  const std::string header = bytes.substr(start, header_len);
  NdArray a;
  auto descr = header_value(header, "descr");
  if (!descr || descr->size() < 2 || (*descr)[0] != '\'' || descr->back() != '\'' ||
      !parse_descr(descr->substr(1, descr->size() - 2), a))
    fail("unsupported dtype in header " + excerpt(header));
  auto fortran = header_value(header, "fortran_order");
  a.fortran = fortran && fortran->rfind("True", 0) == 0;
  auto shape = header_value(header, "shape");
  if (!shape || shape->empty() || (*shape)[0] != '(' || shape->find(')') == std::string::npos)
    fail("no shape in header " + excerpt(header));
  if (!parse_shape(shape->substr(1, shape->find(')') - 1), a.shape) || a.count() < 0)
    fail("unreadable or too large shape in header " + excerpt(header));
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
