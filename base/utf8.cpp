// UTF-8 validation by the table of RFC 3629 §4 (well-formed byte sequences).
#include "base/utf8.hpp"

namespace tdisc {

namespace {

// Length of the valid sequence starting at text[at], or 0 when it is not valid UTF-8.
size_t sequence_length(std::string_view text, size_t at) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(at);
  if (b0 < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte (RFC 3629 §4)
  if (b0 >= 0xC2 && b0 <= 0xDF) len = 2;
  else if (b0 == 0xE0) len = 3, lo = 0xA0;
  else if (b0 >= 0xE1 && b0 <= 0xEC) len = 3;
  else if (b0 == 0xED) len = 3, hi = 0x9F;  // no surrogates
  else if (b0 >= 0xEE && b0 <= 0xEF) len = 3;
  else if (b0 == 0xF0) len = 4, lo = 0x90;
  else if (b0 >= 0xF1 && b0 <= 0xF3) len = 4;
  else if (b0 == 0xF4) len = 4, hi = 0x8F;  // nothing above U+10FFFF
  else return 0;
  if (at + len > text.size()) return 0;
  if (byte(at + 1) < lo || byte(at + 1) > hi) return 0;
  for (size_t k = 2; k < len; ++k)
    if (byte(at + k) < 0x80 || byte(at + k) > 0xBF) return 0;
  return len;
}

}  // namespace

size_t utf8_invalid_at(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    size_t len = sequence_length(text, at);
    if (len == 0) return at;
    at += len;
  }
  return std::string_view::npos;
}

std::string utf8_repaired(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_bad_run = false;
  for (size_t at = 0; at < text.size();) {
    size_t len = sequence_length(text, at);
    if (len == 0) {
      if (!in_bad_run) out += "\xEF\xBF\xBD";
      in_bad_run = true;
      ++at;
      continue;
    }
    in_bad_run = false;
    out.append(text.substr(at, len));
    at += len;
  }
  return out;
}

std::string_view utf8_prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t cut = max_bytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the character that was cut.
  // A character is at most 4 bytes, so at most 3 steps; a longer run of them is invalid text anyway.
  while (cut > 0 && max_bytes - cut < 3 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}

std::string utf8_excerpt(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return utf8_repaired(text);
  std::string out = utf8_repaired(utf8_prefix(text, max_bytes));
  return out + "… (" + std::to_string(text.size()) + " bytes in all)";
}

}  // namespace tdisc
