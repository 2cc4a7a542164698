// gzip through zlib's inflate with gzip framing (window bits 16 + MAX_WBITS); see gzip.hpp.
#include "base/gzip.hpp"

#include <zlib.h>

#include <stdexcept>

#include "base/error.hpp"
#include "base/limits.hpp"

namespace tdisc {

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip(const std::string& path, const std::string& bytes) {
  if (bytes.size() < 18 || !is_gzip(bytes))
    throw InputError(path, 0, "not gzip data (no 1f 8b header)");
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) throw InputError(path, 0, "zlib cannot start");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char chunk[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof chunk;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - zs.avail_out);
    if (out.size() > kMaxInflatedBytes) rc = Z_MEM_ERROR;
  }
  const std::string why = zs.msg ? zs.msg : "truncated";
  inflateEnd(&zs);
  if (rc == Z_MEM_ERROR) throw InputError(path, 0, "gzip data inflates beyond " + std::to_string(kMaxInflatedBytes >> 20) + " MiB");
  if (rc != Z_STREAM_END) throw InputError(path, 0, "gzip data is damaged or cut short (zlib: " + why + ")");
  return out;
}

std::string gzip(std::string_view text) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib cannot start");
  std::string out(deflateBound(&zs, static_cast<uLong>(text.size())) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib could not compress");
  return out;
}

}  // namespace tdisc
