// A reader of ZIP archives (PKWARE APPNOTE 6.3): central directory, ZIP64 sizes, stored and
// deflated entries (zlib), CRC-32 checked. Enough for numpy's .npz files.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tdisc::fmt {

struct ZipEntry {
  std::string name;
  uint16_t method = 0;  // 0 stored, 8 deflated
  uint32_t crc = 0;
  uint64_t compressed = 0, size = 0, local_offset = 0;
};

class ZipArchive {
public:
  // bytes: the whole archive; path labels messages. Throws InputError when it is not a readable zip.
  ZipArchive(std::string path, const std::string& bytes);
  const std::vector<ZipEntry>& entries() const { return entries_; }
  const ZipEntry* find(const std::string& name) const;
  std::string read(const ZipEntry& e) const;  // the uncompressed bytes, CRC-checked

private:
  std::string path_;
  const std::string& bytes_;
  std::vector<ZipEntry> entries_;
};

}  // namespace tdisc::fmt
