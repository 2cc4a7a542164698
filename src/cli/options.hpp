// One options table per subcommand (STYLE §2): the table drives parsing, --help with defaults, the
// TDISC_* environment mirror, range checks and the printout of the effective settings.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tdisc::cli {

struct Option {
  std::string name;           // long name without dashes; "out,o" adds a short form
  std::string value;          // metavariable ("N", "FILE"); empty for a flag
  std::string fallback;       // default as text; empty for none
  std::string help;
  std::string env;            // environment mirror (TDISC_THREADS); empty for none
};

struct OptionTable {
  std::string command;        // "verify"
  std::string synopsis;       // "tdisc verify FILE… [--ring R]"
  std::string summary;        // one line on what it does
  std::vector<Option> options;
  std::string positional;     // name of the positional list ("FILE"); empty for none
};

class ParsedOptions {
public:
  bool has(const std::string& name) const;  // given on the command line, by env, or by default
  bool flag(const std::string& name) const;
  std::string text(const std::string& name) const;  // "" when absent
  std::optional<std::string> maybe(const std::string& name) const;
  // Range-checked numbers: out of range → UsageError naming the flag; never clamped.
  long integer(const std::string& name, long lo, long hi) const;
  double real(const std::string& name, double lo, double hi) const;
  // "10m", "90s", "2h", "1.5h", or plain seconds.
  double seconds(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  bool help() const { return help_; }
  // "threads=2 (env) time=10m (default) …" — every effective setting and where it came from.
  std::string effective() const;

private:
  friend ParsedOptions parse_options(const OptionTable&, const std::vector<std::string>&);
  std::map<std::string, std::string> values_, origin_;
  std::vector<std::string> positional_;
  bool help_ = false;
};

// Parses args (without the program and subcommand names). Throws UsageError on unknown flags,
// missing values or a flag given twice.
ParsedOptions parse_options(const OptionTable& table, const std::vector<std::string>& args);
std::string help_text(const OptionTable& table);
// Parses a duration like "10m"; nullopt when malformed.
std::optional<double> parse_duration(const std::string& s);

}  // namespace tdisc::cli
