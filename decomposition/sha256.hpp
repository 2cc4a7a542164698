// SHA-256 of bytes (OpenSSL): the scheme hash (scheme.hpp) and the object digests of
// Tilloy's cwschemes checkouts (formats/cwschemes.cpp).
#pragma once
#include <string>

namespace tdisc {

// 64 lower-case hex digits.
std::string sha256_hex(const std::string& bytes);

}  // namespace tdisc
