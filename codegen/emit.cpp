// Assembles a generated source: banner, runtime, stage kernels and tables (last stage first, so that
// each stage's Next is complete), and the API; or, thin, the banner and the stages alone.
#include "codegen/emit.hpp"

#include <sstream>

#include "codegen/emit_forms.hpp"
#include "decomposition/formats/escape.hpp"

namespace tdisc::codegen {

namespace {

Dialect dialect(Backend b) {
  if (b == Backend::Cuda)
    return {[](const std::string& p) { return "ldp<VEC>(" + p + ")"; },
            [](const std::string& p, const std::string& v) { return "stp<VEC>(" + p + ", " + v + ")"; }, "P"};
  return {[](const std::string& p) { return "*(" + p + ")"; },
          [](const std::string& p, const std::string& v) { return "*(" + p + ") = " + v; }, "T"};
}

std::string int_list(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

// Kernel (CUDA) or loop (host) around a straight-line body; flag is ALL or BETA.
std::string kernel(Backend b, const std::string& name, const std::string& flag, int ns, int nd,
                   const std::string& body) {
  std::ostringstream out;
  const std::string args = "FormArgs<" + std::to_string(ns) + ", " + std::to_string(nd) + ">";
  if (b == Backend::Cuda) {
    out << "template <int VEC, bool " << flag << ">\n__global__ void __launch_bounds__(256) " << name << "(const "
        << args << " f) {\n"
        << "  typedef Pack<VEC> P;\n"
        << "  const i64 iv = f.inner / VEC, total = iv * f.outer;\n"
        << "  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += (i64)gridDim.x * blockDim.x) {\n"
        << "    const i64 y = t / iv, x = (t - y * iv) * VEC;\n"
        << "    const i64 os = y * f.lds + x, od = y * f.ldd + x;\n"
        << "    (void)os;\n"
        << body << "  }\n}\n\n";
  } else {
    out << "template <int VEC, bool " << flag << ">\nstatic void " << name << "(const " << args << "& f) {\n"
        << "  for (i64 y = 0; y < f.outer; ++y)\n"
        << "  for (i64 x = 0; x < f.inner; ++x) {\n"
        << "    const i64 os = y * f.lds + x, od = y * f.ldd + x;\n"
        << "    (void)os;\n"
        << body << "  }\n}\n\n";
  }
  return out.str();
}

std::vector<int> sources_of(const std::vector<Operand>& ops) {
  std::vector<int> v;
  for (const Operand& op : ops) v.push_back(op.source);
  return v;
}
std::vector<int> slots_of(const std::vector<Operand>& ops) {
  std::vector<int> v;
  for (const Operand& op : ops) v.push_back(op.slot);
  return v;
}

// Flattened linear forms for the lean schedule: begin offsets, variables, coefficients (a sentinel
// entry at the end keeps every array non-empty).
std::string forms_table(const std::string& name, const std::vector<LinearForm>& forms) {
  std::vector<int> begin{0}, var;
  std::string coef;
  for (const LinearForm& f : forms) {
    for (const Term& t : f) {
      var.push_back(t.var);
      coef += coeff_literal(t.coeff) + ", ";
    }
    begin.push_back(static_cast<int>(var.size()));
  }
  var.push_back(0);
  return "  static constexpr int " + name + "_begin[" + std::to_string(begin.size()) + "] = {" + int_list(begin) +
         "};\n  static constexpr int " + name + "_var[" + std::to_string(var.size()) + "] = {" + int_list(var) +
         "};\n  static constexpr T " + name + "_coef[" + std::to_string(var.size()) + "] = {" + coef + "T(0)};\n";
}

std::vector<LinearForm> operand_forms(const std::vector<Operand>& ops) {
  std::vector<LinearForm> f;
  for (const Operand& op : ops) f.push_back(op.form);
  return f;
}

std::string stage_text(const Plan& plan, size_t s) {
  const Stage& st = plan.stages[s];
  const Backend b = plan.target.backend;
  const Dialect d = dialect(b);
  const Format f = st.format;
  const std::string id = "s" + std::to_string(s);
  const int na = f.a_size(), nb = f.b_size(), nc = f.n * f.p, R = st.rank;
  std::ostringstream out;
  out << "// ---- stage " << s << ": <" << f.n << "," << f.m << "," << f.p << "> rank " << R << " (" << st.levels
      << " level" << (st.levels > 1 ? "s" : "") << " merged); additions A " << st.a_prog.additions() << ", B "
      << st.b_prog.additions() << ", C " << st.c_prog.additions() << " ----\n";
  // A wide stage (8x8:336) runs its kernels on scalars (packs would spill), emits operand values
  // on demand and forms C product-major.
  const bool wide = wide_stage(na > nb ? na : nb, R);
  out << kernel(b, id + "_form_a", "ALL", na, R, operand_body(st.a_prog, st.a_ops, d, wide));
  out << kernel(b, id + "_form_b", "ALL", nb, R, operand_body(st.b_prog, st.b_ops, d, wide));
  const std::string launch = wide ? "TDISC_LAUNCH_SCALAR(" : "TDISC_LAUNCH(";
  out << kernel(b, id + "_form_c", "BETA", R, nc, wide ? c_body_by_product(st.c_cols, nc, d) : c_body(st.c_prog, d));
  const bool last = s + 1 == plan.stages.size();
  out << "struct Stage" << s << " {\n"
      << "  static constexpr int n = " << f.n << ", m = " << f.m << ", p = " << f.p << ", R = " << R
      << ", a_slots = " << st.a_slots() << ", b_slots = " << st.b_slots() << ";\n"
      << "  static constexpr bool last = " << (last ? "true" : "false") << ";\n"
      << "  typedef Stage" << (last ? s : s + 1) << " Next;\n"
      << "  static constexpr int a_of[R] = {" << int_list(st.a_of) << "};\n"
      << "  static constexpr int b_of[R] = {" << int_list(st.b_of) << "};\n"
      << "  static constexpr int a_src[" << st.a_ops.size() << "] = {" << int_list(sources_of(st.a_ops)) << "};\n"
      << "  static constexpr int a_slot[" << st.a_ops.size() << "] = {" << int_list(slots_of(st.a_ops)) << "};\n"
      << "  static constexpr int b_src[" << st.b_ops.size() << "] = {" << int_list(sources_of(st.b_ops)) << "};\n"
      << "  static constexpr int b_slot[" << st.b_ops.size() << "] = {" << int_list(slots_of(st.b_ops)) << "};\n"
      << "  // lean schedule: operand k = Σ coef·source block; product r adds coef·P_r into C blocks\n"
      << forms_table("a_form", operand_forms(st.a_ops)) << forms_table("b_form", operand_forms(st.b_ops))
      << forms_table("c_col", st.c_cols)
      << "  static Status form_a(Ctx& c, const FormArgs<" << na << ", " << R << ">& f, bool all) {\n"
      << "    if (all) " << launch << id << "_form_a, true, f);\n"
      << "    " << launch << id << "_form_a, false, f);\n  }\n"
      << "  static Status form_b(Ctx& c, const FormArgs<" << nb << ", " << R << ">& f, bool all) {\n"
      << "    if (all) " << launch << id << "_form_b, true, f);\n"
      << "    " << launch << id << "_form_b, false, f);\n  }\n"
      << "  static Status form_c(Ctx& c, const FormArgs<" << R << ", " << nc << ">& f) {\n"
      << "    if (f.beta != T(0)) " << launch << id << "_form_c, true, f);\n"
      << "    " << launch << id << "_form_c, false, f);\n  }\n"
      << "};\n\n";
  return out.str();
}

std::string banner(const Plan& plan, const std::vector<SourceInfo>& sources, const EmitOptions& o) {
  std::ostringstream out;
  const Target& t = plan.target;
  const bool cuda = t.backend == Backend::Cuda;
  const std::string wrapper = cuda ? "codegen/runtime/cuda_plan.inc" : "codegen/runtime/host_plan.inc";
  out << "// generated by " << o.tool << " codegen -- do not edit.\n"
      << "// backend " << backend_name(t.backend) << ", dtype " << (o.thin ? "any (T of the includer)" : dtype_name(t.dtype))
      << ", " << sources.size() << " level(s)";
  if (!o.thin) out << ", namespace " << o.name_space;
  out << "\n";
  for (size_t l = 0; l < sources.size(); ++l)
    out << "// level " << l << ": " << fmt::escape_comment_line(sources[l].path) << " (" << sources[l].description << ") sha256:" << sources[l].sha256
        << "\n";
  if (o.thin) {
    out << "// Thin: the stage tables and kernels alone, for any element type T. " << wrapper << "\n"
        << "// instantiates them for one T with the hand-written runtime (codegen/runtime/*.inc) around them.\n\n";
    return out.str();
  }
  out << "// The logic lives in tdisc's hand-written templates (codegen/runtime/*.inc), copied below.\n";
  if (cuda)
    out << "// Build: nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90,code=sm_90 "
           "-c FILE (link -lcublas).\n";
  else
    out << "// Build: c++ -O2 -std=c++17 -c FILE\n";
  out << "// API: " << o.name_space << "::workspace_bytes(M, N, K, leaf) and " << o.name_space << "::gemm(";
  out << (cuda ? "handle, stream, " : "") << "layout, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, "
      << "workspace, bytes, leaf): C = alpha*A*B + beta*C.\n\n";
  return out.str();
}

std::string describe_text(const Plan& plan, const std::vector<SourceInfo>& sources) {
  std::string s;
  for (size_t l = 0; l < sources.size(); ++l) s += (l ? " / " : "") + sources[l].description;
  s += " | stages:";
  for (const Stage& st : plan.stages)
    s += " " + st.format.str() + ":" + std::to_string(st.rank) + "(add " +
         std::to_string(st.a_prog.additions() + st.b_prog.additions() + st.c_prog.additions()) + ")";
  return s;
}

// The generated part: stage kernels and tables (last stage first, so that each stage's Next is
// complete), the last stage and the description; any T.
std::string stages_text(const Plan& plan, const std::vector<SourceInfo>& sources) {
  std::ostringstream out;
  out << "// ==== generated stages (thin: tables and straight-line bodies) ====\n\n";
  for (size_t s = plan.stages.size(); s-- > 0;) out << stage_text(plan, s);
  out << "typedef Stage" << plan.stages.size() - 1 << " LastStage;  // its rank bounds a lean group\n";
  out << "inline const char* describe() { return \"" << describe_text(plan, sources) << "\"; }\n";
  return out.str();
}

}  // namespace

// Self-contained: what codegen/runtime/{cuda,host}_plan.inc make of the thin text, with the parts pasted in.
std::string emit(const Plan& plan, const std::vector<SourceInfo>& sources, const EmitOptions& o) {
  if (o.thin) return banner(plan, sources, o) + stages_text(plan, sources);
  const RuntimeText& rt = runtime_text();
  const bool cuda = plan.target.backend == Backend::Cuda;
  std::ostringstream out;
  out << banner(plan, sources, o);
  out << "#include <cstddef>\n#include <cstdint>\n";
  if (cuda) out << "#include <cublas_v2.h>\n#include <cuda_runtime.h>\n";
  out << "\nnamespace " << o.name_space << " {\n\ntypedef " << (plan.target.dtype == DType::F32 ? "float" : "double")
      << " T;\n\n";
  out << rt.types << "\n" << (cuda ? rt.cuda_backend : rt.host_backend) << "\n" << rt.driver << "\n";
  out << stages_text(plan, sources) << "\n";
  out << (cuda ? rt.cuda_api : rt.host_api) << "\n";
  out << "#undef TDISC_TRY\n#undef TDISC_LAUNCH\n#undef TDISC_LAUNCH_SCALAR\n";
  out << "}  // namespace " << o.name_space << "\n";
  return out.str();
}

}  // namespace tdisc::codegen
