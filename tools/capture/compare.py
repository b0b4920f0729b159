#!/usr/bin/env python3
"""compare.py A B: the same capture tables of two capture directories side
by side (two chips, or two runs of one), the second over the first.

For each table both directories hold (bw.csv, e24_bw.csv, rw.csv,
l2keep.csv, inflight.csv, inflight_scale.csv, inflight_add.csv, chase.csv,
fabric.csv) every row found in both, keyed by the columns that name it, with
its figure (GB/s, or cycles a hop for chase.csv) in A and in B and B / A;
then one line a table: rows compared, the median and largest |B/A - 1|.
Rows of one directory alone are counted, not printed; a table of one alone
is named.  A row whose key repeats in a table is an error (file:line).  Plain Python 3, no
third-party modules.

  python3 tools/capture/compare.py validation/h200/capture validation/h200/rerun/capture
"""
import csv
import os
import sys

# table -> (key columns, figure column)
TABLES = [
    ("bw.csv", ("kernel",), "gbps"),
    ("e24_bw.csv", ("kernel",), "gbps"),
    ("rw.csv", ("kernel", "bytes_per_array"), "gbps"),
    ("l2keep.csv", ("bytes", "before"), "gbps"),
    ("inflight.csv", ("mode", "bytes", "ctas", "threads"), "gbps"),
    ("inflight_scale.csv", ("mode", "bytes", "ctas", "threads"), "gbps"),
    ("inflight_add.csv", ("mode", "bytes", "ctas", "threads"), "gbps"),
    ("chase.csv", ("bytes", "mode", "hops", "warm_hops"), "cycles_per_hop"),
    ("fabric.csv", ("case",), "gbps"),
]


def load(path, keys, fig):
    """{key tuple: figure} of a table; exits with file:line on a bad row."""
    out = {}
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        missing = [c for c in keys + (fig,) if c not in (r.fieldnames or [])]
        if missing:
            sys.exit("%s:1: no column %s: expected %s" % (path, missing[0], ",".join(keys + (fig,))))
        for n, row in enumerate(r, start=2):
            try:
                v = float(row[fig])
            except (TypeError, ValueError):
                sys.exit("%s:%d: %s '%s': expected a number" % (path, n, fig, row[fig]))
            if not v > 0 or v != v or v == float("inf"):
                sys.exit("%s:%d: %s '%s': expected a positive finite number" % (path, n, fig, row[fig]))
            key = tuple(row[k] for k in keys)
            if key in out:
                sys.exit("%s:%d: %s appears twice: expected one row a %s" % (path, n, " ".join(key), ",".join(keys)))
            out[key] = v
    return out


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: compare.py CAPTURE_DIR_A CAPTURE_DIR_B")
    a_dir, b_dir = argv[1], argv[2]
    for d in (a_dir, b_dir):
        if not os.path.isdir(d):
            sys.exit("%s: not a directory: expected a capture directory" % d)
    compared = 0
    for name, keys, fig in TABLES:
        pa, pb = os.path.join(a_dir, name), os.path.join(b_dir, name)
        if not (os.path.exists(pa) and os.path.exists(pb)):
            if os.path.exists(pa) or os.path.exists(pb):
                print("-- %s: in %s alone, not compared" % (name, "A" if os.path.exists(pa) else "B"))
            continue
        a, b = load(pa, keys, fig), load(pb, keys, fig)
        both = [k for k in a if k in b]
        print("== %s (%s; B / A)" % (name, fig))
        devs = []
        for k in both:
            ratio = b[k] / a[k]
            devs.append(abs(ratio - 1))
            print("%-44s %10.2f %10.2f %7.3f" % (" ".join(k), a[k], b[k], ratio))
        devs.sort()
        if devs:
            med = devs[len(devs) // 2] if len(devs) % 2 else 0.5 * (devs[len(devs) // 2 - 1] + devs[len(devs) // 2])
            print("-- %s: %d rows in both (%d in A alone, %d in B alone); |B/A - 1| median %.1f %%, largest %.1f %%"
                  % (name, len(both), len(a) - len(both), len(b) - len(both), 100 * med, 100 * devs[-1]))
        compared += 1
    if not compared:
        sys.exit("%s, %s: no table in both: expected one of %s" % (a_dir, b_dir, ", ".join(t[0] for t in TABLES)))


if __name__ == "__main__":
    main(sys.argv)
