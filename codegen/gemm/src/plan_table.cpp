// Plan tables, plan choice and workspace policy (see plan_table.hpp).
#include "plan_table.hpp"

#include <algorithm>
#include <cmath>

#include "json_lite.hpp"

namespace tdisc_gemm {

namespace {

bool read_entry(const Json& e, Entry& out) {
  const Json *m = e.get("m"), *n = e.get("n"), *k = e.get("k"), *plan = e.get("plan");
  if (!m || !n || !k || !plan || m->kind != Json::Number || n->kind != Json::Number || k->kind != Json::Number ||
      plan->kind != Json::String || m->number < 1 || n->number < 1 || k->number < 1)
    return false;
  out.m = static_cast<i64>(m->number), out.n = static_cast<i64>(n->number), out.k = static_cast<i64>(k->number);
  out.plan = plan->text;
  const Json* leaf = e.get("leaf");
  if (leaf && leaf->kind == Json::String) {
    if (leaf->text == "separate") out.leaf = 0;
    else if (leaf->text == "batched") out.leaf = 1;
    else if (leaf->text == "streams") out.leaf = 2;
    else return false;
  }
  if (const Json* s = e.get("speedup"); s && s->kind == Json::Number) out.speedup = s->number;
  if (const Json* q = e.get("moduli"); q && q->kind == Json::Number) {
    if (q->number < 0 || q->number > 64) return false;
    out.moduli = static_cast<int>(q->number);
  }
  out.emulated = emulated_plan(out.plan);
  if (const Json* a = e.get("accuracy"); a) {
    if (a->kind != Json::String || (a->text != "emulated" && a->text != "native")) return false;
    if (a->text == "native" && out.emulated) return false;
    out.emulated = a->text == "emulated";
  }
  return true;
}

}  // namespace

TableSet parse_tables(const std::string& json) {
  TableSet set;
  JsonParse p = parse_json(json);
  if (!p.error.empty()) return set.error = p.error, set;
  const Json* format = p.value.get("format");
  const Json* tables = p.value.get("tables");
  if (!format || format->text != "tdisc-gemm-plans") return set.error = "not a tdisc-gemm-plans file", set;
  if (!tables || tables->kind != Json::Array) return set.error = "no \"tables\" array", set;
  for (size_t t = 0; t < tables->items.size(); ++t) {
    const Json& j = tables->items[t];
    const std::string where = "table " + std::to_string(t) + ": ";
    Table table;
    const Json *gpu = j.get("gpu"), *cublas = j.get("cublas"), *dtype = j.get("dtype"), *entries = j.get("entries");
    if (!gpu || gpu->kind != Json::String) return set.error = where + "no \"gpu\"", set;
    if (!dtype || (dtype->text != "f32" && dtype->text != "f64")) return set.error = where + "dtype not f32 or f64", set;
    if (!entries || entries->kind != Json::Array) return set.error = where + "no \"entries\"", set;
    table.gpu = gpu->text;
    table.cublas = cublas && cublas->kind == Json::Number ? static_cast<int>(cublas->number) : 0;
    table.dtype = dtype->text == "f64";
    for (size_t e = 0; e < entries->items.size(); ++e) {
      Entry entry;
      if (!read_entry(entries->items[e], entry))
        return set.error = where + "entry " + std::to_string(e) + " malformed (m, n, k ≥ 1, plan, leaf, moduli, accuracy)", set;
      table.entries.push_back(entry);
    }
    set.tables.push_back(table);
  }
  return set;
}

const Table* find_table(const TableSet& set, const std::string& gpu, int cublas, int dtype) {
  const Table* same_gpu = nullptr;
  const Table* any = nullptr;
  for (const Table& t : set.tables) {
    if (t.dtype != dtype) continue;
    if (t.gpu == gpu && t.cublas == cublas) return &t;
    if (t.gpu == gpu && !same_gpu) same_gpu = &t;
    if (!any) any = &t;
  }
  return same_gpu ? same_gpu : any;
}

bool emulated_plan(const std::string& plan) { return plan.rfind("oz2", 0) == 0; }

Entry select_entry(const Table* table, i64 m, i64 n, i64 k, bool emulated) {
  Entry fallback;
  fallback.m = m, fallback.n = n, fallback.k = k, fallback.plan = "cublas";
  if (!table) return fallback;
  const double lm = std::log2((double)m), ln = std::log2((double)n), lk = std::log2((double)k);
  const Entry* best = nullptr;
  double best_d = 0;
  for (const Entry& e : table->entries) {
    if (e.emulated != emulated) continue;
    // A scheme's advantage grows with every dimension, so only shapes no larger than the query (up to
    // 25 %) vouch for it: a plan measured to win at a larger shape may lose at a smaller one.
    if (e.m > 1.25 * (double)m || e.n > 1.25 * (double)n || e.k > 1.25 * (double)k) continue;
    const double dm = lm - std::log2((double)e.m), dn = ln - std::log2((double)e.n), dk = lk - std::log2((double)e.k);
    const double d = dm * dm + dn * dn + dk * dk;
    if (!best || d < best_d) best = &e, best_d = d;
  }
  return best ? *best : fallback;
}

size_t copy_bytes(i64 rows, i64 cols, size_t element) {
  return ((size_t)rows * (size_t)cols * element + 255) / 256 * 256;
}

size_t operand_bytes(i64 m, i64 n, i64 k, size_t element) {
  const i64 big = std::max(m * k, std::max(k * n, m * n));
  return (size_t)big * element;
}

Schedule choose_schedule(WorkspaceFn ws, i64 m, i64 n, i64 k, int leaf, int last_rank, size_t extra, size_t limit,
                         bool allow_lean, bool explain) {
  Schedule s;
  s.extra_bytes = extra;
  const size_t full = ws(m, n, k, leaf, 0);
  if (full + extra <= limit) {
    s.fits = true, s.plan_bytes = full;
    if (explain) s.why = "write-once schedule fits the workspace limit";
    return s;
  }
  for (int g = allow_lean ? last_rank : 0; g >= 1; g = g > 8 ? g / 2 : g - 1) {
    const size_t lean = ws(m, n, k, leaf, g);
    if (lean + extra <= limit) {
      s.fits = true, s.group = g, s.plan_bytes = lean;
      if (explain)
        s.why = "lean schedule, " + std::to_string(g) + " product(s) at a time: the write-once one needs " +
              std::to_string(full + extra) + " bytes, over the limit";
      return s;
    }
  }
  if (explain)
    s.why = allow_lean ? "workspace limit " + std::to_string(limit) + " bytes is below the lean schedule's " +
                             std::to_string(ws(m, n, k, leaf, 1) + extra) + ": cuBLAS"
                       : "write-once schedule needs " + std::to_string(full + extra) + " bytes, over the limit " +
                             std::to_string(limit) + " (lean not allowed): cuBLAS";
  return s;
}

}  // namespace tdisc_gemm
