// NumPy ↔ coefficient matrices (see coefficients.hpp). Every value crosses exactly or not at all.
#include "python/src/coefficients.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "base/error.hpp"

namespace tdisc::python {

namespace {

constexpr int kMaxShift = 16;  // floats: multiples of 2^-16, the .npy reader's rule

std::string entry(const std::string& name, long r, long col) {
  return name + "[" + std::to_string(r) + ", " + std::to_string(col) + "]";
}

// The exact value of a double, when it is a multiple of 2^-kMaxShift.
std::optional<mpq_class> dyadic(double x) {
  auto c = Coeff::from_double(x);
  if (!c || c->denominator() > (mpz_class(1) << kMaxShift)) return std::nullopt;
  return c->re();
}

mpz_class integer_of(py::handle x) { return mpz_class(py::str(py::int_(py::reinterpret_borrow<py::object>(x)))); }

// One Python object as a coefficient; why says what is wrong when it is not one.
std::optional<Coeff> coeff_of(py::handle x, std::string& why) {
  static const py::object numbers = py::module_::import("numbers");
  static const py::object np_bool = py::module_::import("numpy").attr("bool_");
  if (PyBool_Check(x.ptr()) || py::isinstance(x, np_bool)) return why = "a bool is not a coefficient", std::nullopt;
  if (py::isinstance<py::str>(x)) {
    auto c = Coeff::parse(x.cast<std::string>());
    if (!c) why = "\"" + x.cast<std::string>() + "\" is not a coefficient (\"-2\", \"1/2\", \"1/2-1/2i\")";
    return c;
  }
  if (PyIndex_Check(x.ptr())) return Coeff(mpq_class(integer_of(x)));
  if (py::isinstance(x, numbers.attr("Rational")))
    return Coeff(mpq_class(integer_of(x.attr("numerator")), integer_of(x.attr("denominator"))));
  const bool real = py::isinstance(x, numbers.attr("Real"));
  if (real || py::isinstance(x, numbers.attr("Complex"))) {
    const Py_complex z = real ? Py_complex{x.cast<double>(), 0.0} : PyComplex_AsCComplex(x.ptr());
    if (!std::isfinite(z.real) || !std::isfinite(z.imag))
      return why = py::repr(x).cast<std::string>() + " is not a finite number", std::nullopt;
    auto re = dyadic(z.real), im = dyadic(z.imag);
    if (re && im) return Coeff(*re, *im);
    why = py::repr(x).cast<std::string>() + " is not exact: a float must be a multiple of 2^-16 (give a "
          "fractions.Fraction, or the text \"1/10\")";
    return std::nullopt;
  }
  why = "a " + py::repr(py::type::of(x)).cast<std::string>() + " is not a coefficient (int, fractions.Fraction, "
        "complex or text such as \"1/2-1/2i\")";
  return std::nullopt;
}

[[noreturn]] void refuse(const std::string& what) { throw InputError(what); }

// rows × width of a 2-D or 3-D array, the second and third dimension kept apart for the caller.
Factor shaped(const py::array& a, const std::string& name) {
  if (a.ndim() != 2 && a.ndim() != 3)
    refuse(name + ": a " + std::to_string(a.ndim()) + "-D array; give R × (rows·cols) or R × rows × cols, one term per row");
  Factor f;
  const long width = a.ndim() == 2 ? a.shape(1) : a.shape(1) * a.shape(2);
  if (a.shape(0) < 1) refuse(name + ": no terms (a scheme has at least one)");
  if (width < 1) refuse(name + ": terms of no coefficients");
  if (a.ndim() == 3) f.dims = std::pair<int, int>(static_cast<int>(a.shape(1)), static_cast<int>(a.shape(2)));
  f.matrix.resize(a.shape(0), width);  // R × width
  return f;
}

// Small integers are copied from ready coefficients: a copy reuses the limbs of the entry the
// matrix already holds, where a temporary would allocate and free its own (half the conversion time
// of the 6x6x6:153, bench/python_verify.py).
void fill_integers(const py::array& a, Factor& f) {
  constexpr int kSmall = 8;
  static const std::vector<Coeff> small = [] {
    std::vector<Coeff> v;
    for (int x = -kSmall; x <= kSmall; ++x) v.emplace_back(x);
    return v;
  }();
  auto ints = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
  const int64_t* data = ints.data();
  for (Eigen::Index r = 0; r < f.matrix.rows(); ++r)
    for (Eigen::Index c = 0; c < f.matrix.cols(); ++c) {
      const int64_t x = data[r * f.matrix.cols() + c];
      if (x >= -kSmall && x <= kSmall) f.matrix(r, c) = small[static_cast<size_t>(x + kSmall)];
      else f.matrix(r, c) = Coeff(static_cast<long>(x));
    }
}

void fill_objects(const py::array& a, Factor& f, const std::string& name) {
  const py::list flat = a.attr("ravel")().attr("tolist")();
  std::string why;
  for (Eigen::Index r = 0; r < f.matrix.rows(); ++r)
    for (Eigen::Index c = 0; c < f.matrix.cols(); ++c) {
      auto v = coeff_of(flat[static_cast<size_t>(r * f.matrix.cols() + c)], why);
      if (!v) refuse(entry(name, r, c) + ": " + why);
      f.matrix(r, c) = std::move(*v);
    }
}

bool int64_safe(const py::array& a) {
  const char kind = a.dtype().kind();
  return kind == 'i' || (kind == 'u' && a.dtype().itemsize() < 8);
}

}  // namespace

Factor factor_from_array(py::handle array, const std::string& name) {
  const py::array a = py::module_::import("numpy").attr("asarray")(array);
  Factor f = shaped(a, name);
  const char kind = a.dtype().kind();
  if (kind == 'b') refuse(name + ": a bool array; coefficients are numbers (astype(int))");
  if (kind == 'M' || kind == 'm' || kind == 'V') refuse(name + ": dtype " + py::str(a.dtype()).cast<std::string>() + " holds no coefficients");
  if (int64_safe(a)) fill_integers(a, f);
  else fill_objects(a, f, name);
  return f;
}

namespace {

py::object fraction(const mpq_class& q) {
  static const py::object make = py::module_::import("fractions").attr("Fraction");
  auto as_int = [](const mpz_class& z) {
    return py::reinterpret_steal<py::object>(PyLong_FromString(z.get_str().c_str(), nullptr, 10));
  };
  return make(as_int(q.get_num()), as_int(q.get_den()));
}

bool exact_double(const mpq_class& q) { return mpq_class(q.get_d()) == q; }

bool fits_int64(const Coeff& c) {
  return c.is_integer() && c.re().get_num() <= std::numeric_limits<int64_t>::max() &&
         c.re().get_num() >= std::numeric_limits<int64_t>::min();
}

std::string auto_dtype(const CoeffMatrix& m) {
  bool ints = true, real = true, exact = true;
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const Coeff& x = m(r, c);
      ints = ints && fits_int64(x);
      real = real && x.is_real();
      exact = exact && exact_double(x.re()) && exact_double(x.im());
    }
  return ints ? "int64" : real ? "object" : exact ? "complex128" : "object";
}

template <class Put>
py::array fill(const CoeffMatrix& m, py::array out, Put put) {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) put(r, c, m(r, c));
  return out;
}

}  // namespace

