// The page template of every report: one self-contained HTML file (inline CSS, inline SVG, no
// script, a Content-Security-Policy that forbids every load from elsewhere), plus the small
// building blocks the pages share (escaping, tables, number formatting).
#pragma once
#include <string>
#include <vector>

namespace tdisc::report {

std::string escape(const std::string& text);              // fmt::escape_html: &, <, >, " and ', controls
std::string number(double x, int significant = 4);        // "1.23e-05", "48", "0.5"
std::string seconds_text(double s);                       // "12.3s", "5m02s", "2h05m" (also the CLI's)

// A whole page: <!doctype html> … with `title` as <title> and <h1>, `body` inside <main>.
std::string page(const std::string& title, const std::string& subtitle, const std::string& body);
std::string section(const std::string& id, const std::string& heading, const std::string& content);

// A table; cells are HTML already (escape text first). `id` may be empty.
std::string table(const std::string& id, const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows, const std::string& css_class = "");
std::string link(const std::string& href, const std::string& text);  // both escaped

// Writes `html` to path through a temporary file and a rename (a browser never sees half a page).
void write_page(const std::string& path, const std::string& html);

}  // namespace tdisc::report
