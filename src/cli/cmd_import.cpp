// tdisc import --from FORMAT FILE [--key K] [--dims n,m,p] [--list-keys] [-o OUT.json]: reads a
// public scheme format, proves the scheme with the exact verifier, and writes it as a native file.
#include <iostream>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/formats/imported.hpp"
#include "decomposition/native.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "verifier/verify.hpp"

namespace tdisc::cli {

const Table& import_table() {
  using namespace params;
  static const Table t{
      "import",
      "tdisc import --from FORMAT FILE [--key K] [--dims n,m,p] [--list-keys] [-o OUT.json]",
      "Reads a scheme in a public format, verifies it exactly and writes it as a native tdisc-scheme\n"
      "file (stdout when no -o). An invalid scheme is refused (exit 2) and nothing is written.\n"
      "Formats: " + join_list(import_formats()),
      {with_metavar(choice("from", nullptr, import_formats(), "the format of FILE"), "FORMAT"),
       with_metavar(text("key", nullptr, "which scheme of a multi-scheme file (\"3,4,5\" for .npz, \"444\" for .ipynb)"), "K"),
       with_metavar(text("dims", nullptr, "dimensions, for files that do not state them"), "n,m,p"),
       with_env(flag("list-keys", "list the keys a multi-scheme file holds, then stop"), "-"),
       with_metavar(text("out,o", nullptr, "output native file (written atomically)"), "OUT.json")},
      "FILE",
      "TDISC_IMPORT_"};
  return t;
}

namespace {

// The first failing equation, pointed at the source line of its first contributing term.
[[noreturn]] void refuse(const ImportedScheme& im, Ring over) {
  Verdict v = verify(im.scheme, over);
  int line = 0;
  std::string where;
  if (v.failure)
    for (int t : v.failure->terms)
      if (int l = im.line_of_term(t)) {
        if (!line) line = l;
        where += (where.empty() ? "; those terms are on line " : ", ") + std::to_string(l);
      }
  throw InputError(im.path, line, "not a valid scheme (checked over " + std::string(ring_name(over)) + "): " +
                                      v.why_not + where);
}

}  // namespace

int cmd_import(const Args& args) {
  const Table& table = import_table();
  Settings o = parse_options(table, args);
  if (o.help) {
    std::cout << params::help_text(table);
    return kOk;
  }
  if (o.positional().size() != 1) throw UsageError("import: give exactly one FILE (see 'tdisc import --help')");
  if (!o.has("from")) throw UsageError("import: --from FORMAT is required (formats: " + join_list(import_formats()) + ")");
  const std::string format = o.text("from"), path = o.positional()[0];
  if (o.flag("list-keys")) {
    for (const std::string& k : list_keys(format, path)) std::cout << k << "\n";
    return kOk;
  }
  ImportOptions opt;
  opt.key = o.text("key");
  if (o.has("dims")) {
    opt.dims = parse_format(o.text("dims"));
    if (!opt.dims) throw UsageError("--dims: \"" + o.text("dims") + "\" is not n,m,p");
  }
  ImportedScheme im = import_located(format, path, opt);
  RingReport rr = classify(im.scheme);
  std::optional<Ring> best = rr.best();
  if (!best) refuse(im, im.declared ? *im.declared : coefficient_ring(im.scheme));
  if (im.declared && ring_is_modular(*im.declared) && !ring_is_modular(*best))
    im.notes.push_back("the source says " + std::string(ring_name(*im.declared)) + " but the scheme is " + rr.describe());
  im.scheme.ring = *best;
  std::ostream& report = o.has("out") ? std::cout : std::cerr;
  for (const std::string& note : im.notes) report << "tdisc: note: " << path << ": " << note << "\n";
  report << path << ": " << im.scheme.format.str() << " rank " << im.scheme.rank() << ", " << rr.describe() << "\n";
  if (o.has("out")) write_native(o.text("out"), im.scheme);
  else std::cout << native_text(im.scheme);
  return kOk;
}

}  // namespace tdisc::cli
