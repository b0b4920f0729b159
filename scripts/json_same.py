#!/usr/bin/env python3
"""json_same.py OLD NEW -- the same JSON values, read as exact decimals.

Used once when summary.json moved from hand-written fprintf to libjansson
(issue 9): the number format changed (0.000 -> 0.0, 0.991030 -> 0.99103),
and this says that every value, key and order is the same, each number
equal as a decimal (Decimal('0.991030') == Decimal('0.99103')), so that no
value changed at the precision it was printed with.  Exit 0: same; 1: the
first difference is printed.

    python3 scripts/json_same.py old/summary.json new/summary.json
"""
import json
import sys
from collections import OrderedDict
from decimal import Decimal


def load(path):
    with open(path) as f:
        return json.load(f, parse_float=Decimal, parse_int=Decimal,
                         object_pairs_hook=lambda kv: OrderedDict(kv))


def same(a, b, where):
    if isinstance(a, OrderedDict) and isinstance(b, OrderedDict):
        if list(a.keys()) != list(b.keys()):
            return f"{where}: keys {list(a.keys())} != {list(b.keys())}"
        for k in a:
            d = same(a[k], b[k], f"{where}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} != {len(b)} elements"
        for i, (x, y) in enumerate(zip(a, b)):
            d = same(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    if type(a) is not type(b) or a != b:
        return f"{where}: {a!r} != {b!r}"
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d = same(load(sys.argv[1]), load(sys.argv[2]), "$")
    if d:
        print(f"{sys.argv[2]}: {d}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
