// libtdisc_gemm's plan logic on the host (codegen/gemm/src/plan_table.cpp, compiled in here as it is
// into the library): reading plan tables, choosing the table and the entry, the workspace policy.
#include <catch2/catch.hpp>

#include "codegen/gemm/src/json_lite.hpp"
#include "codegen/gemm/src/plan_table.hpp"
#include "codegen/tune.hpp"

using namespace tdisc_gemm;

namespace {

const char* kTables = R"({"format": "tdisc-gemm-plans", "version": 1, "tables": [
  {"gpu": "GPU A", "cublas": 120000, "dtype": "f32", "entries": [
    {"m": 1024, "n": 1024, "k": 1024, "plan": "cublas", "leaf": "separate", "speedup": 1},
    {"m": 8192, "n": 8192, "k": 8192, "plan": "s2", "leaf": "batched", "speedup": 1.2},
    {"m": 32768, "n": 32768, "k": 32768, "plan": "r48s", "leaf": "streams", "speedup": 1.45},
    {"m": 32768, "n": 1024, "k": 1024, "plan": "cublas"}]},
  {"gpu": "GPU A", "cublas": 130000, "dtype": "f32", "entries": [{"m": 4096, "n": 4096, "k": 4096, "plan": "s1"}]},
  {"gpu": "GPU B", "cublas": 130000, "dtype": "f64", "entries": [{"m": 4096, "n": 4096, "k": 4096, "plan": "r48"}]}]})";

// Workspace of a pretend plan: write-once 1000 bytes; lean 100 + 10 per product in the group.
size_t pretend_ws(i64, i64, i64, int, int group) { return group == 0 ? 1000 : 100 + 10 * (size_t)group; }

}  // namespace

TEST_CASE("json_lite reads what the plan tables use and reports where it fails", "[fast][gemm]") {
  JsonParse p = parse_json(R"({"a": [1, -2.5e3, "x\"y"], "b": {"c": true, "d": null}})");
  REQUIRE(p.error.empty());
  REQUIRE(p.value.get("a")->items.size() == 3);
  CHECK(p.value.get("a")->items[1].number == -2500);
  CHECK(p.value.get("a")->items[2].text == "x\"y");
  CHECK(p.value.get("b")->get("c")->kind == Json::Bool);
  CHECK(parse_json("{\"a\": [1, 2}").error.find("offset 11") != std::string::npos);
  CHECK(!parse_json("{} x").error.empty());
  CHECK(!parse_json("\"open").error.empty());
}

TEST_CASE("plan tables parse, and malformed ones are refused with the table and entry named", "[fast][gemm]") {
  TableSet set = parse_tables(kTables);
  REQUIRE(set.error.empty());
  REQUIRE(set.tables.size() == 3);
  CHECK(set.tables[0].entries[1].plan == "s2");
  CHECK(set.tables[0].entries[1].leaf == 1);
  CHECK(set.tables[0].entries[2].leaf == 2);
  CHECK(set.tables[2].dtype == 1);
  CHECK(parse_tables(R"({"format": "other", "tables": []})").error == "not a tdisc-gemm-plans file");
  CHECK(parse_tables(R"({"format": "tdisc-gemm-plans", "tables": [{"gpu": "g", "dtype": "f16", "entries": []}]})")
            .error.find("table 0") != std::string::npos);
  CHECK(parse_tables(R"({"format": "tdisc-gemm-plans", "tables": [{"gpu": "g", "dtype": "f32", "entries": [
            {"m": 0, "n": 1, "k": 1, "plan": "s1"}]}]})")
            .error.find("entry 0") != std::string::npos);
  CHECK(parse_tables(R"({"format": "tdisc-gemm-plans", "tables": [{"gpu": "g", "dtype": "f32", "entries": [
            {"m": 1, "n": 1, "k": 1, "plan": "s1", "leaf": "sideways"}]}]})")
            .error.find("entry 0") != std::string::npos);
}

TEST_CASE("the table of this GPU and cuBLAS first, then this GPU, then any of the dtype", "[fast][gemm]") {
  TableSet set = parse_tables(kTables);
  CHECK(find_table(set, "GPU A", 130000, 0) == &set.tables[1]);
  CHECK(find_table(set, "GPU A", 120000, 0) == &set.tables[0]);
  CHECK(find_table(set, "GPU A", 110000, 0) == &set.tables[0]);
  CHECK(find_table(set, "GPU C", 130000, 1) == &set.tables[2]);
  CHECK(find_table(set, "GPU C", 130000, 0) == &set.tables[0]);
  TableSet only_f32 = parse_tables(R"({"format": "tdisc-gemm-plans", "tables": [{"gpu": "g", "dtype": "f32", "entries": []}]})");
  CHECK(find_table(only_f32, "g", 0, 1) == nullptr);
}

