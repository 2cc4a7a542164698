// The escapers of escape.hpp. Each walks the repaired UTF-8 text character by character; a byte
// below 0x80 is looked at alone, and multibyte characters pass through unless they are C1 controls
// (U+0080..U+009F) or line separators (U+2028, U+2029), which some readers take as line breaks.
#include "decomposition/formats/escape.hpp"

#include <cstdio>

#include "base/utf8.hpp"

namespace tdisc::fmt {

namespace {

std::string hex_escape(unsigned code, const char* form) {
  char buf[16];
  std::snprintf(buf, sizeof buf, form, code);
  return buf;
}

// The code point of a line-breaking multibyte character at text[at] (C1 control, U+2028, U+2029),
// with its length; {0, 0} for any other character.
std::pair<unsigned, size_t> line_breaking(std::string_view text, size_t at) {
  auto byte = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  if (byte(at) == 0xC2 && byte(at + 1) >= 0x80 && byte(at + 1) <= 0x9F) return {byte(at + 1), 2};
  if (byte(at) == 0xE2 && byte(at + 1) == 0x80 && (byte(at + 2) == 0xA8 || byte(at + 2) == 0xA9))
    return {0x2000u + 0x28u + (byte(at + 2) - 0xA8u), 3};
  return {0, 0};
}

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7F; }

// Runs `ascii` on each byte below 0x80 and on each line-breaking character (given its code point),
// copying every other character unchanged.
template <class OnCode>
std::string transform(std::string_view raw, OnCode on_code) {
  const std::string text = utf8_repaired(raw);
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (size_t at = 0; at < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    if (c < 0x80) {
      on_code(out, c);
      ++at;
      continue;
    }
    auto [code, len] = line_breaking(text, at);
    if (len) {
      on_code(out, code);
      at += len;
      continue;
    }
    out += text[at++];
  }
  return out;
}

}  // namespace

std::string escape_python(std::string_view text) {
  return transform(text, [](std::string& out, unsigned c) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\'') out += "\\'";
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c > 0xFF) out += hex_escape(c, "\\u%04x");
    else if (c >= 0x80 || is_control(static_cast<unsigned char>(c))) out += hex_escape(c, "\\x%02x");
    else out += static_cast<char>(c);
  });
}

std::string escape_latex(std::string_view text) {
  return transform(text, [](std::string& out, unsigned c) {
    switch (c) {
      case '\\': out += "\\textbackslash{}"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '$': out += "\\$"; break;
      case '&': out += "\\&"; break;
      case '#': out += "\\#"; break;
      case '%': out += "\\%"; break;
      case '_': out += "\\_"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      default:
        if (c >= 0x80 || is_control(static_cast<unsigned char>(c))) out += ' ';
        else out += static_cast<char>(c);
    }
  });
}

std::string escape_comment_line(std::string_view text) {
  return transform(text, [](std::string& out, unsigned c) {
    if (c == '\\') out += "\\\\";
    else if (c > 0xFF) out += hex_escape(c, "\\u%04x");
    else if (c >= 0x80 || is_control(static_cast<unsigned char>(c))) out += hex_escape(c, "\\x%02x");
    else out += static_cast<char>(c);
  });
}

std::string escape_markdown(std::string_view text) {
  std::string out = transform(text, [](std::string& out, unsigned c) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\\': case '`': case '*': case '_': case '[': case ']': case '|': case '~': case '!':
        out += '\\';
        out += static_cast<char>(c);
        break;
      default:
        if (c >= 0x80 || is_control(static_cast<unsigned char>(c))) out += ' ';
        else out += static_cast<char>(c);
    }
  });
  return out.empty() ? "—" : out;
}

std::string escape_markdown_url(std::string_view text) {
  std::string out;
  for (char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' ||
                       c == '.' || c == '_' || c == '~' || c == '-';
    out += plain ? std::string(1, ch) : hex_escape(c, "%%%02X");
  }
  return out;
}

std::string escape_html(std::string_view text) {
  return transform(text, [](std::string& out, unsigned c) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (c == '\n' || c == '\t') out += static_cast<char>(c);
        else if (c >= 0x80 || is_control(static_cast<unsigned char>(c))) out += ' ';
        else out += static_cast<char>(c);
    }
  });
}

}  // namespace tdisc::fmt
