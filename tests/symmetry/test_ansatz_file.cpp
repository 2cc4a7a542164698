// The ansatz file (tdisc-ansatz v1): written and read back with the same group and orbits, and refused
// with FILE:LINE when malformed or when an orbit does not fit the group its generators give.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <regex>

#include "base/error.hpp"
#include "decomposition/formats/ansatz_file.hpp"
#include "decomposition/native.hpp"
#include "decomposition/scheme_ansatz.hpp"
#include "decomposition/stabiliser.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;

namespace {

const SchemeAnsatz& strassen_ansatz() {
  static const SchemeAnsatz sa = [] {
    const Scheme s = test::strassen();
    return scheme_ansatz(s, stabiliser(s));
  }();
  return sa;
}

// The error of parsing `text`, "" when it parses.
std::string refusal(const std::string& text) {
  try {
    parse_ansatz(text, "bad.json");
  } catch (const InputError& e) {
    return e.located();
  }
  return "";
}

}  // namespace

TEST_CASE("an ansatz file round-trips: group, orbits, maps, stabilisers and bases", "[fast][symmetry]") {
  const Ansatz& a = strassen_ansatz().ansatz;
  const std::string dir = test::temp_dir("ansatz-file");
  const std::string path = dir + "/strassen.json";
  write_ansatz(path, a);
  const Ansatz b = read_ansatz(path);
  CHECK(b.format == a.format);
  CHECK(b.name == a.name);
  CHECK(b.group.order() == a.group.order());
  REQUIRE(b.orbits.size() == a.orbits.size());
  for (size_t o = 0; o < a.orbits.size(); ++o) {
    CHECK(b.orbits[o].map_elements.size() == a.orbits[o].map_elements.size());
    CHECK(b.orbits[o].stabiliser_elements.size() == a.orbits[o].stabiliser_elements.size());
    CHECK(b.orbits[o].basis == a.orbits[o].basis);
  }
  CHECK(ansatz_text(b) == ansatz_text(a));  // the regenerated group keeps the generators' words
  // The file alone rebuilds Strassen from the representatives' seeds.
  const Scheme back = expand(b, strassen_ansatz().seeds);
  CHECK(verify(back, Ring::Q).valid);
  CHECK(same_tensor_set(back, test::strassen()));
}

TEST_CASE("a malformed ansatz file is refused with its file and line", "[fast][symmetry]") {
  const std::string good = ansatz_text(strassen_ansatz().ansatz);
  REQUIRE(refusal(good).empty());
  const nlohmann::json j = nlohmann::json::parse(good);
  REQUIRE(j["orbits"].size() == 2);  // Strassen: the fixed term 1, and the orbit of the other six
  auto mutated = [&](auto&& change) {
    nlohmann::json k = j;
    change(k);
    return k.dump(1);
  };
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"not JSON", good.substr(0, good.size() / 2), "invalid JSON"},
      {"another format", mutated([](auto& k) { k["format"] = "tdisc-scheme"; }), "not a tdisc-ansatz file"},
      {"version 2", mutated([](auto& k) { k["version"] = 2; }), "version 2"},
      {"a wrong order", mutated([](auto& k) { k["order"] = 35; }), "order of the group"},
      {"a singular sandwich", mutated([](auto& k) { k["generators"][0]["P"][1] = k["generators"][0]["P"][0]; }), "singular"},
      {"an unknown generator", mutated([](auto& k) { k["orbits"][1]["maps"][1] = {9}; }), "not a generator index"},
      {"the first map not the identity",
       mutated([](auto& k) { std::swap(k["orbits"][1]["maps"][0], k["orbits"][1]["maps"][1]); }), "identity"},
      {"two maps in one coset", mutated([](auto& k) { k["orbits"][1]["maps"][2] = k["orbits"][1]["maps"][1]; }),
       "same coset"},
      {"a basis not fixed by the stabiliser", mutated([](auto& k) { k["orbits"][0]["basis"][0][11] = "2"; }),
       "does not fix the basis"},
      {"a short basis row", mutated([](auto& k) { k["orbits"][0]["basis"][0].erase(0); }), "coefficients"},
  };
  const std::regex located(R"(^bad\.json:\d+: .+)");
  for (const auto& [what, text, says] : cases) {
    INFO(what);
    const std::string why = refusal(text);
    CHECK(std::regex_match(why, located));
    CHECK(why.find(says) != std::string::npos);
  }
}

TEST_CASE("the catalogue's ansatz of the rational 4x4:48 is what tdisc symmetry writes", "[fast][symmetry]") {
  const Scheme s = read_native(test::source_path("algorithms/4x4x4/r48-Q-2fc8ef12.json"));
  const SchemeAnsatz sa = scheme_ansatz(s, stabiliser(s));
  const Ansatz filed = read_ansatz(test::source_path("algorithms/ansatz/4x4x4-r48-Q-2fc8ef12.json"));
  CHECK(filed.group.order() == 64);
  CHECK(filed.rank() == 48);
  CHECK(ansatz_text(filed) == ansatz_text(sa.ansatz));
  const Scheme back = expand(filed, sa.seeds);
  CHECK(same_tensor_set(back, s));
  CHECK(verify(back, Ring::Q).valid);
}
