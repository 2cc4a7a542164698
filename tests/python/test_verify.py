"""tdisc.verify gives tdisc verify's verdicts, word for word, over the whole catalogue (algorithms/)
and on broken schemes; tdisc.catalog answers as tdisc catalog list|best|add do."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import support  # noqa: E402

support.require("numpy", "tdisc")
import tdisc  # noqa: E402

STRASSEN = support.source("algorithms", "2x2x2", "r7-ZT-02268ba0.json")


def cli_verdicts(files, ring):
    """{file: verdict} from tdisc verify --json [--ring R]."""
    args = ["verify", "--json"] + (["--ring", ring] if ring else []) + files
    _, out, _ = support.cli(*args)
    return {j["file"]: j["verdict"] for j in map(json.loads, out.splitlines())}


class Verdicts(support.TempDirCase):
    def test_the_catalogue_over_each_ring_as_the_cli_says(self):
        # Formats up to 8x8x8: the campaign starts of issue 29 beyond it (up to rank 2209) take minutes
        # over four rings twice; catalog_fast verifies every file, and the next case reads one of them.
        files = support.catalogue_files(max_volume=512)
        self.assertGreater(len(files), 50)
        schemes = {f: tdisc.read(f) for f in files}
        for ring in (None, "auto", "Z", "GF2"):
            expected = cli_verdicts(files, ring)
            self.assertEqual(set(expected), set(files))
            for f in files:
                with self.subTest(file=os.path.relpath(f, support.SOURCE), ring=ring):
                    got = tdisc.verify(schemes[f], ring=ring)
                    self.assertEqual(got.verdict, expected[f])
                    self.assertEqual(bool(got), not expected[f].startswith(("INVALID", "not valid")))

    def test_a_compressed_catalogue_file_reads_and_verifies_as_the_cli_says(self):
        f = support.source("algorithms", "9x10x15", "r864-ZT-fed69fba.json.gz")
        s = tdisc.read(f)
        self.assertEqual((s.rank, s.ring), (864, "ZT"))
        got = tdisc.verify(s)
        self.assertTrue(got)
        self.assertEqual(got.verdict, cli_verdicts([f], None)[f])

    def test_a_broken_scheme_names_the_first_failing_brent_equation(self):
        s = tdisc.read(STRASSEN)
        u = s.u.copy()
        u[3, 0] += 1
        broken = tdisc.Scheme(u, s.v, s.w)
        path = self.path("broken.json")
        broken.write(path)
        code, out, err = support.cli("verify", path)
        self.assertEqual(code, 2)
        result = tdisc.verify(broken)
        self.assertFalse(result)
        self.assertIn(result.verdict, out)
        self.assertEqual(err.strip(), f"tdisc: {path}: {result.verdict}")
        self.assertIn("Brent equation", result.verdict)
        self.assertIsNotNone(result.failure)
        self.assertIn(3, result.failure.terms)
        self.assertIn(str(result.failure), result.verdict)
        self.assertEqual(tdisc.verify(path).verdict, result.verdict)  # a path is read as tdisc verify reads it

    def test_a_ring_that_cannot_hold_the_coefficients(self):
        q = tdisc.read(support.source("algorithms", "4x4x4", "r48-Q-2fc8ef12.json"))
        self.assertEqual(tdisc.verify(q, ring="GF2").verdict, cli_verdicts([q_path()], "GF2")[q_path()])
        with self.assertRaisesRegex(ValueError, "not a ring"):
            tdisc.verify(q, ring="R")


def q_path():
    return support.source("algorithms", "4x4x4", "r48-Q-2fc8ef12.json")


class Catalogue(support.TempDirCase):
    def test_best_is_the_clis(self):
        for size, ring in (("4x4", "Q"), ("4x4", None), ("3x3", "ZT"), ("2x3x4", None), ("6x6", None)):
            with self.subTest(size=size, ring=ring):
                code, out, _ = support.cli("catalog", "best", "--size", size, *(["--ring", ring] if ring else []))
                entry = tdisc.catalog.best(size, ring=ring)
                self.assertEqual(code, 0)
                self.assertEqual(out.split()[:3], [entry.path, str(entry.rank), entry.ring])
        self.assertEqual(tdisc.catalog.best(4, 4, 4, ring="Q").rank, 48)
        self.assertIsNone(tdisc.catalog.best(9, 9, 9))

    def test_list_is_the_clis(self):
        _, out, _ = support.cli("catalog", "list", "--size", "4x4")
        # "4x4x4    rank 48   Q    PATH  NAME"
        self.assertEqual([line.split()[4] for line in out.splitlines()], [e.path for e in tdisc.catalog.list("4x4")])
        self.assertEqual(len(tdisc.catalog.list()), len(support.catalogue_files()))
        entry = tdisc.catalog.list("2x2x2", ring="ZT")[0]
        self.assertTrue(tdisc.verify(entry.read()))

    def test_add_verifies_first_and_narrows_the_ring(self):
        s = tdisc.read(STRASSEN)
        fresh = tdisc.Scheme(s.u, s.v, s.w, ring="Q", source="a test", licence="CC0")
        what, path = tdisc.catalog.add(fresh, dir=self.tmp)
        self.assertEqual(what, "added")
        self.assertTrue(path.endswith(os.path.join("2x2x2", s.file_name)))  # narrowed to ZT
        self.assertEqual(tdisc.catalog.add(fresh, dir=self.tmp)[0], "already there")
        self.assertEqual(tdisc.catalog.add(fresh, if_better=True, dir=self.tmp)[0], "already there")
        u = s.u.copy()
        u[0, 0] = 5
        with self.assertRaisesRegex(ValueError, "not valid over Z: Brent equation"):
            tdisc.catalog.add(tdisc.Scheme(u, s.v, s.w, source="x", licence="y"), dir=self.tmp)
        with self.assertRaisesRegex(ValueError, "no licence"):
            tdisc.catalog.add(tdisc.Scheme(s.u, s.v, s.w, source="x"), dir=self.tmp)
        self.assertEqual(len(tdisc.catalog.list(dir=self.tmp)), 1)

    def test_best_known(self):
        table = tdisc.catalog.best_known()
        self.assertEqual(table[(2, 2, 2)], 7)
        self.assertEqual(table[(3, 3, 3)], 23)
        gf2 = tdisc.catalog.best_known(ring="GF2")
        self.assertEqual(gf2[(4, 4, 4)][0], 47)
        self.assertEqual(tdisc.catalog.best_known(ring="Q")[(4, 4, 4)][0], 48)
        self.assertEqual(tdisc.catalog.best_known(ring="ZT")[(4, 4, 4)][0], 49)
        self.assertTrue(gf2[(4, 4, 4)][1])  # a source for every value
        with self.assertRaisesRegex(ValueError, "unknown ring"):
            tdisc.catalog.best_known(ring="R")


if __name__ == "__main__":
    support.main()