py::array factor_to_array(const CoeffMatrix& m, const std::string& name, const std::string& requested) {
  const std::string dtype = requested == "auto" ? auto_dtype(m) : requested;
  const std::vector<py::ssize_t> shape{m.rows(), m.cols()};
  auto cant = [&](Eigen::Index r, Eigen::Index c, const Coeff& x, const char* why) {
    refuse(entry(name, r, c) + ": " + x.str() + " " + why + " (dtype " + dtype + ")");
  };
  if (dtype == "int64") {
    py::array_t<int64_t> out(shape);
    auto view = out.mutable_unchecked<2>();
    return fill(m, out, [&](auto r, auto c, const Coeff& x) {
      if (!fits_int64(x)) cant(r, c, x, "is not a 64-bit integer");
      view(r, c) = x.re().get_num().get_si();
    });
  }
  if (dtype == "complex128") {
    py::array_t<std::complex<double>> out(shape);
    auto view = out.mutable_unchecked<2>();
    return fill(m, out, [&](auto r, auto c, const Coeff& x) {
      if (!exact_double(x.re()) || !exact_double(x.im())) cant(r, c, x, "is not exact in a double");
      view(r, c) = {x.real_double(), x.imag_double()};
    });
  }
  if (dtype == "object" || dtype == "str") {
    py::array out(py::dtype("O"), shape);
    auto** data = static_cast<PyObject**>(out.mutable_data());
    const bool text = dtype == "str";
    return fill(m, out, [&](auto r, auto c, const Coeff& x) {
      py::object v = text || !x.is_real() ? py::object(py::str(x.str())) : fraction(x.re());
      PyObject*& slot = data[r * m.cols() + c];
      Py_XDECREF(slot);
      slot = v.release().ptr();
    });
  }
  throw UsageError("dtype: \"" + requested + "\" is not one of auto, int64, object, complex128, str");
}

}  // namespace tdisc::python
