// Exports that cannot carry code (issue 26): a scheme's metadata is text its author chose, so every
// exporter and the catalogue index escape it for the target language. Each case failed before
// decomposition/formats/escape.* existed: the source broke out of the Python docstring, the LaTeX
// and SLP comments, and the Markdown table.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "base/utf8.hpp"
#include "decomposition/formats/escape.hpp"
#include "src/catalog/catalogue.hpp"
#include "tests/formats/helpers.hpp"

using namespace tdisc;

namespace {

// A provenance source that tries to leave every kind of comment, string and cell it lands in.
const std::string kHostile = "x\"\"\"\nimport os; open('PWNED', 'w').write('1')\n\"\"\" \\N{bad} \\x\r\n"
                             "\\input{/etc/passwd} <script>alert(1)</script> | a | b |\u2028m1 = a11 * b11\xff";

Scheme hostile_strassen() {
  Scheme s = test::strassen();
  s.provenance.source = kHostile;
  return s;
}

size_t count_lines(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("metadata cannot leave the Python docstring", "[fast][export][hostile]") {
  Scheme plain = test::strassen();
  plain.provenance.source = "a paper";
  const std::string clean = export_scheme("python", plain), bad = export_scheme("python", hostile_strassen());
  // Same shape of script: the source stays on its one line, no extra line and no extra """.
  CHECK(count_lines(bad) == count_lines(clean));
  auto triple = [](const std::string& t) {
    size_t n = 0;
    for (size_t at = t.find("\"\"\""); at != std::string::npos; at = t.find("\"\"\"", at + 3)) ++n;
    return n;
  };
  CHECK(triple(bad) == triple(clean));
  CHECK(bad.find("\nimport os") == std::string::npos);
  CHECK(utf8_invalid_at(bad) == std::string::npos);
}

TEST_CASE("metadata cannot leave the LaTeX and SLP comments", "[fast][export][hostile]") {
  Scheme plain = test::strassen();
  plain.provenance.source = "a paper";
  for (const std::string format : {"latex", "slp"}) {
    INFO(format);
    const std::string clean = export_scheme(format, plain), bad = export_scheme(format, hostile_strassen());
    CHECK(count_lines(bad) == count_lines(clean));
    if (format == "latex") CHECK(bad.find("\\input") == std::string::npos);  // a comment in SLP: inert there
    CHECK(bad.find("\u2028") == std::string::npos);
    CHECK(bad.find('\r') == std::string::npos);
  }
}

TEST_CASE("the catalogue index escapes provenance for Markdown", "[fast][catalog][hostile]") {
  CatalogueEntry e = catalogue_entry(hostile_strassen(), "dir/2x2x2/x.json", "2x2x2/x.json");
  e.name = "<img src=x onerror=alert(1)>";
  e.licence = "[click](javascript:alert(1))";
  const std::string index = index_markdown({e}, {}, 2);
  CHECK(index.find("<script>") == std::string::npos);
  CHECK(index.find("<img") == std::string::npos);
  CHECK(index.find("[click](") == std::string::npos);
  // The file table has its header, its rule and exactly one row: no line came from the metadata.
  const std::string files = index.substr(index.find("## Files"));
  CHECK(count_lines(files) == 5);
}

TEST_CASE("one escaper per target language", "[fast][export][hostile]") {
  using namespace fmt;
  CHECK(escape_python("a\"\"\"b\\c\nd'") == "a\\\"\\\"\\\"b\\\\c\\nd\\'");
  CHECK(escape_python("\x01\xc2\x85\u2028") == "\\x01\\x85\\u2028");
  CHECK(escape_latex("\\input{x} 50% $a_1^2$ #&~") ==
        "\\textbackslash{}input\\{x\\} 50\\% \\$a\\_1\\textasciicircum{}2\\$ \\#\\&\\textasciitilde{}");
  CHECK(escape_latex("a\nb\r") == "a b ");
  CHECK(escape_comment_line("a\nb\\c\x7f") == "a\\x0ab\\\\c\\x7f");
  CHECK(escape_comment_line("Perminov – ok") == "Perminov – ok");  // printable Unicode stays
  CHECK(escape_markdown("a|b<c>&*_[x](y)`") == "a\\|b&lt;c&gt;&amp;\\*\\_\\[x\\](y)\\`");
  CHECK(escape_markdown("") == "—");
  CHECK(escape_markdown_url("2x2x2/a b(1).json") == "2x2x2/a%20b%281%29.json");
  CHECK(escape_html("<script>\"'&") == "&lt;script&gt;&quot;&#39;&amp;");
  CHECK(escape_html("\xff\xfe") == "\xEF\xBF\xBD");  // invalid UTF-8 replaced
}

TEST_CASE("UTF-8: validation, repair and excerpts cut on a character boundary", "[fast][hostile]") {
  CHECK(utf8_invalid_at("ok – fine") == std::string::npos);
  CHECK(utf8_invalid_at("ab\xc3") == 2);              // cut character
  CHECK(utf8_invalid_at("a\xed\xa0\x80") == 1);       // surrogate
  CHECK(utf8_invalid_at("\xc0\xaf") == 0);            // overlong
  CHECK(utf8_invalid_at("\xf4\x90\x80\x80") == 0);    // above U+10FFFF
  CHECK(utf8_repaired("a\xff\xfe" "b") == "a\xEF\xBF\xBD" "b");
  const std::string dashes = "–––";  // 3 bytes each
  CHECK(utf8_prefix(dashes, 4) == "–");
  CHECK(utf8_prefix(dashes, 6) == "––");
  CHECK(utf8_excerpt(dashes, 5) == "–… (9 bytes in all)");
}

// Hidden from the plain run (formats_python runs [python] where python3 exists): the exported
// script with a hostile source runs, checks the scheme, and does not run the injected code.
TEST_CASE("a hostile source never runs in the exported Python self-check", "[.][python][export][hostile]") {
  REQUIRE(std::system("python3 -c 'import fractions' >/dev/null 2>&1") == 0);
  const std::string dir = test::temp_dir("python-hostile");
  test::write_file(dir + "/s.py", export_scheme("python", hostile_strassen()));
  const int status = std::system(("cd " + dir + " && python3 s.py --pure >out.txt 2>&1").c_str());
  INFO(test::slurp_file(dir + "/out.txt"));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(test::slurp_file(dir + "/out.txt").rfind("OK: ", 0) == 0);
  CHECK_FALSE(std::filesystem::exists(dir + "/PWNED"));
  std::filesystem::remove_all(dir);
}
