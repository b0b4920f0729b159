// cap_fabric: bandwidth across the two L2 partitions (issue 10), experiment E18.
//
// The H200's L2 is two partitions joined by a fabric (arXiv:2609.24270;
// E11 measured which SMs and which 4-KB pages belong to which).  This
// program measures how much read bandwidth crosses between the halves:
//
//  classify  one thread on SM 0 reads the first line of 16 cold pages of
//            every 1 MiB of a 4 GiB buffer and times each read (clock64):
//            near (SM 0's partition, "A") or far ("B").  E11 found a page's
//            partition is the parity of VA bits 12,13,15,17,19 xor a constant
//            per higher bits, so each MiB's constant is the majority vote of
//            its 16 pages, and every page of the buffer gets a class.
//  smmap     every SM times cold reads of 8 pages of class A and 8 of class
//            B: an SM whose A reads are the faster is in partition A.
//  bw        a persistent grid (2 CTAs of 512 threads on every SM) in which
//            each CTA reads 64-KiB chunks of a page list with 16-byte
//            ld.global.cg, taking chunks from a queue; each partition's SMs
//            read their own list (near pages, far pages, both, none).  Cases
//            with lists of 2 GiB stream from HBM; cases with 8 MiB lists read
//            40 passes and are L2-resident.  `sweep` adds lists of 16 to
//            64 MiB (10 passes): near against far as the list outgrows what
//            one partition holds of it.  Bandwidth = bytes / event time,
//            median of 5 launches after one warm-up.  `fine` (E24): the same
//            four cases at 16-48 MiB in 1-4 MiB steps.
//  chase     (E24, `chase`) one thread on SM 0 follows a chain through every
//            128-B line of W MiB of near pages (class A), far pages (B) or
//            all pages in address order, in list order, three passes after
//            a flush; each hop's clock64() latency is kept as a class
//            (< 370, < 560, < 1000, more cycles) in shared memory, two bits a
//            line, so the run writes nothing to the L2 during a pass, and as
//            a 8-cycle histogram.  Every line is reused at distance W: under
//            exact LRU with a balanced set hash a half keeps all of a list
//            up to its capacity and none past it; the per-line classes of
//            passes 2 and 3 show whether the same lines hit each pass
//            (a set's overflow) or others (a replacement that is not LRU).
//
// Output: DIR/fabric.csv (case,readers,pages,bytes,passes,time_ns_median,
// gbps) and DIR/fabric_smmap.csv (sm,partition,near_cycles,far_cycles),
// plus a table on stdout; `chase` adds DIR/l2cap.csv (classes per pass and
// pass-to-pass agreement), DIR/l2cap_hist.csv (latency histograms) and
// DIR/l2cap_bits.bin (each case's two-bit classes, passes in order, lines
// in chain order; offsets in l2cap.csv).
//
// Build: nvcc -O3 -arch=sm_90 -o cap_fabric cap_fabric.cu
// Usage: cap_fabric DIR [sweep|scale|fine|chase|fine,chase|long]
#include "cap.h"

static __device__ __forceinline__ uint32_t timed_first(const uint32_t *p, volatile uint32_t *sh)
{
    uint64_t c0 = clock64();
    uint32_t v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    sh[0] = v;
    uint64_t c1 = clock64();
    return (uint32_t)(c1 - c0);
}

// Thread 0 of the CTA on SM `want` times one read per listed page.
__global__ void classify_kernel(const uint32_t *buf, const uint32_t *pages, int n, int want, uint32_t *cyc,
                                int *done)
{
    extern __shared__ uint32_t dyn[];
    volatile uint32_t *sh = dyn;
    if (threadIdx.x != 0 || (int)smid() != want)
        return;
    for (int i = 0; i < n; i++)
        cyc[i] = timed_first(buf + (size_t)pages[i] * 1024, sh);
    *done = 1;
}

