// Straight-line arithmetic as schemes are written in text: "(a11+a12-2*a33)*(b11+b12)*(c13+c21)",
// "-(a25*(…)*c12)", "(…)*(…)*(…)/3", "m1 = (a5 - a8)(b5 - b6)", "c11 = -m4 + 2m7 + 1/2m39".
#pragma once
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "decomposition/coeff.hpp"

namespace tdisc::fmt {

// A variable after lookup: its class ('a', 'b', 'c', 'm') and a 0-based index within the class.
struct VarRef {
  char cls = 0;
  int index = 0;
};

// Maps an identifier to a variable; throws ExprError when it is not one.
using Resolver = std::function<VarRef(std::string_view ident)>;

// Where and why an expression cannot be read (column is 0-based within the text given).
struct ExprError {
  size_t column = 0;
  std::string what;
};

using LinearForm = std::map<int, Coeff>;  // index → non-zero coefficient

// scale · Π_class form_class: a product of linear forms in distinct classes, the value of every
// line of the text formats (a sum of such products is refused: one line is one term).
struct LinearProduct {
  Coeff scale{1};
  std::map<char, LinearForm> forms;

  bool has(char cls) const { return forms.count(cls) != 0; }
  // The form of class cls with the scale multiplied in (scale becomes 1).
  LinearForm take_scaled(char cls);
};

// Parses text (one line, without its "name =" prefix). Multiplication is '*' or juxtaposition
// ("2b11", "(…)(…)"); division only by numbers. Throws ExprError.
LinearProduct parse_linear_product(std::string_view text, const Resolver& resolve);

// Text of a linear form: "a11 + a22 - 2*a33" (spaced) or "a11+a22-2*a33"; names[index] is the
// variable's text. Coefficients other than ±1 are written "c*var", or "cvar" when juxtapose.
// Complex coefficients are parenthesised: "(1/2+i)*a11".
std::string linear_text(const std::map<int, Coeff>& form, const std::function<std::string(int)>& name,
                        bool spaced, bool juxtapose = false);

}  // namespace tdisc::fmt
