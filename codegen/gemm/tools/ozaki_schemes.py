#!/usr/bin/env python3
"""Writes, from codegen/schemes/*.json (Strassen, the rational 4x4 rank 48):
  codegen/gemm/src/ozaki_scheme_tables.inc: the coefficients as integers over one power-of-two
      denominator per scheme (host: the tables mod p and the Brent equations mod p);
  codegen/gemm/src/ozaki_level_code.inc: per level (s1 = Strassen, s2 = Strassen ⊗ Strassen = 4x4:49,
      r48 = 4x4:48) the operand sums and the C combinations as straight-line integer code over the
      numerators (zero terms gone, ±1 as additions, each combination divided by the gcd of its
      coefficients: a scale that the kernels fold with den^-1 into one factor mod p), generic over the
      value type (the kernels pass four lanes at once) and handing each result to a callback (reduced
      and stored at once), which the level kernels call and the host tests compare with the tables.
Run from the repository root:
    python3 codegen/gemm/tools/ozaki_schemes.py [--check]
The library (which builds standalone, without the scheme files) compiles the written files."""
import json
import math
import os
import sys
from fractions import Fraction

SCHEMES = [("strassen", "codegen/schemes/strassen.json"), ("r48", "codegen/schemes/r48-4x4x4-Q.json")]


def table(name, path):
    s = json.load(open(path))
    if s["orientation"] != "trace" or not (s["n"] == s["m"] == s["p"]):
        raise SystemExit(f"tdisc: {path}: need a square scheme in trace orientation")
    coef = {key: [[Fraction(x) for x in row] for row in s[key]] for key in "uvw"}
    den = 1
    for rows in coef.values():
        for row in rows:
            for x in row:
                den = max(den, x.denominator)
    if den & (den - 1):
        raise SystemExit(f"tdisc: {path}: denominator {den} is not a power of two")
    def ints(key):
        out = []
        for row in coef[key]:
            for x in row:
                y = x * den
                assert y.denominator == 1
                out.append(str(int(y)))
        return ", ".join(out)
    return (f"// {name}: {path}, {s['n']}x{s['n']} blocks, rank {s['rank']}, denominator {den}\n"
            f"inline const SchemeTable k_{name} = {{\"{name}\", {s['n']}, {s['rank']}, {den},\n"
            f"  {{{ints('u')}}},\n  {{{ints('v')}}},\n  {{{ints('w')}}}}};\n")


def numerators(path):
    s = json.load(open(path))
    coef = {key: [[Fraction(x) for x in row] for row in s[key]] for key in "uvw"}
    den = max(x.denominator for rows in coef.values() for row in rows for x in row)
    ints = {key: [[int(x * den) for x in row] for row in coef[key]] for key in "uvw"}
    return s["n"], s["rank"], den, ints


def kronecker(a, b):
    (b1, r1, d1, x), (b2, r2, d2, y) = a, b
    bb = b1 * b2
    out = {}
    for key in "uvw":
        rows = []
        for p in range(r1):
            for q in range(r2):
                row = [0] * (bb * bb)
                for x1 in range(b1):
                    for y1 in range(b1):
                        for x2 in range(b2):
                            for y2 in range(b2):
                                row[(x1 * b2 + x2) * bb + (y1 * b2 + y2)] = (
                                    x[key][p][x1 * b1 + y1] * y[key][q][x2 * b2 + y2])
                rows.append(row)
        out[key] = rows
    return bb, r1 * r2, d1 * d2, out


def linear(terms, var):
    """Σ c·var[i] as C++: 'v[3] - v[5] + 2 * v[7]' (at least one non-zero term)."""
    text = ""
    for i, c in terms:
        if c == 0:
            continue
        sign = "-" if c < 0 else "+"
        mag = abs(c)
        text += f" {sign} " + (f"{var}[{i}]" if mag == 1 else f"{mag} * {var}[{i}]")
    if not text:
        raise SystemExit("tdisc: codegen/gemm/tools/ozaki_schemes.py: a zero operand sum or C combination")
    return text[3:] if text.startswith(" + ") else "-" + text[3:]