TEST_CASE("the nearest tuned shape no larger than the call decides; none such is cuBLAS", "[fast][gemm]") {
  TableSet set = parse_tables(kTables);
  const Table* t = &set.tables[0];
  CHECK(select_entry(t, 8192, 8192, 8192).plan == "s2");
  CHECK(select_entry(t, 10000, 7000, 9000).plan == "s2");
  CHECK(select_entry(t, 30000, 30000, 40000).plan == "r48s");
  CHECK(select_entry(t, 1500, 1500, 1500).plan == "cublas");
  CHECK(select_entry(t, 30000, 1000, 1200).plan == "cublas");  // tall and skinny: its own entry
  CHECK(select_entry(t, 64, 64, 64).plan == "cublas");         // below every tuned shape
  CHECK(select_entry(t, 8192, 8192, 5000).plan == "cublas");   // s2 won at k = 8192, not shown for k = 5000
  CHECK(select_entry(t, 8192, 8192, 6600).plan == "s2");       // within 25 % of the tuned k
  CHECK(select_entry(nullptr, 8192, 8192, 8192).plan == "cublas");
}

TEST_CASE("workspace policy: write-once, else (when allowed) the largest lean group that fits, else cuBLAS", "[fast][gemm]") {
  Schedule s = choose_schedule(pretend_ws, 8, 8, 8, 0, 48, 0, 1000, true);
  CHECK(s.fits);
  CHECK(s.group == 0);
  CHECK(s.plan_bytes == 1000);
  s = choose_schedule(pretend_ws, 8, 8, 8, 0, 48, 50, 1000, true);  // transposed copies push it over
  CHECK(s.fits);
  CHECK(s.group == 48);
  CHECK(s.plan_bytes == 580);
  s = choose_schedule(pretend_ws, 8, 8, 8, 0, 48, 0, 300, true);
  CHECK(s.group == 12);  // 48, 24, 12: the largest on the ladder with 100 + 10·g ≤ 300
  s = choose_schedule(pretend_ws, 8, 8, 8, 0, 7, 0, 135, true);
  CHECK(s.group == 3);
  s = choose_schedule(pretend_ws, 8, 8, 8, 0, 7, 0, 109, true);
  CHECK_FALSE(s.fits);
  CHECK(s.why.find("cuBLAS") != std::string::npos);
  s = choose_schedule(pretend_ws, 8, 8, 8, 0, 48, 0, 999, false);  // lean not allowed: cuBLAS
  CHECK_FALSE(s.fits);
  CHECK(s.why.find("lean not allowed") != std::string::npos);
  s = choose_schedule(pretend_ws, 8, 8, 8, 0, 48, 0, 300, true, false);
  CHECK(s.group == 12);
  CHECK(s.why.empty());
  CHECK(copy_bytes(3, 5, 8) == 256);
  CHECK(operand_bytes(10, 20, 30, 4) == 2400);
}

TEST_CASE("emulated entries share a table but are chosen only among themselves", "[fast][gemm]") {
  const char* mixed = R"({"format": "tdisc-gemm-plans", "version": 1, "tables": [
    {"gpu": "GPU A", "cublas": 1, "dtype": "f64", "entries": [
      {"m": 4096, "n": 4096, "k": 4096, "plan": "cublas"},
      {"m": 8192, "n": 8192, "k": 8192, "plan": "r48", "leaf": "batched", "speedup": 1.3},
      {"m": 8192, "n": 8192, "k": 8192, "plan": "oz2", "moduli": 15, "speedup": 1.4},
      {"m": 16384, "n": 16384, "k": 16384, "plan": "oz2-s1", "speedup": 1.5}]}]})";
  TableSet set = parse_tables(mixed);
  REQUIRE(set.error.empty());
  const Table* t = find_table(set, "GPU A", 1, 1);
  REQUIRE(t);
  CHECK(emulated_plan("oz2-r48"));
  CHECK(!emulated_plan("r48"));
  // Native callers never see an emulated entry, even the nearest.
  CHECK(select_entry(t, 8192, 8192, 8192).plan == "r48");
  CHECK(select_entry(t, 20000, 20000, 20000).plan == "r48");
  const Entry e = select_entry(t, 8192, 8192, 8192, true);
  CHECK(e.plan == "oz2");
  CHECK(e.moduli == 15);
  CHECK(select_entry(t, 20000, 20000, 20000, true).plan == "oz2-s1");
  CHECK(select_entry(t, 20000, 20000, 20000, true).moduli == 0);
  CHECK(select_entry(t, 4096, 4096, 4096, true).plan == "cublas");  // no emulated entry that small
  CHECK(!parse_tables(R"({"format": "tdisc-gemm-plans", "tables": [{"gpu": "x", "dtype": "f64", "entries": [
    {"m": 1, "n": 1, "k": 1, "plan": "oz2", "moduli": -1}]}]})").error.empty());
}

