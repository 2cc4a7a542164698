// Text of the straight-line bodies of the stage kernels, shared by both backends.
#pragma once
#include <functional>
#include <string>

#include "codegen/plan.hpp"

namespace tdisc::codegen {

// How a backend loads, stores and names values.
struct Dialect {
  std::function<std::string(const std::string& ptr)> load;
  std::function<std::string(const std::string& ptr, const std::string& value)> store;
  std::string value_type;  // "P" or "T"
};

std::string coeff_literal(const Coeff& c);  // "T(1.0 / 2.0)" style, exact for dyadic rationals
std::string expression(const LinearForm& f, int inputs, const std::string& input_prefix);
// Body of an operand kernel (A or B side): loads, temps, operand values and their stores; on_demand
// (wide stages) emits each load and temp just before its first use instead of all at the top.
std::string operand_body(const Program& prog, const std::vector<Operand>& ops, const Dialect& d, bool on_demand);
// Body of the C kernel: loads of products, temps, C blocks formed and written once.
std::string c_body(const Program& prog, const Dialect& d);
// Body of the C kernel of a wide stage (many products, e.g. 8x8:336), product-major: each product
// loaded once and added at once into register accumulators of the nc C blocks it feeds, so that no
// more than nc values stay live (the output-major body keeps all R products live and spills).
std::string c_body_by_product(const std::vector<LinearForm>& c_cols, int nc, const Dialect& d);

}  // namespace tdisc::codegen
