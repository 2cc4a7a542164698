// A reader of gzip members (RFC 1952) through zlib: what AntoineTilloy/explicit-matmul-schemes
// stores its objects as (data/objects/<sha256>.gz, written by Python's gzip with mtime=0).
#pragma once
#include <string>

namespace tdisc::fmt {

// The uncompressed bytes of the gzip data `bytes`, CRC-checked by zlib; at most kMaxInflatedBytes.
// path labels messages. Throws InputError when the data is not gzip, is cut short or is damaged.
std::string gunzip(const std::string& path, const std::string& bytes);

}  // namespace tdisc::fmt
