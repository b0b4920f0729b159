#!/usr/bin/env python3
"""smi2csv.py RAW OUT: nvidia-smi --query-gpu CSV (timestamp first) -> DIR/smi.csv.

The first column, nvidia-smi's local-time 'YYYY/MM/DD HH:MM:SS.mmm', becomes
unix_ms (milliseconds since the epoch, via the machine's time zone); the other
columns are copied, with '[N/A]' and 'N/A' as empty fields and units dropped
(the query uses nounits)."""
import sys, time, datetime
raw, out = sys.argv[1], sys.argv[2]
lines = open(raw, errors="replace").read().splitlines()
fields = None
with open(out + ".tmp", "w") as o:
    for ln in lines:
        parts = [p.strip() for p in ln.split(",")]
        if fields is None:
            fields = parts  # header line written by run_all.sh
            o.write("unix_ms," + ",".join(f.replace(".", "_") for f in fields[1:]) + "\n")
            continue
        if len(parts) != len(fields):
            continue
        try:
            dt = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f")
        except ValueError:
            continue
        ms = int(time.mktime(dt.timetuple()) * 1000 + dt.microsecond // 1000)
        vals = ["" if "N/A" in p else p for p in parts[1:]]
        o.write(f"{ms}," + ",".join(vals) + "\n")
import os
os.replace(out + ".tmp", out)
