// cap_l1set: which 4 KiB blocks crowd one group of the L1's sets (E41,
// issue 10; validation/h100/README.md "E41").
//
// E40d (cap_ncu `ways2`, under ncu) found that 4 KiB pieces 260 KiB apart
// (blocks 65 k of the buffer) fit 32 at a time and that each piece past 32
// costs exactly four pieces' hits: as if every piece went whole into one of
// 8 groups of 4 ways, LRU, and a group given a fifth kept none of the five.
// E40e showed that the four blocks 0, 520, 1040, 1560 are not one group.
// This program finds the groups by timing alone, one thread following a
// cycle of lines (ld.ca, each address read from the last), every hop's
// cycles from clock64() after two warm rounds:
//
//  calib   32 contiguous lines (all hits) and 40 pieces 260 KiB apart (all
//          lost, E40c): the two ends that turn a walk's cycles a hop into
//          the fraction of hops that hit
//  loo     for m = 32..39: the 32 pieces of blocks 65 k (k < 32) and the
//          piece 65 m, which overfills one group (E40d); each of the 33
//          left out in turn: the walk keeps every line only when the piece
//          left out is one of the overfull group's five.  -> l1set_loo.csv
//  map     for each group found (its first four pieces), a fifth piece at
//          every block X of 0..NX-1: all five lost when X joins the group,
//          none when not.  -> l1set_map.csv
//  line    for the first group: its four pieces, but piece 0 without its
//          line p, and one line o of a fifth block X of the group: the set
//          keeps its four lines when line o of X lands where line p of
//          piece 0 was (that set then holds 4), else five lines are lost.
//          For X among the group's first members, o = 0 and every p.
//          -> l1set_line.csv
//
//  plan    (`cap_l1set DIR plan FILE`, instead of the above) the walks a
//          plan file lists, one a line: a label, then segments START:COUNT
//          of COUNT lines from line START (128-byte lines of the buffer),
//          walked in the order given; the calibration walks first and
//          last.  -> l1set_plan.csv (label,lines,cycles_per_hop,kept); a
//          label starting with T also times every hop of one more round
//          -> l1set_trace.csv (label,hop,line,cycles).  A label starting
//          with E takes segments FSTART:COUNT (a fill, walked RN times, 2
//          by default), ISTART:COUNT (lines inserted once after it) and
//          PSTART:COUNT (lines probed after that with
//          ld.global.L1::no_allocate, every hop timed, into the trace):
//          which lines an insertion evicted
//
// Only clocks are read (nvidia-smi beside it); nothing is set.
//
// Build: nvcc -O3 -arch=sm_90 -o cap_l1set cap_l1set.cu
// Usage: cap_l1set DIR [NX] [line members]
//        cap_l1set DIR plan FILE [SMEM]   (SMEM: dynamic shared memory in
//        bytes each walk's one-thread CTA asks for, so that the driver picks a
//        larger shared-memory configuration and a smaller L1; default 0)
#include "cap.h"

#include <algorithm>
#include <vector>

// the cycle: word off[i] holds off[i + 1], the last the first
__global__ void l1set_fill(uint32_t *a, const uint32_t *off, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[off[i]] = off[(i + 1) % n];
}

// from word j0 (the cycle's first line), warm hops untimed, then hops
// timed with clock64(): out[0] the cycles.  (Starting anywhere else would
// follow whatever cycle an earlier walk left there: the first runs of this
// program started at word 0, see validation/h100/README.md "E41".)
__global__ void l1set_walk(const uint32_t *a, uint32_t j0, int warm, int hops, long long *out, uint32_t *sink)
{
    uint32_t j = j0;
    for (int i = 0; i < warm; i++)
        j = __ldca(&a[j]);
    long long t0 = clock64();
    for (int i = 0; i < hops; i++)
        j = __ldca(&a[j]);
    long long t1 = clock64();
    sink[0] = j;
    out[0] = t1 - t0;
}

