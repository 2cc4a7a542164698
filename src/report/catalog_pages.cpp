// The catalogue as a small static site: an index (our best rank per ring against the best known
// rank, per sorted format, then every file) and a page per scheme (its factors term by term, the
// exact verdict, sparsity, additions, stability factor, provenance, and links to its exports).
#include <algorithm>
#include <filesystem>
#include <set>

#include "decomposition/formats/formats.hpp"
#include "decomposition/native.hpp"
#include "src/catalog/catalogue.hpp"
#include "src/report/html.hpp"
#include "src/report/pages.hpp"
#include "verifier/stats.hpp"
#include "verifier/verify.hpp"

namespace tdisc::report {

namespace {

const std::vector<Ring> kRings = {Ring::ZT, Ring::Z, Ring::Q, Ring::QI, Ring::GF2, Ring::GF3};

std::string page_name(const CatalogueEntry& e) {
  std::string rel = e.relative;
  std::replace(rel.begin(), rel.end(), '/', '_');
  return "schemes/" + rel.substr(0, rel.size() - 5) + ".html";
}

std::string export_extension(const std::string& format) {
  if (format == "native" || format == "perminov-json") return format + ".json";
  if (format == "latex") return "tex";
  if (format == "python") return "py";
  if (format == "maple" || format == "fmm-mpl") return format + ".mpl";
  return format + ".txt";
}

// U_r, V_r, W_r as small matrices side by side, one row per term.
std::string factor_table(const Scheme& s) {
  const Format f = s.format;
  auto matrix = [](const CoeffMatrix& m, int r, int rows, int cols) {
    std::string out = "<code>";
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) out += (j ? " " : "") + escape(m(r, i * cols + j).str());
      out += i + 1 < rows ? "<br>" : "";
    }
    return out + "</code>";
  };
  std::vector<std::vector<std::string>> rows;
  for (int r = 0; r < s.rank(); ++r)
    rows.push_back({std::to_string(r + 1), matrix(s.u, r, f.n, f.m), matrix(s.v, r, f.m, f.p), matrix(s.w, r, f.p, f.n)});
  return table("factors", {"r", "U<sub>r</sub> (n×m)", "V<sub>r</sub> (m×p)", "W<sub>r</sub> (p×n)"}, rows);
}

std::string scheme_page(const CatalogueEntry& e, const Scheme& s, SiteFiles& files) {
  Verdict v = verify(s, s.ring);
  SchemeStats st = scheme_stats(s);
  std::vector<std::vector<std::string>> facts = {
      {"format", escape(s.format.str())}, {"rank", "<span id=\"scheme-rank\">" + std::to_string(s.rank()) + "</span>"},
      {"ring", escape(std::string(ring_name(s.ring)))},
      {"exact verdict", v.valid ? "<span class=\"ok\" id=\"verdict\">valid over " + escape(std::string(ring_name(s.ring))) + "</span>"
                                : "<span class=\"bad\" id=\"verdict\">INVALID: " + escape(v.why_not) + "</span>"},
      {"nonzeros U/V/W", std::to_string(st.nnz_u) + " / " + std::to_string(st.nnz_v) + " / " + std::to_string(st.nnz_w)},
      {"additions (naive)", "<span id=\"additions\">" + std::to_string(st.additions) + "</span>"},
      {"stability factor", "<span id=\"stability\">" + number(st.stability, 6) + "</span>"},
      {"name", escape(e.name)}, {"source", escape(s.provenance.source)}, {"licence", escape(e.licence)},
      {"tool", escape(s.provenance.tool)}, {"method", escape(s.provenance.method)},
      {"seed", s.provenance.seed ? std::to_string(*s.provenance.seed) : "–"}, {"created", escape(s.provenance.created)},
      {"sha256", "<code>" + escape(scheme_sha256(s)) + "</code>"}};
  std::string exports;
  for (const auto& format : export_formats()) {
    try {
      std::string name = "exports/" + e.relative.substr(0, e.relative.size() - 5) + "." + export_extension(format);
      std::replace(name.begin() + 8, name.end(), '/', '_');
      files[name] = export_scheme(format, s);
      exports += "<li>" + link("../" + name, format) + "</li>";
    } catch (const std::exception& ex) {
      exports += "<li class=\"muted\">" + escape(format) + ": " + escape(ex.what()) + "</li>";
    }
  }
  std::string body = section("facts", "Scheme", table("scheme-facts", {"", ""}, facts)) +
                     section("exports", "Exports", "<ul id=\"export-links\">" + exports + "</ul>") +
                     section("terms", "Factors (trace form: C[i][k] = Σ_r W_r[k][i]·⟨U_r,A⟩·⟨V_r,B⟩)", factor_table(s)) +
                     "<p>" + link("../index.html", "← catalogue") + "</p>";
  return page(s.format.str() + " rank " + std::to_string(s.rank()) + " over " + std::string(ring_name(s.ring)),
              e.relative + (e.name.empty() ? "" : " — " + e.name), body);
}

std::string best_cell(const std::vector<CatalogueEntry>& all, Format f, Ring r, int known) {
  CatalogueQuery q{f, true, r};
  auto b = best(all, q);
  if (!b) return "<span class=\"muted\">–</span>";
  std::string cls = known > 0 && b->rank <= known ? "ok" : "";
  return "<a class=\"" + cls + "\" href=\"" + escape(page_name(*b)) + "\">" + std::to_string(b->rank) + "</a>";
}

std::string index_table(const std::vector<CatalogueEntry>& all, const std::map<Format, int>& best_known) {
  std::set<Format> formats;
  for (int n = 2; n <= 5; ++n)
    for (int m = n; m <= 5; ++m)
      for (int p = m; p <= 5; ++p) formats.insert(Format{n, m, p});
  for (const auto& e : all) formats.insert(sorted_format(e.format));
  std::vector<std::string> header = {"format", "best known"};
  for (Ring r : kRings) header.push_back("ours over " + std::string(ring_name(r)));
  std::vector<std::vector<std::string>> rows;
  for (const Format& f : formats) {
    auto it = best_known.find(f);
    int known = it == best_known.end() ? 0 : it->second;
    std::vector<std::string> row = {escape(f.str()), known ? std::to_string(known) : "–"};
    for (Ring r : kRings) row.push_back(best_cell(all, f, r, known));
    rows.push_back(row);
  }
  return table("best-ranks", header, rows);
}

}  // namespace

SiteFiles catalog_pages(const std::string& catalog_dir, const std::map<Format, int>& best_known) {
  SiteFiles files;
  std::vector<CatalogueEntry> all = read_catalogue(catalog_dir);
  std::vector<std::vector<std::string>> listing;
  for (const auto& e : all) {
    Scheme s = read_native(e.path);
    files[page_name(e)] = scheme_page(e, s, files);
    listing.push_back({escape(e.format.str()), std::to_string(e.rank), escape(std::string(ring_name(e.ring))),
                       link(page_name(e), e.relative), escape(e.name)});
  }
  std::string body = section("index", "Best rank per format and ring (green: matches the best known rank)",
                             index_table(all, best_known)) +
                     section("files", "Every catalogued scheme (" + std::to_string(all.size()) + ")",
                             table("scheme-list", {"format", "rank", "ring", "file", "name"}, listing));
  files["index.html"] = page("tdisc catalogue", std::to_string(all.size()) + " verified schemes in " + catalog_dir, body);
  return files;
}

}  // namespace tdisc::report
