#!/usr/bin/env python3
# Writes capture/retain.csv: a synthetic E25 capture (not a measurement) for
# tests/test_cli.c test_validate_e25, in cap_mem.cu `retain`'s format.
# add at 12 MiB, 200 lines an array, half near (miss ~490, hit ~305), half
# far (miss ~655); after: near lines 60 % hits; far lines of a and b 30 %
# local (a replica), 40 % remote hits, 30 % misses; far lines of c 70 %
# remote hits, 30 % misses, none local.  Every 20th line's cold1 is held
# back 300 cycles (a refresh): the lesser of cold1 and cold3 decides.  One
# near line's cold reads both sit at 5000 cycles (a stray line: the
# clusters must not follow it).  Then the .cg stream at 48 MiB, 200 lines
# of its one array: near 50 % hits, far 20 % local, 50 % remote, 30 %
# misses.
import random
r = random.Random(7)
out = ["kernel,mib,array,line,cold1,cold2,cold3,after"]
for arr in "abc":
    for i in range(200):
        far = i % 2
        j = i // 2
        miss = 655 if far else 490
        c1 = miss + r.randint(-6, 6)
        c3 = miss + r.randint(-6, 6)
        if i % 20 == 4:
            c1 += 300
        c2 = 305 + r.randint(-5, 5)
        k = j % 10
        if not far:
            after = 305 + r.randint(-5, 5) if k < 6 else 490 + r.randint(-6, 6)
        elif arr != "c" and k < 3:
            after = 310 + r.randint(-5, 5)
        else:
            after = 470 + r.randint(-6, 6) if k < 7 else 655 + r.randint(-6, 6)
        if arr == "b" and i == 10:
            c1 = c3 = 5000
        out.append("add,12,%s,%d,%d,%d,%d,%d" % (arr, 1000 + 37 * i, c1, c2, c3, after))
for i in range(200):
    far = i % 2
    k = (i // 2) % 10
    miss = 655 if far else 490
    c1, c3, c2 = miss + r.randint(-6, 6), miss + r.randint(-6, 6), 305 + r.randint(-5, 5)
    if not far:
        after = 305 + r.randint(-5, 5) if k < 5 else 490 + r.randint(-6, 6)
    else:
        after = (310 + r.randint(-5, 5)) if k < 2 else (470 + r.randint(-6, 6)) if k < 7 else (655 + r.randint(-6, 6))
    out.append("stream_cg,48,a,%d,%d,%d,%d,%d" % (2000 + 53 * i, c1, c2, c3, after))
open("capture/retain.csv", "w").write("\n".join(out) + "\n")
