"""tdisc.search: the flip engine finds 3x3:23 over ZT in process; the progress callback sees the run
and can stop it; Ctrl-C stops it cleanly, keeps the checkpoint, raises SearchInterrupted, and the
run resumes; the GIL is free while it runs."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import types
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))
import support  # noqa: E402

support.require("numpy", "tdisc")
import tdisc  # noqa: E402

UNREACHABLE = dict(size="3x3", rank=20, ring="ZT", engine="flip", threads=1, symmetry="none")  # 23 is the best known


class Search(support.TempDirCase):
    def test_the_flip_engine_finds_3x3_rank_23(self):
        r = tdisc.search(size="3x3", rank=23, ring="ZT", engine="flip", threads=1, seed=5, time="60s",
                         out=self.path("run"))
        self.assertTrue(r.reached)
        self.assertEqual((r.best_rank, r.engine, r.seed, r.run_dir), (23, "flip", 5, self.path("run")))
        self.assertFalse(r.interrupted)
        self.assertTrue(os.path.exists(os.path.join(r.run_dir, "run.json")))
        best = r.schemes[-1]
        self.assertEqual((best.format, best.rank), ("3x3x3", 23))
        self.assertTrue(tdisc.verify(best, ring="ZT"))
        self.assertEqual(tdisc.read(r.best_file), best)

    def test_progress_is_reported_and_false_stops_the_search(self):
        seen = []

        def progress(view):
            seen.append(view)
            return len(seen) < 3

        t0 = time.monotonic()
        r = tdisc.search(**UNREACHABLE, time="60s", seed=1, out=self.path("run"), progress=progress)
        self.assertLess(time.monotonic() - t0, 30)
        self.assertEqual(len(seen), 3)
        self.assertEqual(seen[-1]["target_rank"], 20)
        self.assertGreater(seen[-1]["counters"].get("flips", 0), 0)
        self.assertTrue(r.interrupted and r.cancelled and not r.reached)
        self.assertTrue(os.path.exists(os.path.join(r.run_dir, "checkpoint.json")))

    def test_an_exception_in_the_callback_stops_the_search_and_is_raised(self):
        def progress(view):
            raise LookupError("from the callback")

        with self.assertRaisesRegex(LookupError, "from the callback"):
            tdisc.search(**UNREACHABLE, time="60s", seed=1, out=self.path("run"), progress=progress)

    def test_progress_bar_through_tqdm(self):
        class FakeBar:  # what tdisc uses of tqdm.auto.tqdm
            def __init__(self, **kw):
                self.kw, self.postfix, self.closed = kw, [], False

            def set_postfix_str(self, text, refresh=True):
                self.postfix.append(text)

            def close(self):
                self.closed = True

        bars = []
        fake = types.ModuleType("tqdm.auto")
        fake.tqdm = lambda **kw: bars.append(FakeBar(**kw)) or bars[-1]
        with mock.patch.dict(sys.modules, {"tqdm.auto": fake}):
            tdisc.search(**UNREACHABLE, time=1.5, seed=1, out=self.path("run"), progress="bar")
        self.assertEqual(len(bars), 1)
        self.assertTrue(bars[0].closed)
        self.assertEqual(bars[0].kw["desc"], "tdisc search 3x3")
        self.assertRegex(bars[0].postfix[-1], r"^best rank (\d+|-) \(target 20\)$")
        with mock.patch.dict(sys.modules, {"tqdm.auto": None}):
            with self.assertRaisesRegex(ValueError, "needs tqdm"):
                tdisc.search(**UNREACHABLE, time=1.0, seed=1, out=self.path("run2"), progress="bar")

    def test_the_gil_is_free_while_it_runs(self):
        ticks = []
        stop = threading.Event()

        def count():
            while not stop.is_set():
                ticks.append(1)
                time.sleep(0.01)

        t = threading.Thread(target=count)
        t.start()
        tdisc.search(**UNREACHABLE, time=2.0, seed=1, out=self.path("run"))
        stop.set()
        t.join()
        # 2 s at up to 100 Hz; had the GIL been held, 0 or 1. A loaded machine that wakes the ticker
        # late still counts far above 10
        self.assertGreater(len(ticks), 10)

    def test_bad_keywords_are_the_command_lines_errors(self):
        with self.assertRaisesRegex(ValueError, "--rank: 28 is out of range"):
            tdisc.search(size="3x3", rank=28, out=self.path("r"))
        with self.assertRaisesRegex(ValueError, 'size: "3y3" is not a format'):
            tdisc.search(size="3y3", out=self.path("r"))
        with self.assertRaisesRegex(ValueError, 'time: "soon" is not a duration'):
            tdisc.search(time="soon", out=self.path("r"))
        with self.assertRaisesRegex(ValueError, "params: "):
            tdisc.search(**UNREACHABLE, params={"no_such_parameter": 1}, out=self.path("r"))


TABLE_ROW = {"id": "test-2x2-7", "size": "2x2x2", "rank": "7", "rings": ["ZT"], "device": "any", "engine": "flip",
             "symmetry": "none", "params": {"batch": 128, "pool_size": 7}, "why": "a row of this test"}


class Plan(support.TempDirCase):
    """tdisc.search runs the plan tdisc search runs: the recipe table's row, --params over it key by key."""

    def table(self):
        path = self.path("recipes.json")
        with open(path, "w") as f:
            f.write('{"format": "tdisc-recipes", "version": 1, "rows": [\n' + json.dumps(TABLE_ROW) + "\n]}\n")
        return path

    def run_json(self, run_dir):
        with open(os.path.join(run_dir, "run.json")) as f:
            return json.load(f)

    def test_the_row_runs_and_params_override_it_key_by_key_as_on_the_command_line(self):
        table = self.table()
        r = tdisc.search(size="2x2", rank=7, ring="ZT", seed=3, time="30s", recipes=table, params={"pool_size": 9},
                         out=self.path("py"))
        self.assertTrue(r.reached)
        self.assertEqual(r.recipe, "test-2x2-7")
        self.assertIn(table + ":2", r.recipe_why)
        py = self.run_json(r.run_dir)
        self.assertEqual((py["params"]["batch"], py["params"]["pool_size"], py["params"]["symmetry"]), (128, 9, "none"))
        self.assertEqual(py["recipe"]["id"], "test-2x2-7")
        code, out, err = support.cli("search", "--size", "2x2", "--rank", "7", "--ring", "ZT", "--seed", "3", "--time", "30s",
                                     "--recipes", table, "--params", '{"pool_size":9}', "-q", "--out", self.path("cli"))
        self.assertEqual(code, 0, err)
        cli = self.run_json(self.path("cli"))
        self.assertEqual(py["params"], cli["params"])
        self.assertEqual((py["engine"], py["threads"], py["recipe"]), (cli["engine"], cli["threads"], cli["recipe"]))

    def test_the_catalogues_table_is_read_by_default(self):
        r = tdisc.search(size="3x3", ring="ZT", threads=1, seed=5, time="60s", out=self.path("run"))
        self.assertTrue(r.reached)
        self.assertEqual(r.recipe, "3x3x3-23")
        self.assertEqual(self.run_json(r.run_dir)["params"].get("symmetry"), "z3")

    def test_no_row_fits_a_portfolio_runs(self):
        r = tdisc.search(size="2x2", rank=7, ring="ZT", threads=1, seed=1, time="30s", recipes=self.path("none.json"),
                         out=self.path("run"))
        self.assertEqual(r.recipe, "portfolio")
        self.assertIn("no row of", r.recipe_why)
        self.assertNotIn("batch", self.run_json(r.run_dir)["params"])


