"""tdisc.Scheme from and to NumPy arrays, every file format both ways, and bad input refused with
the command line's words (ValueError, OSError)."""
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(__file__))
import support  # noqa: E402

support.require("numpy", "tdisc")
import numpy as np  # noqa: E402

import tdisc  # noqa: E402

STRASSEN = support.source("algorithms", "2x2x2", "r7-ZT-02268ba0.json")
SAMPLES = {  # ZT, Z, Q (1/2…), QI, GF2 and non-square formats
    "ZT": STRASSEN,
    "ZT 2x3x4": support.source("algorithms", "2x3x4", "r20-ZT-4848df13.json"),
    "Q": support.source("algorithms", "4x4x4", "r48-Q-2fc8ef12.json"),
    "QI": support.source("algorithms", "4x4x4", "r48-QI-41f141a1.json"),
    "GF2": support.source("algorithms", "4x4x4", "r47-GF2-d3d54b5e.json"),
}
BOTH_WAYS = ["native", "exp", "maple", "fmm-mpl", "perminov-json", "fast-matmul"]
EXTENSION = {"native": ".json", "perminov-json": ".json", "exp": ".exp", "maple": ".m", "fmm-mpl": ".mpl"}
REAL_ONLY = {"exp", "perminov-json", "fast-matmul"}


class Arrays(support.TempDirCase):
    def test_strassen_arrays_are_term_major_int64(self):
        s = tdisc.read(STRASSEN)
        self.assertEqual((s.format, s.size, s.rank, s.ring), ("2x2x2", (2, 2, 2), 7, "ZT"))
        self.assertEqual(s.u.dtype, np.int64)
        self.assertEqual(s.u.shape, (7, 4))
        self.assertEqual(s.w.shape, (7, 4))
        back = tdisc.Scheme(s.u, s.v, s.w)
        self.assertEqual(back, s)
        self.assertEqual(back.hash8, s.hash8)
        self.assertTrue(tdisc.verify(back))

    def test_three_dimensional_arrays_state_the_format(self):
        s = tdisc.read(SAMPLES["ZT 2x3x4"])
        n, m, p = s.size
        back = tdisc.Scheme(s.u.reshape(-1, n, m), s.v.reshape(-1, m, p), s.w.reshape(-1, p, n))
        self.assertEqual(back.format, "2x3x4")
        self.assertEqual(back, s)

    def test_the_format_is_read_off_the_widths(self):
        s = tdisc.read(SAMPLES["ZT 2x3x4"])
        self.assertEqual(tdisc.Scheme(s.u, s.v, s.w).size, (2, 3, 4))
        self.assertEqual(tdisc.Scheme(s.u, s.v, s.w, size="2x3x4").size, (2, 3, 4))

    def test_rationals_come_as_fractions_and_go_back_exactly(self):
        s = tdisc.read(SAMPLES["Q"])
        self.assertEqual(s.w.dtype, object)  # U and V of this one are integers
        self.assertTrue(any(isinstance(x, Fraction) and x.denominator > 1 for x in s.w.ravel()))
        back = tdisc.Scheme(s.u, s.v, s.w, ring="Q")
        self.assertEqual(back, s)
        self.assertTrue(tdisc.verify(back, ring="Q"))

    def test_gaussian_rationals_come_as_complex_and_go_back_exactly(self):
        s = tdisc.read(SAMPLES["QI"])
        self.assertEqual(s.u.dtype, np.complex128)
        back = tdisc.Scheme(s.u, s.v, s.w)
        self.assertEqual(back, s)
        u, v, w = s.to_numpy("str")
        self.assertEqual(tdisc.Scheme(u, v, w), s)

    def test_forced_dtypes(self):
        s = tdisc.read(STRASSEN)
        u, _, _ = s.to_numpy("object")
        self.assertIsInstance(u[0, 0], Fraction)
        self.assertEqual(s.to_numpy("complex128")[0].dtype, np.complex128)
        with self.assertRaisesRegex(ValueError, r"W\[0, 2\]: 1/4 is not a 64-bit integer \(dtype int64\)"):
            tdisc.read(SAMPLES["Q"]).to_numpy("int64")
        with self.assertRaisesRegex(ValueError, "dtype"):
            s.to_numpy("float16")

    def test_ring_and_provenance(self):
        s = tdisc.read(STRASSEN)
        s.ring = "Z"
        self.assertEqual(s.ring, "Z")
        with self.assertRaisesRegex(ValueError, "ZT cannot hold every coefficient"):
            tdisc.read(SAMPLES["Q"]).ring = "ZT"
        with self.assertRaisesRegex(ValueError, "not a ring"):
            s.ring = "R"
        fresh = tdisc.Scheme(s.u, s.v, s.w, source="a test", licence="CC0", name="Strassen")
        self.assertEqual(fresh.provenance["source"], "a test")
        self.assertEqual(fresh.provenance["licence"], "CC0")
        self.assertEqual(fresh.provenance["method"], "python")

    def test_constructions(self):
        s = tdisc.read(SAMPLES["ZT 2x3x4"])
        self.assertEqual(s.rotate().format, "3x4x2")
        self.assertEqual(s.transpose().format, "4x3x2")
        self.assertTrue(tdisc.verify(s.rotate()))
        k = tdisc.read(STRASSEN).kron(tdisc.read(STRASSEN))
        self.assertEqual((k.format, k.rank), ("4x4x4", 49))
        self.assertTrue(tdisc.verify(k))