// the same walk, then one more round with every hop's cycles in cyc[i]
// (the load and the clock read of hop i; a store a hop, to memory no walk
// reads: L1 misses show as hops of L2 latency)
__global__ void l1set_trace(const uint32_t *a, uint32_t j0, int warm, int n, uint32_t *cyc, uint32_t *sink)
{
    uint32_t j = j0;
    for (int i = 0; i < warm; i++)
        j = __ldca(&a[j]);
    long long t = clock64();
    for (int i = 0; i < n; i++) {
        j = __ldca(&a[j]);
        long long u = clock64();
        cyc[i] = (uint32_t)(u - t) + (j & 0x80000000u);   // j's top bit is 0: keeps the load ordered
        t = u;
    }
    sink[0] = j;
}

// evict: a fill cycle walked `frounds` times (word 0 of each line: the
// next fill line), then `nins` inserted lines once (their word 2), then a
// probe of lines through word 1 (the next probe line) with
// ld.global.L1::no_allocate, which reads the L1 on a hit and allocates
// nothing on a miss, so that probing does not evict what it probes; every
// probe hop's cycles in cyc[] (hop i's count is load i - 1's, as the trace)
__global__ void l1set_evict(const uint32_t *a, uint32_t f0, int nfill, int frounds, uint32_t i0, int nins, uint32_t p0,
                            int nprobe, uint32_t *cyc, uint32_t *sink)
{
    uint32_t j = f0;
    for (int i = 0; i < nfill * frounds; i++)
        j = __ldca(&a[j]);
    uint32_t k = i0 + (j >> 31);        // j < 2^31: k = i0, after the fill's last load
    for (int i = 0; i < nins; i++)
        k = __ldca(&a[k]);
    uint32_t p = p0 + (nins ? (k >> 31) : (j >> 31));
    long long t = clock64();
    for (int i = 0; i < nprobe; i++) {
        uint32_t v;
        asm volatile("ld.global.L1::no_allocate.u32 %0, [%1];" : "=r"(v) : "l"(a + p) : "memory");
        p = v;
        long long u = clock64();
        cyc[i] = (uint32_t)(u - t);
        t = u;
    }
    sink[0] = p + j + k;
}

