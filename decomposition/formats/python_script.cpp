// A self-checking Python script: the factors as exact literals (int, Fraction, a small Gaussian
// rational class), the check Σ_r U_r⊗V_r⊗W_r = T in trace form with NumPy object arrays when NumPy
// is present and plain Python otherwise, and a product of two random integer matrices.
#include "decomposition/formats/escape.hpp"
#include "decomposition/formats/readers.hpp"
#include "generated/tdisc_version.hpp"

namespace tdisc::fmt {

namespace {

std::string fraction(const mpq_class& q) {
  if (q.get_den() == 1) return q.get_num().get_str();
  return "F(" + q.get_num().get_str() + ", " + q.get_den().get_str() + ")";
}

// A coefficient as Python: over GF(p) its integer residue, else exact.
std::string literal(const Coeff& c, long modulus) {
  if (modulus) {
    mpz_class num = c.re().get_num(), den = c.re().get_den(), inv, p = modulus;
    mpz_invert(inv.get_mpz_t(), den.get_mpz_t(), p.get_mpz_t());
    mpz_class r = (num * inv) % p;
    if (r < 0) r += p;
    return r.get_str();
  }
  if (c.is_real()) return fraction(c.re());
  return "G(" + fraction(c.re()) + ", " + fraction(c.im()) + ")";
}

std::string rows(const CoeffMatrix& m, long modulus) {
  std::string out = "[\n";
  for (int r = 0; r < m.rows(); ++r) {
    out += "    [";
    for (int c = 0; c < m.cols(); ++c) out += (c ? ", " : "") + literal(m(r, c), modulus);
    out += "],\n";
  }
  return out + "]\n";
}

const char* kGaussian = R"PY(

class G:
    """Gaussian rational re + im*i with exact Fraction parts."""
    __slots__ = ("re", "im")

    def __init__(self, re, im=0):
        self.re, self.im = F(re), F(im)

    @staticmethod
    def of(x):
        return x if isinstance(x, G) else G(x)

    def __add__(self, o):
        o = G.of(o)
        return G(self.re + o.re, self.im + o.im)

    __radd__ = __add__

    def __sub__(self, o):
        o = G.of(o)
        return G(self.re - o.re, self.im - o.im)

    def __rsub__(self, o):
        return G.of(o) - self

    def __mul__(self, o):
        o = G.of(o)
        return G(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)

    __rmul__ = __mul__

    def __eq__(self, o):
        o = G.of(o)
        return self.re == o.re and self.im == o.im

    def __ne__(self, o):
        return not self == o

    def __hash__(self):
        return hash((self.re, self.im))