// Each SM's thread 0 times reads of its own 8 A pages and 8 B pages.
__global__ void smmap_kernel(const uint32_t *buf, const uint32_t *pa, const uint32_t *pb, uint32_t *cyc_a,
                             uint32_t *cyc_b, uint32_t *sm_of)
{
    extern __shared__ uint32_t dyn[];
    volatile uint32_t *sh = dyn;
    if (threadIdx.x != 0)
        return;
    uint32_t s = smid();
    sm_of[blockIdx.x] = s;
    for (int k = 0; k < 8; k++) {
        cyc_a[blockIdx.x * 8 + k] = timed_first(buf + (size_t)pa[blockIdx.x * 8 + k] * 1024, sh);
        cyc_b[blockIdx.x * 8 + k] = timed_first(buf + (size_t)pb[blockIdx.x * 8 + k] * 1024, sh);
    }
}

// list[r] / nchunk[r]: the pages partition r's SMs read, in chunks of 16
// pages, `passes` times over; ctr[r] hands out chunk numbers.
struct BwArgs {
    const uint32_t *list[2];
    uint32_t nchunk[2];
    uint32_t passes;
    unsigned int *ctr;
    const uint8_t *part_of_sm;
};

__global__ void __launch_bounds__(512, 2) bw_kernel(const float4 *buf, BwArgs a, float *sink)
{
    __shared__ uint32_t chunk;
    // Selects, not indexing: a dynamic index into the parameter struct
    // would send it to local memory.
    int r = a.part_of_sm[smid()];
    if (r > 1)
        return;                 // `scale`: this SM reads nothing
    const uint32_t *list = r ? a.list[1] : a.list[0];
    uint32_t nch = r ? a.nchunk[1] : a.nchunk[0];
    unsigned int *ctr = a.ctr + r;
    if (nch == 0)
        return;
    uint32_t total = nch * a.passes;
    float acc = 0;
    for (;;) {
        if (threadIdx.x == 0)
            chunk = atomicAdd(ctr, 1u);
        __syncthreads();
        uint32_t c = chunk;
        __syncthreads();
        if (c >= total)
            break;
        c %= nch;
        // 16 pages x 256 float4 = 4096 float4; 512 threads x 8 each, all
        // eight loads issued before any is used.
        float4 v[8];
#pragma unroll
        for (int k = 0; k < 8; k++) {
            int e = k * 512 + threadIdx.x;
            uint32_t page = list[c * 16 + e / 256];
            v[k] = __ldcg(buf + (size_t)page * 256 + e % 256);
        }
#pragma unroll
        for (int k = 0; k < 8; k++)
            acc += v[k].x + v[k].y + v[k].z + v[k].w;
    }
    if (acc == 1234.5f)
        sink[0] = acc;
}

