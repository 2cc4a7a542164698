"""The catalogue (algorithms/ of the source tree, or TDISC_CATALOG_DIR, or dir=): what `tdisc catalog
list|best|add` do, from Python."""
import os

from . import _tdisc

try:
    from . import _build
except ImportError:  # an installed package without its build's paths
    _build = None


def default_dir():
    """TDISC_CATALOG_DIR, else the source tree's algorithms/ (as tdisc catalog --dir's default)."""
    env = os.environ.get("TDISC_CATALOG_DIR")
    if env:
        return env
    if _build is None:
        raise ValueError("no catalogue known: set TDISC_CATALOG_DIR or give dir=")
    return _build.CATALOG_DIR


def _dir(dir):
    return os.fspath(dir) if dir is not None else default_dir()


def _size(n, m, p):
    if isinstance(n, str):
        return n
    if m is None and p is None:
        m = p = n
    if m is None or p is None:
        raise ValueError("give n, m and p (or n alone for n×n×n, or a text such as \"2x3x4\")")
    return f"{n}x{m}x{p}"


def list(size=None, ring=None, exact=False, dir=None):  # noqa: A001 (the verb's name)
    """Catalogued schemes (CatalogueEntry), optionally for a format ("4x4", its permutations too
    unless exact) and usable over a ring."""
    return _tdisc.catalogue_list(_dir(dir), size, ring, exact)


def best(n, m=None, p=None, ring=None, exact=False, dir=None):
    """The lowest-rank catalogued scheme for ⟨n,m,p⟩ usable over ring, or None: best(4, 4, 4, ring="Q"),
    best(4), best("2x3x4"). .read() gives the Scheme."""
    return _tdisc.catalogue_best(_dir(dir), _size(n, m, p), ring, exact)


def add(scheme, if_better=False, dir=None):
    """Files a scheme as tdisc catalog add does: verified over its declared ring first (ValueError if
    not valid), narrowed to the smallest ring it is valid over, provenance with a source and a
    licence required. Returns ("added" | "already there" | "dominated", path)."""
    return _tdisc.catalogue_add(_dir(dir), scheme, if_better)


def best_known(path=None, ring=None):
    """Best known rank per sorted format. Without ring: {(n, m, p): rank} from the FMM digest
    (algorithms/best-known/fmm_sota.json, which records no ring). With ring ("GF2", "GF3", "ZT", "Z",
    "Q"): {(n, m, p): (rank, source, date)} over that ring, from algorithms/best-known/rings.tsv, as
    `tdisc catalog best --known --ring` answers."""
    if path is None:
        path = os.environ.get("TDISC_CATALOG_SOTA") or (_build.BEST_KNOWN if _build else None)
        if path is None:
            raise ValueError("no best-known table known: give path=")
        if ring is not None:
            path = os.path.join(os.path.dirname(os.fspath(path)), "rings.tsv")
    if ring is not None:
        return _tdisc.best_known_ring(os.fspath(path), ring)
    return _tdisc.best_known(os.fspath(path))
