// cap_warpload: E23.  What does one warp load cost as its 32 lanes spread
// over more lines, and does it matter whether those lines share a page?
// E22 found a float4 warp load (512 B, four lines) from HBM about 60-100
// cycles slower on the chip than the single-line chase of E11 would make
// it; this measures the latency of single warp loads directly.
//
// One warp (on SM 0: a grid of 132 one-warp CTAs, the CTA that finds itself
// on the target SM runs, the others leave at once) times H loads one after
// another: clock64, a ld.global.cg whose 32 lane addresses follow a layout,
// a vote over every lane's value (it waits for the whole warp's data), a
// shared store of the vote, clock64.  Each hop reads lines no earlier hop
// of the run read (a fresh random 4 KB page, or 32 of them), from a 256 MiB
// buffer (within the L1 TLB's 256 MiB reach, E20) whose translations are
// warmed after the L2 is flushed by a 256 MiB read of another buffer.
// `cold`: the hops' lines come from HBM.  `warm`: the warp first reads the
// same hops untimed, then times them (L2 hits, or replicas of far lines).
// `reg`: the load replaced by register arithmetic: the timing sequence's
// own cycles, to subtract.
//
// Layouts (w: bytes a lane loads; offsets within the hop's page):
//   bcast       all lanes one word: 1 sector
//   cN (w 4)    lane l at l * 4N: N lines of 128 B contiguous
//               (c1 4 sectors, c2 8, c4 16, c8 32, c16 32 of 64, c32 32)
//   p2, p4      lanes in 2 / 4 groups, each group one full line of its own page
//   p32         every lane one word of its own page (32 pages)
//   v1 (w 16)   float4, lane l at (l % 8) * 16: one line
//   v4s128..v4s1024  float4, 4 groups of 8 lanes, group g's full line at
//               g * S (S 128: the contiguous 512 B of E22's loop)
//   v4p4        float4, 4 full lines in 4 pages
// -> stdout (median per layout and mode), DIR/warpload.csv (every hop).
// `cap_warpload DIR SM pair` adds E23b, two lines a hop at a distance
// (pair_table below) -> DIR/warpload_pair.csv.
// Build: nvcc -O3 -arch=sm_90 -o cap_warpload cap_warpload.cu
#include "cap.h"

#include <random>

static const int H = 1024;                   // hops a layout and mode
static const size_t BUF_BYTES = 256ull << 20;   // the hops' buffer (within the L1 TLB's reach)

template <int W>
__global__ void wl_kernel(const char *buf, const uint32_t *offs, int hops, int target, int warm, int reg,
                          uint32_t *out_cyc, uint32_t *out_sm, uint32_t *sink)
{
    __shared__ uint32_t sh[32];
    if ((int)smid() != target)
        return;
    int lane = threadIdx.x;
    if (lane == 0)
        out_sm[0] = smid() | 0x80000000u;   // which CTA ran (the others left)
    uint32_t acc = 0;
    for (int pass = warm ? 0 : 1; pass < 2; pass++) {
        for (int h = 0; h < hops; h++) {
            uint32_t o = offs[(size_t)h * 32 + lane];
            if (o == 0xffffffffu)   // waits for o before the clock is read
                sink[2] = 1;
            __syncwarp();
            uint64_t c0 = clock64();
            uint32_t x;
            if (reg) {
                x = o * 3u + 1u;
            } else if (W == 4) {
                asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(buf + o) : "memory");
            } else {
                uint32_t a, b, c, d;
                asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                             : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                             : "l"(buf + o)
                             : "memory");
                x = a ^ b ^ c ^ d;
            }
            uint32_t v = __ballot_sync(0xffffffffu, x == 0x12345678u);
            if (lane == 0)
                ((volatile uint32_t *)sh)[h & 31] = v;
            uint64_t c1 = clock64();
            acc += v;
            if (pass == 1 && lane == 0)
                out_cyc[h] = (uint32_t)(c1 - c0);
        }
    }
    if (acc == 0x7777u)
        sink[0] = acc;
}

// one word of the last 4 KB page of every 2 MB region, on every SM: the
// buffer's translations in each SM's TLB, those pages never used by a hop
__global__ void tlb_kernel(const uint32_t *buf, size_t regions, uint32_t *sink)
{
    uint32_t acc = 0;
    for (size_t r = threadIdx.x; r < regions; r += blockDim.x)
        acc += __ldcg(buf + (r * (2u << 20) + (2u << 20) - 4096) / 4);
    if (acc == 0x12345u)
        sink[1] = acc;
}

struct Layout {
    const char *name;
    int w;        // bytes a lane loads
    int pages;    // pages a hop touches
    int lines;    // distinct lines
    int sectors;  // distinct 32 B sectors
};

