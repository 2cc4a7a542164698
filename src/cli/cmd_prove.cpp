// tdisc prove NUMERICAL.json --field SPEC [-o FILE]: a numerical scheme inside a symmetric ansatz
// (the seeds θ of a numerical_solution) refined, recognised and verified exactly over a number field
// (src/search/numeric/prove.hpp, docs/number-fields.md).
#include <iostream>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/formats/field_scheme_file.hpp"
#include "decomposition/json_input.hpp"
#include "generated/tdisc_version.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "src/search/numeric/prove.hpp"

namespace tdisc::cli {

const Table& prove_table() {
  using namespace params;
  static const Table t{
      "prove",
      "tdisc prove NUMERICAL.json [--field SPEC] [--digits N] [-o FILE]",
      "Proves a numerical scheme exactly over a number field. NUMERICAL.json holds the seeds of a\n"
      "numerical solution inside a symmetric ansatz: {\"ansatz\": NAME or FILE, \"format\": [n,m,p],\n"
      "\"rank\": R, \"theta\": [[re, im], …]} (a numerical_solution event of 'tdisc search' with its\n"
      "format and rank). The seeds are refined by Gauss–Newton, the solution family is fixed by moving\n"
      "as many coordinates to 1 as it has dimensions, the point is refined to --digits digits, every\n"
      "coordinate is recognised in the field by an integer relation (LLL), and the exact expansion is\n"
      "verified over the field. SPEC is N for Q(ζ_N) or N:K:BETA for Q(ζ_N)(r) with r^K = BETA, a\n"
      "polynomial in z = ζ_N (docs/number-fields.md); auto (the default) looks for a coordinate whose\n"
      "power x^K lies in Q(ζ_12) and takes the deepest such root. Exit 0 with the scheme written (-o) when proved,\n"
      "3 when not, with the step that failed.",
      {with_metavar(text("field", "auto", "the number field: N (Q(ζ_N)), N:K:BETA (r^K = BETA), or auto[:N] (a pure radical over Q(ζ_N), N = 12 by default)"), "SPEC"),
       integer("digits", 160, 30, 2000, "decimal digits of the refinement before recognition"),
       with_metavar(text("out,o", nullptr, "write the proved scheme here (tdisc-field-scheme, atomically)"), "FILE")},
      "NUMERICAL.json",
      "TDISC_PROVE_"};
  return t;
}

namespace {

struct NumericalInput {
  std::string ansatz, found_by;  // found_by: the "source" of the numerical solution, if given
  int fixed = -1;
  Format format;
  int rank = 0;
  search::numeric::Vec<search::numeric::cdouble> theta;
};

NumericalInput read_numerical(const std::string& path) {
  const std::string text = read_text_file(path);
  const nlohmann::json j = parse_json_input(text, path, "a numerical solution");
  auto fail = [&](const std::string& what) -> NumericalInput { throw InputError(path, 0, what); };
  if (!j.is_object() || !j.contains("ansatz") || !j["ansatz"].is_string())
    return fail("a numerical solution needs \"ansatz\" (a built-in name or an ansatz file)");
  if (!j.contains("format") || !j["format"].is_array() || j["format"].size() != 3)
    return fail("a numerical solution needs \"format\": [n, m, p]");
  if (!j.contains("rank") || !j["rank"].is_number_integer()) return fail("a numerical solution needs \"rank\"");
  if (!j.contains("theta") || !j["theta"].is_array()) return fail("a numerical solution needs \"theta\": [[re, im], …]");
  NumericalInput in;
  in.ansatz = j["ansatz"].get<std::string>();
  if (j.contains("source") && j["source"].is_string()) in.found_by = j["source"].get<std::string>();
  in.fixed = j.contains("ansatz_fixed") && j["ansatz_fixed"].is_number_integer() ? j["ansatz_fixed"].get<int>() : -1;
  for (const auto& d : j["format"])
    if (!d.is_number_integer() || d.get<long>() < 1 || d.get<long>() > 64) return fail("\"format\" entries are 1..64");
  in.format = {j["format"][0].get<int>(), j["format"][1].get<int>(), j["format"][2].get<int>()};
  in.rank = j["rank"].get<int>();
  in.theta.resize(static_cast<long>(j["theta"].size()));
  for (size_t k = 0; k < j["theta"].size(); ++k) {
    const auto& z = j["theta"][k];
    if (!z.is_array() || z.size() != 2 || !z[0].is_number() || !z[1].is_number())
      return fail("theta entry " + std::to_string(k) + " is not [re, im]");
    in.theta(static_cast<long>(k)) = {z[0].get<double>(), z[1].get<double>()};
  }
  return in;
}

}  // namespace

int cmd_prove(const Args& args) {
  const Table& table = prove_table();
  Settings o = parse_options(table, args);
  if (o.help) {
    std::cout << params::help_text(table);
    return kOk;
  }
  if (o.positional().size() != 1) throw UsageError("prove: give exactly one NUMERICAL.json (see 'tdisc prove --help')");
  const std::string path = o.positional()[0];
  const NumericalInput in = read_numerical(path);
  search::numeric::ProveOptions opt;
  std::optional<NumberField> field;
  const std::string spec = o.text("field");
  if (spec.rfind("auto", 0) == 0) {
    if (spec.size() > 5 && spec[4] == ':') opt.auto_cyclotomic = NumberField::parse_spec(spec.substr(5)).n();
    else if (spec != "auto") throw UsageError("prove: --field auto or auto:N, not '" + spec + "'");
  } else {
    field = NumberField::parse_spec(spec);
  }
  auto space = search::numeric::load_seed_space(in.ansatz, in.format, in.rank, in.fixed);
  if (in.theta.size() != space->parameters)
    throw InputError(path, 0, "theta has " + std::to_string(in.theta.size()) + " entries, the ansatz " + in.ansatz +
                                  " has " + std::to_string(space->parameters) + " seed parameters");
  opt.digits = static_cast<int>(o.integer("digits"));
  opt.log = [](const std::string& line) { std::cout << "  " << line << "\n" << std::flush; };
  std::cout << path << ": " << in.format.str() << " rank " << in.rank << " in ansatz " << space->name << " ("
            << space->parameters << " seed parameters), over "
            << (field ? field->name() : "a field to be found over Q(ζ_" + std::to_string(opt.auto_cyclotomic) + ")") << "\n";
  search::numeric::ProofOutcome out = search::numeric::prove_numerical(*space, in.theta, field, opt);
  if (!out.scheme) {
    std::cout << "not proved: " << out.why_not << "\n";
    return kNoTarget;
  }
  out.scheme->provenance.tool = TDISC_TOOL;
  out.scheme->provenance.method = "prove (refine, recognise, verify over a number field)";
  out.scheme->provenance.created = utc_now();
  out.scheme->provenance.source = path;
  out.scheme->provenance.extra["ansatz"] = in.ansatz;
  if (!in.found_by.empty()) out.scheme->provenance.extra["found_by"] = in.found_by;
  out.scheme->provenance.extra["digits"] = std::to_string(opt.digits);
  out.scheme->provenance.extra["family_dimension"] = std::to_string(out.family_dimension);
  std::cout << "proved: valid over " << out.field->name() << " (" << out.scheme->rank() << " terms, family of dimension "
            << out.family_dimension << " fixed)\n";
  if (o.has("out")) {
    write_field_scheme(o.text("out"), *out.scheme);
    std::cout << "wrote " << o.text("out") << "\n";
  }
  return kOk;
}

}  // namespace tdisc::cli
