// tdisc symmetry SCHEME [-o ANSATZ.json]: the symmetry group of a scheme, computed exactly, its orbits
// and rank types, and the ansatz file that lets the numeric engine search inside that group; with
// --to OTHER, an isotropy between two schemes (whether they are equivalent).
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "decomposition/error.hpp"
#include "decomposition/formats/ansatz_file.hpp"
#include "decomposition/native.hpp"
#include "decomposition/scheme_ansatz.hpp"
#include "decomposition/stabiliser.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/isotropy_text.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"

namespace tdisc::cli {

const Table& symmetry_table() {
  using namespace params;
  static const Table t{
      "symmetry",
      "tdisc symmetry SCHEME [-o ANSATZ.json] [--max-order N] | SCHEME --to OTHER",
      "Computes the symmetry group of a native scheme exactly: every isotropy (transpose, cyclic shift,\n"
      "de Groote's sandwich (P,Q,S) over Q(i)) that maps its set of rank-one tensors onto itself, each\n"
      "element checked exactly. Prints the group order, its generators, the orbits of the terms with\n"
      "their stabiliser orders, and the rank types of the terms. With -o, writes the ansatz file\n"
      "(tdisc-ansatz v1, docs/symmetry.md) that 'tdisc search --params {\"ansatz\": FILE}' searches in.\n"
      "With --to OTHER, instead finds an isotropy mapping SCHEME onto OTHER (exit 0) or shows that none\n"
      "exists (exit 3).",
      {with_metavar(text("out,o", nullptr, "write the ansatz of the group to this file (atomically)"), "ANSATZ"),
       with_metavar(text("to", nullptr, "find an isotropy mapping SCHEME onto this scheme instead"), "OTHER"),
       integer("max-order", 4096, 1, 4096, "refuse a group with more elements than this")},
      "SCHEME",
      "TDISC_SYMMETRY_"};
  return t;
}

namespace {

void print_generators(const IsotropyGroup& g) {
  for (size_t k = 0; k < g.generators.size(); ++k) std::cout << "  g" << k << ":" << isotropy_line(g.generators[k]) << "\n";
}

int equivalence(const std::string& path, const Scheme& s, const std::string& other_path) {
  const Scheme other = read_native(other_path);
  const std::optional<Isotropy> g = on_file(other_path, [&] { return isotropy_between(s, other); });
  if (!g) {
    std::cout << path << " → " << other_path << ": no isotropy maps one onto the other (not equivalent)\n";
    return kNoTarget;
  }
  std::cout << path << " → " << other_path << ": equivalent, by" << isotropy_line(*g) << "\n";
  return kOk;
}

// "orbits: 2 of 16 terms (stabiliser order 4) + 4 of 4 terms (stabiliser order 16)", then one line per orbit.
void print_orbits(const SchemeAnsatz& sa, const Scheme& s) {
  const int order = sa.ansatz.group.order();
  std::map<std::pair<int, int>, int> shapes;  // (size, stabiliser order) → orbits
  for (const AnsatzOrbit& o : sa.ansatz.orbits)
    ++shapes[{static_cast<int>(o.map_elements.size()), static_cast<int>(o.stabiliser_elements.size())}];
  std::cout << "orbits:";
  const char* sep = " ";
  for (auto it = shapes.rbegin(); it != shapes.rend(); ++it, sep = " + ")
    std::cout << sep << it->second << " of " << it->first.first << (it->first.first == 1 ? " term" : " terms")
              << " (stabiliser order " << it->first.second << ")";
  std::cout << "\n";
  for (size_t o = 0; o < sa.terms.size(); ++o) {
    const std::vector<int>& terms = sa.terms[o];
    const std::array<int, 3> type = rank_type(s, terms.front());
    std::cout << "  orbit " << o + 1 << ": " << terms.size() << (terms.size() == 1 ? " term" : " terms") << ", stabiliser order "
              << order / static_cast<int>(terms.size()) << ", type (" << type[0] << "," << type[1] << "," << type[2]
              << "), terms";
    for (int t : terms) std::cout << " " << t + 1;
    std::cout << "\n";
  }
}

}  // namespace

int cmd_symmetry(const Args& args) {
  const Table& table = symmetry_table();
  Settings o = parse_options(table, args);
  if (o.help) {
    std::cout << params::help_text(table);
    return kOk;
  }
  if (o.positional().size() != 1) throw UsageError("symmetry: give exactly one SCHEME (see 'tdisc symmetry --help')");
  const std::string path = o.positional()[0];
  const Scheme s = read_native(path);
  if (o.has("to")) {
    if (o.has("out")) throw UsageError("symmetry: --to compares two schemes and writes no ansatz; drop -o");
    return equivalence(path, s, o.text("to"));
  }
  const IsotropyGroup g = on_file(path, [&] { return stabiliser(s, static_cast<int>(o.integer("max-order"))); });
  const SchemeAnsatz sa = scheme_ansatz(s, g);
  std::cout << path << ": " << s.format.str() << " rank " << s.rank() << ", symmetry group of order " << g.order()
            << " (" << g.generators.size() << " generators), " << sa.ansatz.orbits.size() << " orbits\n";
  std::cout << "rank types: " << rank_types(s) << "\n";
  print_generators(g);
  print_orbits(sa, s);
  if (o.has("out")) {
    write_ansatz(o.text("out"), sa.ansatz);
    std::cout << "wrote " << o.text("out") << ": " << sa.ansatz.rank() << " terms in " << sa.ansatz.orbits.size()
              << " orbits, " << sa.ansatz.parameters() << " seed parameters\n";
  }
  return kOk;
}

}  // namespace tdisc::cli
