"""docs/PERFORMANCE.md is generated from bench/results/*.json (bench/performance.py, schema in
bench/README.md): the committed page is the generator's output, every file it links exists, every
results file a doc names exists, every link into the page names one of its sections, a schema'd
result that misses a field is refused as `FILE: what is missing`, and the newest result of a title
replaces the older one. Standard library only."""
import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

ROOT = os.environ.get("TDISC_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import bench_json  # noqa: E402
import performance  # noqa: E402

PAGE = os.path.join(ROOT, "docs", "PERFORMANCE.md")
FIXTURE = os.path.join(ROOT, "tests", "data", "tdisc", "bench-result-missing-machine.json")


def result(title, date, value, **summary):
    return {"schema": bench_json.SCHEMA, "date": date, "machine": "VM (2 cores)", "commit": "abc1234",
            "command": "bench/x.sh", "summary": dict({"area": "Verification", "title": title,
                                                      "rows": [{"case": "c", "value": value}]}, **summary)}


def run(*args):
    """performance.main(ARGS) in process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = performance.main(list(args))
    return code, out.getvalue(), err.getvalue()


class TempRepo(unittest.TestCase):
    """A miniature repository: bench/results/ with the given files, docs/notes/ with one note."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="tdisc-perf-")
        os.makedirs(os.path.join(self.root, "bench", "results"))
        os.makedirs(os.path.join(self.root, "docs", "notes"))
        with open(os.path.join(self.root, "docs", "notes", "2026-11-26-x.md"), "w") as f:
            f.write("# X\n")

    def tearDown(self):
        shutil.rmtree(self.root)

    def put(self, name, doc):
        with open(os.path.join(self.root, "bench", "results", name), "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))

    def page(self):
        code, _, err = run("--root", self.root)
        self.assertEqual(code, 0, err)
        with open(os.path.join(self.root, "docs", "PERFORMANCE.md")) as f:
            return f.read()


class CommittedPage(unittest.TestCase):
    def test_the_committed_page_is_the_generators_output(self):
        code, out, err = run("--root", ROOT, "--check")
        self.assertEqual(code, 0, "docs/PERFORMANCE.md is stale or hand-edited:\n" + err)
        self.assertIn("is current", out)

    def test_the_page_is_about_200_lines_and_has_every_area_of_its_results(self):
        with open(PAGE) as f:
            text = f.read()
        self.assertLess(text.count("\n"), 260)
        docs, ignored = performance.load(os.path.join(ROOT, "bench", "results"), ROOT)
        self.assertGreaterEqual(len(docs), 40)
        for area in {d["summary"]["area"] for _, d in docs}:
            self.assertIn("\n## " + area + "\n", text)

    def test_every_file_the_page_links_exists(self):
        with open(PAGE) as f:
            targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", f.read())
        results = [t for t in targets if t.startswith("../bench/results/")]
        self.assertGreaterEqual(len(results), 40)
        for t in targets:
            if not t.startswith("http"):
                self.assertTrue(os.path.exists(os.path.normpath(os.path.join(ROOT, "docs", t))), "PERFORMANCE.md links " + t)

    def test_every_results_file_a_doc_names_exists(self):
        docs = [os.path.join(ROOT, "README.md")] + glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)
        named = 0
        for path in docs:
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    # RESULT=bench/results/X.json in a command names a file to write, not one that exists
                    for name in re.findall(r"(?<![=\w/])bench/results/([A-Za-z0-9_.-]+\.(?:json|log|txt))", line):
                        named += 1
                        self.assertTrue(os.path.isfile(os.path.join(ROOT, "bench", "results", name)),
                                        "%s:%d: names bench/results/%s, which does not exist" % (os.path.relpath(path, ROOT), number, name))
        self.assertGreater(named, 20)


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


class Anchors(unittest.TestCase):
    def test_every_link_into_the_page_names_one_of_its_sections(self):
        with open(PAGE) as f:
            anchors = {slug(l.lstrip("#")) for l in f if l.startswith("#")}
        self.assertIn("symmetric-ansätze", anchors)
        self.assertEqual(slug("Ozaki/emulation"), "ozakiemulation")
        docs = [os.path.join(ROOT, "README.md")] + glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)
        for path in docs:
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    for anchor in re.findall(r"PERFORMANCE\.md#([^)\s]+)\)", line):
                        self.assertIn(anchor, anchors, "%s:%d: links PERFORMANCE.md#%s, a section the page does not have"
                                      % (os.path.relpath(path, ROOT), number, anchor))


