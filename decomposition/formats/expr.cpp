// A recursive-descent reader of the straight-line arithmetic that scheme text files use: sums of
// scaled variables, products of such sums (by '*' or juxtaposition), negation and division.
#include "decomposition/formats/expr.hpp"

#include <cctype>

#include "base/limits.hpp"

namespace tdisc::fmt {

namespace {

// A product of one form keeps its scale inside the form, so "(1/2a11 + 1/2a12) * (2b24)" keeps
// each factor as written; only products of several forms carry a separate scale ("-(a*b*c)", "/3").
void normalize(LinearProduct& x) {
  if (x.forms.size() == 1 && x.scale != Coeff(1)) x.take_scaled(x.forms.begin()->first);
}

struct Parser {
  std::string_view s;
  const Resolver& resolve;
  size_t pos = 0;
  int depth = 0;  // nesting of parentheses and signs, at most kMaxNesting (the recursion's depth)

  // Entered by every recursive factor(): refuses input nested deeper than any real file instead
  // of overflowing the stack.
  struct Nested {
    Parser& p;
    explicit Nested(Parser& parser) : p(parser) {
      if (++p.depth > kMaxNesting) p.fail("nested deeper than " + std::to_string(kMaxNesting) + " levels");
    }
    ~Nested() { --p.depth; }
  };

  [[noreturn]] void fail(const std::string& what, size_t at) const { throw ExprError{at, what}; }
  [[noreturn]] void fail(const std::string& what) const { fail(what, pos); }

  void skip() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  char peek() {
    skip();
    return pos < s.size() ? s[pos] : '\0';
  }
  static bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
  static bool number_start(char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }

  Coeff number() {
    size_t start = pos;
    while (pos < s.size() && (std::isdigit(static_cast<unsigned char>(s[pos])) || s[pos] == '.')) ++pos;
    auto c = Coeff::parse(s.substr(start, pos - start));
    if (!c) fail("not a number: '" + excerpt(s.substr(start, pos - start)) + "'", start);
    return *c;
  }

  LinearProduct variable() {
    size_t start = pos;
    while (pos < s.size() && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_')) ++pos;
    VarRef v;
    try {
      v = resolve(s.substr(start, pos - start));
    } catch (ExprError& e) {
      e.column = start;
      throw;
    }
    LinearProduct x;
    x.forms[v.cls][v.index] = Coeff(1);
    return x;
  }

  LinearProduct factor() {
    Nested nested(*this);
    char c = peek();
    if (c == '-' || c == '+') {
      ++pos;
      LinearProduct x = factor();
      if (c == '-') x.scale = -x.scale;
      normalize(x);
      return x;
    }
    if (c == '(') {
      ++pos;
      LinearProduct x = expression();
      if (peek() != ')') fail("expected ')'");
      ++pos;
      return x;
    }
    if (number_start(c)) {
      LinearProduct x;
      x.scale = number();
      return x;
    }
    if (ident_start(c)) return variable();
    fail(c ? std::string("unexpected '") + c + "'" : std::string("unexpected end of line"));
  }

  LinearProduct term() {
    LinearProduct x = factor();
    for (;;) {
      char c = peek();
      size_t at = pos;
      if (c == '*') {
        ++pos;
        x = multiply(std::move(x), factor(), at);
      } else if (c == '/') {
        ++pos;
        LinearProduct d = factor();
        if (!d.forms.empty() || d.scale.is_zero()) fail("division only by a non-zero number", at);
        x.scale /= d.scale;
        normalize(x);
      } else if (c == '(' || ident_start(c)) {
        x = multiply(std::move(x), factor(), at);  // juxtaposition: "2b11", "(…)(…)"
      } else {
        return x;
      }
    }
  }

  LinearProduct expression() {
    LinearProduct x = term();
    for (;;) {
      char c = peek();
      if (c != '+' && c != '-') return x;
      size_t at = pos++;
      LinearProduct y = term();
      if (c == '-') y.scale = -y.scale;
      x = add(std::move(x), std::move(y), at);
    }
  }

  LinearProduct multiply(LinearProduct x, LinearProduct y, size_t at) const {
    normalize(x);
    normalize(y);
    x.scale *= y.scale;
    for (auto& [cls, form] : y.forms) {
      if (x.forms.count(cls)) fail(std::string("product of two linear forms in '") + cls + "' (not trilinear)", at);
      x.forms[cls] = std::move(form);
    }
    normalize(x);
    return x;
  }

  LinearProduct add(LinearProduct x, LinearProduct y, size_t at) const {
    if (x.forms.empty() && y.forms.empty()) {
      x.scale += y.scale;
      return x;
    }
    if (x.forms.size() != 1 || y.forms.size() != 1 || x.forms.begin()->first != y.forms.begin()->first)
      fail("a sum must add variables of one kind (one term a line)", at);
    char cls = x.forms.begin()->first;
    LinearForm a = x.take_scaled(cls), b = y.take_scaled(cls);
    for (auto& [k, v] : b) {
      Coeff sum = a.count(k) ? a[k] + v : v;
      if (sum.is_zero()) a.erase(k);
      else a[k] = sum;
    }
    LinearProduct out;
    out.forms[cls] = std::move(a);
    return out;
  }
};

}  // namespace

LinearForm LinearProduct::take_scaled(char cls) {
  LinearForm f = forms[cls];
  if (scale != Coeff(1)) {
    for (auto it = f.begin(); it != f.end();) {
      it->second *= scale;
      it = it->second.is_zero() ? f.erase(it) : std::next(it);
    }
  }
  forms[cls] = f;
  scale = Coeff(1);
  return f;
}

LinearProduct parse_linear_product(std::string_view text, const Resolver& resolve) {
  Parser p{text, resolve};
  LinearProduct x = p.expression();
  if (p.peek() != '\0') p.fail(std::string("unexpected '") + text[p.pos] + "'");
  return x;
}

std::string linear_text(const std::map<int, Coeff>& form, const std::function<std::string(int)>& name,
                        bool spaced, bool juxtapose) {
  std::string out;
  for (auto& [index, c] : form) {
    if (c.is_zero()) continue;
    bool negative = c.is_real() && sgn(c.re()) < 0;
    Coeff mag = negative ? -c : c;
    if (out.empty()) out += negative ? "-" : "";
    else out += spaced ? (negative ? " - " : " + ") : (negative ? "-" : "+");
    if (mag != Coeff(1)) {
      out += mag.is_real() ? mag.str() : "(" + mag.str() + ")";
      if (!juxtapose) out += "*";
    }
    out += name(index);
  }
  return out.empty() ? "0" : out;
}

}  // namespace tdisc::fmt