struct Walker {
    uint32_t *buf, *doff, *sink;
    long long *dcyc;
    size_t words;
    uint32_t max_lines;
    int smem = 0;               // dynamic shared memory each walk asks for (plan's SMEM)
    // cycles a hop of a walk through the given lines (byte offsets of
    // 128-byte lines), in the order given
    double run(const std::vector<size_t> &lines)
    {
        uint32_t n = (uint32_t)lines.size();
        if (n == 0 || n > max_lines) {
            std::fprintf(stderr, "cap_l1set: a walk of %u lines (1..%u)\n", n, max_lines);
            std::exit(1);
        }
        std::vector<uint32_t> off(n);
        for (uint32_t i = 0; i < n; i++) {
            if (lines[i] / 4 >= words) {
                std::fprintf(stderr, "cap_l1set: line at %zu past the buffer\n", lines[i]);
                std::exit(1);
            }
            off[i] = (uint32_t)(lines[i] / 4);
        }
        CK(cudaMemcpy(doff, off.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
        l1set_fill<<<(n + 255) / 256, 256>>>(buf, doff, n);
        CK(cudaGetLastError());
        int warm = 2 * (int)n, hops = (int)std::max<uint32_t>(8 * n, 8192);
        l1set_walk<<<1, 1, smem>>>(buf, off[0], warm, hops, dcyc, sink);
        CK(cudaGetLastError());
        long long cyc;
        CK(cudaMemcpy(&cyc, dcyc, sizeof cyc, cudaMemcpyDeviceToHost));
        return (double)cyc / hops;
    }
    // after run(lines): one more walk of the same cycle, every hop's cycles
    std::vector<uint32_t> trace(const std::vector<size_t> &lines, uint32_t *dtr)
    {
        uint32_t n = (uint32_t)lines.size();
        int warm = (int)std::max<uint32_t>(8 * n, 8192);
        l1set_trace<<<1, 1, smem>>>(buf, (uint32_t)(lines[0] / 4), warm, (int)n, dtr, sink);
        CK(cudaGetLastError());
        std::vector<uint32_t> c(n);
        CK(cudaMemcpy(c.data(), dtr, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
        return c;
    }
};

// the lines of the 4 KiB block b (32 lines)
static void add_piece(std::vector<size_t> &v, size_t b)
{
    for (size_t l = 0; l < 32; l++)
        v.push_back(b * 4096 + l * 128);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_l1set DIR [NX] [line members]\n");
        return 2;
    }
    std::string dir = argv[1];
    bool plan = argc > 3 && std::string(argv[2]) == "plan";
    size_t nx = argc > 2 && !plan ? std::strtoul(argv[2], nullptr, 10) : 4096;
    int line_members = argc > 3 ? std::atoi(argv[3]) : 16;
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_l1set");
    const size_t big = 4ull << 30;  // 2^20 blocks of 4 KiB: block bits 0-19
    Walker w;
    w.words = big / 4;
    w.max_lines = 4096;
    CK(cudaMalloc(&w.buf, big));
    CK(cudaMemset(w.buf, 0, big));
    CK(cudaMalloc(&w.doff, w.max_lines * sizeof(uint32_t)));
    CK(cudaMalloc(&w.sink, 64));
    CK(cudaMalloc(&w.dcyc, 64));
    if (plan && argc > 4) {
        w.smem = std::atoi(argv[4]);
        CK(cudaFuncSetAttribute((const void *)l1set_walk, cudaFuncAttributeMaxDynamicSharedMemorySize, w.smem));
        CK(cudaFuncSetAttribute((const void *)l1set_trace, cudaFuncAttributeMaxDynamicSharedMemorySize, w.smem));
    }
    char b[64];
    std::snprintf(b, sizeof b, "%d", w.smem);
    cap_meta(cap, "cap_l1set.smem", b);
    std::snprintf(b, sizeof b, "%zu", nx);
    cap_meta(cap, "cap_l1set.nx", b);

    // calib
    FILE *fc = cap_open(dir, "l1set_calib.csv", "kind,lines,cycles_per_hop");
    std::vector<size_t> v;
    for (size_t l = 0; l < 32; l++)
        v.push_back(l * 128);
    double hit = w.run(v);
    v.clear();
    for (size_t k = 0; k < 40; k++)
        add_piece(v, 65 * k);
    double miss = w.run(v);
    std::fprintf(fc, "hit,32,%.3f\nmiss,1280,%.3f\n", hit, miss);
    std::fclose(fc);
    std::printf("calib: hit %.2f, miss %.2f cycles a hop\n", hit, miss);
    std::fflush(stdout);
    auto frac = [&](double c) { return (miss - c) / (miss - hit); };

    if (plan) {
        FILE *in = std::fopen(argv[3], "r");
        if (!in) {
            std::perror(argv[3]);
            return 1;
        }
        FILE *fp = cap_open(dir, "l1set_plan.csv", "label,lines,cycles_per_hop,kept");
        FILE *ft = nullptr;
        uint32_t *dtr;
        CK(cudaMalloc(&dtr, w.max_lines * sizeof(uint32_t)));
        char line[65536];
        int n = 0;
        while (std::fgets(line, sizeof line, in)) {
            char *save = nullptr, *tok = strtok_r(line, " \t\n", &save);
            if (!tok || tok[0] == '#')
                continue;
            std::string label = tok;
            v.clear();
            if (label[0] == 'E') {      // E...: fill F, insert I, probe P segments
                std::vector<size_t> fl, il, pl;
                int frounds = 2;
                while ((tok = strtok_r(nullptr, " \t\n", &save))) {
                    unsigned long long st, cnt;
                    if (tok[0] == 'R') {
                        frounds = std::atoi(tok + 1);
                        continue;
                    }
                    if (std::sscanf(tok + 1, "%llu:%llu", &st, &cnt) != 2 ||
                        (tok[0] != 'F' && tok[0] != 'I' && tok[0] != 'P')) {
                        std::fprintf(stderr, "cap_l1set: %s: bad segment '%s' (F|I|PSTART:COUNT or RN)\n",
                                     label.c_str(), tok);
                        return 1;
                    }
                    std::vector<size_t> &dst = tok[0] == 'F' ? fl : tok[0] == 'I' ? il : pl;
                    for (unsigned long long l = 0; l < cnt; l++)
                        dst.push_back((size_t)(st + l) * 128);
                }
                if (fl.empty() || pl.empty() || fl.size() > w.max_lines || il.size() > w.max_lines ||
                    pl.size() > w.max_lines) {
                    std::fprintf(stderr, "cap_l1set: %s: expected 1..%u fill and probe lines\n", label.c_str(),
                                 w.max_lines);
                    return 1;
                }
                // the chains: fill through word 0, probe word 1, insert word 2
                auto chain = [&](const std::vector<size_t> &ls, uint32_t word) {
                    std::vector<uint32_t> off(ls.size());
                    for (size_t i = 0; i < ls.size(); i++)
                        off[i] = (uint32_t)(ls[i] / 4 + word);
                    CK(cudaMemcpy(w.doff, off.data(), off.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
                    l1set_fill<<<(unsigned)((off.size() + 255) / 256), 256>>>(w.buf, w.doff, (uint32_t)off.size());
                    CK(cudaGetLastError());
                    CK(cudaDeviceSynchronize());
                    return off[0];
                };
                uint32_t f0 = chain(fl, 0), i0 = il.empty() ? 0 : chain(il, 2), p0 = chain(pl, 1);
                l1set_evict<<<1, 1, w.smem>>>(w.buf, f0, (int)fl.size(), frounds, i0, (int)il.size(), p0,
                                              (int)pl.size(), dtr, w.sink);
                CK(cudaGetLastError());
                std::vector<uint32_t> c(pl.size());
                CK(cudaMemcpy(c.data(), dtr, c.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
                if (!ft)
                    ft = cap_open(dir, "l1set_trace.csv", "label,hop,line,cycles");
                for (size_t i = 0; i < c.size(); i++)
                    std::fprintf(ft, "%s,%zu,%zu,%u\n", label.c_str(), i, pl[i] / 128, c[i]);
                n++;
                continue;
            }
            while ((tok = strtok_r(nullptr, " \t\n", &save))) {
                unsigned long long st, cnt;
                if (std::sscanf(tok, "%llu:%llu", &st, &cnt) != 2) {
                    std::fprintf(stderr, "cap_l1set: %s: bad segment '%s' (START:COUNT)\n", label.c_str(), tok);
                    return 1;
                }
                for (unsigned long long l = 0; l < cnt; l++)
                    v.push_back((size_t)(st + l) * 128);
            }
            double c = w.run(v);
            std::fprintf(fp, "%s,%zu,%.3f,%.4f\n", label.c_str(), v.size(), c, frac(c));
            // a label starting with T: every hop of one more round, by line
            if (label[0] == 'T') {
                if (!ft)
                    ft = cap_open(dir, "l1set_trace.csv", "label,hop,line,cycles");
                std::vector<uint32_t> t = w.trace(v, dtr);
                for (size_t i = 0; i < t.size(); i++)
                    std::fprintf(ft, "%s,%zu,%zu,%u\n", label.c_str(), i, v[i] / 128, t[i]);
            }
            if (++n % 100 == 0) {
                std::fflush(fp);
                std::printf("plan: %d walks\n", n);
                std::fflush(stdout);
            }
        }
        std::fclose(in);
        if (ft)
            std::fclose(ft);
        CK(cudaFree(dtr));
        v.clear();
        for (size_t l = 0; l < 32; l++)
            v.push_back(l * 128);
        double hit2 = w.run(v);
        std::fprintf(fp, "calib_hit_end,32,%.3f,%.4f\n", hit2, frac(hit2));
        std::fclose(fp);
        cap_end(cap);
        std::printf("cap_l1set plan done: %d walks\n", n);
        return 0;
    }

    // loo
    FILE *fl = cap_open(dir, "l1set_loo.csv", "m,left_out,block,cycles_per_hop,kept");
    std::vector<std::vector<size_t>> groups;
    for (size_t m = 32; m < 40; m++) {
        std::vector<size_t> blocks;
        for (size_t k = 0; k < 32; k++)
            blocks.push_back(65 * k);
        blocks.push_back(65 * m);
        v.clear();
        for (size_t x : blocks)
            add_piece(v, x);
        double all = w.run(v);
        std::fprintf(fl, "%zu,-1,-1,%.3f,%.4f\n", m, all, frac(all));
        std::vector<size_t> members;
        for (size_t i = 0; i < blocks.size(); i++) {
            v.clear();
            for (size_t j = 0; j < blocks.size(); j++)
                if (j != i)
                    add_piece(v, blocks[j]);
            double c = w.run(v);
            std::fprintf(fl, "%zu,%zu,%zu,%.3f,%.4f\n", m, i, blocks[i], c, frac(c));
            if (frac(c) > 0.95)
                members.push_back(blocks[i]);
        }
        std::fflush(fl);
        std::printf("m=%zu: all %.3f kept; members:", m, frac(all));
        for (size_t x : members)
            std::printf(" %zu", x);
        std::printf("\n");
        std::fflush(stdout);
        if (members.size() >= 5 &&
            std::none_of(groups.begin(), groups.end(), [&](const std::vector<size_t> &g) { return g[0] == members[0]; }))
            groups.push_back(members);
    }
    std::fclose(fl);

    // map
    FILE *fm = cap_open(dir, "l1set_map.csv", "group,quad,x,cycles_per_hop,kept");
    std::vector<std::vector<size_t>> joined(groups.size());
    for (size_t g = 0; g < groups.size(); g++) {
        std::vector<size_t> quad(groups[g].begin(), groups[g].begin() + 4);
        char q[96];
        std::snprintf(q, sizeof q, "%zu-%zu-%zu-%zu", quad[0], quad[1], quad[2], quad[3]);
        for (size_t x = 0; x < nx; x++) {
            if (std::find(quad.begin(), quad.end(), x) != quad.end())
                continue;
            v.clear();
            for (size_t y : quad)
                add_piece(v, y);
            add_piece(v, x);
            double c = w.run(v);
            std::fprintf(fm, "%zu,%s,%zu,%.3f,%.4f\n", g, q, x, c, frac(c));
            if (frac(c) < 0.5)
                joined[g].push_back(x);
        }
        std::fflush(fm);
        std::printf("group %zu (%s): %zu of %zu blocks join\n", g, q, joined[g].size(), nx - 4);
        std::fflush(stdout);
    }
    std::fclose(fm);

    // line: group 0's four pieces, piece 0 without line p, and line 0 of
    // another member X: 4 lines in every set but where X's line lands
    if (!groups.empty()) {
        FILE *fi = cap_open(dir, "l1set_line.csv", "quad0,x,o,p,cycles_per_hop,lost_lines");
        std::vector<size_t> quad(groups[0].begin(), groups[0].begin() + 4);
        int done = 0;
        for (size_t x : joined[0]) {
            if (done++ >= line_members)
                break;
            for (size_t p = 0; p < 32; p++) {
                v.clear();
                for (size_t i = 0; i < 4; i++)
                    for (size_t l = 0; l < 32; l++)
                        if (i != 0 || l != p)
                            v.push_back(quad[i] * 4096 + l * 128);
                v.push_back(x * 4096);
                double c = w.run(v);
                // lost lines of the 128: the hop cycles above all hits, in misses
                double lost = (c - hit) / (miss - hit) * v.size();
                std::fprintf(fi, "%zu,%zu,0,%zu,%.3f,%.2f\n", quad[0], x, p, c, lost);
            }
        }
        std::fclose(fi);
    }
    cap_end(cap);
    std::printf("cap_l1set done: %zu groups\n", groups.size());
    return 0;
}