def primitive(terms):
    """(g, terms / g, Σ|terms / g|): g the gcd of the coefficients, the rest the emitted combination."""
    g = 0
    for _, c in terms:
        g = math.gcd(g, abs(c))
    prim = [(i, c // g) for i, c in terms]
    return g, prim, sum(abs(c) for _, c in prim)


def emitted(rows, var, out):
    """Lines 'out(r, <primitive combination>);', the scales (gcds) and the largest Σ|coefficient|."""
    lines, scales, l1 = [], [], 0
    for r, terms in enumerate(rows):
        g, prim, s = primitive(terms)
        lines.append(f"    {out}({r}, {linear(prim, var)});")
        scales.append(g)
        l1 = max(l1, s)
    return lines, scales, l1


def level_code(name, level):
    b, rank, den, c = level
    sums_a, scale_a, l1_a = emitted([list(enumerate(c['u'][r])) for r in range(rank)], "v", "out")
    sums_b, scale_b, l1_b = emitted([list(enumerate(c['v'][r])) for r in range(rank)], "v", "out")
    comb, scale_c, l1_c = emitted([[(r, c['w'][r][d * b + a]) for r in range(rank)]
                                   for a in range(b) for d in range(b)], "m", "out")
    nnz = sum(1 for key in "uvw" for row in c[key] for x in row if x)
    ints = lambda xs: ", ".join(str(x) for x in xs)
    unit = lambda xs: "true" if all(x == den for x in xs) else "false"
    return (f"// {name}: {b}x{b} blocks, rank {rank}, denominator {den}, {nnz} non-zero coefficients\n"
            f"struct Level_{name} {{\n  static constexpr int B = {b}, R = {rank}, den = {den};\n"
            f"  // Every emitted combination is primitive (gcd 1); its coefficients times scale are the numerators\n"
            f"  // (coefficient times den): Σ_q u[r][q]·v[q] = scale_a[r]/den · (emitted r), likewise v and w.\n"
            f"  static constexpr int scale_a[R] = {{{ints(scale_a)}}};\n"
            f"  static constexpr int scale_b[R] = {{{ints(scale_b)}}};\n"
            f"  static constexpr int scale_c[B * B] = {{{ints(scale_c)}}};\n"
            f"  // unit: every scale is den (the emitted combination is the sum itself, no factor mod p)\n"
            f"  static constexpr bool unit_a = {unit(scale_a)}, unit_b = {unit(scale_b)}, unit_c = {unit(scale_c)};\n"
            f"  // The largest Σ|coefficient| of an emitted combination (the kernels' range bounds)\n"
            f"  static constexpr int l1_a = {l1_a}, l1_b = {l1_b}, l1_c = {l1_c};\n"
            f"  // out(r, Σ_q (den·u[r][q]/scale_a[r])·v[q]), A block q = a·B + c\n"
            f"  template <class T, class Out>\n  TDISC_HD static void sums_a(const T* v, Out&& out) {{\n"
            + "\n".join(sums_a) + "\n  }\n"
            f"  // out(r, Σ_q (den·v[r][q]/scale_b[r])·v[q]), B block q = c·B + d\n"
            f"  template <class T, class Out>\n  TDISC_HD static void sums_b(const T* v, Out&& out) {{\n"
            + "\n".join(sums_b) + "\n  }\n"
            f"  // out(a·B + d, Σ_r (den·w[r][d·B + a]/scale_c[a·B + d])·m[r]): C block (a, d)\n"
            f"  template <class T, class Out>\n  TDISC_HD static void combine(const T* m, Out&& out) {{\n"
            + "\n".join(comb) + "\n  }\n};\n")


CHECK = "--check" in sys.argv  # compare with the committed files instead of writing (exit 1 when stale)
stale = []


def write(out, text):
    if CHECK:
        with open(out) as f:
            if f.read() != text:
                stale.append(out)
        return
    with open(out + ".tmp", "w") as f:
        f.write(text)
    os.replace(out + ".tmp", out)
    print(f"wrote {out}")


header = "// generated by codegen/gemm/tools/ozaki_schemes.py from codegen/schemes -- do not edit\n"
write("codegen/gemm/src/ozaki_scheme_tables.inc", header + "".join(table(n, p) for n, p in SCHEMES))
strassen = numerators("codegen/schemes/strassen.json")
levels = [("s1", strassen), ("s2", kronecker(strassen, strassen)),
          ("r48", numerators("codegen/schemes/r48-4x4x4-Q.json"))]
write("codegen/gemm/src/ozaki_level_code.inc", header + "".join(level_code(n, l) for n, l in levels))
if CHECK:
    for out in stale:
        print(f"tdisc: {out}: stale, rerun python3 codegen/gemm/tools/ozaki_schemes.py")
    sys.exit(1 if stale else 0)