    def __repr__(self):
        return "(%s%+si)" % (self.re, self.im) if self.im else str(self.re)
)PY";

const char* kCheck = R"PY(

def same(x, y):
    return (x - y) % MOD == 0 if MOD else x == y


def delta(a, b, c):
    """The matmul tensor in trace form: T[a_ij, b_j'k, c_k'i'] = [j=j'][k=k'][i=i']."""
    i, j = divmod(a, m)
    j2, k = divmod(b, p)
    k2, i2 = divmod(c, n)
    return 1 if (j == j2 and k == k2 and i == i2) else 0


def tensor_python():
    T = {}
    for r in range(R):
        us = [(a, x) for a, x in enumerate(U[r]) if x != 0]
        vs = [(b, y) for b, y in enumerate(V[r]) if y != 0]
        ws = [(c, z) for c, z in enumerate(W[r]) if z != 0]
        for a, x in us:
            for b, y in vs:
                xy = x * y
                for c, z in ws:
                    T[a, b, c] = T.get((a, b, c), 0) + xy * z
    return lambda a, b, c: T.get((a, b, c), 0)


def tensor_numpy(np):
    Ua = np.array(U, dtype=object).reshape(R, n * m)
    Va = np.array(V, dtype=object).reshape(R, m * p)
    Wa = np.array(W, dtype=object).reshape(R, p * n)
    KR = (Va[:, :, None] * Wa[:, None, :]).reshape(R, m * p * p * n)  # Khatri-Rao, R x (mp*pn)
    T = Ua.T.dot(KR).reshape(n * m, m * p, p * n)
    return lambda a, b, c: T[a, b, c]


def first_failure(t):
    for a in range(n * m):
        for b in range(m * p):
            for c in range(p * n):
                if not same(t(a, b, c), delta(a, b, c)):
                    return a, b, c
    return None


def multiply(A, B):
    """C = A.B with the scheme: R products, then C[i][k] = sum_r W[r][k*n+i] * m_r."""
    prods = []
    for r in range(R):
        left = sum((U[r][i * m + j] * A[i][j] for i in range(n) for j in range(m)), 0)
        right = sum((V[r][j * p + k] * B[j][k] for j in range(m) for k in range(p)), 0)
        prods.append(left * right)
    return [[sum((W[r][k * n + i] * prods[r] for r in range(R)), 0) for k in range(p)] for i in range(n)]


def main():
    pure = "--pure" in sys.argv[1:]
    np = None
    if not pure:
        try:
            import numpy as np
        except ImportError:
            np = None
    t = tensor_numpy(np) if np is not None else tensor_python()
    bad = first_failure(t)
    if bad:
        a, b, c = bad
        print("FAIL: Brent equation (a[%d][%d], b[%d][%d], c[%d][%d]) sums to %s, expected %d"
              % (a // m, a % m, b // p, b % p, c // n, c % n, t(a, b, c), delta(a, b, c)))
        return 1
    rng = random.Random(1)
    A = [[rng.randint(-9, 9) for _ in range(m)] for _ in range(n)]
    B = [[rng.randint(-9, 9) for _ in range(p)] for _ in range(m)]
    C = multiply(A, B)
    for i in range(n):
        for k in range(p):
            if not same(C[i][k], sum(A[i][j] * B[j][k] for j in range(m))):
                print("FAIL: C[%d][%d] of a random product is wrong" % (i, k))
                return 1
    print("OK: %dx%dx%d rank %d %s (checked with %s)" % (n, m, p, R, RING, "numpy" if np is not None else "plain Python"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
)PY";

}  // namespace

std::string write_python(const Scheme& s) {
  const Format& f = s.format;
  const long modulus = ring_characteristic(s.ring);
  const bool complex = !modulus && coefficient_ring(s) == Ring::QI;
  std::string ring = modulus ? "valid mod " + std::to_string(modulus) : "valid over " + std::string(ring_name(s.ring));
  std::string out = "#!/usr/bin/env python3\n\"\"\"" + f.str() + " rank " + std::to_string(s.rank()) + " scheme, " + ring +
                    "; written by " TDISC_TOOL ".\n";
  if (!s.provenance.source.empty()) out += "Source: " + escape_python(s.provenance.source) + "\n";
  out += "\nRebuilds the factors exactly and checks that sum_r U_r (x) V_r (x) W_r is the matrix-multiplication\n"
         "tensor in trace form, T = sum_{i,j,k} a_ij (x) b_jk (x) c_ki, then multiplies two random integer\n"
         "matrices with the scheme. Prints OK and exits 0, or names the first failing Brent equation and\n"
         "exits 1. Uses NumPy (object arrays, exact) when present, plain Python otherwise (or with --pure).\n\"\"\"\n"
         "import random\nimport sys\nfrom fractions import Fraction as F\n";
  if (complex) out += kGaussian;
  out += "\nn, m, p, R = " + std::to_string(f.n) + ", " + std::to_string(f.m) + ", " + std::to_string(f.p) + ", " +
         std::to_string(s.rank()) + "\n";
  out += "MOD = " + std::to_string(modulus) + "  # 0: exact arithmetic; 2 or 3: the scheme holds modulo MOD only\n";
  out += "RING = \"" + ring + "\"\n";
  out += "# U[r][i*m+j]: coefficient of A[i][j] in product r; V[r][j*p+k]: of B[j][k];\n"
         "# W[r][k*n+i]: coefficient of product r in C[i][k] (trace form).\n";
  out += "U = " + rows(s.u, modulus) + "V = " + rows(s.v, modulus) + "W = " + rows(s.w, modulus);
  out += kCheck;
  return out;
}

}  // namespace tdisc::fmt
