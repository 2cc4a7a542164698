// tdisc export --to FORMAT IN.json [-o OUT]: writes a native scheme in a public format, LaTeX, a
// self-checking Python script or a straight-line program (stdout when no -o).
#include <iostream>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/formats/formats.hpp"
#include "decomposition/native.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "verifier/verify.hpp"

namespace tdisc::cli {

const Table& export_table() {
  using namespace params;
  static const Table t{
      "export",
      "tdisc export --to FORMAT IN.json [-o OUT]",
      "Writes a native scheme file in another format (stdout when no -o; files written atomically).\n"
      "Formats: " + join_list(export_formats()),
      {with_metavar(choice("to", nullptr, export_formats(), "the format to write"), "FORMAT"),
       with_metavar(text("out,o", nullptr, "output file"), "OUT"),
       flag("no-verify", "write without proving the scheme first (the output's header says so)")},
      "IN.json",
      "TDISC_EXPORT_"};
  return t;
}

namespace {

// An export made with --no-verify says so in its header, in the format's comment syntax (a field
// for the JSON formats), so that it cannot pass for a proved scheme.
std::string marked_unverified(const std::string& format, const std::string& text) {
  const std::string notice = "UNVERIFIED: exported with --no-verify; the Brent equations were not checked";
  if ((format == "native" || format == "perminov-json") && text.rfind("{\n", 0) == 0)
    return "{\n  \"unverified\": \"" + notice + "\",\n" + text.substr(2);
  if (format == "latex") return "% " + notice + "\n" + text;
  if (format == "python" && text.rfind("#!", 0) == 0) {
    size_t nl = text.find('\n') + 1;
    return text.substr(0, nl) + "# " + notice + "\n" + text.substr(nl);
  }
  return "# " + notice + "\n" + text;  // exp, maple, fmm-mpl, fast-matmul, slp: '#' comments
}

// Nothing unverified is written unless asked: the scheme is proved over its declared ring first.
void require_valid(const Scheme& s, const std::string& path) {
  Verdict v = verify(s, s.ring);
  if (!v.valid)
    throw InputError(path, 0, "does not verify over " + std::string(ring_name(s.ring)) + ": " + v.why_not +
                                  "; not exported (--no-verify writes it anyway, marked unverified)");
}

}  // namespace

int cmd_export(const Args& args) {
  const Table& table = export_table();
  Settings o = parse_options(table, args);
  if (o.help) {
    std::cout << params::help_text(table);
    return kOk;
  }
  if (o.positional().size() != 1) throw UsageError("export: give exactly one IN.json (see 'tdisc export --help')");
  if (!o.has("to")) throw UsageError("export: --to FORMAT is required (formats: " + join_list(export_formats()) + ")");
  const std::string format = o.text("to");
  Scheme s = read_native(o.positional()[0]);
  const bool verified = !o.flag("no-verify");
  if (verified) require_valid(s, o.positional()[0]);
  std::string text = export_scheme(format, s);
  if (!verified) text = marked_unverified(format, text);
  if (ring_is_modular(s.ring) && format != "native" && format != "perminov-json" && format != "python" &&
      format != "latex" && format != "slp")
    std::cerr << "tdisc: note: " << format << " files do not record the ring; this scheme holds only over "
              << ring_name(s.ring) << " (the flips convention: put \"mod2\" in the file name)\n";
  if (o.has("out")) write_file_atomic(o.text("out"), text);
  else std::cout << text;
  return kOk;
}

}  // namespace tdisc::cli
