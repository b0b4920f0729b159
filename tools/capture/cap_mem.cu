// cap_mem: memory-hierarchy captures for skewsim (issue 10), experiment E11.
//
//  chase   one thread follows a random cycle through a working set of N
//          bytes, one 128-byte line per hop (a[line*32] holds the next line,
//          a full-period LCG mod the line count), through L1 (ld.ca) or L2
//          only (ld.cg): cycles per hop against N.  -> DIR/chase.csv
//  l2map   the paper's method (arXiv:2609.24270 sec. 6): for each SM and each
//          of 384 4-KB pages, the clock64() cycles of single ld.global.cg
//          reads of one line of that page: (self) the SM's first read (a
//          miss to HBM) and its second read (an L2 hit); (warm W) a read of a
//          line that SM W read first, then a second read.  Every (SM, page)
//          pair uses its own line, the L2 is flushed between passes.
//          -> DIR/l2map.csv, DIR/pages.csv
//  hbm     132 SMs, one thread each, single timed ld.cg reads of distinct
//          random lines over 4 GB and over 256 MB. -> DIR/hbm.csv
//  stream  grid-stride float4 read of N bytes, P passes, as a user writes it
//          (default caching, ld.global) and with __ldcg (L2 only), N from 1 MB
//          to 4 GB; `add`: c = a + b over fp32 arrays of N bytes each.
//          -> kernels.csv/reps.csv/ctas.csv, DIR/bw.csv
//  fine    (E24) stream at 28-80 MiB and add at 8-32 MiB per array, in
//          finer steps than `stream` around the L2's capacity -> the same files
//  passes  (E24b) the .cg stream at 40-72 MiB, 12 passes, each pass's time
//          (median over CTAs of the globaltimer after it), from a flushed
//          L2 and right after a launch of the same -> DIR/passes.csv
//  perm    (E24c) the same at 48-56 MiB, 24 passes, also with the CTA pairs'
//          page pairs permuted -> DIR/passes_perm.csv
//  retain  (E25) what the L2 holds after E24's kernels, line by line: the
//          add at 12-24 MiB per array and the .cg stream (8 passes a launch)
//          at 48-64 MiB run twice from a flushed L2, then one thread on SM 0 times a single
//          ld.global.cg of each of 1024 sampled lines an array (first from
//          a flushed L2 twice, cold1 then cold2, and once more after another
//          flush, cold3: the line's partition and the hit level; then
//          `after`) -> DIR/retain.csv
//  dirty   (E39) the same reads of 1024 sampled lines of an 8 MiB array X
//          after X was written (every SM, float4 stores) or read (.cg), then
//          a .cg stream of 0, 32 or 96 MiB elsewhere: does the L2 keep
//          written lines longer than read ones? -> DIR/dirty.csv
//  ysweep  (E39) the same after streams of 16, 24, 40, 48, 56, 64 and 80
//          MiB -> DIR/dirty_ysweep.csv
//  l1cap   (E35) the stream, default-cached and .cg, at per-SM footprints of
//          64-768 KiB a pass and 1, 2, 4 or 8 CTAs an SM, over zeros and over
//          hashed words -> DIR/l1cap_stream.csv
//  l1spread (E43) E35's stream at one CTA an SM, default-cached and .cg, at
//          64, 128, 192 and 256 KiB an SM a pass over hashed words: every
//          CTA's SM, cycles and ns in each of 3 timed launches (how far the
//          L1's index spreads the SMs' times) -> DIR/l1spread.csv
//  l1warps (E43b) the default-cached stream of l1spread at 128 KiB an SM:
//          each warp's cycles from its CTA's start to its own last load
//          (before the CTA's closing barrier) -> DIR/l1warps.csv
//
// Build: nvcc -O3 -arch=sm_90 -o cap_mem cap_mem.cu
// Usage: cap_mem DIR [chase,l2map,hbm,stream,fine,passes,perm,retain,dirty,ysweep,l1cap,l1spread,l1warps]
#include "cap.h"

// The hashed words E35, E43 and E43b read (no line alike, no zero word):
// the first 768 KiB x 132 of buf, each word a hash of its index.
static void fill_hashed(void *buf)
{
    size_t words = (size_t)768 * 1024 * 132 / 4;
    fill_hash<<<(unsigned)((words + 255) / 256), 256>>>((uint32_t *)buf, words);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}

// E43b: stream_kernel<false>'s loop; each warp's lane 0 writes its cycles
// since the CTA's start (w[2i]) and, packed, its SM and the CTA's cycles at
// the barrier's end (w[2i+1]: sm << 32 | cycles).
__global__ void stream_warps(uint64_t *w, const float4 *a, size_t n4, int passes, float *sink)
{
    uint64_t c0 = clock64();
    float acc = 0;
    for (int p = 0; p < passes; p++)
        for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
            float4 v = a[i];
            acc += v.x + v.y + v.z + v.w;
        }
    if (acc == 1234.5f)
        sink[0] = acc;
    uint64_t mine = clock64() - c0;
    __syncthreads();
    uint64_t all = clock64() - c0;
    if ((threadIdx.x & 31) == 0) {
        size_t i = (size_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
        w[2 * i] = mine;
        w[2 * i + 1] = (uint64_t)smid() << 32 | (all & 0xffffffffu);
    }
}
#include "rw_kernels.h"

