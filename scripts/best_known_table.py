#!/usr/bin/env python3
"""Builds algorithms/best-known/rings.tsv: the best known rank of every sorted format
2 <= n <= m <= p <= 16 over GF2, GF3, ZT, Z and Q, with the source and date of each value.

Inputs (public data, read from local copies; nothing is downloaded):
  --perminov FILE   dronperminov/FastMatrixMultiplication schemes/status.json (MIT): ZT, Z, Q ranks
  --fmm FILE        sedoglavic/fmm_digest fmm_sota.json: best rank per format, ring not stated (taken as Q)
  --extra FILE      TSV lines "format ring rank source date" for values from elsewhere (LITA cubes,
                    GF2-only schemes); see algorithms/best-known/extra.tsv. May be given again:
                    algorithms/best-known/q-mod-p.tsv holds Perminov's rational schemes that tdisc
                    verified over GF2 or GF3 (scripts/q_schemes_mod_p.sh)
Closure: joins and Kronecker products of two values, and restrictions (one index removed) of one.
Rules: a ZT scheme is a Z scheme; a Z scheme is a Q scheme and, reduced, a GF2 and a GF3 scheme.
So Z = min(ZT, Z), Q = min(Z, Q, FMM, extra Q), GF2 = min(Z, extra GF2), GF3 = min(Z, extra GF3).
A Q value never counts for GF2/GF3 here (its denominators are not known). Ties keep the first
source in the order ZT, Z, Q (Perminov), FMM, extra.
Usage: python3 scripts/best_known_table.py --perminov status.json --fmm fmm_sota.json \
         --extra algorithms/best-known/extra.tsv --perminov-commit d17309a --perminov-date 2026-07-02 > rings.tsv
"""
import argparse
import itertools
import json
import sys

RINGS = ("GF2", "GF3", "ZT", "Z", "Q")


def sorted_key(text):
    dims = sorted(int(x) for x in text.split("x"))
    return tuple(dims)


def fmt(dims):
    return "x".join(str(d) for d in dims)


def better(table, key, ring, rank, source, date):
    old = table.get((key, ring))
    if old is None or rank < old[0]:
        table[(key, ring)] = (rank, source, date)


def include_rings(table, formats):
    """ZT ⊂ Z ⊂ Q, and Z reduces mod 2 and mod 3: a value over the smaller ring counts for the larger.
    Returns how many values changed."""
    changed = 0
    for key in formats:
        for small, big in (("ZT", "Z"), ("Z", "Q"), ("Z", "GF2"), ("Z", "GF3")):
            if (key, small) in table and ((key, big) not in table or table[(key, small)][0] < table[(key, big)][0]):
                table[(key, big)] = table[(key, small)]
                changed += 1
    return changed


def rank_of(table, dims, ring):
    """The table's rank of a format in any orientation; a format with a 1 is the classical b·c
    (matrix times vector, whose rank is exactly that); None when the table has none."""
    key = tuple(sorted(dims))
    if key[0] == 1:
        return key[1] * key[2]
    entry = table.get((key, ring))
    return entry[0] if entry else None


def derive(table, formats, max_dim):
    """Joins (direct sums along a dimension: ranks add) and Kronecker products (ranks multiply) of
    two of the table's formats over the same ring, where they beat the table (Perminov's meta
    operations, Kauers–Wood's products): e.g. 4x4x8 over GF2 from two mod-2 4x4x4:47, 94 < 96.
    Each value names its two parts; the date is the later of theirs. Returns how many changed."""
    changed = 0
    for key in sorted(formats):
        for ring in RINGS:
            for x, y, z in set(itertools.permutations(key)):
                for parts, how in splits(x, y, z):
                    r = [rank_of(table, d, ring) for d in parts]
                    if None in r:
                        continue
                    rank = r[0] + r[1] if how == "⊕" else r[0] * r[1]
                    old = table.get((key, ring))
                    if old is None or rank < old[0]:
                        dates = [table[(tuple(sorted(d)), ring)][2] for d in parts if min(d) > 1]
                        source = "derived: %s:%d %s %s:%d (%s values of this table; %s)" % (
                            fmt(parts[0]), r[0], how, fmt(parts[1]), r[1], ring,
                            "join along a dimension" if how == "⊕" else "Kronecker product")
                        table[(key, ring)] = (rank, source, max(dates) if dates else "")
                        changed += 1
    return changed