class Generator(TempRepo):
    def test_a_schemad_file_missing_a_field_is_refused_naming_the_file_and_the_field(self):
        shutil.copy(FIXTURE, os.path.join(self.root, "bench", "results", "bad.json"))
        self.put("good.json", result("t", "2026-11-26", "1 s"))
        code, _, err = run("--root", self.root)
        self.assertEqual(code, 1)
        self.assertIn("bench/results/bad.json: no `machine`", err)
        self.assertFalse(os.path.exists(os.path.join(self.root, "docs", "PERFORMANCE.md")))

    def test_each_missing_summary_field_is_named(self):
        doc = result("t", "2026-11-26", "1 s")
        del doc["summary"]["rows"]
        doc["commit"] = ""
        self.assertEqual(bench_json.problems(doc), ["`commit` is not words (a non-empty string)", "no `summary.rows`"])
        doc = result("t", "2026-11-26", "1 s")
        doc["summary"]["rows"] = [{"case": {"nested": 1}}]
        self.assertEqual(bench_json.problems(doc), ["`summary.rows[0]` is not flat (a value is a list or an object)"])
        self.assertEqual(bench_json.problems(result("t", "2026-11-26", "1 s")), [])

    def test_files_without_schema_are_passed_over(self):
        self.put("old.json", {"date": "2026-11-20", "rows": []})
        self.put("new.json", result("t", "2026-11-26", "7 s"))
        text = self.page()
        self.assertIn("7 s", text)
        self.assertNotIn("old.json", text)

    def test_the_newest_result_of_a_title_replaces_the_older_unless_kept(self):
        self.put("a.json", result("same", "2026-11-21T10:00Z", "old value"))
        self.put("b.json", result("same", "2026-11-26", "new value", note="2026-11-26-x.md"))
        self.put("c.json", result("other", "not recorded", "undated value"))
        text = self.page()
        self.assertIn("new value", text)
        self.assertNotIn("old value", text)
        self.assertIn("undated value", text)
        self.assertIn("(notes/2026-11-26-x.md)", text)
        self.put("a.json", result("same", "2026-11-21T10:00Z", "old value", keep=True))
        self.assertIn("old value", self.page())

    def test_a_note_that_does_not_exist_is_refused(self):
        self.put("a.json", result("t", "2026-11-26", "1 s", note="2026-01-01-gone.md"))
        code, _, err = run("--root", self.root)
        self.assertEqual(code, 1)
        self.assertIn("docs/notes/2026-01-01-gone.md, which does not exist", err)

    def test_output_is_deterministic_and_check_sees_a_hand_edit(self):
        self.put("b.json", result("b", "2026-11-26", "2 s"))
        self.put("a.json", result("a", "2026-11-26", "1 s"))
        first = self.page()
        self.assertLess(first.index("1 s"), first.index("2 s"))  # sorted by file
        self.assertEqual(first, self.page())
        self.assertEqual(run("--root", self.root, "--check")[0], 0)
        path = os.path.join(self.root, "docs", "PERFORMANCE.md")
        with open(path, "w") as f:
            f.write(first.replace("1 s", "0.9 s"))
        code, _, err = run("--root", self.root, "--check")
        self.assertEqual(code, 1)
        self.assertIn("docs/PERFORMANCE.md: differs", err)
        self.assertIn("+| [a](../bench/results/a.json) | c | 1 s", err)
        self.put("c.json", result("c", "2026-11-27", "3 s"))  # a new result, page not regenerated
        with open(path, "w") as f:
            f.write(first)
        self.assertEqual(run("--root", self.root, "--check")[0], 1)


class Writer(unittest.TestCase):
    def test_write_result_conforms_and_refuses_what_misses_a_field(self):
        tmp = tempfile.mkdtemp(prefix="tdisc-perf-")
        try:
            out = os.path.join(tmp, "r.json")
            raw = {"date": "2026-11-26", "machine": {"cpu": "AMD EPYC", "cores": 2}, "commit": "abc1234",
                   "command": "bench/x.sh", "summary": {"row": {"hits": 3}}}
            with redirect_stdout(io.StringIO()):
                bench_json.write_result(raw, out, tmp, "x", summary={"area": "Recipes", "title": "t", "rows": [{"case": "c"}]})
            with open(out) as f:
                doc = json.load(f)
            self.assertEqual(bench_json.problems(doc), [])
            self.assertEqual(list(doc)[0], "schema")
            self.assertEqual(doc["machine"], "cpu AMD EPYC, cores 2")
            self.assertEqual(doc["runs_summary"], {"row": {"hits": 3}})
            del raw["commit"]
            with self.assertRaises(SystemExit) as e:
                bench_json.write_result(raw, os.path.join(tmp, "s.json"), tmp, "x", summary={"area": "R", "title": "t", "rows": [{"c": 1}]})
            self.assertIn("s.json: no `commit`", str(e.exception))
            self.assertFalse(os.path.exists(os.path.join(tmp, "s.json")))
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main()
