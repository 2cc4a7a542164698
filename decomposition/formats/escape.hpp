// One escaping function per target language, for every string an export or an index takes from a
// scheme's metadata (provenance, names, licences: text a file's author chose). Each result is
// inert where it is placed: it cannot end the comment, string or cell it sits in, start a new
// line, or be read as markup or code. Invalid UTF-8 is replaced by U+FFFD first.
#pragma once
#include <string>
#include <string_view>

namespace tdisc::fmt {

// Inside a Python string or docstring ("…" or """…""", not raw): backslash, quotes and every
// control or line-separator character become escape sequences, so the text stays on one line.
std::string escape_python(std::string_view text);
// LaTeX text mode (and comments): the ten special characters as commands, line breaks and other
// control characters as spaces, so neither \input nor a new line can appear.
std::string escape_latex(std::string_view text);
// The rest of a one-line comment of a plain-text format (SLP "#", exp, Maple): control and
// line-separator characters (C0, DEL, C1, U+2028, U+2029) and the backslash as \xNN, \uNNNN, \\.
std::string escape_comment_line(std::string_view text);
// One cell of a Markdown table: markup characters backslash-escaped, < > & as entities (raw HTML
// passes through Markdown), | escaped, line breaks as spaces. Empty text gives "—".
std::string escape_markdown(std::string_view text);
// A link target in Markdown: bytes outside [A-Za-z0-9/._~-] percent-encoded.
std::string escape_markdown_url(std::string_view text);
// HTML text or a quoted attribute value: & < > " ' as entities, control characters as spaces.
std::string escape_html(std::string_view text);

}  // namespace tdisc::fmt