// ---- chase (E24)
// chain[k] holds the word index of line k's successor; one thread on SM 0
// follows it for `passes` x n hops.  Shared memory: the classes of one pass
// (2 bits a line) and a histogram of 256 bins of 8 cycles; both are copied
// out after each pass.
__global__ void set_chain(uint32_t *buf, const uint32_t *idx, uint32_t n)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        buf[idx[k]] = idx[k + 1 == n ? 0 : k + 1];
}
__global__ void line_chase(const uint32_t *buf, uint32_t start, uint32_t n, int passes, uint32_t *bits,
                           uint32_t *hist, int *done)
{
    extern __shared__ uint32_t dyn[];
    if (threadIdx.x != 0 || smid() != 0)
        return;
    uint32_t nw = (n + 15) / 16;
    volatile uint32_t *sb = dyn, *sh = dyn + nw, *sink = dyn + nw + 256;
    uint32_t j = start;
    for (int p = 0; p < passes; p++) {
        for (uint32_t w = 0; w < nw; w++)
            sb[w] = 0;
        for (int b = 0; b < 256; b++)
            sh[b] = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t c0 = clock64();
            uint32_t v;
            asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(buf + j) : "memory");
            sink[0] = v;
            uint64_t c1 = clock64();
            uint32_t c = (uint32_t)(c1 - c0);
            uint32_t cls = c < 370 ? 0 : c < 560 ? 1 : c < 1000 ? 2 : 3;
            sb[i / 16] |= cls << (2 * (i % 16));
            sh[c / 8 < 255 ? c / 8 : 255] += 1;
            j = v;
        }
        for (uint32_t w = 0; w < nw; w++)
            bits[(size_t)p * nw + w] = sb[w];
        for (int b = 0; b < 256; b++)
            hist[p * 256 + b] = sh[b];
    }
    *done = 1;
}
static int parity(uint64_t va)
{
    static const int bits[] = {12, 13, 15, 17, 19};
    int p = 0;
    for (int b : bits)
        p ^= (int)((va >> b) & 1);
    return p;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_fabric DIR [sweep|scale|fine|chase|fine,chase]\n");
        return 2;
    }
    std::string dir = argv[1];
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_fabric");
    int nsm;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    const size_t GB = 1ull << 30, MB = 1ull << 20;
    const size_t big = 4 * GB, npages = big / 4096, nreg = big / MB;
    uint32_t *buf;
    CK(cudaMalloc(&buf, big));
    CK(cudaMemset(buf, 0, big));
    float4 *fb;
    size_t fbytes = 256 * MB;
    CK(cudaMalloc(&fb, fbytes));
    CK(cudaMemset(fb, 0, fbytes));
    float *fsink;
    int *done;
    CK(cudaMalloc(&fsink, 64));
    CK(cudaMalloc(&done, 4));
    const int SMEM_1PER_SM = 120 * 1024;
    CK(cudaFuncSetAttribute(classify_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_1PER_SM));
    CK(cudaFuncSetAttribute(smmap_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_1PER_SM));
    auto flush = [&]() {
        flush_kernel<<<1056, 256>>>(fb, fbytes / 16, fsink);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    };

    // ---- classify: pages 0,16,32,... of each MiB (the 256 pages of a MiB
    // span every parity pattern of bits 12-19; 16 samples of them vote).
    std::vector<uint32_t> sample;
    for (size_t r = 0; r < nreg; r++)
        for (int k = 0; k < 16; k++)
            sample.push_back((uint32_t)(r * 256 + k * 16 + (k % 4)));   // vary bits 12,13 too
    int ns = (int)sample.size();
    uint32_t *dsample, *dcyc;
    CK(cudaMalloc(&dsample, 4ull * ns));
    CK(cudaMalloc(&dcyc, 4ull * ns));
    CK(cudaMemcpy(dsample, sample.data(), 4ull * ns, cudaMemcpyHostToDevice));
    flush();
    CK(cudaMemset(done, 0, 4));
    classify_kernel<<<nsm, 32, SMEM_1PER_SM>>>(buf, dsample, ns, 0, dcyc, done);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    int hdone;
    CK(cudaMemcpy(&hdone, done, 4, cudaMemcpyDeviceToHost));
    if (!hdone) {
        std::fprintf(stderr, "cap_fabric: no CTA ran on SM 0\n");
        return 1;
    }
    std::vector<uint32_t> cyc(ns);
    CK(cudaMemcpy(cyc.data(), dcyc, 4ull * ns, cudaMemcpyDeviceToHost));
    // Threshold: midway between the quartiles (half the pages are near).
    std::vector<double> all(cyc.begin(), cyc.end());
    std::sort(all.begin(), all.end());
    double med = 0.5 * (all[all.size() / 4] + all[3 * all.size() / 4]);
    std::vector<int> cls(npages);   // 0 = A (SM 0's partition), 1 = B
    int disagree = 0;
    for (size_t r = 0; r < nreg; r++) {
        int vote = 0;
        for (int k = 0; k < 16; k++) {
            uint32_t pg = sample[r * 16 + k];
            int far = cyc[r * 16 + k] > med;
            vote += far ^ parity((uintptr_t)buf + (uint64_t)pg * 4096);
        }
        int c = vote > 8;
        for (int k = 0; k < 16; k++) {
            uint32_t pg = sample[r * 16 + k];
            int far = cyc[r * 16 + k] > med;
            disagree += far != (c ^ parity((uintptr_t)buf + (uint64_t)pg * 4096));
        }
        for (size_t p = r * 256; p < (r + 1) * 256; p++)
            cls[p] = c ^ parity((uintptr_t)buf + (uint64_t)p * 4096);
    }
    std::printf("classify: %d samples, threshold %.0f cycles, %d (%.2f%%) disagree with their MiB's vote\n", ns, med,
                disagree, 100.0 * disagree / ns);

    // Page lists by class, skipping the sampled pages (still warm in L2 is
    // harmless for bw, but smmap needs cold pages).
    std::vector<uint32_t> lst[2];
    std::vector<char> sampled(npages, 0);
    for (uint32_t p : sample)
        sampled[p] = 1;
    for (size_t p = 0; p < npages; p++)
        if (!sampled[p])
            lst[cls[p]].push_back((uint32_t)p);
    std::printf("pages: A %zu, B %zu\n", lst[0].size(), lst[1].size());

    // ---- smmap: SM i takes A pages and B pages 8*i .. 8*i+7 from the end.
    std::vector<uint32_t> pa(8 * nsm), pb(8 * nsm);
    for (int i = 0; i < 8 * nsm; i++) {
        pa[i] = lst[0][lst[0].size() - 1 - i];
        pb[i] = lst[1][lst[1].size() - 1 - i];
    }
    uint32_t *dpa, *dpb, *dca, *dcb, *dsm;
    CK(cudaMalloc(&dpa, 32ull * nsm));
    CK(cudaMalloc(&dpb, 32ull * nsm));
    CK(cudaMalloc(&dca, 32ull * nsm));
    CK(cudaMalloc(&dcb, 32ull * nsm));
    CK(cudaMalloc(&dsm, 4ull * nsm));
    CK(cudaMemcpy(dpa, pa.data(), 32ull * nsm, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dpb, pb.data(), 32ull * nsm, cudaMemcpyHostToDevice));
    flush();
    smmap_kernel<<<nsm, 32, SMEM_1PER_SM>>>(buf, dpa, dpb, dca, dcb, dsm);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<uint32_t> ca(8 * nsm), cb(8 * nsm), smof(nsm);
    CK(cudaMemcpy(ca.data(), dca, 32ull * nsm, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(cb.data(), dcb, 32ull * nsm, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(smof.data(), dsm, 4ull * nsm, cudaMemcpyDeviceToHost));
    std::vector<uint8_t> part(nsm, 0);
    std::vector<int> seen(nsm, 0);
    FILE *mf = cap_open(dir, "fabric_smmap.csv", "sm,partition,a_cycles_median,b_cycles_median");
    int npart[2] = {0, 0};
    for (int b = 0; b < nsm; b++) {
        std::vector<double> va(ca.begin() + 8 * b, ca.begin() + 8 * b + 8), vb(cb.begin() + 8 * b, cb.begin() + 8 * b + 8);
        double ma = median_d(va), mb = median_d(vb);
        uint32_t s = smof[b];
        if (s >= (uint32_t)nsm || seen[s]++) {
            std::fprintf(stderr, "cap_fabric: smmap: SM %u seen twice or out of range\n", s);
            return 1;
        }
        part[s] = ma < mb ? 0 : 1;
        npart[part[s]]++;
        std::fprintf(mf, "%u,%c,%.0f,%.0f\n", s, part[s] ? 'B' : 'A', ma, mb);
    }
    std::fclose(mf);
    std::printf("smmap: A %d SMs, B %d SMs; A:", npart[0], npart[1]);
    for (int s = 0; s < nsm; s++)
        if (!part[s])
            std::printf(" %d", s);
    std::printf("\n");

    // ---- bw
    uint8_t *dpart;
    unsigned int *dctr;
    CK(cudaMalloc(&dpart, nsm));
    CK(cudaMemcpy(dpart, part.data(), nsm, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&dctr, 8));
    uint32_t *dl[2];
    for (int c = 0; c < 2; c++) {
        CK(cudaMalloc(&dl[c], 4 * lst[c].size()));
        CK(cudaMemcpy(dl[c], lst[c].data(), 4 * lst[c].size(), cudaMemcpyHostToDevice));
    }
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    // readers: which list partition A's and B's SMs read (-1 none, 0 A, 1 B).
    struct Case {
        const char *name;
        int ra, rb;
    } cases[] = {
        {"A_reads_A", 0, -1}, {"A_reads_B", 1, -1}, {"B_reads_B", -1, 1}, {"B_reads_A", -1, 0},
        {"all_near", 0, 1},   {"all_far", 1, 0},    {"all_read_A", 0, 0}, {"all_read_B", 1, 1},
    };
    FILE *bf = cap_open(dir, "fabric.csv", "case,readers_a,readers_b,bytes_per_pass,passes,time_ns_median,gbps");
    std::printf("%-12s %-10s %12s %7s %10s %9s\n", "case", "set", "bytes/pass", "passes", "ms", "GB/s");
    // Page-list sets: 2 GiB lists from HBM (L2 flushed before each launch),
    // 8 MiB lists read 40 times (L2-resident); with `sweep`, lists of 16 to
    // 64 MiB read 10 times, where a partition's 30 MiB half of the L2 stops
    // holding a far list together with its local replicas.
    struct Set {
        size_t mib;   // 0: the 2 GiB HBM lists
        uint32_t passes;
        bool all_cases;
    };
    std::vector<Set> sets = {{0, 1, true}, {8, 40, true}};
    // Median event time (ns) of reps - 1 launches of bw_kernel after a warm-up
    // one, the L2 flushed before each when the lists are not resident.
    auto time_bw = [&](const BwArgs &a, bool resident, int reps) {
        std::vector<double> t;
        for (int rep = 0; rep < reps; rep++) {
            if (!resident)
                flush();
            CK(cudaMemset(dctr, 0, 8));
            CK(cudaEventRecord(ea));
            bw_kernel<<<nsm * 2, 512>>>((const float4 *)buf, a, fsink);
            CK(cudaEventRecord(eb));
            CK(cudaEventSynchronize(eb));
            CK(cudaGetLastError());
            if (rep > 0)
                t.push_back(ev_ms(ea, eb) * 1e6);
        }
        return median_d(t);
    };
    const char *mode = argc > 2 ? argv[2] : "";
    // `chase` (E24): one thread on SM 0 (partition A) chases every line of W
    // MiB of A pages, of B pages, or of all pages in address order.
    if (strstr(mode, "chase")) {
        const int passes = 3, SMEM_CHASE = 200 * 1024;
        const size_t sizes[] = {8, 16, 20, 24, 26, 28, 29, 30, 31, 32, 34, 36, 40, 48, 64};
        const size_t maxn = 64 * MB / 128;
        if ((maxn / 16 + 256 + 1) * 4 > (size_t)SMEM_CHASE) {
            std::fprintf(stderr, "cap_fabric: chase: shared memory too small\n");
            return 1;
        }
        CK(cudaFuncSetAttribute(line_chase, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_CHASE));
        uint32_t *didx, *dbits, *dhist;
        CK(cudaMalloc(&didx, 4 * maxn));
        CK(cudaMalloc(&dbits, passes * maxn / 4));
        CK(cudaMalloc(&dhist, 4 * 256 * passes));
        FILE *cf = cap_open(dir, "l2cap.csv",
                            "case,mib,lines,pass,c0,c1,c2,c3,hit_hit,hit_miss,miss_hit,miss_miss,bits_offset");
        FILE *hf = cap_open(dir, "l2cap_hist.csv", "case,mib,pass,cycles_lo,count");
        FILE *bfile = std::fopen((dir + "/l2cap_bits.bin").c_str(), "wb");
        FILE *pfile = std::fopen((dir + "/l2cap_cls.bin").c_str(), "wb");
        if (!bfile || !pfile) {
            std::fprintf(stderr, "cap_fabric: cannot write %s/l2cap_*.bin\n", dir.c_str());
            return 1;
        }
        // Each page's class (0 = A, SM 0's partition), for re-deriving the
        // chains; the buffer's address is in meta (buf_va).
        std::vector<uint8_t> c8(cls.begin(), cls.end());
        std::fwrite(c8.data(), 1, c8.size(), pfile);
        std::fclose(pfile);
        FILE *mfile = cap_open(dir, "meta.csv", "key,value");
        std::fprintf(mfile, "cap_fabric.buf_va,%llu\n", (unsigned long long)(uintptr_t)buf);
        std::fclose(mfile);
        long long boff = 0;
        const char *cname[] = {"near", "far", "mixed"};
        std::printf("%-6s %4s %8s %7s %7s %7s %9s %9s\n", "case", "MiB", "lines", "p1 hit", "p2 hit", "p3 hit",
                    "h3|h2", "h3|m2");
        for (int cs = 0; cs < 3; cs++)
            for (size_t mib : sizes) {
                size_t np = mib * MB / 4096;
                if (cs < 2 && np > lst[cs].size())
                    continue;
                std::vector<uint32_t> idx;
                for (size_t k = 0; k < np; k++) {
                    uint32_t pg = cs < 2 ? lst[cs][k] : (uint32_t)k;
                    for (int l = 0; l < 32; l++)
                        idx.push_back(pg * 1024 + l * 32);
                }
                uint32_t n = (uint32_t)idx.size(), nw = (n + 15) / 16;
                CK(cudaMemcpy(didx, idx.data(), 4ull * n, cudaMemcpyHostToDevice));
                set_chain<<<(n + 255) / 256, 256>>>(buf, didx, n);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                flush();
                CK(cudaMemset(done, 0, 4));
                line_chase<<<nsm, 32, SMEM_CHASE>>>(buf, idx[0], n, passes, dbits, dhist, done);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(&hdone, done, 4, cudaMemcpyDeviceToHost));
                if (!hdone) {
                    std::fprintf(stderr, "cap_fabric: chase: no CTA ran on SM 0\n");
                    return 1;
                }
                std::vector<uint32_t> bits((size_t)passes * nw), hist(256 * passes);
                CK(cudaMemcpy(bits.data(), dbits, 4ull * passes * nw, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(hist.data(), dhist, 4ull * 256 * passes, cudaMemcpyDeviceToHost));
                std::fwrite(bits.data(), 4, bits.size(), bfile);
                double hitp[3] = {0, 0, 0}, h32 = 0, h3m2 = 0;
                for (int p = 0; p < passes; p++) {
                    long long c[4] = {0, 0, 0, 0}, t[4] = {0, 0, 0, 0};
                    for (uint32_t i = 0; i < n; i++) {
                        int k = (bits[(size_t)p * nw + i / 16] >> (2 * (i % 16))) & 3;
                        c[k]++;
                        if (p > 0) {
                            int q = (bits[(size_t)(p - 1) * nw + i / 16] >> (2 * (i % 16))) & 3;
                            t[(q != 0) * 2 + (k != 0)]++;
                        }
                    }
                    std::fprintf(cf, "%s,%zu,%u,%d,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n", cname[cs], mib, n,
                                 p + 1, c[0], c[1], c[2], c[3], t[0], t[1], t[2], t[3],
                                 boff + 4ll * p * nw);
                    for (int b = 0; b < 256; b++)
                        if (hist[p * 256 + b])
                            std::fprintf(hf, "%s,%zu,%d,%d,%u\n", cname[cs], mib, p + 1, b * 8, hist[p * 256 + b]);
                    hitp[p] = 100.0 * c[0] / n;
                    if (p == 2) {
                        h32 = t[0] + t[1] ? 100.0 * t[0] / (t[0] + t[1]) : -1;
                        h3m2 = t[2] + t[3] ? 100.0 * t[2] / (t[2] + t[3]) : -1;
                    }
                }
                boff += 4ll * bits.size();
                std::printf("%-6s %4zu %8u %6.1f%% %6.1f%% %6.1f%% %8.1f%% %8.1f%%\n", cname[cs], mib, n, hitp[0],
                            hitp[1], hitp[2], h32, h3m2);
                std::fflush(stdout);
                std::fflush(cf);
            }
        std::fclose(cf);
        std::fclose(hf);
        std::fclose(bfile);
        CK(cudaFree(didx));
        CK(cudaFree(dbits));
        CK(cudaFree(dhist));
        if (!strstr(mode, "fine")) {
            cap_end(cap);
            return 0;
        }
    }
    // `scale` (E18c): only the first K SMs of partition A read (K = 4 .. 66),
    // near or far pages, from HBM (2 GiB lists) and L2-resident (8 MiB x 40):
    // what one SM can pull, against what a half's HBM or the fabric gives.
    if (!strcmp(mode, "scale")) {
        FILE *sf = cap_open(dir, "fabric_scale.csv", "case,sms,bytes_per_pass,passes,time_ns_median,gbps");
        const int ks[] = {4, 8, 16, 33, 66};
        for (int resident = 0; resident < 2; resident++)
            for (int far = 0; far < 2; far++)
                for (int K : ks) {
                    std::vector<uint8_t> sub(nsm, 2);
                    int got = 0;
                    for (int sm = 0; sm < nsm && got < K; sm++)
                        if (!part[sm]) {
                            sub[sm] = 0;
                            got++;
                        }
                    CK(cudaMemcpy(dpart, sub.data(), nsm, cudaMemcpyHostToDevice));
                    size_t want_pages = resident ? (8 * MB) / 4096 : std::min(lst[0].size(), lst[1].size());
                    want_pages -= want_pages % 16;
                    uint32_t passes = resident ? 40 : 1;
                    BwArgs a;
                    a.list[0] = dl[far];
                    a.list[1] = dl[0];
                    a.nchunk[0] = (uint32_t)(want_pages / 16);
                    a.nchunk[1] = 0;
                    a.passes = passes;
                    a.ctr = dctr;
                    a.part_of_sm = dpart;
                    size_t bytes = (size_t)a.nchunk[0] * 16 * 4096;
                    double tn = time_bw(a, resident, 4), gbps = (double)bytes * passes / tn;
                    std::fprintf(sf, "%s_%s,%d,%zu,%u,%.0f,%.1f\n", far ? "A_reads_B" : "A_reads_A",
                                 resident ? "l2" : "hbm", K, bytes, passes, tn, gbps);
                    std::printf("scale %s %s K=%d: %.1f GB/s (%.1f per SM)\n", far ? "far " : "near",
                                resident ? "l2 " : "hbm", K, gbps, gbps / K);
                    std::fflush(stdout);
                }
        std::fclose(sf);
        cap_end(cap);
        return 0;
    }
    if (!strcmp(mode, "sweep"))
        for (size_t m = 16; m <= 64; m += 8)
            sets.push_back({m, 10, false});
    // `long` (E33): the 8 MiB L2-resident cases at 40 passes, as E18 read
    // them, beside the same at 400, twice in turn: how much of a launch of
    // ~86 us is the launch's own time rather than the slices'
    if (!strcmp(mode, "long"))
        sets = {{8, 40, true}, {8, 400, true}, {8, 40, true}, {8, 400, true}};
    if (strstr(mode, "fine"))
        for (size_t m : {16, 20, 22, 24, 26, 28, 29, 30, 31, 32, 33, 34, 36, 38, 40, 44, 48})
            sets.push_back({m, 10, false});
    for (const Set &st : sets) {
        bool resident = st.mib != 0;
        size_t want_pages = resident ? (st.mib * MB) / 4096 : std::min(lst[0].size(), lst[1].size());
        want_pages -= want_pages % 16;
        uint32_t passes = st.passes;
        for (const Case &cs : cases) {
            if (!st.all_cases && strcmp(cs.name, "A_reads_A") && strcmp(cs.name, "A_reads_B") &&
                strcmp(cs.name, "all_near") && strcmp(cs.name, "all_far"))
                continue;
            BwArgs a;
            int rd[2] = {cs.ra, cs.rb};
            size_t bytes = 0;
            for (int r = 0; r < 2; r++) {
                a.list[r] = rd[r] < 0 ? dl[0] : dl[rd[r]];
                a.nchunk[r] = rd[r] < 0 ? 0 : (uint32_t)(want_pages / 16);
                bytes += (size_t)a.nchunk[r] * 16 * 4096;
            }
            a.passes = passes;
            a.ctr = dctr;
            a.part_of_sm = dpart;
            double tn = time_bw(a, resident, 6), gbps = (double)bytes * passes / tn;
            std::string set = resident ? fmt("%zuMiB", st.mib) : std::string("2GiB-HBM");
            std::string tag = resident ? (st.mib == 8 ? (passes == 40 ? std::string("_l2") : fmt("_l2_p%u", passes))
                                                      : fmt("_l2_%zuMiB", st.mib))
                                       : "_hbm";
            std::fprintf(bf, "%s%s,%d,%d,%zu,%u,%.0f,%.1f\n", cs.name, tag.c_str(), cs.ra, cs.rb, bytes, passes, tn,
                         gbps);
            std::printf("%-12s %-10s %12zu %7u %10.3f %9.1f\n", cs.name, set.c_str(), bytes, passes, tn / 1e6, gbps);
            std::fflush(stdout);
        }
    }
    std::fclose(bf);
    cap_end(cap);
    return 0;
}
