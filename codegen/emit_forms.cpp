// Straight-line kernel bodies: each source block read once, each destination written once.
#include "codegen/emit_forms.hpp"

#include <functional>
#include <set>
#include <sstream>

namespace tdisc::codegen {

std::string coeff_literal(const Coeff& c) {
  const mpq_class& q = c.re();
  if (q.get_den() == 1) return "T(" + q.get_num().get_str() + ")";
  return "T(" + q.get_num().get_str() + ".0 / " + q.get_den().get_str() + ".0)";
}

namespace {

std::string var_name(int var, int inputs, const std::string& input_prefix) {
  return var < inputs ? input_prefix + std::to_string(var) : "t" + std::to_string(var - inputs);
}

std::set<int> used_inputs(const Program& prog) {
  std::set<int> used;
  auto scan = [&](const LinearForm& f) {
    for (const Term& t : f)
      if (t.var < prog.inputs) used.insert(t.var);
  };
  for (const auto& f : prog.temps) scan(f);
  for (const auto& f : prog.outputs) scan(f);
  return used;
}

std::string load_line(int v, const Dialect& d, const std::string& indent) {
  std::ostringstream out;
  out << indent << "const " << d.value_type << " x" << v << " = " << d.load("f.src[" + std::to_string(v) + "] + os")
      << ";\n";
  return out.str();
}

std::string temp_line(const Program& prog, size_t t, const Dialect& d, const std::string& indent) {
  std::ostringstream out;
  out << indent << "const " << d.value_type << " t" << t << " = " << expression(prog.temps[t], prog.inputs, "x")
      << ";\n";
  return out.str();
}

std::string loads_and_temps(const Program& prog, const Dialect& d, const std::string& indent) {
  std::string out;
  for (int v : used_inputs(prog)) out += load_line(v, d, indent);
  for (size_t t = 0; t < prog.temps.size(); ++t) out += temp_line(prog, t, d, indent);
  return out;
}

}  // namespace

std::string expression(const LinearForm& f, int inputs, const std::string& input_prefix) {
  std::string e;
  for (size_t q = 0; q < f.size(); ++q) {
    const std::string name = var_name(f[q].var, inputs, input_prefix);
    const Coeff& c = f[q].coeff;
    const bool negative = sgn(c.re()) < 0;
    const Coeff mag = negative ? -c : c;
    const std::string scaled = mag == Coeff(1) ? name : coeff_literal(mag) + " * " + name;
    if (q == 0) e += negative ? "-(" + scaled + ")" : scaled;
    else e += (negative ? " - " : " + ") + scaled;
  }
  return e;
}

std::string operand_body(const Program& prog, const std::vector<Operand>& ops, const Dialect& d, bool on_demand) {
  const std::string in = "    ";
  std::ostringstream out;
  // On demand, each input and temp is emitted just before the first output that needs it, so values
  // live from their first to their last use (a wide stage, 64 sources and 336 operands, spilled with
  // every load and temp at the top); otherwise loads and temps come first, as measured for narrow ones.
  if (!on_demand) out << loads_and_temps(prog, d, in);
  std::vector<bool> emitted(static_cast<size_t>(prog.inputs) + prog.temps.size(), !on_demand);
  std::function<void(int)> need = [&](int var) {
    if (emitted[static_cast<size_t>(var)]) return;
    emitted[static_cast<size_t>(var)] = true;
    if (var < prog.inputs) {
      out << load_line(var, d, in);
      return;
    }
    const size_t t = static_cast<size_t>(var - prog.inputs);
    for (const Term& term : prog.temps[t]) need(term.var);
    out << temp_line(prog, t, d, in);
  };
  for (size_t k = 0; k < ops.size(); ++k) {
    for (const Term& t : prog.outputs[k]) need(t.var);
    const std::string o = "o" + std::to_string(k);
    out << in << "const " << d.value_type << " " << o << " = " << expression(prog.outputs[k], prog.inputs, "x") << ";\n";
    for (size_t q = 0; q < ops[k].products.size(); ++q) {
      const std::string dst = "f.dst[" + std::to_string(ops[k].products[q]) + "] + od";
      // A non-trivial operand is stored once for its first product; every copy only when batching.
      const bool always = q == 0 && ops[k].source < 0;
      out << in << (always ? "" : "if (ALL) ") << d.store(dst, o) << ";\n";
    }
  }
  return out.str();
}

std::string c_body(const Program& prog, const Dialect& d) {
  const std::string in = "    ";
  std::ostringstream out;
  out << loads_and_temps(prog, d, in);
  for (size_t q = 0; q < prog.outputs.size(); ++q) {
    const std::string dst = "f.dst[" + std::to_string(q) + "] + od";
    const std::string o = "c" + std::to_string(q);
    const std::string e = prog.outputs[q].empty() ? d.value_type + "{}" : expression(prog.outputs[q], prog.inputs, "x");
    out << in << d.value_type << " " << o << " = " << e << ";\n";
    out << in << "if (BETA) " << o << " = " << o << " + f.beta * " << d.load(dst) << ";\n";
    out << in << d.store(dst, o) << ";\n";
  }
  return out.str();
}

std::string c_body_by_product(const std::vector<LinearForm>& c_cols, int nc, const Dialect& d) {
  const std::string in = "    ";
  std::ostringstream out;
  for (int q = 0; q < nc; ++q) out << in << d.value_type << " c" << q << "{};\n";
  for (size_t r = 0; r < c_cols.size(); ++r) {
    if (c_cols[r].empty()) continue;
    out << in << "{\n" << in << "  const " << d.value_type << " x = " << d.load("f.src[" + std::to_string(r) + "] + os")
        << ";\n";
    for (const Term& t : c_cols[r]) {
      const bool negative = sgn(t.coeff.re()) < 0;
      const Coeff mag = negative ? -t.coeff : t.coeff;
      const std::string c = "c" + std::to_string(t.var);
      out << in << "  " << c << " = " << c << (negative ? " - " : " + ") << (mag == Coeff(1) ? "" : coeff_literal(mag) + " * ")
          << "x;\n";
    }
    out << in << "}\n";
  }
  for (int q = 0; q < nc; ++q) {
    const std::string dst = "f.dst[" + std::to_string(q) + "] + od", o = "c" + std::to_string(q);
    out << in << "if (BETA) " << o << " = " << o << " + f.beta * " << d.load(dst) << ";\n";
    out << in << d.store(dst, o) << ";\n";
  }
  return out.str();
}

}  // namespace tdisc::codegen
