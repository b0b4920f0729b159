#!/usr/bin/env python3
"""summarize.py DIR: the headline numbers of a capture directory (README.md).

Prints, for whichever experiments DIR holds: chase latency by working set,
the L2 partition of every SM and page with near/far L2 and HBM latencies
(l2map.csv; the page hash over VA bits 12-19), bandwidth, launch cost per
kernel, grid-barrier cost per round, first-launch costs, green-context SM
sets, two-stream overlap, idle-gap launches and the power mixes (medians of
smi.csv inside each mix's window, its first 1.5 s left out).  Standard
library only.
"""
import collections, csv, gzip, os, statistics as st, sys

D = sys.argv[1]
MHZ = 1980.0  # the SM clock all latency kernels ran at (chase.csv ns_per_hop agrees)


def rd(name):
    for p in (os.path.join(D, name + ".csv"), os.path.join(D, name + ".csv.gz")):
        if os.path.exists(p):
            op = gzip.open if p.endswith(".gz") else open
            with op(p, "rt", newline="") as f:
                return list(csv.DictReader(f))
    return None


def q(v, f):
    v = sorted(v)
    return v[min(len(v) - 1, int(f * len(v)))]


def ranges(ids):
    ids = sorted(ids)
    out, s, p = [], None, None
    for x in ids:
        if s is None:
            s = p = x
        elif x == p + 1:
            p = x
        else:
            out.append(f"{s}-{p}" if p > s else str(s))
            s = p = x
    if s is not None:
        out.append(f"{s}-{p}" if p > s else str(s))
    return ",".join(out)


def chase():
    rows = rd("chase")
    if not rows:
        return
    print("## E11 chase: cycles per hop (ns) by working set")
    by = collections.defaultdict(dict)
    for r in rows:
        by[int(r["bytes"])][r["mode"]] = (float(r["cycles_per_hop"]), float(r["ns_per_hop"]))
    for b in sorted(by):
        print(f"  {b / 1024:>9.0f} KiB  " + "  ".join(f"{m}: {c:6.1f} ({n:5.1f} ns)" for m, (c, n) in sorted(by[b].items())))


def l2map():
    rows, pages = rd("l2map"), rd("pages")
    if not rows or not pages:
        return
    va = {int(r["page"]): int(r["va"], 16) for r in pages}
    first = {(int(r["sm"]), int(r["page"])): int(r["cycles1"]) for r in rows if r["mode"] == "self"}
    sms = sorted({s for s, _ in first})
    pg = sorted(va)
    near = {k: v < 610 for k, v in first.items()}   # HBM tiers: ~540 and ~725 cycles
    ref = [near[(sms[0], p)] for p in pg]
    part = {}
    for s in sms:
        agree = sum(near[(s, p)] == ref[i] for i, p in enumerate(pg)) / len(pg)
        part[s] = 0 if agree > 0.5 else 1
    pp = {}
    for p in pg:
        a = [near[(s, p)] for s in sms if part[s] == 0]
        b = [near[(s, p)] for s in sms if part[s] == 1]
        pp[p] = 0 if sum(a) / len(a) > sum(b) / len(b) else 1
    print("## E11 L2 partitions (from each SM's first-read HBM tier per page)")
    for k in (0, 1):
        print(f"  partition {k}: {sum(1 for s in sms if part[s] == k)} SMs: {ranges([s for s in sms if part[s] == k])}")
    # page hash over VA bits 12..19 of the 256 contiguous pages (2 MB aligned buffer)
    rowsx = [([(va[p] >> (12 + b)) & 1 for b in range(8)] + [1, pp[p]]) for p in range(256) if p in va]
    A, r, piv = [x[:] for x in rowsx], 0, []
    for c in range(9):
        k = next((i for i in range(r, len(A)) if A[i][c]), None)
        if k is None:
            continue
        A[r], A[k] = A[k], A[r]
        for i in range(len(A)):
            if i != r and A[i][c]:
                A[i] = [x ^ y for x, y in zip(A[i], A[r])]
        piv.append(c)
        r += 1
    bad = sum(1 for i in range(r, len(A)) if A[i][9])
    sol = [0] * 9
    for i, c in enumerate(piv):
        sol[c] = A[i][9]
    print(f"  page partition = parity of VA bits {[12 + b for b in range(8) if sol[b]]} (bits 12-19; "
          f"{len(rowsx)} pages, {bad} inconsistent) xor a constant from higher bits")
    hn = [v for (s, p), v in first.items() if pp[p] == part[s]]
    hf = [v for (s, p), v in first.items() if pp[p] != part[s]]
    print(f"  HBM first read, home partition: median {st.median(hn):.0f} cycles ({st.median(hn) / MHZ * 1e3:.0f} ns), "
          f"p10-p90 {q(hn, .1)}-{q(hn, .9)}; other partition: {st.median(hf):.0f} ({st.median(hf) / MHZ * 1e3:.0f} ns), "
          f"p10-p90 {q(hf, .1)}-{q(hf, .9)}")
    cat = collections.defaultdict(list)
    for r_ in rows:
        if r_["mode"] != "warm":
            continue
        w, s, p = int(r_["warm_sm"]), int(r_["sm"]), int(r_["page"])
        cat[(pp[p] == part[w], pp[p] == part[s])].append((int(r_["cycles1"]), int(r_["cycles2"])))
    names = {(True, True): "warmer home, reader home", (True, False): "warmer home, reader other",
             (False, True): "warmer other, reader home", (False, False): "warmer other, reader in warmer's"}
    print("  L2 hit after another SM's read (warm), cycles: first read median [p10-p90], second read median")
    for k in [(True, True), (True, False), (False, True), (False, False)]:
        v = cat.get(k)
        if v:
            c1 = [x for x, _ in v]
            c2 = [y for _, y in v]
            print(f"    {names[k]:34s} {st.median(c1):5.0f} [{q(c1, .1)}-{q(c1, .9)}]  {st.median(c2):5.0f}   (n={len(v)})")
    s2 = [int(r_["cycles2"]) for r_ in rows if r_["mode"] == "self"]
    print(f"  own second read after own miss: median {st.median(s2):.0f} cycles")
    per = collections.defaultdict(lambda: ([], []))
    for r_ in rows:
        if r_["mode"] == "warm":
            w, s, p = int(r_["warm_sm"]), int(r_["sm"]), int(r_["page"])
            if pp[p] == part[w]:
                per[s][0 if pp[p] == part[s] else 1].append(int(r_["cycles1"]))
    nm = [st.median(a) for a, b in per.values() if a]
    fm = [st.median(b) for a, b in per.values() if b]
    print(f"  per-SM medians: near {min(nm):.0f}-{max(nm):.0f}, far {min(fm):.0f}-{max(fm):.0f} cycles")


