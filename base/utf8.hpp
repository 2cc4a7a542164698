// UTF-8 checks for text that comes from outside (files, servers): where the first invalid byte is,
// a copy with each invalid sequence replaced by U+FFFD, and prefixes cut on a character boundary
// (a log excerpt must never end in half a character: a JSON writer would refuse the line).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace tdisc {

// Byte offset of the first byte that does not start or continue a valid UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF count as invalid); npos when all is valid.
size_t utf8_invalid_at(std::string_view text);
// text with every invalid sequence replaced by U+FFFD (one replacement per maximal bad run).
std::string utf8_repaired(std::string_view text);
// The longest prefix of at most max_bytes that does not cut a character in two.
std::string_view utf8_prefix(std::string_view text, size_t max_bytes);
// At most max_bytes of text (repaired, cut on a character boundary), with "… (N bytes in all)"
// appended when it was cut: the bounded excerpt logs keep of a server's reply.
std::string utf8_excerpt(std::string_view text, size_t max_bytes);

}  // namespace tdisc