// ---------------------------------------------------------------- chase
template <bool CG>
__global__ void chase_kernel(const uint32_t *a, int hops, uint64_t *out, uint32_t *sink)
{
    uint32_t j = 0;
    uint64_t t0 = gtimer(), c0 = clock64();
    for (int i = 0; i < hops; i++)
        j = CG ? __ldcg(&a[(size_t)j * 32]) : __ldca(&a[(size_t)j * 32]);
    sink[0] = j;   // the store waits for the last load
    uint64_t c1 = clock64(), t1 = gtimer();
    out[0] = c1 - c0;
    out[1] = t1 - t0;
    out[2] = smid();
}

// ---------------------------------------------------------------- passes
// E11's .cg stream with each CTA's thread 0 writing the globaltimer at its
// start and after each pass (a __syncthreads() first): out[cta * (passes +
// 1) + p].  How the L2 takes a stream pass by pass from cold.
// perm (E24c; nullptr: the plain grid stride): CTA c reads, in every stripe
// of gridDim.x x blockDim.x float4s, the block perm[c] instead of its own.
__global__ void stream_pass_times(const float4 *a, size_t n4, int passes, uint64_t *out, float *sink,
                                  const uint32_t *perm)
{
    float acc = 0;
    size_t blk = perm ? perm[blockIdx.x] : blockIdx.x;
    if (threadIdx.x == 0)
        out[(size_t)blockIdx.x * (passes + 1)] = gtimer();
    for (int p = 0; p < passes; p++) {
        for (size_t i = blk * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
            float4 v = __ldcg(&a[i]);
            acc += v.x + v.y + v.z + v.w;
        }
        __syncthreads();
        if (threadIdx.x == 0)
            out[(size_t)blockIdx.x * (passes + 1) + p + 1] = gtimer();
    }
    if (acc == 1234.5f)
        sink[0] = acc;
}

// ---------------------------------------------------------------- l2map
// One timed read: the STS of the loaded value cannot issue before the load
// returns, and the second clock read issues after the STS (in-order issue).
static __device__ __forceinline__ uint32_t timed_cg(const uint32_t *p, volatile uint32_t *sh, uint32_t &cyc,
                                                    uint64_t *end = nullptr)
{
    uint64_t c0 = clock64();
    uint32_t v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    sh[0] = v;
    uint64_t c1 = clock64();
    cyc = (uint32_t)(c1 - c0);
    if (end)
        *end = c1;
    return v;
}

__global__ void l2map_kernel(const uint32_t *buf, const uint64_t *page_off, int npages, int group, int warm_sm,
                             uint32_t *out1, uint32_t *out2, int *flag, uint32_t *sink)
{
    extern __shared__ uint32_t dyn[];   // only there to hold one CTA per SM
    volatile uint32_t *sh = dyn;
    uint32_t s = smid();
    if (warm_sm >= 0) {
        if ((int)s == warm_sm) {
            uint32_t acc = 0;
            for (int i = threadIdx.x; i < npages * 32; i += blockDim.x)
                acc += __ldcg(buf + page_off[i / 32] / 4 + (i % 32) * 32);
            if (acc == 0x12345678u)
                sink[1] = acc;
            __syncthreads();
            if (threadIdx.x == 0) {
                __threadfence();
                atomicExch(flag, 1);
            }
        } else if (threadIdx.x == 0) {
            while (atomicAdd(flag, 0) == 0)
                ;
        }
        __syncthreads();
    }
    if (threadIdx.x != 0 || (int)(s / 32) != group || (int)s == warm_sm)
        return;
    uint32_t line = s % 32, acc = 0;
    for (int p = 0; p < npages; p++) {
        const uint32_t *a = buf + page_off[p] / 4 + line * 32;
        uint32_t c1, c2;
        uint64_t e;
        acc += timed_cg(a, sh, c1, &e);
        // (e >> 63) is 0, but ptxas cannot know it: without it, it merged the
        // second load of the same address into the first
        acc += timed_cg(a + (uint32_t)(e >> 63), sh, c2);
        out1[s * npages + p] = c1;
        out2[s * npages + p] = c2;
    }
    if (acc == 0x12345678u)
        sink[0] = acc;
}

// Overhead of the timing sequence with a register operand instead of a load.
__global__ void ovh_kernel(uint32_t *out, uint32_t x)
{
    __shared__ uint32_t shv[1];
    volatile uint32_t *sh = shv;
    uint64_t c0 = clock64();
    uint32_t v = x + 1;
    sh[0] = v;
    uint64_t c1 = clock64();
    out[0] = (uint32_t)(c1 - c0);
}

// ---------------------------------------------------------------- hbm
__global__ void hbm_kernel(const uint32_t *buf, uint32_t lines_log2, int k_per_sm, uint32_t *out_cyc,
                           uint32_t *out_line, uint32_t *out_sm, uint32_t *sink)
{
    extern __shared__ uint32_t dyn[];
    volatile uint32_t *sh = dyn;
    if (threadIdx.x != 0)
        return;
    uint32_t s = smid(), mask = (1u << lines_log2) - 1, acc = 0;
    out_sm[blockIdx.x] = s;
    for (int k = 0; k < k_per_sm; k++) {
        uint32_t x = (uint32_t)k * gridDim.x + blockIdx.x;
        uint32_t line = (2654435761u * x + 12345u) & mask;   // odd multiplier: a bijection, distinct lines
        uint32_t c;
        acc += timed_cg(buf + (size_t)line * 32, sh, c);
        out_cyc[blockIdx.x * k_per_sm + k] = c;
        out_line[blockIdx.x * k_per_sm + k] = line;
    }
    if (acc == 0x12345678u)
        sink[0] = acc;
}

