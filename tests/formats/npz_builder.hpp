// Builders of small .npz files for tests: ZIP archives of stored entries and .npy headers, written
// byte by byte so that tests can also write damaged ones (test_npz_synth, test_hostile_inputs).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tdisc::test {

inline uint32_t crc32_of(const std::string& s) {  // the ZIP CRC-32 (reflected, polynomial 0xEDB88320)
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

inline void put(std::string& out, uint64_t v, int n) {
  for (int k = 0; k < n; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}

// A zip archive of stored entries.
inline std::string zip_of(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out, central;
  for (auto& [name, data] : entries) {
    uint32_t crc = crc32_of(data);
    size_t offset = out.size();
    put(out, 0x04034b50, 4), put(out, 20, 2), put(out, 0, 2), put(out, 0, 2), put(out, 0, 4);
    put(out, crc, 4), put(out, data.size(), 4), put(out, data.size(), 4), put(out, name.size(), 2), put(out, 0, 2);
    out += name + data;
    put(central, 0x02014b50, 4), put(central, 20, 2), put(central, 20, 2), put(central, 0, 2), put(central, 0, 2);
    put(central, 0, 4), put(central, crc, 4), put(central, data.size(), 4), put(central, data.size(), 4);
    put(central, name.size(), 2), put(central, 0, 2), put(central, 0, 2), put(central, 0, 2), put(central, 0, 2);
    put(central, 0, 4), put(central, offset, 4);
    central += name;
  }
  size_t cd_at = out.size();
  out += central;
  put(out, 0x06054b50, 4), put(out, 0, 2), put(out, 0, 2), put(out, entries.size(), 2), put(out, entries.size(), 2);
  put(out, central.size(), 4), put(out, cd_at, 4), put(out, 0, 2);
  return out;
}

inline std::string npy_of(const std::string& descr, bool fortran, const std::string& shape, const std::string& data) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  put(out, header.size(), 2);
  return out + header + data;
}

}  // namespace tdisc::test
