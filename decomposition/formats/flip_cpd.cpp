// flip-cpd straight-line text (khoruzhii/flip-cpd data/schemes_paper/): "m1 = (a5 - a8 + a9)(b5 - b6)"
// then "c1 = m7 + m9 - …", 1-based flat indices; C orientation (c index i·p+k), converted to trace.
#include <sstream>

#include "base/error.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/readers.hpp"

namespace tdisc::fmt {

ImportedScheme read_flip_cpd(const std::string& path, const std::string& text, const ImportOptions& opt) {
  NameHints hints = name_hints(path);
  std::optional<Format> f = chosen_dims(hints, opt);
  if (!f) throw InputError(path, 0, "flip-cpd files do not state their dimensions: give --dims n,m,p");
  ProductLines pl;
  std::istringstream in(text);
  std::string l;
  for (int line = 1; std::getline(in, l); ++line) {
    size_t first = l.find_first_not_of(" \t\r");
    if (first == std::string::npos || l[first] == '#') continue;
    size_t eq = l.find('=');
    if (eq == std::string::npos) throw InputError(path, line, "expected \"mK = (…)(…)\" or \"cK = …\"");
    std::string name = l.substr(first, eq - first);
    name.erase(name.find_last_not_of(" \t") + 1);
    if (!name.empty() && name[0] == 'm') {
      if (name != "m" + std::to_string(pl.products.size() + 1))
        throw InputError(path, line, "products must be numbered m1, m2, … in order; found " + name);
      pl.products.push_back(l.substr(eq + 1));
      pl.product_lines.push_back(line);
    } else {
      pl.outputs.emplace_back(name, l.substr(eq + 1));
      pl.output_lines.push_back(line);
    }
  }
  if (pl.products.empty()) throw InputError(path, 0, "no products mK = … found");
  if (static_cast<int>(pl.outputs.size()) != f->n * f->p)
    throw InputError(path, 0, std::to_string(pl.outputs.size()) + " outputs cK found but " + f->str() + " has " +
                                  std::to_string(f->n * f->p) + " entries of C (truncated file or wrong dimensions?)");
  ImportedScheme im = scheme_from_products(path, pl, *f, true);
  if (hints.rank && *hints.rank != im.scheme.rank())
    im.notes.push_back("the file name says rank " + std::to_string(*hints.rank) + " but the file holds " +
                       std::to_string(im.scheme.rank()) + " products");
  return im;
}

}  // namespace tdisc::fmt
