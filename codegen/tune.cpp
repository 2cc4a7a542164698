// tdisc tune (see tune.hpp): dlopen libtdisc_gemm, time cuBLAS and each plan × leaf per shape, keep
// the fastest per shape.
#include "codegen/tune.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <tuple>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/error.hpp"
#include "codegen/gemm/include/tdisc/gemm_types.h"
#include "generated/tdisc_version.hpp"

namespace tdisc::codegen {

namespace {

// The part of the C API that tune calls, resolved by name.
struct Library {
  void* so = nullptr;
  tdisc_gemm_status_t (*create)(tdisc_gemm_handle_t*, void*) = nullptr;
  tdisc_gemm_status_t (*destroy)(tdisc_gemm_handle_t) = nullptr;
  tdisc_gemm_status_t (*device)(tdisc_gemm_handle_t, char*, size_t, int*) = nullptr;
  int (*plan_count)(tdisc_gemm_dtype_t) = nullptr;
  const char* (*plan_name)(tdisc_gemm_dtype_t, int) = nullptr;
  tdisc_gemm_status_t (*time)(tdisc_gemm_handle_t, tdisc_gemm_dtype_t, const tdisc_gemm_plan_t*, int64_t, int64_t,
                              int64_t, int, double*) = nullptr;
  tdisc_gemm_status_t (*error)(tdisc_gemm_handle_t, tdisc_gemm_dtype_t, const tdisc_gemm_plan_t*, int64_t, int64_t,
                               int64_t, int, double*, double*) = nullptr;
  const char* (*status_string)(tdisc_gemm_status_t) = nullptr;