TEST_CASE("a tuned emulated-side cuBLAS entry is chosen with emulation allowed, never by native callers",
          "[fast][gemm]") {
  const char* tuned = R"({"format": "tdisc-gemm-plans", "version": 1, "tables": [
    {"gpu": "GPU A", "cublas": 1, "dtype": "f64", "entries": [
      {"m": 4096, "n": 4096, "k": 4096, "plan": "r48", "leaf": "batched", "speedup": 1.1},
      {"m": 4096, "n": 4096, "k": 4096, "plan": "cublas", "accuracy": "emulated", "speedup": 1},
      {"m": 16384, "n": 16384, "k": 16384, "plan": "oz2-r48", "moduli": 15, "accuracy": "emulated"}]}]})";
  TableSet set = parse_tables(tuned);
  REQUIRE(set.error.empty());
  const Table* t = find_table(set, "GPU A", 1, 1);
  REQUIRE(t);
  const Entry small = select_entry(t, 4096, 4096, 4096, true);
  CHECK(small.plan == "cublas");
  CHECK(small.emulated);
  CHECK(select_entry(t, 4096, 4096, 4096).plan == "r48");
  CHECK(select_entry(t, 16384, 16384, 16384, true).plan == "oz2-r48");
  CHECK(select_entry(t, 16384, 16384, 16384).plan == "r48");
  // An accuracy other than native or emulated, or an emulated plan marked native, is refused.
  for (const char* bad : {R"("plan": "cublas", "accuracy": "exact")", R"("plan": "oz2", "accuracy": "native")",
                          R"("plan": "s1", "accuracy": 1)"}) {
    const std::string doc = std::string(R"({"format": "tdisc-gemm-plans", "tables": [{"gpu": "x", "dtype": "f64", )") +
                            R"("entries": [{"m": 1, "n": 1, "k": 1, )" + bad + "}]}]}";
    INFO(doc);
    CHECK(parse_tables(doc).error.find("entry 0 malformed") != std::string::npos);
  }
}

TEST_CASE("tune's table: per shape a native entry and, where emulated plans were timed, an emulated one",
          "[fast][gemm]") {
  using tdisc::codegen::TuneRow;
  const tdisc::codegen::TuneShape big{16384, 16384, 16384}, small{4096, 4096, 4096};
  const std::vector<TuneRow> rows = {
      {1, big, "cublas", 0, 160.0},         {1, big, "r48", 1, 120.0},
      {1, big, "oz2", 0, 150.0, 15, 0.29},  {1, big, "oz2-r48", 0, 130.0, 15, 0.29},
      {1, small, "cublas", 0, 2.3},         {1, small, "s1", 0, 2.4},
      {1, small, "oz2", 0, 3.7, 15, 0.22}};
  const TableSet set = parse_tables(tdisc::codegen::plan_table_json("GPU A", 1, rows, 0.02, "tdisc tune"));
  REQUIRE(set.error.empty());
  const Table* t = find_table(set, "GPU A", 1, 1);
  REQUIRE(t);
  CHECK(t->entries.size() == 4);
  CHECK(select_entry(t, 16384, 16384, 16384).plan == "r48");  // the native choice ignores emulated rows
  const Entry e = select_entry(t, 16384, 16384, 16384, true);
  CHECK(e.plan == "oz2-r48");
  CHECK(e.moduli == 15);
  CHECK(e.speedup == Approx(160.0 / 130.0).epsilon(1e-3));
  CHECK(select_entry(t, 4096, 4096, 4096).plan == "cublas");  // s1 is slower
  const Entry slow = select_entry(t, 4096, 4096, 4096, true);  // cuBLAS beats the emulation there: said so
  CHECK(slow.plan == "cublas");
  CHECK(slow.emulated);
}