def hbm():
    rows = rd("hbm")
    if not rows:
        return
    print("## E11 single-access HBM latency (cycles), all SMs")
    for reg in sorted({r["region_bytes"] for r in rows}, key=int):
        v = [int(r["cycles"]) for r in rows if r["region_bytes"] == reg]
        h = collections.Counter(min(x, 1400) // 50 * 50 for x in v)
        print(f"  region {int(reg) >> 20} MiB: n={len(v)} median {st.median(v):.0f}; histogram (50-cycle bins): "
              + " ".join(f"{k}:{h[k]}" for k in sorted(h) if h[k] > len(v) // 200))


def bw():
    rows = rd("bw")
    if not rows:
        return
    print("## E11 read bandwidth (GB/s = 1e9 B/s)")
    for r in rows:
        print(f"  {r['kernel']:24s} {float(r['gbps']):8.0f}")


def launch(K, R):
    ks = [k for k in K if k["exp"] == "e12_launch"]
    if not ks:
        return
    print("## E12 launches in a row: us per kernel (median of 3 chains)")
    agg = collections.defaultdict(list)
    for k in ks:
        p = dict(x.split("=") for x in k["params"].split(";"))
        agg[(k["mode"], k["kernel"].split(".")[2])].append((int(p["count"]), float(k["total_ns"]) / int(p["count"]) / 1e3, p["gate"]))
    for key in sorted(agg):
        by = collections.defaultdict(list)
        for n, t, g in agg[key]:
            by[n].append((t, g))
        print(f"  {key[0]:12s} {key[1]:6s} " + " ".join(
            f"{n}:{st.median([t for t, _ in by[n]]):.2f}{'*' if any(g == 'timeout' for _, g in by[n]) else ''}" for n in sorted(by)))
    print("  (* the queue did not take the whole chain: the gate timed out, part ran host-bound)")
    for mode in ("host", "gated"):
        for kind in ("fma0", "fma64"):
            gaps, s2s = [], []
            for rep in range(3):
                rr = sorted(R.get(f"e12.{mode}.{kind}.n100.r{rep}", []), key=lambda r: int(r["rep"]))
                gaps += [int(b["t_first_ns"]) - int(a["t_last_ns"]) for a, b in zip(rr, rr[1:])]
                s2s += [int(b["t_first_ns"]) - int(a["t_first_ns"]) for a, b in zip(rr, rr[1:])]
            if gaps:
                print(f"  {mode:5s} {kind}: n=100 start-to-start median {st.median(s2s) / 1e3:.2f} us, previous kernel's last CTA end "
                      f"to next first CTA start median {st.median(gaps) / 1e3:.2f} us (min {min(gaps) / 1e3:.2f})")


def coop():
    rows = rd("coop")
    if rows:
        t = {(int(r["ctas"]), int(r["block"]), int(r["rounds"]), int(r["iters"])): float(r["time_ns_median"]) for r in rows}
        print("## E13 grid.sync: us per round = (t(1000 rounds) - t(100)) / 900; fixed = t(10) - 10 x round")
        for it in (0, 512):
            for b in (64, 256, 1024):
                cells = []
                for c in (132, 264, 528, 1056):
                    if (c, b, 1000, it) in t:
                        s = (t[(c, b, 1000, it)] - t[(c, b, 100, it)]) / 900
                        cells.append(f"{c}: {s / 1e3:.2f} (fixed {(t[(c, b, 10, it)] - 10 * s) / 1e3:.1f})")
                if cells:
                    print(f"  iters {it:3d} block {b:4d}  " + "  ".join(cells))
    rows = rd("coop_first")
    if rows:
        print("## E13 first launches in a fresh process (CUDA events, us): step0 fma, step1 fma, step2-4 coop")
        for ml in sorted({r["module_loading"] for r in rows}):
            for s in range(5):
                v = [float(r["event_ns"]) / 1e3 for r in rows if r["module_loading"] == ml and int(r["step"]) == s]
                print(f"  {ml:8s} step {s}: " + " ".join(f"{x:.1f}" for x in v))


def green():
    rows = rd("green")
    if not rows:
        return
    print("## E14 green contexts: SM ids each part ran on (method 0)")
    for r in rows:
        if r["method"] in ("0", "-"):
            ids = [int(x) for x in r["sms"].split()] if r["sms"] else []
            print(f"  flags {r['flags']} N={r['n_requested']:>3s} {r['part']:7s} api {r['api_sm_count']:>3s} seen {r['n_sms_seen']:>3s} "
                  f"{r['status']}: {ranges(ids)}")
    m = {}
    for r in rows:
        m.setdefault((r["flags"], r["n_requested"], r["part"]), set()).add(r["sms"])
    print(f"  methods 0 and 1 agree on every case: {all(len(v) == 1 for v in m.values())}")


def twostream(K, R, C):
    ks = sorted({k["kernel"].rsplit(".", 1)[0] for k in K if k["exp"] == "e14_twostream" and ".2s." in k["kernel"]})
    if not ks:
        return
    print("## E14 two streams (A launched first): event times, spans (us on the pair's axis)")
    alone = {k["kernel"]: float(k["time_ns_median"]) / 1e3 for k in K if k["kernel"].startswith("e14.alone")}
    for pk in ks:
        a, b = pk + ".A", pk + ".B"
        for rep in range(len(R.get(a, []))):
            ra, rb = R[a][rep], R[b][rep]
            ca = [c for c in C.get(b, []) if int(c["rep"]) == rep]
            before = sum(1 for c in ca if int(c["t0_ns"]) < int(ra["t_last_ns"]))
            print(f"  {pk} rep {rep}: A {float(ra['time_ns']) / 1e3:.1f} us [{int(ra['t_first_ns']) / 1e3:.1f}, {int(ra['t_last_ns']) / 1e3:.1f}]"
                  f"  B {float(rb['time_ns']) / 1e3:.1f} us [{int(rb['t_first_ns']) / 1e3:.1f}, {int(rb['t_last_ns']) / 1e3:.1f}]"
                  f"  B CTAs starting before A ends {before}/{len(ca)}")
        pair = pk.split(".")[-1]
        print(f"    alone: A {alone.get('e14.alone.' + pair + '.A', -1):.1f} us, B {alone.get('e14.alone.' + pair + '.B', -1):.1f} us")


def hetero(K, R):
    ks = [k for k in K if k["exp"] == "e15_hetero"]
    if ks:
        print("## E15 heterogeneous CTAs: kernel time (us, median of 3)")
        for k in ks:
            print(f"  {k['kernel']:22s} {float(k['time_ns_median']) / 1e3:7.1f}   {k['params']}")


def idle(K, R, C):
    rr = R.get("e17.idle.fma256")
    if not rr:
        return
    mhz = collections.defaultdict(lambda: [0.0])   # the fastest CTA: young CTAs stall between t0 and c0
    for c in C.get("e17.idle.fma256", []):
        dt = int(c["t1_ns"]) - int(c["t0_ns"])
        if dt > 0:
            mhz[int(c["rep"])][0] = max(mhz[int(c["rep"])][0], int(c["cycles"]) / dt * 1e3)
    gaps = [0.1, 0.3, 1, 2, 5, 10, 20, 50, 100]
    by = collections.defaultdict(list)
    for r in rr:
        g = min(gaps, key=lambda x: abs(x - int(r["gap_ns"]) / 1e6))
        by[g].append((float(r["time_ns"]) / 1e3, st.median(mhz[int(r["rep"])]), (int(r["t_last_ns"]) - int(r["t_first_ns"])) / 1e3))
    print("## E17 after an idle gap: fma_kernel iters 256 x 1056 CTAs; medians of 8")
    for g in gaps:
        v = by[g]
        print(f"  gap {g:5.1f} ms: event {st.median([x[0] for x in v]):5.1f} us (min {min(x[0] for x in v):.1f}, max {max(x[0] for x in v):.1f}),"
              f" CTA span {st.median([x[2] for x in v]):.1f} us, fastest CTA's clock {st.median([x[1] for x in v]):.0f} MHz")


def power():
    mix, smi = rd("power_mix"), rd("smi")
    if not mix or not smi:
        return
    print("## E16 power mixes: medians over each mix's window (first 1.5 s left out)")
    print(f"  {'mix':11s} {'samples':>7s} {'SM MHz':>7s} {'min':>5s} {'W avg':>6s} {'W inst':>6s} {'GPU C':>5s} {'mem C':>5s} {'reasons':>20s}  rate")
    for m in mix:
        t0, t1 = int(m["start_host_ns"]) // 10 ** 6 + 1500, int(m["end_host_ns"]) // 10 ** 6
        w = [r for r in smi if t0 <= int(r["unix_ms"]) <= t1 and r.get("clocks_sm")]
        if not w:
            continue
        f = lambda c: [float(r[c]) for r in w if r.get(c)]
        reasons = collections.Counter(r.get("clocks_event_reasons_active", "") for r in w).most_common(1)[0][0]
        pi = f("power_draw_instant")
        print(f"  {m['mix']:11s} {len(w):7d} {st.median(f('clocks_sm')):7.0f} {min(f('clocks_sm')):5.0f} {st.median(f('power_draw')):6.1f} "
              f"{(st.median(pi) if pi else -1):6.1f} {st.median(f('temperature_gpu')):5.0f} {(st.median(f('temperature_memory')) if f('temperature_memory') else -1):5.0f} "
              f"{reasons:>20s}  {float(m['rate_per_s']):.4g} {m['work_unit']}/s")


def sass_loops(path):
    """Per function of a cuobjdump -sass listing: its main loop's
    instructions, the longest span closed by a backward BRA, as (mnemonic,
    operands) pairs."""
    import re
    text = (gzip.open if path.endswith(".gz") else open)(path, "rt").read()
    out = {}
    for f in re.split(r"\n\s*Function : ", text)[1:]:
        name, ins = f.split("\n")[0].strip(), []
        for ln in f.split("\n"):
            m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(@!?P\d\s+)?([A-Z0-9_.]+)\s*(.*?);", ln)
            if m:
                ins.append((int(m.group(1), 16), m.group(3), m.group(4)))
        body = None
        for a, op, rest in ins:
            t = re.search(r"0x([0-9a-f]+)", rest) if op.startswith("BRA") else None
            if t and int(t.group(1), 16) < a and (body is None or a - int(t.group(1), 16) > body[1] - body[0]):
                body = (int(t.group(1), 16), a)
        out[name] = [(op, rest) for a, op, rest in ins if body and body[0] <= a <= body[1]]
    return out


def bank_conflict(op, operands):
    """1 when two of the instruction's register sources not read from the
    operand reuse cache (.reuse) have the same parity: the register-bank
    conflict E29 found (validation/h100/README.md)."""
    import re
    srcs = [o.strip() for o in operands.split(",")][1:]
    regs = []
    for o in srcs:
        m = re.match(r"-?\|?R(\d+)(\.reuse)?", o)
        if m and not m.group(2):
            regs.append(int(m.group(1)))
    regs = list(dict.fromkeys(regs))
    return int(any(sum(1 for r in regs if r % 2 == b) > 1 for b in (0, 1)))


def pipes():
    """E29 (cap_pipes): each kernel's SASS instructions per SM cycle, by
    opcode, from its main loop in the listing beside pipes*.csv (pair
    kernels: 128 trips, 32 warps an SM; int_kernel: 512 trips, one CTA of
    32 warps an SM), and how many of the loop's instructions have a
    register-bank conflict."""
    import glob
    ops = ["none", "ffma", "fadd", "imad", "iadd", "iaddi", "lop3", "shf", "addi_lop3", "addr_lop3", "addi_ffma",
           "addi_imad", "imad3"]
    for path in sorted(glob.glob(os.path.join(D, "pipes*.csv*"))):
        tag = os.path.basename(path).split(".")[0][len("pipes"):]
        cands = [os.path.join(D, "cap_pipes%s.sass.gz" % tag), os.path.join(D, "cap_pipes%s.sass.gz" % tag[:2]),
                 os.path.join(D, "sass", "cap_pipes.sass.gz")]
        sp = next((c for c in cands if os.path.exists(c)), None)
        if not sp:
            continue
        loops = sass_loops(sp)
        with (gzip.open if path.endswith(".gz") else open)(path, "rt", newline="") as f:
            rows = list(csv.DictReader(f))
        cyc = collections.defaultdict(list)
        for r in rows:
            cyc[(r["a"], r["b"])].append(int(r["cycles"]))
        print(f"## E29 pipes ({os.path.basename(path)}, {os.path.basename(sp)}): warp instructions per SM cycle")
        for (a, b), v in cyc.items():
            if a.startswith("int_kernel"):
                fn, work = "_Z4intkPmPjS0_j", 32 * 512
            else:
                fn, work = "_Z4pairILi%dELi%dEEvPmPjS1_j" % (ops.index(a), ops.index(b)), 32 * 128
            body = loops.get(fn, [])
            count = collections.Counter(op.split(".")[0] for op, _ in body)
            conf = sum(bank_conflict(op, rest) for op, rest in body)
            med = st.median(v)
            if a == "int_kernel_1056x256":
                # eight CTAs an SM, timed each on its own: their spans overlap
                # in part, so a CTA's span is no SM rate
                print(f"  {a:>19s} + {b:<5s} {med:8.0f} cycles a CTA (8 an SM, overlapping: no rate)"
                      f"  (bank conflicts {conf} of {len(body)})")
                continue
            rate = {k: work * n / med for k, n in count.items() if k not in ("BRA", "ISETP")}
            shown = " ".join(f"{k} {x:.2f}" for k, x in sorted(rate.items(), key=lambda kv: -kv[1]) if x >= 0.1)
            print(f"  {a:>19s} + {b:<5s} {med:8.0f} cycles  {shown}  all {work * len(body) / med:.2f}"
                  f"  (bank conflicts {conf} of {len(body)})")


def sgemm():
    """sgemm_sm90.sass.gz (validation/h100/sgemm): E16's SIMT SGEMM kernel's
    main loop, its bank conflicts (bank_conflict) and the FFMA rate per SM
    cycle they allow: 4 x FFMAs / (instructions + conflicts), one issue a
    cycle per sub-partition and a cycle more per conflict."""
    p = os.path.join(D, "sgemm_sm90.sass.gz")
    if not os.path.exists(p):
        return
    for name, body in sass_loops(p).items():
        n = len(body)
        ffma = sum(1 for op, _ in body if op.startswith("FFMA"))
        conf = sum(bank_conflict(op, rest) for op, rest in body)
        print(f"## SGEMM main loop ({name[:40]}...): {n} instructions, {ffma} FFMA, "
              f"{sum(1 for op, _ in body if op.startswith('LDS'))} LDS, {conf} bank conflicts: "
              f"{4.0 * ffma / (n + conf):.2f} FFMA a cycle per SM ({4.0 * ffma / n:.2f} without the conflicts)")


def main():
    K = rd("kernels") or []
    R = collections.defaultdict(list)
    for r in rd("reps") or []:
        R[r["kernel"]].append(r)
    C = collections.defaultdict(list)
    for r in rd("ctas") or []:
        if r["kernel"].startswith(("e14", "e17")):
            C[r["kernel"]].append(r)
    chase(); l2map(); hbm(); bw(); launch(K, R); coop(); green(); twostream(K, R, C); hetero(K, R); idle(K, R, C); power(); pipes(); sgemm()


main()
