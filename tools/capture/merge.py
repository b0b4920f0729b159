#!/usr/bin/env python3
"""merge.py OUT IN1 [IN2 ...]: merge capture directories (README.md) into OUT.

kernels.csv, reps.csv, ctas.csv, meta.csv and smi.csv rows are concatenated
in argument order (a kernel id seen in an earlier input is dropped from a
later one, with its reps and ctas; a meta key keeps its last value; smi.csv
takes the union of the columns, sorted by unix_ms; smi_BATCH.csv files count
as smi.csv).  Any other file is copied, a later input's copy replacing an
earlier one.  Files may be gzip'd (NAME.csv.gz); OUT writes NAME.csv.gz when
the result is over 100 kB, else NAME.csv.
"""
import csv, gzip, io, os, shutil, sys

CORE = ["kernels", "reps", "ctas", "meta"]


def read(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", newline="") as f:
        return list(csv.reader(f))


def find(d, name):
    for p in (os.path.join(d, name + ".csv"), os.path.join(d, name + ".csv.gz")):
        if os.path.exists(p):
            return p
    return None


def write(out, name, rows):
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    data = buf.getvalue()
    for ext in (".csv", ".csv.gz"):
        if os.path.exists(os.path.join(out, name + ext)):
            os.remove(os.path.join(out, name + ext))
    if len(data) > 100000:
        with gzip.open(os.path.join(out, name + ".csv.gz"), "wt") as f:
            f.write(data)
    else:
        with open(os.path.join(out, name + ".csv"), "w") as f:
            f.write(data)


def main():
    out, ins = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    merged = {n: None for n in CORE}
    seen = set()
    meta = {}
    smi_cols, smi_rows = ["unix_ms"], []
    for d in ins:
        new_ids = set()
        for n in ["kernels", "reps", "ctas"]:
            p = find(d, n)
            if not p:
                continue
            rows = read(p)
            if merged[n] is None:
                merged[n] = [rows[0]]
            body = [r for r in rows[1:] if r and r[0] not in seen]
            if n == "kernels":
                new_ids = {r[0] for r in body}
            merged[n] += body
        seen |= new_ids
        p = find(d, "meta")
        if p:
            for r in read(p)[1:]:
                meta[r[0]] = r[1]
        for f in sorted(os.listdir(d)):
            base = f[:-3] if f.endswith(".gz") else f
            stem = base[:-4] if base.endswith(".csv") else None
            if stem in CORE:
                continue
            if stem and (stem == "smi" or (stem.startswith("smi_") and not stem.startswith("smi_raw"))):
                rows = read(os.path.join(d, f))
                hdr = rows[0]
                for c in hdr:
                    if c not in smi_cols:
                        smi_cols.append(c)
                smi_rows += [dict(zip(hdr, r)) for r in rows[1:]]
                continue
            if stem and stem.startswith("smi_raw"):
                continue
            src = os.path.join(d, f)
            dst = os.path.join(out, f)
            if os.path.isdir(src):
                shutil.copytree(src, dst, dirs_exist_ok=True)
            else:
                for other in (os.path.join(out, base), os.path.join(out, base + ".gz")):
                    if os.path.exists(other):
                        os.remove(other)
                shutil.copy(src, dst)
    for n in ["kernels", "reps", "ctas"]:
        if merged[n]:
            write(out, n, merged[n])
    write(out, "meta", [["key", "value"]] + [[k, v] for k, v in meta.items()])
    if smi_rows:
        smi_rows.sort(key=lambda r: int(r["unix_ms"]))
        write(out, "smi", [smi_cols] + [[r.get(c, "") for c in smi_cols] for r in smi_rows])


main()