  explicit Library(const std::string& path) {
    so = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!so) throw InputError(path, 0, std::string("cannot load libtdisc_gemm: ") + dlerror());
    bind(create, "tdisc_gemm_create", path);
    bind(destroy, "tdisc_gemm_destroy", path);
    bind(device, "tdisc_gemm_device", path);
    bind(plan_count, "tdisc_gemm_plan_count", path);
    bind(plan_name, "tdisc_gemm_plan_name", path);
    bind(time, "tdisc_gemm_time", path);
    bind(error, "tdisc_gemm_error", path);
    bind(status_string, "tdisc_gemm_status_string", path);
  }
  ~Library() {
    if (so) dlclose(so);
  }
  template <class F>
  void bind(F& f, const char* name, const std::string& path) {
    f = reinterpret_cast<F>(dlsym(so, name));
    if (!f) throw InputError(path, 0, std::string("libtdisc_gemm lacks ") + name);
  }
};

std::string shape_text(const TuneShape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}
const char* leaf_name(int leaf) { return leaf == 0 ? "separate" : leaf == 1 ? "batched" : "streams"; }

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace

std::string plan_table_json(const std::string& gpu, int cublas, const std::vector<TuneRow>& rows, double margin,
                            const std::string& command_line) {
  nlohmann::json tables = nlohmann::json::array();
  for (int dtype : {0, 1}) {
    nlohmann::json entries = nlohmann::json::array();
    std::map<std::tuple<long long, long long, long long>, std::vector<const TuneRow*>> by_shape;
    std::vector<std::tuple<long long, long long, long long>> order;
    for (const TuneRow& r : rows)
      if (r.dtype == dtype) {
        auto key = std::make_tuple(r.shape.m, r.shape.n, r.shape.k);
        if (!by_shape.count(key)) order.push_back(key);
        by_shape[key].push_back(&r);
      }
    for (const auto& key : order)
      for (bool emulated : {false, true}) {
        const TuneRow* base = nullptr;
        const TuneRow* best = nullptr;
        for (const TuneRow* r : by_shape[key]) {
          if (r->plan == "cublas") base = r;
          else if ((r->moduli > 0) == emulated && (!best || r->ms < best->ms)) best = r;
        }
        if (!base || (emulated && !best)) continue;
        const bool ours = best && base->ms / best->ms > 1 + margin;
        const TuneRow* win = ours ? best : base;
        nlohmann::json entry = {{"m", std::get<0>(key)},
                                {"n", std::get<1>(key)},
                                {"k", std::get<2>(key)},
                                {"plan", win->plan},
                                {"leaf", leaf_name(win->leaf)},
                                {"speedup", std::round(base->ms / win->ms * 1000) / 1000},
                                {"cublas_ms", base->ms},
                                {"ms", win->ms}};
        if (emulated) {
          entry["accuracy"] = "emulated";
          if (win->moduli > 0) entry["moduli"] = win->moduli, entry["error_vs_cublas"] = win->error_ratio;
        }
        entries.push_back(entry);
      }
    if (!entries.empty())
      tables.push_back({{"gpu", gpu}, {"cublas", cublas}, {"dtype", dtype ? "f64" : "f32"}, {"entries", entries}});
  }
  nlohmann::json doc = {{"format", "tdisc-gemm-plans"}, {"version", 1},          {"tool", TDISC_TOOL},
                        {"date", utc_now()},            {"command", command_line}, {"margin", margin},
                        {"tables", tables}};
  return doc.dump(1) + "\n";
}

namespace {

// The fewest moduli (from `moduli`, ascending) whose Ozaki-II error is at most cuBLAS's on uniform and on
// wide-range inputs at this shape (every scheme level gives the same bits, so oz2 decides for all);
// 0 when none does. *ratio: that count's worse error ratio.
int accurate_moduli(const Library& lib, tdisc_gemm_handle_t h, tdisc_gemm_dtype_t dt, const TuneShape& s,
                    const std::vector<int>& moduli, double* ratio,
                    const std::function<void(const std::string&)>& progress) {
  for (int q : moduli) {
    tdisc_gemm_plan_t p{};
    std::snprintf(p.name, sizeof p.name, "oz2");
    p.moduli = q;
    double worst = 0;
    for (int wide : {0, 1}) {
      double err = 0, cub = 0;
      const tdisc_gemm_status_t st = lib.error(h, dt, &p, s.m, s.n, s.k, wide, &err, &cub);
      if (st != TDISC_GEMM_SUCCESS) {
        progress(shape_text(s) + " oz2 " + std::to_string(q) + " moduli: " + lib.status_string(st));
        return 0;
      }
      worst = std::max(worst, err / cub);
    }
    std::ostringstream line;
    line << (dt == TDISC_GEMM_F64 ? "f64 " : "f32 ") << shape_text(s) << " oz2 " << q << " moduli: error " << worst
         << "x cuBLAS's (worse of uniform and wide)";
    progress(line.str());
    if (worst <= 1) return *ratio = worst, q;
  }
  return 0;
}

// The moduli counts to try, ascending: the given ones, else 12..20 for f64 and 5..12 for f32.
std::vector<int> moduli_to_try(const TuneSetup& setup, int dtype) {
  std::vector<int> q = setup.moduli;
  if (q.empty())
    for (int n = dtype ? 12 : 5; n <= (dtype ? 20 : 12); ++n) q.push_back(n);
  std::sort(q.begin(), q.end());
  return q;
}

}  // namespace

TuneResult tune(const TuneSetup& setup, const std::function<void(const std::string&)>& progress) {
  Library lib(setup.library);
  tdisc_gemm_handle_t h = nullptr;
  if (tdisc_gemm_status_t s = lib.create(&h, nullptr); s != TDISC_GEMM_SUCCESS)
    throw InputError(setup.library, 0, std::string("tdisc_gemm_create: ") + lib.status_string(s) + " (no GPU?)");
  TuneResult out;
  char gpu[128] = {0};
  lib.device(h, gpu, sizeof gpu, &out.cublas);
  out.gpu = gpu;
  for (int dtype : setup.dtypes) {
    const auto dt = static_cast<tdisc_gemm_dtype_t>(dtype);
    for (const TuneShape& s : setup.shapes) {
      std::vector<tdisc_gemm_plan_t> candidates(1);
      std::snprintf(candidates[0].name, sizeof candidates[0].name, "cublas");
      for (int i = 0; i < lib.plan_count(dt); ++i)
        for (int leaf : setup.leaves) {
          tdisc_gemm_plan_t p{};
          std::snprintf(p.name, sizeof p.name, "%s", lib.plan_name(dt, i));
          p.leaf = leaf;
          candidates.push_back(p);
        }
      double ratio = 0;
      const int moduli = setup.emulated.empty() ? 0 : accurate_moduli(lib, h, dt, s, moduli_to_try(setup, dtype), &ratio, progress);
      for (const std::string& name : moduli ? setup.emulated : std::vector<std::string>{}) {
        tdisc_gemm_plan_t p{};
        std::snprintf(p.name, sizeof p.name, "%s", name.c_str());
        p.moduli = moduli;
        candidates.push_back(p);
      }
      for (const tdisc_gemm_plan_t& p : candidates) {
        double ms = 0;
        const tdisc_gemm_status_t st = lib.time(h, dt, &p, s.m, s.n, s.k, setup.reps, &ms);
        std::ostringstream line;
        line << (dtype ? "f64 " : "f32 ") << shape_text(s) << " " << p.name << " "
             << (p.moduli ? std::to_string(p.moduli) + " moduli" : leaf_name(p.leaf)) << ": ";
        if (st == TDISC_GEMM_NOT_FOUND) {
          progress(line.str() + "skipped (workspace over the limit)");
          continue;
        }
        if (st != TDISC_GEMM_SUCCESS) {
          lib.destroy(h);
          throw InputError(setup.library, 0, line.str() + lib.status_string(st));
        }
        out.rows.push_back({dtype, s, p.name, p.leaf, ms, p.moduli, p.moduli ? ratio : 0});
        line << ms << " ms";
        progress(line.str());
      }
    }
  }
  lib.destroy(h);
  out.table_json = plan_table_json(out.gpu, out.cublas, out.rows, 0.02, setup.command_line);
  return out;
}

}  // namespace tdisc::codegen