static const Layout layouts[] = {
    {"bcast", 4, 1, 1, 1},      {"c1", 4, 1, 1, 4},       {"c2", 4, 1, 2, 8},       {"c4", 4, 1, 4, 16},
    {"c8", 4, 1, 8, 32},        {"c16", 4, 1, 16, 32},    {"c32", 4, 1, 32, 32},    {"p2", 4, 2, 2, 8},
    {"p4", 4, 4, 4, 16},        {"p32", 4, 32, 32, 32},   {"v1", 16, 1, 1, 4},      {"v4s128", 16, 1, 4, 16},
    {"v4s256", 16, 1, 4, 16},   {"v4s512", 16, 1, 4, 16}, {"v4s1024", 16, 1, 4, 16}, {"v4p4", 16, 4, 4, 16},
};

// lane l's byte offset within its page for layout L (its page: pg[l / (32 / pages)])
static uint32_t lane_off(const Layout &L, int l, uint32_t line_base)
{
    std::string n = L.name;
    if (n == "bcast")
        return line_base;
    if (n[0] == 'c') {
        int lines = std::atoi(n.c_str() + 1);
        return (uint32_t)(l * 4 * lines);   // the span starts at the page (4 KB-aligned)
    }
    if (n == "p2")
        return line_base + (uint32_t)(l % 16) * 8;
    if (n == "p4")
        return line_base + (uint32_t)(l % 8) * 16;
    if (n == "p32")
        return line_base;
    if (n == "v1")
        return line_base + (uint32_t)(l % 8) * 16;
    if (n == "v4p4")
        return line_base + (uint32_t)(l % 8) * 16;
    // v4sS: group g = l / 8 at g * S
    int s = std::atoi(n.c_str() + 3);
    return (uint32_t)((l / 8) * s + (l % 8) * 16);
}

