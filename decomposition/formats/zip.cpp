// ZIP central-directory reader with ZIP64 and deflate (zlib raw inflate); see zip.hpp.
#include "decomposition/formats/zip.hpp"

#include <zlib.h>

#include <algorithm>

#include "base/error.hpp"
#include "base/limits.hpp"

namespace tdisc::fmt {

namespace {

// Whether [at, at + len) lies inside a buffer of n bytes, without overflowing (sizes come from the
// file: a ZIP64 offset near 2^64 wrapped round and passed the naive test).
bool inside(uint64_t at, uint64_t len, size_t n) { return at <= n && len <= n - at; }

// Deflate expands at most 1032:1; a declared size beyond that (or beyond kMaxInflatedBytes) is a
// lie that would otherwise be allocated up front.
bool plausible_inflated_size(uint64_t size, uint64_t compressed) {
  return size <= kMaxInflatedBytes && size <= compressed * 1032 + 1024;
}

uint64_t le(const std::string& b, size_t at, int n) {
  uint64_t v = 0;
  for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<size_t>(k)]);
  return v;
}

}  // namespace

ZipArchive::ZipArchive(std::string path, const std::string& bytes) : path_(std::move(path)), bytes_(bytes) {
  auto fail = [&](const std::string& what) { throw InputError(path_, 0, what); };
  const size_t N = bytes.size();
  if (N < 22) fail("not a zip archive (too short; truncated .npz?)");
  size_t eocd = std::string::npos;
  for (size_t k = N - 22 + 1; k-- > 0 && N - k <= 22 + 65535;)
    if (le(bytes, k, 4) == 0x06054b50) {
      eocd = k;
      break;
    }
  if (eocd == std::string::npos) fail("not a zip archive: no end-of-central-directory record (truncated .npz?)");
  uint64_t count = le(bytes, eocd + 10, 2), cd_size = le(bytes, eocd + 12, 4), cd_at = le(bytes, eocd + 16, 4);
  if ((count == 0xFFFF || cd_size == 0xFFFFFFFF || cd_at == 0xFFFFFFFF) && eocd >= 20 &&
      le(bytes, eocd - 20, 4) == 0x07064b50) {
    uint64_t rec = le(bytes, eocd - 20 + 8, 8);
    if (!inside(rec, 56, N) || le(bytes, rec, 4) != 0x06064b50) fail("damaged ZIP64 end record");
    count = le(bytes, rec + 32, 8), cd_size = le(bytes, rec + 40, 8), cd_at = le(bytes, rec + 48, 8);
  }
  if (!inside(cd_at, cd_size, N)) fail("central directory lies beyond the end of the file (truncated .npz?)");
  if (count > cd_size / 46) fail("the central directory cannot hold " + std::to_string(count) + " entries (damaged file)");
  size_t at = cd_at;
  for (uint64_t e = 0; e < count; ++e) {
    if (!inside(at, 46, N) || le(bytes, at, 4) != 0x02014b50) fail("damaged central directory entry " + std::to_string(e + 1));
    ZipEntry z;
    z.method = static_cast<uint16_t>(le(bytes, at + 10, 2));
    z.crc = static_cast<uint32_t>(le(bytes, at + 16, 4));
    z.compressed = le(bytes, at + 20, 4);
    z.size = le(bytes, at + 24, 4);
    size_t name_len = le(bytes, at + 28, 2), extra_len = le(bytes, at + 30, 2), comment_len = le(bytes, at + 32, 2);
    z.local_offset = le(bytes, at + 42, 4);
    if (!inside(at + 46, name_len + extra_len, N)) fail("damaged central directory entry " + std::to_string(e + 1));
    z.name = bytes.substr(at + 46, name_len);
    // ZIP64 extra field (id 1): the 64-bit values of the fields stored as 0xFFFFFFFF, in this order.
    for (size_t x = at + 46 + name_len; x + 4 <= at + 46 + name_len + extra_len;) {
      uint64_t id = le(bytes, x, 2), len = le(bytes, x + 2, 2);
      if (id == 1) {  // each 8-byte value read only when the field's length holds it
        size_t f = x + 4, end = std::min<size_t>(x + 4 + len, at + 46 + name_len + extra_len);
        if (z.size == 0xFFFFFFFF && f + 8 <= end) z.size = le(bytes, f, 8), f += 8;
        if (z.compressed == 0xFFFFFFFF && f + 8 <= end) z.compressed = le(bytes, f, 8), f += 8;
        if (z.local_offset == 0xFFFFFFFF && f + 8 <= end) z.local_offset = le(bytes, f, 8);
      }
      x += 4 + len;
    }
    entries_.push_back(std::move(z));
    at += 46 + name_len + extra_len + comment_len;
  }
}

const ZipEntry* ZipArchive::find(const std::string& name) const {
  for (const ZipEntry& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

std::string ZipArchive::read(const ZipEntry& e) const {
  auto fail = [&](const std::string& what) { throw InputError(path_, 0, "entry " + e.name + ": " + what); };
  const size_t N = bytes_.size();
  if (!inside(e.local_offset, 30, N) || le(bytes_, e.local_offset, 4) != 0x04034b50) fail("damaged local header");
  size_t data = e.local_offset + 30 + le(bytes_, e.local_offset + 26, 2) + le(bytes_, e.local_offset + 28, 2);
  if (!inside(data, e.compressed, N)) fail("data runs past the end of the file (truncated?)");
  if (e.compressed > 0xFFFFFFFFu) fail("entries above 4 GiB are not supported");
  std::string out;
  if (e.method == 0) {
    if (e.size != e.compressed) fail("a stored entry's size differs from its stored length (damaged file)");
    out = bytes_.substr(data, e.size);
  } else if (e.method == 8) {
    if (!plausible_inflated_size(e.size, e.compressed))
      fail("declares " + std::to_string(e.size) + " bytes inflated from " + std::to_string(e.compressed) +
           " (more than deflate can expand or than " + std::to_string(kMaxInflatedBytes >> 20) + " MiB; damaged file?)");
    out.resize(e.size);
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) fail("zlib cannot start");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes_.data() + data));
    zs.avail_in = static_cast<uInt>(e.compressed);
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    int rc = inflate(&zs, Z_FINISH);
    uint64_t produced = zs.total_out;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END || produced != e.size) fail("deflate data is damaged");
  } else {
    fail("compression method " + std::to_string(e.method) + " is not supported (stored or deflated only)");
  }
  uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(out.size()));
  if (crc != e.crc) fail("CRC mismatch (damaged file)");
  return out;
}

}  // namespace tdisc::fmt
