// Command lines over parameter tables: the table generates Boost.Program_options' description, and
// every value, from a flag or the environment, goes through the table's own conversion and checks.
#include "src/cli/options.hpp"

#include <boost/program_options.hpp>
#include <cstdlib>
#include <sstream>

#include "base/error.hpp"

namespace po = boost::program_options;

namespace tdisc::cli {

namespace {

po::options_description describe(const Table& t) {
  po::options_description d;
  d.add_options()("help,h", "show this help");
  for (const params::Param& p : t.params) {
    if (p.kind == params::Kind::Flag) d.add_options()(p.name.c_str(), p.help.c_str());
    else d.add_options()(p.name.c_str(), po::value<std::string>(), p.help.c_str());
  }
  if (!t.positional.empty()) d.add_options()("__positional", po::value<std::vector<std::string>>(), "");
  return d;
}

po::variables_map split(const Table& t, const std::vector<std::string>& args) {
  po::options_description desc = describe(t);
  po::positional_options_description pos;
  if (!t.positional.empty()) pos.add("__positional", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see 'tdisc " + t.name + " --help')");
  }
  return vm;
}

}  // namespace

params::Param ring_option(const std::string& help, bool with_auto) {
  std::vector<std::string> rings = {"ZT", "Z", "Q", "QI", "GF2", "GF3"};
  if (with_auto) rings.push_back("auto");
  return params::with_metavar(params::with_aliases(params::choice("ring", nullptr, rings, help),
                                                   {{"F2", "GF2"}, {"MOD2", "GF2"}, {"Z2", "GF2"}, {"F3", "GF3"}, {"MOD3", "GF3"}, {"Z3", "GF3"}}),
                              "R");
}

Settings parse_options(const Table& table, const std::vector<std::string>& args) {
  po::variables_map vm = split(table, args);
  Settings out(table);
  out.help = vm.count("help") > 0;
  if (vm.count("__positional")) out.positional() = vm["__positional"].as<std::vector<std::string>>();
  for (const params::Param& p : table.params) {
    const std::string name = p.long_name(), env = table.env_of(p);
    if (vm.count(name)) {
      out.set(name, p.kind == params::Kind::Flag ? nlohmann::json(true) : params::from_text(p, vm[name].as<std::string>(), "--" + name), "flag");
    } else if (const char* e = env.empty() ? nullptr : std::getenv(env.c_str()); e && *e) {
      out.set(name, params::from_text(p, e, env + " (--" + name + ")"), "env " + env);
    } else if (!p.fallback.is_null()) {
      out.set(name, p.kind == params::Kind::Duration && p.fallback.is_string() ? params::from_text(p, p.fallback.get<std::string>(), "default of --" + name) : p.fallback, "default");
    }
  }
  return out;
}

std::vector<std::string> split_list(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, sep);)
    if (!part.empty()) out.push_back(part);
  return out;
}

std::string join_list(const std::vector<std::string>& items, char sep) {
  std::string out;
  for (const std::string& s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

}  // namespace tdisc::cli
