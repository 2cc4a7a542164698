// The page template (see html.hpp). The CSP allows inline styles and data: images only: a page that
// tried to load anything from a network would fail visibly in the browser console (tested).
#include "src/report/html.hpp"

#include <cmath>
#include <cstdio>

#include "base/io.hpp"
#include "decomposition/formats/escape.hpp"

namespace tdisc::report {

std::string escape(const std::string& text) { return fmt::escape_html(text); }

std::string number(double x, int significant) {
  if (std::isnan(x)) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*g", significant, x);
  return buf;
}

std::string seconds_text(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.1fs", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, (static_cast<int>(s) % 3600) / 60);
  return buf;
}

namespace {

const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2a3a;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#c6d2e0}
main{max-width:1000px;margin:0 auto;padding:8px 24px 40px}
section{background:#fff;border:1px solid #dde2e8;border-radius:6px;margin:16px 0;padding:10px 16px}
h2{font-size:16px;margin:6px 0 10px}figure{margin:6px 0}figcaption{font-weight:600;margin-bottom:2px}
table{border-collapse:collapse;font-size:13px;margin:4px 0}td,th{border-bottom:1px solid #e6e9ee;padding:3px 10px 3px 0;text-align:left;vertical-align:top}
th{color:#4a5567;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}pre{background:#f2f4f7;padding:8px;overflow-x:auto;white-space:pre-wrap}
.kv td:first-child{color:#4a5567;padding-right:18px}.ok{color:#17803d}.bad{color:#b42318}.muted{color:#6b7585}
.grid td{text-align:center;min-width:70px;border:1px solid #e6e9ee}.axis text{font-size:11px;fill:#4a5567}
.legend{font-size:12px;display:flex;flex-wrap:wrap;gap:2px 14px;margin:2px 0 0 64px}.legend i{display:inline-block;width:14px;height:4px;margin:0 5px 3px 0}svg{max-width:100%;height:auto}a{color:#1f5fbf}
)";

}  // namespace

std::string page(const std::string& title, const std::string& subtitle, const std::string& body) {
  return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "img-src data:\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"tdisc report\">\n<title>" + escape(title) + "</title>\n<style>" + kStyle +
         "</style></head>\n<body><header><h1>" + escape(title) + "</h1><p>" + escape(subtitle) + "</p></header>\n<main>\n" +
         body + "</main></body></html>\n";
}

std::string section(const std::string& id, const std::string& heading, const std::string& content) {
  return "<section id=\"" + escape(id) + "\"><h2>" + escape(heading) + "</h2>\n" + content + "</section>\n";
}

std::string table(const std::string& id, const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                  const std::string& css_class) {
  std::string out = "<table" + (id.empty() ? std::string() : " id=\"" + escape(id) + "\"") +
                    (css_class.empty() ? std::string() : " class=\"" + escape(css_class) + "\"") + "><thead><tr>";
  for (const auto& h : header) out += "<th>" + h + "</th>";
  out += "</tr></thead><tbody>\n";
  for (const auto& r : rows) {
    out += "<tr>";
    for (const auto& c : r) out += "<td>" + c + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string link(const std::string& href, const std::string& text) {
  return "<a href=\"" + escape(href) + "\">" + escape(text) + "</a>";
}

void write_page(const std::string& path, const std::string& html) { write_file_atomic(path, html); }

}  // namespace tdisc::report
