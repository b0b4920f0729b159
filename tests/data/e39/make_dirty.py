#!/usr/bin/env python3
# Writes capture/dirty.csv: a synthetic E39 capture (not a measurement) for
# tests/test_cli.c test_validate_e39, in cap_mem.cu `dirty`'s format.  Three
# cases of an 8 MiB array X and a stream after it (written then 32 MiB,
# read then 32 MiB, written then 96 MiB), 200 lines each, half near (miss
# ~490, hit ~305), half far (miss ~655): written, near lines 50 % hits, far
# lines 40 % remote hits and none local; read, near lines 10 % hits, far
# lines 10 % local (a replica) and 20 % hits in all.
import random
r = random.Random(11)
out = ["mode,x_mib,y_mib,line,cold1,cold2,cold3,after"]
for mode, ymib in (("write", 32), ("read", 32), ("write", 96)):
    for i in range(200):
        far = i % 2
        k = (i // 2) % 10
        miss = 655 if far else 490
        c1, c3, c2 = miss + r.randint(-6, 6), miss + r.randint(-6, 6), 305 + r.randint(-5, 5)
        hit, local, remote = 305 + r.randint(-5, 5), 310 + r.randint(-5, 5), 470 + r.randint(-6, 6)
        if mode == "write":
            after = (hit if k < 5 else miss) if not far else (remote if k < 4 else miss)
        else:
            after = (hit if k < 1 else miss) if not far else (local if k < 1 else remote if k < 2 else miss)
        out.append("%s,8,%d,%d,%d,%d,%d,%d" % (mode, ymib, 3000 + 41 * i, c1, c2, c3, after + r.randint(0, 3)))
open("capture/dirty.csv", "w").write("\n".join(out) + "\n")
