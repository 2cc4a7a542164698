// Help texts and Markdown generated from a parameter table, so --help, --help-params and
// docs/parameters.md cannot disagree with what the parser accepts.
#include "base/params/help.hpp"

#include <sstream>

namespace tdisc::params {

namespace {

std::string metavar(const Param& p) {
  if (!p.metavar.empty()) return p.metavar;
  switch (p.kind) {
    case Kind::Flag: return "";
    case Kind::Boolean: return "BOOL";
    case Kind::Integer: return "N";
    case Kind::Seed: return "S";
    case Kind::Number: return "X";
    case Kind::Duration: return "T";
    case Kind::Choice: return "WHICH";
    case Kind::Text: return "TEXT";
  }
  return "";
}

std::string flag_column(const Param& p) {
  std::string f = "--" + p.long_name();
  if (char c = p.short_name()) f += std::string(", -") + c;
  if (std::string m = metavar(p); !m.empty()) f += " " + m;
  return f;
}

// The continuation lines of a help text, indented under the help column.
std::string indented(const std::string& help, size_t column) {
  std::string out;
  for (char c : help) {
    out += c;
    if (c == '\n') out += std::string(column, ' ');
  }
  return out;
}

std::string notes(const Table& t, const Param& p) {
  std::string n;
  if (!p.fallback.is_null()) n += " [default: " + show(p, p.fallback) + "]";
  if (std::string d = domain(p); !d.empty() && p.kind != Kind::Seed) n += " " + d;
  if (std::string e = t.env_of(p); !e.empty()) n += " [env: " + e + "]";
  return n;
}

// Table-cell text: '|' escaped, line breaks as spaces.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

}  // namespace

std::string help_text(const Table& t) {
  constexpr size_t kColumn = 31;
  std::ostringstream os;
  os << "usage: " << t.synopsis << "\n" << t.summary << "\n\noptions:\n";
  for (const Param& p : t.params) {
    std::string f = "  " + flag_column(p);
    os << f << std::string(f.size() < kColumn ? kColumn - f.size() : 1, ' ') << indented(p.help, kColumn) << notes(t, p) << "\n";
  }
  os << "  --help, -h" << std::string(kColumn - 12, ' ') << "show this help\n";
  return os.str();
}

std::string params_text(const Table& t) {
  constexpr size_t kColumn = 26;
  std::ostringstream os;
  os << t.name << " parameters (--params '{\"name\": value, …}'):\n";
  for (const Param& p : t.params) {
    std::string f = "  " + p.long_name();
    os << f << std::string(f.size() < kColumn ? kColumn - f.size() : 1, ' ') << indented(p.help, kColumn) << notes(t, p) << "\n";
  }
  return os.str();
}

std::string markdown(const Table& t, bool command_line) {
  std::ostringstream os;
  os << "## " << (command_line ? "`tdisc " + t.name + "`" : "engine `" + t.name + "`") << "\n\n";
  if (!t.synopsis.empty()) os << "`" << t.synopsis << "`\n\n";
  os << t.summary << "\n\n";
  os << (command_line ? "| flag | kind | default | range | environment | meaning |\n|---|---|---|---|---|---|\n"
                      : "| key | kind | default | range | meaning |\n|---|---|---|---|---|\n");
  static const char* kKinds[] = {"flag", "boolean", "integer", "seed", "number", "duration", "choice", "text"};
  for (const Param& p : t.params) {
    os << "| `" << (command_line ? flag_column(p) : p.long_name()) << "` | " << kKinds[static_cast<int>(p.kind)] << " | "
       << (p.fallback.is_null() ? "" : "`" + show(p, p.fallback) + "`") << " | " << cell(domain(p)) << " | ";
    if (command_line) os << (t.env_of(p).empty() ? "" : "`" + t.env_of(p) + "`") << " | ";
    os << cell(p.help) << " |\n";
  }
  os << "\n";
  return os.str();
}

}  // namespace tdisc::params
