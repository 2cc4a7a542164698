"""docs/python.md is a notebook in prose: every `>>>` example in it runs (doctest, "..." matching any
text), in a fresh folder that sees the repository's algorithms/ and tests/ as a user at its root would."""
import doctest
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
import support  # noqa: E402

support.require("numpy", "tdisc")


class Docs(support.TempDirCase):
    def test_every_example_in_docs_python_md_runs_as_shown(self):
        for sub in ("algorithms", "tests"):
            os.symlink(support.source(sub), self.path(sub))
        here = os.getcwd()
        os.chdir(self.tmp)
        try:
            result = run_examples(support.source("docs", "python.md"))
        finally:
            os.chdir(here)
        self.assertGreater(result.attempted, 10)
        self.assertEqual(result.failed, 0)


def run_examples(path):
    """doctest over the Markdown, its code fences blanked (a fence would end an expected output
    otherwise); line numbers stay those of the file."""
    with open(path) as f:
        text = re.sub(r"^```.*$", "", f.read(), flags=re.M)
    test = doctest.DocTestParser().get_doctest(text, {}, os.path.basename(path), path, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    return runner.summarize(verbose=False)


if __name__ == "__main__":
    support.main()