// One run of H hops of the offsets in offs: the L2 flushed, the
// translations warmed, the timed kernel (width w; warm: the hops read once
// untimed first; reg: no load), its cycles into cyc.  Returns the SM it ran
// on, or -1 when no CTA found itself on the target.
static int run_hops(const std::vector<uint32_t> &offs, int w, int target, int warm, int reg, char *buf, float4 *fb,
                    size_t fbytes, uint32_t *doffs, uint32_t *dcyc, uint32_t *dsm, uint32_t *sink,
                    std::vector<uint32_t> &cyc)
{
    CK(cudaMemcpy(doffs, offs.data(), offs.size() * 4, cudaMemcpyHostToDevice));
    flush_kernel<<<1056, 256>>>(fb, fbytes / 16, (float *)sink);
    CK(cudaGetLastError());
    tlb_kernel<<<132, 128>>>((const uint32_t *)buf, BUF_BYTES >> 21, sink);
    CK(cudaGetLastError());
    CK(cudaMemset(dsm, 0, 4));
    if (w == 4)
        wl_kernel<4><<<132, 32>>>(buf, doffs, H, target, warm, reg, dcyc, dsm, sink);
    else
        wl_kernel<16><<<132, 32>>>(buf, doffs, H, target, warm, reg, dcyc, dsm, sink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    uint32_t sm = 0;
    cyc.resize(H);
    CK(cudaMemcpy(cyc.data(), dcyc, H * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&sm, dsm, 4, cudaMemcpyDeviceToHost));
    if (!(sm & 0x80000000u)) {
        std::fprintf(stderr, "cap_warpload: no CTA ran on SM %d\n", target);
        return -1;
    }
    return (int)(sm & 0x7fffffffu);
}

// E23b (`cap_warpload DIR SM pair`): two full lines a hop, lanes 0-15 on
// line A of a fresh random page, lanes 16-31 on line A + d (d 0: the same
// line; d < 4 KB within A's page; d -1: a line of another random page),
// 2 x 1024 cold hops a distance: whether the lines' DRAM tails (E23) come
// together or apart tells the address span of what blocks them.
// -> DIR/warpload_pair.csv
static int pair_table(const char *dir, int target, char *buf, float4 *fb, size_t fbytes, uint32_t *doffs,
                      uint32_t *dcyc, uint32_t *dsm, uint32_t *sink, std::vector<uint32_t> &pages,
                      std::mt19937_64 &rng)
{
    const uint32_t npages = (uint32_t)(BUF_BYTES / 4096);
    FILE *fp = open_table(dir, "warpload_pair.csv", "distance,rep,hop,sm,cycles");
    const long long dists[] = {0, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 65536, 262144, 1048576, 4194304, -1};
    std::printf("pair: distance | near (p25) | tail fraction (> p25 + 315)\n");
    for (long long d : dists) {
        std::vector<double> all;
        for (int rep = 0; rep < 2; rep++) {
            std::shuffle(pages.begin(), pages.end(), rng);
            std::vector<uint32_t> offs((size_t)H * 32);
            for (int h = 0; h < H; h++) {
                uint32_t p = pages[h];
                uint32_t span = d >= 0 && d < 4096 ? (uint32_t)d : 0;
                uint32_t a = p * 4096u + (uint32_t)(rng() % ((4096 - span) / 128)) * 128u;
                uint32_t b;
                if (d < 0)
                    b = pages[H + h] * 4096u + (uint32_t)(rng() % 32) * 128u;
                else
                    b = (uint32_t)(((uint64_t)a + (uint64_t)d) % ((uint64_t)npages * 4096));
                for (int l = 0; l < 32; l++)
                    offs[(size_t)h * 32 + l] = (l < 16 ? a : b) + (uint32_t)(l % 16) * 8;
            }
            std::vector<uint32_t> cyc;
            int sm = run_hops(offs, 4, target, 0, 0, buf, fb, fbytes, doffs, dcyc, dsm, sink, cyc);
            if (sm < 0)
                return 1;
            for (int h = 0; h < H; h++) {
                std::fprintf(fp, "%lld,%d,%d,%d,%u\n", d, rep, h, sm, cyc[h]);
                all.push_back(cyc[h]);
            }
        }
        std::sort(all.begin(), all.end());
        double near = all[all.size() / 4];
        size_t tail = 0;
        for (double x : all)
            tail += x > near + 315;
        std::printf("pair: %9lld | %6.0f | %.3f\n", d, near, (double)tail / (double)all.size());
    }
    std::fclose(fp);
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const int target = argc > 2 ? std::atoi(argv[2]) : 0;
    const size_t bytes = BUF_BYTES, fbytes = 256ull << 20;
    const size_t npages = bytes / 4096;
    char *buf;
    float4 *fb;
    uint32_t *doffs, *dcyc, *dsm, *sink;
    CK(cudaMalloc(&buf, bytes));
    CK(cudaMalloc(&fb, fbytes));
    CK(cudaMalloc(&doffs, (size_t)H * 32 * 4));
    CK(cudaMalloc(&dcyc, H * 4));
    CK(cudaMalloc(&dsm, 4));
    CK(cudaMalloc(&sink, 16));
    CK(cudaMemset(buf, 0x3c, bytes));
    CK(cudaMemset(fb, 0x3d, fbytes));

    // usable pages: all but the last of each 2 MB region (tlb_kernel's)
    std::vector<uint32_t> pages;
    for (uint32_t p = 0; p < npages; p++)
        if (p % 512 != 511)
            pages.push_back(p);
    std::mt19937_64 rng(20261202);
    FILE *fo = open_table(dir, "warpload.csv", "layout,w,pages,lines,sectors,mode,hop,sm,cycles");
    std::printf("%-8s %2s %5s %5s %7s | %8s %8s %8s (cycles: p10 median p90)\n", "layout", "w", "lines", "secs",
                "mode", "", "", "");
    const char *modes[] = {"reg", "cold", "warm"};
    for (const Layout &L : layouts) {
        for (int m = 0; m < 3; m++) {
            if (m == 0 && std::strcmp(L.name, "bcast") != 0 && std::strcmp(L.name, "v1") != 0)
                continue;   // the timing sequence's cycles: once for each width
            // fresh pages for every hop of this run
            std::shuffle(pages.begin(), pages.end(), rng);
            std::vector<uint32_t> offs((size_t)H * 32);
            size_t next = 0;
            for (int h = 0; h < H; h++) {
                uint32_t pg[32];
                for (int k = 0; k < L.pages; k++)
                    pg[k] = pages[next++ % pages.size()];
                uint32_t line_base = (uint32_t)(rng() % 32) * 128;
                for (int l = 0; l < 32; l++) {
                    int k = l / (32 / L.pages);
                    uint32_t lb = L.pages == 32 ? (uint32_t)(rng() % 32) * 128 : line_base;
                    offs[(size_t)h * 32 + l] = pg[k] * 4096u + lane_off(L, l, lb);
                }
            }
            std::vector<uint32_t> cyc;
            int sm = run_hops(offs, L.w, target, m == 2, m == 0, buf, fb, fbytes, doffs, dcyc, dsm, sink, cyc);
            if (sm < 0)
                return 1;
            std::vector<double> v;
            for (int h = 0; h < H; h++) {
                std::fprintf(fo, "%s,%d,%d,%d,%d,%s,%d,%d,%u\n", L.name, L.w, L.pages, L.lines, L.sectors, modes[m],
                             h, sm, cyc[h]);
                v.push_back(cyc[h]);
            }
            std::sort(v.begin(), v.end());
            std::printf("%-8s %2d %5d %5d %7s | %8.0f %8.0f %8.0f\n", L.name, L.w, L.lines, L.sectors, modes[m],
                        v[H / 10], v[H / 2], v[H * 9 / 10]);
        }
    }
    std::fclose(fo);
    if (argc > 3 && std::strcmp(argv[3], "pair") == 0)
        return pair_table(dir, target, buf, fb, fbytes, doffs, dcyc, dsm, sink, pages, rng);
    return 0;
}
