"""tdisc from Python: schemes as NumPy arrays, exact verification, every file format, the catalogue,
searches, and a PyTorch matmul through libtdisc_gemm. Thin over tdisc's C++ libraries (the extension
module tdisc._tdisc); guide and examples: docs/python.md.

Errors are the command line's: ValueError for bad input (with tdisc's "FILE:LINE: what" text),
OSError when the file system refuses.
"""
import os

from . import _tdisc
from ._tdisc import BrentFailure, CatalogueEntry, Scheme, SearchResult, Verification, read

__all__ = ["Scheme", "Verification", "BrentFailure", "SearchResult", "SearchInterrupted", "read", "verify",
           "formats", "keys", "search", "catalog"]
TOOL = _tdisc.TOOL


def verify(scheme, ring=None):
    """Proves or refutes a Scheme (or a native file) exactly, as `tdisc verify` does.

    ring: None for the ring the scheme declares, a ring name ("ZT", "Z", "Q", "QI", "GF2", "GF3"), or
    "auto" for the smallest ring it is valid over. The result is true when valid; .verdict holds
    tdisc verify's words and .failure the first failing Brent equation."""
    if isinstance(scheme, (str, os.PathLike)):
        scheme = read(os.fspath(scheme))
    return _tdisc.verify(scheme, ring)


def formats():
    """The formats tdisc.read takes and Scheme.write writes: {"read": [...], "write": [...]}."""
    return {"read": _tdisc.import_formats(), "write": _tdisc.export_formats()}


def keys(path, format):
    """The keys of a multi-scheme file ("3,4,5" in an AlphaTensor .npz, "444" in the AlphaEvolve notebook)."""
    return _tdisc.list_keys(format=format, path=os.fspath(path))


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during tdisc.search: the search stopped cleanly and kept its checkpoint.
    .result is its SearchResult; tdisc.search(resume=e.result.run_dir) continues it."""

    def __init__(self, result):
        super().__init__(f"search interrupted; continue with tdisc.search(resume={result.run_dir!r})")
        self.result = result


def search(size="3x3", *, rank=None, ring=None, engine="auto", threads=0, time="10m", seed=None, out=None,
           params=None, start=None, symmetry="auto", lattice=None, device=None, checkpoint_every=30.0,
           catalog=False, catalog_dir=None, resume=None, progress=None, recipes=None):
    """Runs a search in this process with tdisc search's engines and orchestrator (every scheme it
    keeps is verified exactly and written to the run directory). Returns a SearchResult (.reached,
    .best_rank, .schemes, .run_dir).

    The keywords are tdisc search's options (time: seconds or "90s"/"10m"/"unlimited"; out: the run
    directory, default runs/<format>-r<R>-<time>; resume: continue a run directory). progress: a
    callable given a dict (elapsed, best_rank, target_rank, counters) about twice a second from
    another thread; returning False stops the search, which then returns normally; progress="bar" shows
    a tqdm bar (a widget in notebooks; tqdm must be installed). Ctrl-C stops it
    cleanly, keeps the checkpoint and raises SearchInterrupted (a KeyboardInterrupt).

    The plan is tdisc search's: the recipe table (recipes=, else <catalog_dir>/recipes.json, else the
    catalogue's: TDISC_CATALOG_DIR or the source tree's algorithms/) picks the recipe for the target,
    and params= overrides its parameters key by key; .recipe and .recipe_why say which and why
    (docs/recipes.md)."""
    from . import catalog as _catalog
    try:
        plan_catalogue = os.fspath(catalog_dir) if catalog_dir is not None else _catalog.default_dir()
    except ValueError:  # an installed package without its build's paths and no TDISC_CATALOG_DIR: no table
        plan_catalogue = ""
    if catalog_dir is None:
        catalog_dir = _catalog.default_dir() if catalog else ""
    bar = None
    if progress == "bar":
        bar, progress = _progress_bar(size if resume is None else os.fspath(resume))
    try:
        result = _tdisc.search(size=size, rank=rank, ring=ring, engine=engine, threads=threads, time=time, seed=seed,
                               out=None if out is None else os.fspath(out), params=params, start=start,
                               symmetry=symmetry, lattice=lattice, device=device, checkpoint_every=checkpoint_every,
                               catalog=catalog, catalog_dir=os.fspath(catalog_dir),
                               resume=None if resume is None else os.fspath(resume), progress=progress,
                               plan_catalogue=plan_catalogue, recipes=None if recipes is None else os.fspath(recipes))
    finally:
        if bar is not None:
            bar.close()
    if result.interrupted and not result.cancelled:
        raise SearchInterrupted(result)
    return result


def _progress_bar(what):
    """A tqdm bar (tqdm.auto: a widget in a notebook) and the callback that feeds it."""
    try:
        from tqdm.auto import tqdm
    except ImportError as e:
        raise ValueError('progress="bar" needs tqdm (Debian: python3-tqdm); give a callable instead') from e
    bar = tqdm(desc=f"tdisc search {what}", bar_format="{desc}: {elapsed} {postfix}")

    def update(view):
        best = view["best_rank"] if view["best_rank"] is not None else "-"
        bar.set_postfix_str(f"best rank {best} (target {view['target_rank']})", refresh=True)

    return bar, update


from . import catalog  # noqa: E402  (uses the names above)