// ---------------------------------------------------------------- retain
// E25: thread 0 of the CTA that finds itself on SM `target` (a grid of one
// CTA per SM) times one ld.global.cg of each line base + offs[i], in that
// order, into out[i].  The offsets are first copied into shared memory, so
// that, wherever ptxas puts the first clock read, the one load before it
// is a shared one (not a global one that might miss), and the branch on o
// waits for it before the clock is read.
__global__ void probe_kernel(const char *base, const uint64_t *offs, int n, int target, uint32_t *out,
                             uint32_t *sink)
{
    extern __shared__ uint32_t dyn[];
    volatile uint32_t *sh = dyn;
    uint64_t *so = (uint64_t *)(dyn + 16);
    if ((int)smid() != target)
        return;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        so[i] = offs[i];
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    uint32_t acc = 0;
    for (int i = 0; i < n; i++) {
        uint64_t o = so[i];
        if (o == ~0ull)
            sink[2] = 1;
        uint32_t c;
        acc += timed_cg((const uint32_t *)(base + o), sh, c);
        out[i] = c;
    }
    if (acc == 0x12345678u)
        sink[0] = acc;
}

static void flush_l2(const float4 *fb, size_t fbytes, float *sink)
{
    flush_kernel<<<1056, 256>>>(fb, fbytes / 16, sink);
    CK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_mem DIR [parts: chase,l2map,hbm,stream,fine,passes,perm,retain,dirty,ysweep,l1cap,l1spread,l1warps]\n");
        return 2;
    }
    std::string dir = argv[1], parts = argc > 2 ? argv[2] : "chase,l2map,hbm,stream";
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_mem");
    int nsm;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    float *fsink;
    uint32_t *usink;
    uint64_t *dout;
    CK(cudaMalloc(&fsink, 64));
    CK(cudaMalloc(&usink, 64));
    CK(cudaMalloc(&dout, 64));
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    const size_t GB = 1ull << 30, MB = 1ull << 20;
    // One big buffer serves every part (4 GB + a 256 MB flush buffer).
    size_t big = 4 * GB;
    uint32_t *buf;
    CK(cudaMalloc(&buf, big));
    CK(cudaMemset(buf, 0, big));
    float4 *fb;
    size_t fbytes = 256 * MB;
    CK(cudaMalloc(&fb, fbytes));
    CK(cudaMemset(fb, 0, fbytes));
    const int SMEM_1PER_SM = 120 * 1024;
    CK(cudaFuncSetAttribute(l2map_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_1PER_SM));
    CK(cudaFuncSetAttribute(hbm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_1PER_SM));
    CK(cudaDeviceSynchronize());

    if (parts.find("chase") != std::string::npos) {
        FILE *f = cap_open(dir, "chase.csv", "bytes,mode,hops,warm_hops,sm,cycles_per_hop,ns_per_hop");
        for (int cg = 0; cg < 2; cg++)
            for (size_t bytes = 16 * 1024; bytes <= GB; bytes *= 2) {
                uint32_t nlines = (uint32_t)(bytes / 128);
                fill_lcg<<<(nlines + 255) / 256, 256>>>(buf, nlines);
                CK(cudaGetLastError());
                int hops = 4096, warm = bytes <= 64 * MB ? (int)std::max<uint32_t>(nlines, 4096) : 0;
                std::vector<KRep> reps;
                for (int rep = 0; rep < 2; rep++) {
                    int h = rep == 0 ? warm : hops;
                    if (h == 0)
                        continue;
                    if (rep == 1 && warm == 0)
                        flush_l2(fb, fbytes, fsink);   // lines fill_lcg left in L2
                    CK(cudaEventRecord(ea));
                    if (cg)
                        chase_kernel<true><<<1, 1>>>(buf, h, dout, usink);
                    else
                        chase_kernel<false><<<1, 1>>>(buf, h, dout, usink);
                    CK(cudaEventRecord(eb));
                    CK(cudaEventSynchronize(eb));
                    CK(cudaGetLastError());
                    uint64_t o[3];
                    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
                    if (rep == 1) {
                        std::fprintf(f, "%zu,%s,%d,%d,%llu,%.2f,%.2f\n", bytes, cg ? "cg" : "ca", h, warm,
                                     (unsigned long long)o[2], (double)o[0] / h, (double)o[1] / h);
                        KRep r;
                        r.time_ns = ev_ms(ea, eb) * 1e6;
                        reps.push_back(r);
                    }
                }
                KInfo k;
                k.kernel = fmt("e11.chase.%s.%zu", cg ? "cg" : "ca", bytes);
                k.exp = "e11_chase";
                k.name = cg ? "chase_kernel<cg>" : "chase_kernel<ca>";
                k.gen = cg ? "" : fmt("skewsim gen chase --bytes %zu --hops %d --ctas 1", bytes, hops);
                k.grid = 1;
                k.block = 1;
                k.mode = warm ? "after_warm" : "cold";
                k.params = fmt("bytes=%zu;hops=%d;line=128;warm_hops=%d;cache=%s", bytes, hops, warm, cg ? "cg" : "ca");
                cap_kernel(cap, k, reps);
            }
        std::fclose(f);
        std::printf("chase done\n");
        std::fflush(stdout);
    }

    if (parts.find("l2map") != std::string::npos) {
        // 256 contiguous pages (1 MB) then 128 pages 2 MB + 4 KB * i apart.
        std::vector<uint64_t> off;
        for (int p = 0; p < 256; p++)
            off.push_back((uint64_t)p * 4096);
        for (int p = 0; p < 128; p++)
            off.push_back(2 * MB + (uint64_t)p * (2 * MB + 4096 * 37));
        int np = (int)off.size();
        FILE *pf = cap_open(dir, "pages.csv", "page,offset_bytes,va");
        for (int p = 0; p < np; p++)
            std::fprintf(pf, "%d,%llu,0x%llx\n", p, (unsigned long long)off[p],
                         (unsigned long long)((uintptr_t)buf + off[p]));
        std::fclose(pf);
        uint64_t *doff;
        uint32_t *o1, *o2;
        int *flag;
        CK(cudaMalloc(&doff, np * 8));
        CK(cudaMemcpy(doff, off.data(), np * 8, cudaMemcpyHostToDevice));
        CK(cudaMalloc(&o1, 4ull * nsm * np));
        CK(cudaMalloc(&o2, 4ull * nsm * np));
        CK(cudaMalloc(&flag, 4));
        std::vector<uint32_t> h1(nsm * np), h2(nsm * np);
        FILE *f = cap_open(dir, "l2map.csv", "mode,warm_sm,sm,page,cycles1,cycles2");
        uint32_t ov;
        for (int i = 0; i < 3; i++)   // the last of three: instruction cache warm
            ovh_kernel<<<1, 1>>>(usink, 7);
        CK(cudaMemcpy(&ov, usink, 4, cudaMemcpyDeviceToHost));
        cap_meta(cap, "l2map.timing_overhead_cycles", fmt("%u", ov));
        std::vector<int> warmers = {-1, 0, 2, 4, 6, 8, 10, 12, 14};
        for (int w : warmers)
            for (int g = 0; g * 32 < nsm; g++) {
                CK(cudaMemset(o1, 0xff, 4ull * nsm * np));
                CK(cudaMemset(flag, 0, 4));
                flush_l2(fb, fbytes, fsink);
                l2map_kernel<<<nsm, 256, SMEM_1PER_SM>>>(buf, doff, np, g, w, o1, o2, flag, usink);
                CK(cudaDeviceSynchronize());
                CK(cudaGetLastError());
                CK(cudaMemcpy(h1.data(), o1, 4ull * nsm * np, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(h2.data(), o2, 4ull * nsm * np, cudaMemcpyDeviceToHost));
                for (int s = g * 32; s < std::min(nsm, g * 32 + 32); s++)
                    for (int p = 0; p < np; p++)
                        if (h1[s * np + p] != 0xffffffffu)
                            std::fprintf(f, "%s,%d,%d,%d,%u,%u\n", w < 0 ? "self" : "warm", w, s, p, h1[s * np + p],
                                         h2[s * np + p]);
            }
        std::fclose(f);
        CK(cudaFree(doff));
        CK(cudaFree(o1));
        CK(cudaFree(o2));
        CK(cudaFree(flag));
        std::printf("l2map done\n");
        std::fflush(stdout);
    }

    if (parts.find("hbm") != std::string::npos) {
        FILE *f = cap_open(dir, "hbm.csv", "region_bytes,cta,sm,k,line,cycles");
        int K = 1024;
        uint32_t *oc, *ol, *os;
        CK(cudaMalloc(&oc, 4ull * nsm * K));
        CK(cudaMalloc(&ol, 4ull * nsm * K));
        CK(cudaMalloc(&os, 4ull * nsm));
        std::vector<uint32_t> hc(nsm * K), hl(nsm * K), hs(nsm);
        for (size_t region : {4 * GB, 256 * MB}) {
            uint32_t l2 = 0;
            while ((128ull << l2) < region)
                l2++;
            int k = region == 4 * GB ? K : K / 2;
            flush_l2(fb, fbytes, fsink);
            hbm_kernel<<<nsm, 32, SMEM_1PER_SM>>>(buf, l2, k, oc, ol, os, usink);
            CK(cudaDeviceSynchronize());
            CK(cudaGetLastError());
            CK(cudaMemcpy(hc.data(), oc, 4ull * nsm * k, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hl.data(), ol, 4ull * nsm * k, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hs.data(), os, 4ull * nsm, cudaMemcpyDeviceToHost));
            for (int b = 0; b < nsm; b++)
                for (int i = 0; i < k; i++)
                    std::fprintf(f, "%zu,%d,%u,%d,%u,%u\n", region, b, hs[b], i, hl[b * k + i], hc[b * k + i]);
        }
        std::fclose(f);
        CK(cudaFree(oc));
        CK(cudaFree(ol));
        CK(cudaFree(os));
        std::printf("hbm done\n");
        std::fflush(stdout);
    }

    // `passes` (E24b): the .cg stream's passes timed one by one, from a
    // flushed L2 (cold) and right after a launch of the same (warm).
    // `perm` (E24c): the same at 48-56 MiB and 24 passes, plain and with
    // the CTA pairs' 4-KB page pairs dealt out by a seeded random permutation
    // (each page pair still read by one CTA pair): whether the stream's
    // return to its plateau depends on which half reads which page pair.
    int perm_part = parts.find("perm") != std::string::npos;
    if (parts.find("passes") != std::string::npos || perm_part) {
        const int ctas = 1056, block = 256, passes = perm_part ? 24 : 12, nrep = 3;
        uint64_t *dout;
        CK(cudaMalloc(&dout, 8ull * ctas * (passes + 1)));
        std::vector<uint64_t> h((size_t)ctas * (passes + 1));
        std::vector<uint32_t> perm(ctas);
        {
            std::vector<uint32_t> pr(ctas / 2);
            for (int m = 0; m < ctas / 2; m++)
                pr[m] = (uint32_t)m;
            uint64_t x = 0x243F6A8885A308D3ull;   /* fixed seed: a xorshift64 Fisher-Yates */
            for (int m = ctas / 2 - 1; m > 0; m--) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                std::swap(pr[m], pr[x % (uint64_t)(m + 1)]);
            }
            for (int m = 0; m < ctas / 2; m++)
                perm[2 * m] = 2 * pr[m], perm[2 * m + 1] = 2 * pr[m] + 1;
        }
        uint32_t *dperm;
        CK(cudaMalloc(&dperm, 4ull * ctas));
        CK(cudaMemcpy(dperm, perm.data(), 4ull * ctas, cudaMemcpyHostToDevice));
        FILE *f = perm_part ? cap_open(dir, "passes_perm.csv", "order,ws_mib,start,rep,pass,t_median_ns,gbps")
                            : cap_open(dir, "passes.csv", "ws_mib,start,rep,pass,t_median_ns,gbps");
        std::vector<size_t> sizes = {40, 48, 52, 56, 60, 64, 72};
        if (perm_part)
            sizes = {48, 52, 56};
        for (int order = 0; order < (perm_part ? 2 : 1); order++)
        for (size_t mb : sizes)
            for (int warm = 0; warm < 2; warm++)
                for (int rep = 0; rep < nrep; rep++) {
                    size_t bytes = mb * MB, n4 = bytes / 16;
                    const uint32_t *pp = order ? dperm : nullptr;
                    if (warm)
                        stream_pass_times<<<ctas, block>>>((const float4 *)buf, n4, passes, dout, fsink, pp);
                    else
                        flush_l2(fb, fbytes, fsink);
                    stream_pass_times<<<ctas, block>>>((const float4 *)buf, n4, passes, dout, fsink, pp);
                    CK(cudaGetLastError());
                    CK(cudaDeviceSynchronize());
                    CK(cudaMemcpy(h.data(), dout, 8ull * h.size(), cudaMemcpyDeviceToHost));
                    double prev = 0;
                    for (int p = 0; p <= passes; p++) {
                        std::vector<double> t;
                        for (int c = 0; c < ctas; c++)
                            t.push_back((double)h[(size_t)c * (passes + 1) + p]);
                        double med = median_d(t);
                        if (p == 0) {
                            prev = med;
                            continue;
                        }
                        if (perm_part)
                            std::fprintf(f, "%s,", order ? "perm" : "grid");
                        std::fprintf(f, "%zu,%s,%d,%d,%.0f,%.1f\n", mb, warm ? "warm" : "cold", rep, p, med - prev,
                                     med > prev ? (double)bytes / (med - prev) : -1.0);
                        prev = med;
                    }
                }
        std::fclose(f);
        CK(cudaFree(dout));
        CK(cudaFree(dperm));
        std::printf("passes done\n");
    }

    // One sampled case of `retain` and `dirty`: 1024 distinct lines of each
    // of narr arrays of `bytes` (a, b, c at buf, +1 GB, +2 GB, as `stream`),
    // drawn by the seeded xorshift x, the arrays' samples interleaved in one
    // seeded random order, each timed by one read from SM 0: cold1, cold2
    // right after a flush (the line's partition from the HBM level, and the
    // hit level), cold3 after another flush (a refresh that held one cold
    // read back rarely holds both: the partition is read from the lesser);
    // then flush, run seq() and read them again (after).  Each read brings
    // in one 32 B sector of its line (a far miss also its replica): under
    // 200 KB a case, well under 1 % of the L2.
    const int rctas = 1056, rblock = 256, per_array = 1024, target = 0;
    Rec *drec;
    uint64_t *doffs;
    uint32_t *dcyc;
    const size_t nmax = 3 * per_array;
    CK(cudaMalloc(&drec, sizeof(Rec) * rctas));
    CK(cudaMalloc(&doffs, 8 * nmax));
    CK(cudaMalloc(&dcyc, 4 * nmax));
    CK(cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_1PER_SM));
    uint64_t x = 0x9E3779B97F4A7C15ull;   // fixed seed (xorshift64): retain's; `dirty` sets its own
    auto rnd = [&x]() {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        return x;
    };
    struct Sampled {
        std::vector<std::pair<int, uint32_t>> smp;   // (array, line), in read order
        std::vector<uint32_t> c1, c2, c3, ca;
    };
    auto sample_case = [&](size_t bytes, int narr, auto seq) {
        Sampled r;
        size_t nlines = bytes / 128;
        for (int a = 0; a < narr; a++) {
            std::vector<char> seen(nlines, 0);
            for (int k = 0; k < per_array;) {
                uint32_t l = (uint32_t)(rnd() % nlines);
                if (seen[l])
                    continue;
                seen[l] = 1;
                r.smp.push_back({a, l});
                k++;
            }
        }
        for (size_t m = r.smp.size() - 1; m > 0; m--)
            std::swap(r.smp[m], r.smp[rnd() % (m + 1)]);
        int n = (int)r.smp.size();
        std::vector<uint64_t> offs(n);
        for (int i = 0; i < n; i++)
            offs[i] = (uint64_t)r.smp[i].first * GB + (uint64_t)r.smp[i].second * 128;
        CK(cudaMemcpy(doffs, offs.data(), 8ull * n, cudaMemcpyHostToDevice));
        auto probe = [&](std::vector<uint32_t> &h) {
            h.resize(n);
            CK(cudaMemset(dcyc, 0xff, 4ull * n));   // a sentinel: SM 0 got no CTA if it stays
            probe_kernel<<<nsm, 32, SMEM_1PER_SM>>>((const char *)buf, doffs, n, target, dcyc, usink);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), dcyc, 4ull * n, cudaMemcpyDeviceToHost));
            for (int i = 0; i < n; i++)
                if (h[i] == 0xffffffffu) {
                    std::fprintf(stderr, "cap_mem: read %d was not timed (no CTA on SM %d?)\n", i, target);
                    std::exit(1);
                }
        };
        flush_l2(fb, fbytes, fsink);
        probe(r.c1);
        probe(r.c2);
        flush_l2(fb, fbytes, fsink);
        probe(r.c3);
        flush_l2(fb, fbytes, fsink);
        seq();
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        probe(r.ca);
        return r;
    };

    // `retain` (E25): for each of E24's kernels below, a sampled case whose
    // sequence runs the kernel twice (E24 times launches after an untimed
    // one).
    if (parts.find("retain") != std::string::npos) {
        FILE *f = cap_open(dir, "retain.csv", "kernel,mib,array,line,cold1,cold2,cold3,after");
        struct Case {
            const char *kind;
            size_t mib;
        };
        const Case cases[] = {{"add", 12}, {"add", 16}, {"add", 20}, {"add", 24}, {"stream_cg", 48},
                              {"stream_cg", 52}, {"stream_cg", 56}, {"stream_cg", 60}, {"stream_cg", 64}};
        for (const Case &cs : cases) {
            bool add = !std::strcmp(cs.kind, "add");
            size_t bytes = cs.mib * MB;
            auto kernel = [&]() {
                if (add) {
                    float *a = (float *)buf, *b = (float *)((char *)buf + GB), *c = (float *)((char *)buf + 2 * GB);
                    add_kernel<<<rctas, rblock>>>(drec, a, b, c, bytes / 4);
                } else {   // 8 passes a launch (E24's run 4 GiB: 64-85), so that the model's side is quick
                    stream_kernel<true><<<rctas, rblock>>>(drec, (const float4 *)buf, bytes / 16, 8, fsink);
                }
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
            };
            Sampled r = sample_case(bytes, add ? 3 : 1, [&]() {
                kernel();
                kernel();
            });
            for (size_t i = 0; i < r.smp.size(); i++)
                std::fprintf(f, "%s,%zu,%c,%u,%u,%u,%u,%u\n", cs.kind, cs.mib, "abc"[r.smp[i].first], r.smp[i].second,
                             r.c1[i], r.c2[i], r.c3[i], r.ca[i]);
            std::fflush(f);
            std::printf("retain %s %zu MiB done\n", cs.kind, cs.mib);
            std::fflush(stdout);
        }
        std::fclose(f);
    }

    // `dirty` (E39): does the L2 keep lines a kernel wrote longer than lines
    // it only read?  X (8 MiB at buf) is written (k_write, float4 stores by
    // every SM) or read (the .cg stream, one pass); then a .cg stream of Y
    // MiB at buf + 1 GB, one pass, pushes it out (Y 0: none); then SM 0
    // reads X's sampled lines.  Under LRU both modes keep the same lines;
    // an L2 that evicts clean lines before dirty ones keeps more written.
    // `ysweep`: the same at more stream sizes (16-80 MiB), into
    // dirty_ysweep.csv, a further run of E39 for validate.
    for (int sweep = 0; sweep < 2; sweep++) {
        if (parts.find(sweep ? "ysweep" : "dirty") == std::string::npos)
            continue;
        FILE *f = cap_open(dir, sweep ? "dirty_ysweep.csv" : "dirty.csv", "mode,x_mib,y_mib,line,cold1,cold2,cold3,after");
        x = 0xD1B54A32D192ED03ull;   // its own seed: the same lines whether `retain` ran first or not
        const size_t xmib = 8;
        const std::vector<size_t> ymibs = sweep ? std::vector<size_t>{16, 24, 40, 48, 56, 64, 80}
                                                : std::vector<size_t>{0, 32, 96};
        for (size_t ymib : ymibs)
            for (int wr = 1; wr >= 0; wr--) {
                size_t xb = xmib * MB, yb = ymib * MB;
                Sampled r = sample_case(xb, 1, [&]() {
                    if (wr)
                        k_write<<<rctas, rblock>>>((float4 *)buf, xb / 16, 1.0f);
                    else
                        stream_kernel<true><<<rctas, rblock>>>(drec, (const float4 *)buf, xb / 16, 1, fsink);
                    CK(cudaGetLastError());
                    CK(cudaDeviceSynchronize());
                    if (yb)
                        stream_kernel<true><<<rctas, rblock>>>(drec, (const float4 *)((char *)buf + GB), yb / 16, 1,
                                                               fsink);
                });
                const char *mode = wr ? "write" : "read";
                for (size_t i = 0; i < r.smp.size(); i++)
                    std::fprintf(f, "%s,%zu,%zu,%u,%u,%u,%u,%u\n", mode, xmib, ymib, r.smp[i].second, r.c1[i], r.c2[i],
                                 r.c3[i], r.ca[i]);
                std::fflush(f);
                std::printf("dirty %s x %zu MiB y %zu MiB done\n", mode, xmib, ymib);
                std::fflush(stdout);
            }
        std::fclose(f);
    }
    CK(cudaFree(drec));
    CK(cudaFree(doffs));
    CK(cudaFree(dcyc));

    // `l1cap` (E35): the stream, default-cached and .cg, with a per-SM
    // footprint of F KiB a pass (132 x F KiB in all) at k CTAs an SM (132 k
    // CTAs of 256 threads, all resident): does the L1 keep part of a cyclic
    // walk past its capacity (E11's 48 MiB default-cached row moves 2.4
    // times the .cg rate), and does that depend on how many warps share
    // it? At least 1 GiB a launch, 3 timed launches after an untimed one.
    if (parts.find("l1cap") != std::string::npos) {
        Rec *drec;
        CK(cudaMalloc(&drec, sizeof(Rec) * 132 * 8));
        FILE *f = cap_open(dir, "l1cap_stream.csv",
                           "data,cache,ctas_per_sm,kib_per_sm,bytes_ws,passes,rep,time_ns,gbps");
        // the array's data: zeros (E11's, cudaMemset) or every word a hash
        // of its index (no line alike, no zero word), since a cache that
        // stores like data compactly would hold more zero lines
        for (int rnd = 0; rnd < 2; rnd++) {
            if (rnd) {
                fill_hashed(buf);
            } else {
                CK(cudaMemset(buf, 0, big));
            }
            for (int cg = 0; cg < 2; cg++)
                for (int k : {1, 2, 4, 8})
                    for (int kib : {64, 128, 192, 224, 256, 288, 320, 384, 448, 512, 768}) {
                        const int ctas = 132 * k, block = 256;
                        size_t bytes = (size_t)kib * 1024 * 132, n4 = bytes / 16;
                        int passes = (int)std::max<size_t>(4, GB / bytes);
                        for (int rep = -1; rep < 3; rep++) {
                            double t = timed_stream(cg, ctas, block, drec, buf, n4, passes, fsink, ea, eb);
                            if (rep < 0)
                                continue;
                            double moved = (double)bytes * passes;
                            std::fprintf(f, "%s,%s,%d,%d,%zu,%d,%d,%.0f,%.1f\n", rnd ? "hash" : "zero", cg ? "cg" : "default",
                                         k, kib, bytes, passes, rep, t, moved / t);
                        }
                    }
        }
        std::fclose(f);
        CK(cudaFree(drec));
        std::printf("l1cap done\n");
    }

    // `l1spread` (E43): E35's one-CTA-an-SM stream over hashed words, each
    // CTA's record kept.  Each CTA reads its own 4 KiB pieces 528 KiB apart
    // (a grid-stride loop of 132 x 256 threads), so the L1's index gives
    // each SM its own conflicts and its own time: the kernel's is the
    // slowest SM's.  Same passes as l1cap (at least 1 GiB a launch).
    if (parts.find("l1spread") != std::string::npos) {
        const int ctas = 132, block = 256;
        Rec *drec;
        CK(cudaMalloc(&drec, sizeof(Rec) * ctas));
        fill_hashed(buf);
        FILE *f = cap_open(dir, "l1spread.csv", "cache,kib_per_sm,bytes_ws,passes,rep,time_ns,cta,sm,cycles,ns");
        for (int cg = 0; cg < 2; cg++)
            for (int kib : {64, 128, 192, 256}) {
                size_t bytes = (size_t)kib * 1024 * 132, n4 = bytes / 16;
                int passes = (int)std::max<size_t>(4, GB / bytes);
                for (int rep = -1; rep < 3; rep++) {
                    double t = timed_stream(cg, ctas, block, drec, buf, n4, passes, fsink, ea, eb);
                    if (rep < 0)
                        continue;
                    std::vector<Rec> recs = fetch_recs(drec, ctas);
                    for (const Rec &r : recs)
                        std::fprintf(f, "%s,%d,%zu,%d,%d,%.0f,%u,%u,%llu,%llu\n", cg ? "cg" : "default", kib, bytes,
                                     passes, rep, t, r.cta, r.sm, (unsigned long long)(r.c1 - r.c0),
                                     (unsigned long long)(r.t1 - r.t0));
                }
                std::fflush(f);
                std::printf("l1spread %s %d KiB done\n", cg ? "cg" : "default", kib);
                std::fflush(stdout);
            }
        std::fclose(f);
        CK(cudaFree(drec));
    }

    // `l1warps` (E43b): do the warps of a CTA whose pieces crowd an L1 group
    // end apart?  stream_kernel's loop, default-cached, then each warp's lane
    // 0 records its cycles since the CTA began before the closing barrier.
    if (parts.find("l1warps") != std::string::npos) {
        const int ctas = 132, block = 256, kib = 128;
        size_t bytes = (size_t)kib * 1024 * 132, n4 = bytes / 16;
        int passes = (int)std::max<size_t>(4, GB / bytes);
        fill_hashed(buf);
        uint64_t *dw;
        CK(cudaMalloc(&dw, sizeof(uint64_t) * ctas * (block / 32) * 2));
        FILE *f = cap_open(dir, "l1warps.csv", "kib_per_sm,passes,rep,time_ns,cta,sm,warp,cycles,cta_cycles");
        for (int rep = -1; rep < 3; rep++) {
            CK(cudaEventRecord(ea));
            stream_warps<<<ctas, block>>>(dw, (const float4 *)buf, n4, passes, fsink);
            CK(cudaEventRecord(eb));
            CK(cudaEventSynchronize(eb));
            CK(cudaGetLastError());
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, ea, eb));
            if (rep < 0)
                continue;
            std::vector<uint64_t> h((size_t)ctas * (block / 32) * 2);
            CK(cudaMemcpy(h.data(), dw, h.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost));
            for (int c = 0; c < ctas; c++)
                for (int w = 0; w < block / 32; w++) {
                    const uint64_t *r = &h[((size_t)c * (block / 32) + w) * 2];
                    std::fprintf(f, "%d,%d,%d,%.0f,%d,%llu,%d,%llu,%llu\n", kib, passes, rep, ms * 1e6, c,
                                 (unsigned long long)(r[1] >> 32), w, (unsigned long long)r[0],
                                 (unsigned long long)(r[1] & 0xffffffffu));
                }
        }
        std::fclose(f);
        CK(cudaFree(dw));
        std::printf("l1warps done\n");
    }

    // `fine` (E24): the same stream and add at working sets around the L2's
    // capacity, in finer steps than E11's (the 16-96 MiB transition).
    bool fine = parts.find("fine") != std::string::npos;
    if (parts.find("stream") != std::string::npos || fine) {
        CK(cudaMemset(buf, 0, big));
        const int ctas = 1056, block = 256, nrep = 5;
        Rec *drec;
        CK(cudaMalloc(&drec, sizeof(Rec) * ctas));
        FILE *f = cap_open(dir, "bw.csv", "kernel,bytes_ws,passes,bytes_moved,time_ns_median,gbps");
        std::vector<size_t> ws_mb = {1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 2048, 4096};
        if (fine)
            ws_mb = {28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72, 80};
        const char *exp = fine ? "e24" : "e11";
        for (int cg = 0; cg < 2; cg++)
            for (size_t mb : ws_mb) {
                size_t bytes = mb * MB, n4 = bytes / 16;
                int passes = (int)std::max<size_t>(1, std::min<size_t>(2048, 4 * GB / bytes));
                std::vector<KRep> reps;
                for (int rep = -1; rep < nrep; rep++) {
                    double t = timed_stream(cg, ctas, block, drec, buf, n4, passes, fsink, ea, eb);
                    if (rep < 0)
                        continue;
                    KRep r;
                    r.time_ns = t;
                    r.recs = fetch_recs(drec, ctas);
                    reps.push_back(r);
                }
                KInfo k;
                k.kernel = fmt("%s.stream.%s.%zuMB", exp, cg ? "cg" : "ca", mb);
                k.exp = fmt("%s_bw", exp);
                k.name = cg ? "stream_kernel<cg>" : "stream_kernel<ca>";
                k.gen = cg ? "" : fmt("skewsim gen stream --bytes %zu --passes %d --ctas %d --block %d", bytes, passes, ctas, block);
                k.grid = ctas;
                k.block = block;
                k.params = fmt("bytes=%zu;passes=%d;cache=%s", bytes, passes, cg ? "cg" : "default");
                k.cta_rows_reps = 1;
                cap_kernel(cap, k, reps);
                std::vector<double> t;
                for (auto &r : reps)
                    t.push_back(r.time_ns);
                double med = median_d(t), moved = (double)bytes * passes;
                std::fprintf(f, "%s,%zu,%d,%.0f,%.0f,%.1f\n", k.kernel.c_str(), bytes, passes, moved, med, moved / med);
                std::fflush(f);
            }
        // c = a + b, three arrays of N bytes each.
        std::vector<size_t> add_mb = {4, 16, 64, 256, 1024};
        if (fine)
            add_mb = {8, 10, 12, 14, 16, 18, 20, 24, 32};
        for (size_t mb : add_mb) {
            size_t bytes = mb * MB, n = bytes / 4;
            float *a = (float *)buf, *b = (float *)((char *)buf + GB), *c = (float *)((char *)buf + 2 * GB);
            std::vector<KRep> reps;
            for (int rep = -1; rep < nrep; rep++) {
                CK(cudaEventRecord(ea));
                add_kernel<<<ctas, block>>>(drec, a, b, c, n);
                CK(cudaEventRecord(eb));
                CK(cudaEventSynchronize(eb));
                CK(cudaGetLastError());
                if (rep < 0)
                    continue;
                KRep r;
                r.time_ns = ev_ms(ea, eb) * 1e6;
                r.recs = fetch_recs(drec, ctas);
                reps.push_back(r);
            }
            KInfo k;
            k.kernel = fmt("%s.add.%zuMB", exp, mb);
            k.exp = fmt("%s_bw", exp);
            k.name = "add_kernel";
            k.gen = fmt("skewsim gen add --bytes %zu --ctas %d --block %d", bytes, ctas, block);
            k.grid = ctas;
            k.block = block;
            k.params = fmt("bytes_per_array=%zu;arrays=3", bytes);
            k.cta_rows_reps = 1;
            cap_kernel(cap, k, reps);
            std::vector<double> t;
            for (auto &r : reps)
                t.push_back(r.time_ns);
            double med = median_d(t), moved = 3.0 * bytes;
            std::fprintf(f, "%s,%zu,1,%.0f,%.0f,%.1f\n", k.kernel.c_str(), bytes, moved, med, moved / med);
            std::fflush(f);
        }
        std::fclose(f);
        CK(cudaFree(drec));
        std::printf("stream done\n");
    }
    cap_end(cap);
    return 0;
}
