// Option tables over Boost.Program_options, with environment mirrors and range checks.
#include "src/cli/options.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "decomposition/error.hpp"

namespace po = boost::program_options;

namespace tdisc::cli {

namespace {

std::string long_name(const Option& o) { return o.name.substr(0, o.name.find(',')); }

po::options_description describe(const OptionTable& t) {
  po::options_description d;
  d.add_options()("help,h", "show this help");
  for (const Option& o : t.options) {
    if (o.value.empty()) d.add_options()(o.name.c_str(), o.help.c_str());
    else d.add_options()(o.name.c_str(), po::value<std::string>(), o.help.c_str());
  }
  if (!t.positional.empty())
    d.add_options()("__positional", po::value<std::vector<std::string>>(), "");
  return d;
}

}  // namespace

bool ParsedOptions::has(const std::string& name) const { return values_.count(name) > 0; }

bool ParsedOptions::flag(const std::string& name) const {
  auto it = values_.find(name);
  return it != values_.end() && it->second != "0" && it->second != "false";
}

std::string ParsedOptions::text(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::string() : it->second;
}

std::optional<std::string> ParsedOptions::maybe(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

long ParsedOptions::integer(const std::string& name, long lo, long hi) const {
  std::string s = text(name);
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0') throw UsageError("--" + name + ": \"" + s + "\" is not an integer");
  if (v < lo || v > hi)
    throw UsageError("--" + name + ": " + s + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

double ParsedOptions::real(const std::string& name, double lo, double hi) const {
  std::string s = text(name);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0') throw UsageError("--" + name + ": \"" + s + "\" is not a number");
  if (!(v >= lo && v <= hi)) {
    std::ostringstream r;
    r << "--" << name << ": " << s << " is out of range " << lo << ".." << hi;
    throw UsageError(r.str());
  }
  return v;
}

std::optional<double> parse_duration(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  std::string unit(end);
  double mult = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : unit == "d" ? 86400 : -1;
  if (end == s.c_str() || mult < 0 || !(v >= 0) || !std::isfinite(v * mult)) return std::nullopt;  // NaN, inf: no duration
  return v * mult;
}

double ParsedOptions::seconds(const std::string& name) const {
  auto d = parse_duration(text(name));
  if (!d) throw UsageError("--" + name + ": \"" + text(name) + "\" is not a duration (e.g. 90s, 10m, 2h)");
  return *d;
}

std::string ParsedOptions::effective() const {
  std::string out;
  for (auto& [k, v] : values_) {
    if (!out.empty()) out += " ";
    out += k + "=" + v;
    auto o = origin_.find(k);
    if (o != origin_.end() && o->second != "flag") out += " (" + o->second + ")";
  }
  return out;
}

ParsedOptions parse_options(const OptionTable& table, const std::vector<std::string>& args) {
  po::options_description desc = describe(table);
  po::positional_options_description pos;
  if (!table.positional.empty()) pos.add("__positional", -1);
  po::variables_map vm;
  try {
    auto parsed = po::command_line_parser(args).options(desc).positional(pos).run();
    po::store(parsed, vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see 'tdisc " + table.command + " --help')");
  }
  ParsedOptions out;
  out.help_ = vm.count("help") > 0;
  if (vm.count("__positional")) out.positional_ = vm["__positional"].as<std::vector<std::string>>();
  for (const Option& o : table.options) {
    std::string name = long_name(o);
    if (vm.count(name)) {
      out.values_[name] = o.value.empty() ? "1" : vm[name].as<std::string>();
      out.origin_[name] = "flag";
    } else if (const char* e = o.env.empty() ? nullptr : std::getenv(o.env.c_str()); e && *e) {
      out.values_[name] = e;
      out.origin_[name] = o.env;
    } else if (!o.fallback.empty()) {
      out.values_[name] = o.fallback;
      out.origin_[name] = "default";
    }
  }
  return out;
}

std::string help_text(const OptionTable& t) {
  std::ostringstream os;
  os << "usage: " << t.synopsis << "\n" << t.summary << "\n\noptions:\n";
  for (const Option& o : t.options) {
    std::string flag = "  --" + long_name(o);
    if (auto c = o.name.find(','); c != std::string::npos) flag += ", -" + o.name.substr(c + 1);
    if (!o.value.empty()) flag += " " + o.value;
    os << flag;
    for (size_t k = flag.size(); k < 28; ++k) os << ' ';
    os << " " << o.help;
    if (!o.fallback.empty()) os << " [default: " << o.fallback << "]";
    if (!o.env.empty()) os << " [env: " << o.env << "]";
    os << "\n";
  }
  os << "  --help, -h                   show this help\n";
  return os.str();
}

}  // namespace tdisc::cli