class BadArrays(support.TempDirCase):
    def setUp(self):
        super().setUp()
        self.s = tdisc.read(STRASSEN)

    def refused(self, pattern, *args, **kw):
        with self.assertRaisesRegex(ValueError, pattern):
            tdisc.Scheme(*args, **kw)

    def test_inexact_floats_name_their_entry(self):
        u = self.s.u.astype(float)
        u[2, 3] = 0.1
        self.refused(r"U\[2, 3\]: 0.1 is not exact: a float must be a multiple of 2\^-16", u, self.s.v, self.s.w)

    def test_nan_and_infinity(self):
        u = self.s.u.astype(complex)
        u[1, 2] = complex(0, float("inf"))
        self.refused(r"U\[1, 2\]: infj is not a finite number", u, self.s.v, self.s.w)
        w = self.s.w.astype(float)
        w[0, 0] = float("nan")
        self.refused(r"W\[0, 0\]: nan is not a finite number", self.s.u, self.s.v, w)

    def test_exact_floats_are_taken(self):
        self.assertEqual(tdisc.Scheme(self.s.u.astype(float), self.s.v, self.s.w), self.s)

    def test_bools_strings_and_objects(self):
        self.refused("a bool array", self.s.u.astype(bool), self.s.v, self.s.w)
        v = self.s.v.astype(object)
        v[1, 1] = "x/2"
        self.refused(r'V\[1, 1\]: "x/2" is not a coefficient', self.s.u, v, self.s.w)
        v[1, 1] = None
        self.refused(r"V\[1, 1\]: a <class 'NoneType'> is not a coefficient", self.s.u, v, self.s.w)

    def test_shapes(self):
        self.refused("W: 6 terms, but U has 7", self.s.u, self.s.v, self.s.w[:6])
        self.refused("U: a 1-D array", self.s.u[0], self.s.v, self.s.w)
        self.refused("U: no terms", self.s.u[:0], self.s.v[:0], self.s.w[:0])
        self.refused("cannot tell the format", self.s.u, self.s.v[:, :3], self.s.w)
        self.refused("U: terms of 4 coefficients; this format needs 2×3 = 6", self.s.u, self.s.v, self.s.w, size="2x3x4")
        self.refused("size: \"2y2\" is not a format", self.s.u, self.s.v, self.s.w, size="2y2")

    def test_ring_that_cannot_hold_the_coefficients(self):
        q = tdisc.read(SAMPLES["Q"])
        self.refused("GF2 cannot hold every coefficient", q.u, q.v, q.w, ring="GF2")


class Files(support.TempDirCase):
    def test_every_format_both_ways_round_trips(self):
        self.assertEqual(set(BOTH_WAYS) <= set(tdisc.formats()["read"]), True)
        self.assertEqual(set(BOTH_WAYS) <= set(tdisc.formats()["write"]), True)
        for name, path in SAMPLES.items():
            s = tdisc.read(path)
            for fmt in BOTH_WAYS:
                with self.subTest(scheme=name, format=fmt):
                    out = self.path(("roundtrip-mod2" if s.ring == "GF2" else "roundtrip") + EXTENSION.get(fmt, ".txt"))
                    if s.ring == "QI" and fmt in REAL_ONLY:
                        with self.assertRaisesRegex(ValueError, "cannot hold complex coefficients"):
                            s.write(out, format=fmt)
                        self.assertFalse(os.path.exists(out))
                        continue
                    s.write(out, format=fmt)
                    back = tdisc.read(out, format=fmt)
                    self.assertEqual(back.size, s.size)
                    self.assertEqual(back.hash8, s.hash8)
                    self.assertTrue((back.u == s.u).all() and (back.v == s.v).all() and (back.w == s.w).all())
                    self.assertEqual(back.to_text(fmt), s.to_text(fmt))
                    self.assertEqual(os.listdir(self.tmp), [os.path.basename(out)])  # no temporary left
                    os.remove(out)

    def test_write_only_formats(self):
        s = tdisc.read(STRASSEN)
        self.assertIn("\\begin", s.to_latex())
        for fmt in ("latex", "python", "slp"):
            s.write(self.path("out." + fmt), format=fmt)
            with open(self.path("out." + fmt)) as f:
                self.assertEqual(f.read(), s.to_text(fmt))

    def test_imports_of_the_published_formats(self):
        ae = tdisc.read(support.source("tests", "data", "alphaevolve", "mathematical_results.ipynb"),
                        format="alphaevolve-ipynb", key="444")
        self.assertEqual((ae.format, ae.rank), ("4x4x4", 48))
        self.assertEqual(tdisc.verify(ae, ring="auto").verdict, "valid over QI")
        self.assertIn("444", tdisc.keys(support.source("tests", "data", "alphaevolve", "mathematical_results.ipynb"),
                                        "alphaevolve-ipynb"))

    def test_errors_are_the_command_lines(self):
        with self.assertRaisesRegex(OSError, "missing.json: cannot read"):
            tdisc.read(self.path("missing.json"))
        bad = self.path("bad.json")
        with open(STRASSEN) as f:
            text = f.read()
        with open(bad, "w") as f:
            f.write(text.replace('"rank": 7', '"rank": 8'))
        code, _, err = support.cli("verify", bad)
        with self.assertRaises(ValueError) as caught:
            tdisc.read(bad)
        self.assertEqual(err.strip(), "tdisc: " + str(caught.exception))
        with self.assertRaisesRegex(ValueError, "unknown import format"):
            tdisc.read(STRASSEN, format="xml")
        with self.assertRaises(OSError):
            tdisc.read(STRASSEN).write(self.path("no/such/folder/x.json"))


if __name__ == "__main__":
    support.main()
