"""Shared by the Python tests (tests/python/tests.cmake runs each file with Debian's python3):
a missing module skips the test with exit 77, which CTest reports as skipped, never passed."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SKIP = 77
SOURCE = os.environ.get("TDISC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("TDISC_BINARY", "tdisc")


def require(*modules):
    """Imports each module, or exits 77 (skipped) naming the one that is missing."""
    for name in modules:
        try:
            __import__(name)
        except ImportError as e:
            print(f"{name} not importable ({e}): skipped")
            sys.exit(SKIP)


def source(*parts):
    return os.path.join(SOURCE, *parts)


def catalogue_files(max_volume=None):
    """Every native file of algorithms/ (large ones gzip-compressed, .json.gz), sorted; with
    max_volume, only the formats n·m·p up to it."""
    out = []
    root = source("algorithms")
    for folder in sorted(os.listdir(root)):
        path = os.path.join(root, folder)
        if not (os.path.isdir(path) and "x" in folder):
            continue
        n, m, p = (int(d) for d in folder.split("x"))
        if max_volume is None or n * m * p <= max_volume:
            out += [os.path.join(path, f) for f in sorted(os.listdir(path)) if f.endswith((".json", ".json.gz"))]
    return out


def cli(*args, check=True):
    """Runs the tdisc binary; returns (exit code, stdout, stderr)."""
    p = subprocess.run([BINARY, *args], capture_output=True, text=True)
    if check and p.returncode not in (0, 2, 3):
        raise AssertionError(f"tdisc {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


class TempDirCase(unittest.TestCase):
    """A fresh temporary folder per test, removed afterwards."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="tdisc-python-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)


def main():
    unittest.main(verbosity=2)