CHILD = textwrap.dedent("""
    import signal, os, sys, tdisc
    try:
        tdisc.search(size="3x3", rank=20, ring="ZT", engine="flip", threads=1, symmetry="none", seed=1,
                     time="60s", out=sys.argv[1], checkpoint_every=0.5,
                     progress=lambda view: print("progress", flush=True))
    except tdisc.SearchInterrupted as e:
        print("interrupted", e.result.run_dir, e.result.interrupted, isinstance(e, KeyboardInterrupt), flush=True)
        try:  # Python's own Ctrl-C handling is back
            os.kill(os.getpid(), signal.SIGINT)
            signal.pause()
        except KeyboardInterrupt:
            print("python handles SIGINT again", flush=True)
        sys.exit(130)
""")


class Interrupt(support.TempDirCase):
    def test_ctrl_c_stops_cleanly_keeps_the_checkpoint_and_resumes(self):
        run = self.path("run")
        child = subprocess.Popen([sys.executable, "-c", CHILD, run], stdout=subprocess.PIPE, text=True)
        self.assertEqual(child.stdout.readline().strip(), "progress")
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
        self.assertEqual(child.returncode, 130, out)
        self.assertIn(f"interrupted {run} True True", out)
        self.assertIn("python handles SIGINT again", out)
        with open(os.path.join(run, "checkpoint.json")) as f:
            checkpoint = json.load(f)
        self.assertEqual(checkpoint["format"], "tdisc-checkpoint")
        with open(os.path.join(run, "events.jsonl")) as f:
            finished = [json.loads(line) for line in f if '"finished"' in line]
        self.assertTrue(finished[-1]["interrupted"])
        self.assertEqual([n for n in os.listdir(run) if ".tmp" in n], [])  # nothing half-written
        r = tdisc.search(resume=run, time=1.0)
        self.assertEqual((r.run_dir, r.rank, r.seed, r.interrupted), (run, 20, 1, False))
        self.assertGreater(r.seconds, 0.5)


if __name__ == "__main__":
    support.main()
