// gzip members (RFC 1952) through zlib: what AntoineTilloy/explicit-matmul-schemes stores its
// objects as (data/objects/<sha256>.gz), and what the catalogue writes its large schemes as
// (r<R>-<ring>-<hash>.json.gz). Every scheme reader inflates such a file (base/io.hpp).
#pragma once
#include <string>
#include <string_view>

namespace tdisc {

// Does `bytes` start with the gzip magic 1f 8b?
bool is_gzip(std::string_view bytes);
// The uncompressed bytes of the gzip data `bytes`, CRC-checked by zlib; at most kMaxInflatedBytes.
// path labels messages. Throws InputError when the data is not gzip, is cut short or is damaged.
std::string gunzip(const std::string& path, const std::string& bytes);
// `text` as one gzip member at the best compression, with no name and mtime 0, so the same text
// always gives the same bytes (the catalogue's files are rebuilt and compared byte for byte).
std::string gzip(std::string_view text);

}  // namespace tdisc