def restrict(table, formats, max_dim):
    """Restrictions: a scheme for ⟨x,y,z⟩ with an index removed (its rows or columns deleted) is one for
    the smaller format, of no larger rank, over the same ring; e.g. 13x14x14 over Q from LITA's
    14x14x14:1593. One index at a time, so the closure reaches every smaller format. Returns how many
    values changed."""
    changed = 0
    for key in sorted(formats):
        for ring in RINGS:
            for i in range(3):
                if key[i] + 1 > max_dim:
                    continue
                bigger = tuple(sorted(key[:i] + (key[i] + 1,) + key[i + 1:]))
                entry = table.get((bigger, ring))
                old = table.get((key, ring))
                if entry and (old is None or entry[0] < old[0]):
                    source = "derived: %s:%d ↾ %s (%s values of this table; restriction: one index removed)" % (
                        fmt(bigger), entry[0], fmt(key), ring)
                    table[(key, ring)] = (entry[0], source, entry[2])
                    changed += 1
    return changed


def splits(x, y, z):
    """The pairs of formats whose join along the first dimension, or whose Kronecker product, is
    ⟨x,y,z⟩ (products with a 1x1x1 factor left out)."""
    for x1 in range(1, x // 2 + 1):
        yield ((x1, y, z), (x - x1, y, z)), "⊕"
    for x1 in divisors(x):
        for y1 in divisors(y):
            for z1 in divisors(z):
                a, b = (x1, y1, z1), (x // x1, y // y1, z // z1)
                if a != (1, 1, 1) and b != (1, 1, 1) and a <= b:
                    yield (a, b), "⊗"


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perminov", required=True)
    ap.add_argument("--perminov-commit", required=True)
    ap.add_argument("--perminov-date", required=True)
    ap.add_argument("--fmm", required=True)
    ap.add_argument("--fmm-commit", required=True)
    ap.add_argument("--extra", required=True, action="append")
    ap.add_argument("--max-dim", type=int, default=16)
    a = ap.parse_args()
    table = {}
    formats = set()
    perminov = json.load(open(a.perminov))
    psrc = "dronperminov/FastMatrixMultiplication@" + a.perminov_commit + " schemes/status.json (MIT)"
    for name, entry in perminov.items():
        key = sorted_key(name)
        if key[2] > a.max_dim or key[0] < 2:
            continue
        formats.add(key)
        ranks = entry["ranks"]
        for ring in ("ZT", "Z", "Q"):
            if ring in ranks:
                better(table, key, ring, int(ranks[ring]), psrc, a.perminov_date)
    fmm = json.load(open(a.fmm))
    fsrc = "sedoglavic/fmm_digest@" + a.fmm_commit + " fmm_sota.json (ring not stated)"
    fdate = fmm.get("createdAt", "")[:10]
    for e in fmm["entries"]:
        key = tuple(sorted(e["format"]))
        if key[2] > a.max_dim or key[0] < 2:
            continue
        formats.add(key)
        better(table, key, "Q", int(e["rank"]), fsrc, fdate)
    include_rings(table, formats)  # before the extra values, so that a tie keeps the Z source (the order above)
    for line in (line for path in a.extra for line in open(path)):
        if not line.strip() or line.startswith("#"):
            continue
        name, ring, rank, source, date = line.rstrip("\n").split("\t")
        key = sorted_key(name)
        formats.add(key)
        better(table, key, ring, int(rank), source, date)
    # Closure under the ring inclusions and the constructions, until nothing changes.
    while include_rings(table, formats) + derive(table, formats, a.max_dim) + restrict(table, formats, a.max_dim):
        pass
    out = sys.stdout
    out.write("# Best known ranks per ring for every sorted format n<=m<=p<=%d (generated by\n" % a.max_dim)
    out.write("# scripts/best_known_table.py; see ORIGIN.md). Columns: format ring rank source date.\n")
    out.write("# A value over a smaller ring also counts for the larger ones (ZT in Z in Q; Z mod 2, mod 3).\n")
    for key in sorted(formats):
        for ring in RINGS:
            if (key, ring) in table:
                rank, source, date = table[(key, ring)]
                out.write("\t".join((fmt(key), ring, str(rank), source, date)) + "\n")


if __name__ == "__main__":
    main()
