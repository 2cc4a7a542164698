// tdisc export --to FORMAT IN.json [-o OUT]: writes a native scheme in a public format, LaTeX, a
// self-checking Python script or a straight-line program (stdout when no -o).
#include <iostream>

#include "decomposition/error.hpp"
#include "decomposition/formats/formats.hpp"
#include "decomposition/io.hpp"
#include "decomposition/native.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"

namespace tdisc::cli {

namespace {

std::string names(const std::vector<std::string>& v) {
  std::string out;
  for (auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

}  // namespace

const Table& export_table() {
  using namespace params;
  static const Table t{
      "export",
      "tdisc export --to FORMAT IN.json [-o OUT]",
      "Writes a native scheme file in another format (stdout when no -o; files written atomically).\n"
      "Formats: " + names(export_formats()),
      {with_metavar(choice("to", nullptr, export_formats(), "the format to write"), "FORMAT"),
       with_metavar(text("out,o", nullptr, "output file"), "OUT")},
      "IN.json",
      "TDISC_EXPORT_"};
  return t;
}

namespace {

}  // namespace

int cmd_export(const Args& args) {
  const Table& table = export_table();
  Settings o = parse_options(table, args);
  if (o.help) {
    std::cout << params::help_text(table);
    return kOk;
  }
  if (o.positional().size() != 1) throw UsageError("export: give exactly one IN.json (see 'tdisc export --help')");
  if (!o.has("to")) throw UsageError("export: --to FORMAT is required (formats: " + names(export_formats()) + ")");
  const std::string format = o.text("to");
  Scheme s = read_native(o.positional()[0]);
  std::string text = export_scheme(format, s);
  if (ring_is_modular(s.ring) && format != "native" && format != "perminov-json" && format != "python" &&
      format != "latex" && format != "slp")
    std::cerr << "tdisc: note: " << format << " files do not record the ring; this scheme holds only over "
              << ring_name(s.ring) << " (the flips convention: put \"mod2\" in the file name)\n";
  if (o.has("out")) write_file_atomic(o.text("out"), text);
  else std::cout << text;
  return kOk;
}

}  // namespace tdisc::cli
