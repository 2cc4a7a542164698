// The host backend runs the generated recursion itself: results equal the classical product exactly
// on small-integer inputs (1–3 levels, ragged sizes, both layouts, alpha/beta, both leaf modes).
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>

#include "codegen/plan.hpp"
#include "decomposition/formats/formats.hpp"
#include "decomposition/native.hpp"
#include "src/catalog/catalogue.hpp"
#include "tests/codegen/codegen_support.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::test;

TEST_CASE("host backend: Strassen and Winograd, 1-3 levels, merged and recursive stages", "[fast][codegen]") {
  const Scheme s = strassen(), w = winograd();
  std::vector<HostVariant> vs = {
      {{s}, "strassen-L1"},
      {{w}, "winograd-L1"},
      {{s, s}, "strassen-L2-merged"},
      {{s, s}, "strassen-L2-recursive", 0},
      {{w, s, w}, "winograd-strassen-winograd-L3", 49},
      {{s, s, s}, "strassen-L3-recursive", 0},
  };
  CompileRun r = run_host_variants(vs, "fast");
  INFO(r.output);
  REQUIRE(r.code == 0);
  REQUIRE(r.output.find("0 failures") != std::string::npos);
}

TEST_CASE("host backend: rectangular and ½-coefficient schemes, mixed levels", "[fast][codegen]") {
  const Scheme s = strassen();
  const Scheme c232 = classical({2, 3, 2}), c123 = classical({1, 2, 3});
  const Scheme h = halved(s);
  REQUIRE(verify(h, Ring::Q).valid);
  REQUIRE_FALSE(verify(h, Ring::Z).valid);
  std::vector<HostVariant> vs = {
      {{c232}, "classical-2x3x2"},
      {{c123, s}, "classical-1x2x3-over-strassen"},
      {{h}, "strassen-halved-L1"},
      {{h, c232, h}, "halved-2x3x2-halved-L3", 0},
  };
  CompileRun r = run_host_variants(vs, "rect");
  INFO(r.output);
  REQUIRE(r.code == 0);
  REQUIRE(r.output.find("0 failures") != std::string::npos);
}

TEST_CASE("host backend: a wide merged stage (C formed product by product)", "[fast][codegen]") {
  // 2x3x2 classical merged over Strassen: one 4x6x4 stage of rank 84 with 24 A blocks, past the
  // width where the generator forms C product-major and launches scalar kernels (as r48m, 8x8:336).
  const Scheme c232 = classical({2, 3, 2});
  std::vector<HostVariant> vs = {{{c232, strassen()}, "classical-2x3x2-strassen-merged-wide", 84}};
  CompileRun r = run_host_variants(vs, "wide");
  INFO(r.output);
  REQUIRE(r.code == 0);
  REQUIRE(r.output.find("0 failures") != std::string::npos);
}

TEST_CASE("host backend: the rational 4x4x4:48 (¼, ⅛ coefficients) alone, over Strassen (two stages, and merged: r48m) and over itself",
          "[fast][codegen]") {
  // The last is libtdisc_gemm's r48r (16x16:2304 in two stages): ¼·¼ coefficients stay exact.
  const Scheme r48 = read_native(source_path("codegen/schemes/r48-4x4x4-Q.json"));
  REQUIRE(verify(r48, Ring::Q).valid);
  std::vector<HostVariant> vs = {{{r48}, "r48-L1"},
                                 {{r48, strassen()}, "r48-over-strassen-L2", 0},
                                 {{r48, strassen()}, "r48-strassen-merged-level-by-level", 336},
                                 {{r48, r48}, "r48-over-r48-L2", 0}};
  CompileRun r = run_host_variants(vs, "r48");
  INFO(r.output);
  REQUIRE(r.code == 0);
  REQUIRE(r.output.find("0 failures") != std::string::npos);
}

// Every catalogue scheme up to 4x4x4 (the catalogue's native files and the typed-in .exp sources
// under algorithms/sources/) that is valid in characteristic 0 with real coefficients, at 1, 2 and 3
// levels. Every file is read (a file that does not parse fails the test), and the sweep must find
// the classical, Strassen, Laderman and the 4x4x4:48 rational schemes at least.
namespace {

std::vector<std::pair<std::string, Scheme>> catalogue_schemes_up_to_4() {
  const std::string root = source_path("algorithms");
  std::vector<std::pair<std::string, Scheme>> out;
  for (const CatalogueEntry& e : read_catalogue(root)) out.emplace_back(e.relative, read_native(e.path));
  for (const auto& e : std::filesystem::directory_iterator(root + "/sources"))
    if (e.path().extension() == ".exp")
      out.emplace_back("sources/" + e.path().filename().string(), import_scheme("exp", e.path().string()));
  std::erase_if(out, [](const auto& x) {
    const Format f = x.second.format;
    return f.n > 4 || f.m > 4 || f.p > 4;
  });
  return out;
}

bool dyadic(const Scheme& sc) {
  for (const CoeffMatrix* m : {&sc.u, &sc.v, &sc.w})
    for (Eigen::Index i = 0; i < m->size(); ++i) {
      mpz_class d = (*m)(i).denominator();
      if ((d & (d - 1)) != 0) return false;
    }
  return true;
}

}  // namespace

TEST_CASE("host backend: every catalogue scheme up to 4x4x4, 1-3 levels", "[slow][codegen]") {
  const auto schemes = catalogue_schemes_up_to_4();
  REQUIRE(schemes.size() >= 20);  // 27 in 2026-11: 10 classical formats, the named and published ones
  std::vector<HostVariant> vs;
  for (const auto& [name, sc] : schemes) {
    if (!codegen::can_generate({sc}, {codegen::Backend::Host}).ok) continue;  // mod-2 or complex
    const double tol = dyadic(sc) ? 0 : 1e-6;
    vs.push_back({{sc}, name + "-L1", 64, tol});
    vs.push_back({{sc, sc}, name + "-L2", 0, tol});
    vs.push_back({{sc, sc, sc}, name + "-L3", 0, tol});
  }
  for (const char* must :
       {"sources/strassen222-7.exp-L1", "sources/laderman333-23.exp-L1", "4x4x4/r48-Q-2fc8ef12.json-L1"})
    CHECK(std::any_of(vs.begin(), vs.end(), [&](const HostVariant& v) { return v.label == must; }));
  // In batches, so a compile stays small.
  for (size_t from = 0; from < vs.size(); from += 8) {
    std::vector<HostVariant> batch(vs.begin() + static_cast<long>(from),
                                   vs.begin() + static_cast<long>(std::min(vs.size(), from + 8)));
    CompileRun r = run_host_variants(batch, "catalog");
    INFO(r.output);
    REQUIRE(r.code == 0);
    REQUIRE(r.output.find("0 failures") != std::string::npos);
  }
}
