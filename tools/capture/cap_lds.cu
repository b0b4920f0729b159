// cap_lds: how a sub-partition feeds shared memory (E30).  E16's smem mix
// runs on the chip at 0.89 LDS/STS warp instructions a cycle per SM (29.72
// TB/s of 128-byte accesses at 1980 MHz on 132 SMs); the model, with an
// LD/ST pipe per sub-partition that takes one every 4 cycles, reaches 0.70
// on the same listing.  Whether the limit is per sub-partition or SM-wide
// shows when only some sub-partitions issue.
//
// Each kernel: one CTA of 1024 threads (32 warps) per SM (two in the last
// three rows: 64 warps, E16's occupancy), a 32 KB shared array; warp w runs the loop when bit (w % 4) of MASK is set and w / 4 <
// NPER (warp w is assumed to sit in sub-partition w % 4: the FFMA rows test
// that, one FFMA a cycle per sub-partition being the FP32 pipe's limit).
// The others wait at the closing __syncthreads().  Thread 0 times the loop
// with clock64() between two __syncthreads().  -> DIR/lds.csv: kernel, op,
// mask, nper, per_sm (CTAs an SM), warps (active in a CTA), ops (of the op per active warp), rep, cta, sm,
// cycles.  Which SASS each loop became is read off `cuobjdump -sass`.
//
// Ops (all conflict-free unless named so):
//   lds32    LDS.32, 16 a step, lane-consecutive words (1 wavefront each)
//   lds32c2  LDS.32 at lane * 8 bytes: lanes l and l + 16 share a bank
//   lds128   LDS.128, 8 a step, lane-consecutive 16-byte words (4 wavefronts)
//   sts32    STS.32, 16 a step
//   ffma     8 independent FFMA chains (1 a cycle per sub-partition)
//   smemk    E16's smem_kernel loop (cap_power.cu), 3 accesses a step
//
// Then the queue probes (probe below: DIR/lds_probe.csv).
//
// Build: nvcc -O3 -arch=sm_90 -o cap_lds cap_lds.cu
// Usage: cap_lds DIR [REPS]   (DIR empty or new: its CSVs are appended to,
//        and those of the first run, lds_m.csv.gz, have no per_sm column)
#include "cap.h"

#define ITERS 2048

enum Op { LDS32, LDS32C2, LDS128, STS32, FFMA, SMEMK, NOPS };
static const char *op_name[NOPS] = {"lds32", "lds32c2", "lds128", "sts32", "ffma", "smemk"};
static const int op_per_step[NOPS] = {16, 16, 8, 16, 8, 3};

#define LD(x, off) asm volatile("ld.volatile.shared.f32 %0, [%1+" #off "];" : "=f"(x) : "r"(a))
#define ST(off) asm volatile("st.volatile.shared.f32 [%0+" #off "], %1;" ::"r"(a), "f"(v))
#define LD4(i, off)                                                                     \
    asm volatile("ld.volatile.shared.v4.f32 {%0,%1,%2,%3}, [%4+" #off "];"                     \
                 : "=f"(y[i][0]), "=f"(y[i][1]), "=f"(y[i][2]), "=f"(y[i][3])      \
                 : "r"(a))
#define FM(x) asm volatile("fma.rn.f32 %0, %0, 0f3F800001, 0f33D6BF95;" : "+f"(x))

template <int OP>
__global__ void lds(uint64_t *cycles, uint32_t *sms, float *sink, uint32_t mask, uint32_t nper, int iters)
{
    __shared__ float s_[8192];
    for (int i = threadIdx.x; i < 8192; i += blockDim.x)
        s_[i] = (float)i;
    uint32_t w = threadIdx.x / 32, lane = threadIdx.x % 32;
    bool on = ((mask >> (w & 3)) & 1) && (w >> 2) < nper;
    uint32_t a = (uint32_t)__cvta_generic_to_shared(s_) + lane * (OP == LDS32C2 ? 8 : OP == LDS128 ? 16 : 4);
    float x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0, x6 = 0, x7 = 0, v = (float)lane;
    float y[4][4] = {}, z[16] = {};
    __syncthreads();
    uint64_t c0 = clock64();
    if (on) {
        if (OP == SMEMK) {
            volatile float *s = s_;
            unsigned idx = threadIdx.x;
#pragma unroll 4
            for (int i = 0; i < iters; i++) {
                float v0 = s[idx & 4095];
                float v1 = s[(idx + 1024) & 4095];
                s[(idx + 2048) & 4095] = v0 + v1;
                x0 += v0;
                idx += 32;
            }
        } else {
#pragma unroll 1
            for (int i = 0; i < iters; i++) {
                if (OP == LDS32 || OP == LDS32C2) {
                    // offsets of 256 bytes: a whole conflict-free (or 2-way) row apart
                    // 16 destinations: a load into a register still in flight
                    // would wait for it, capping a warp's loads in flight
                    LD(z[0], 0); LD(z[1], 256); LD(z[2], 512); LD(z[3], 768);
                    LD(z[4], 1024); LD(z[5], 1280); LD(z[6], 1536); LD(z[7], 1792);
                    LD(z[8], 2048); LD(z[9], 2304); LD(z[10], 2560); LD(z[11], 2816);
                    LD(z[12], 3072); LD(z[13], 3328); LD(z[14], 3584); LD(z[15], 3840);
                } else if (OP == LDS128) {
                    LD4(0, 0); LD4(1, 512); LD4(2, 1024); LD4(3, 1536);
                    LD4(0, 2048); LD4(1, 2560); LD4(2, 3072); LD4(3, 3584);
                } else if (OP == STS32) {
                    ST(0); ST(256); ST(512); ST(768); ST(1024); ST(1280); ST(1536); ST(1792);
                    ST(2048); ST(2304); ST(2560); ST(2816); ST(3072); ST(3328); ST(3584); ST(3840);
                } else if (OP == FFMA) {
                    FM(x0); FM(x1); FM(x2); FM(x3); FM(x4); FM(x5); FM(x6); FM(x7);
                }
            }
        }
    }
    __syncthreads();
    uint64_t c1 = clock64();
    float h = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
    for (int i = 0; i < 4; i++)
        h += y[i][0] + y[i][1] + y[i][2] + y[i][3];
    for (int i = 0; i < 16; i++)
        h += z[i];
    if (h == 1234.5f)
        sink[threadIdx.x] = h;
    if (threadIdx.x == 0) {
        cycles[blockIdx.x] = c1 - c0;
        sms[blockIdx.x] = smid();
    }
}

// The queue's depth, directly: one warp reads the clock, issues N STS (or
// LDS to N distinct registers) back to back, and reads the clock again.  A
// queue of Q in front of a pipe taking one every 4 cycles lets the first
// Q + 1 issue at once, then one each 4 cycles: about 4 (N - Q - 1) cycles
// past the first N where N > Q + 1.  -> DIR/lds_probe.csv: op, n, rep,
// cta, sm, cycles (the second of two timed rounds, the first warming up).
template <int N, bool LOAD>
__global__ void probe(uint64_t *cycles, uint32_t *sms, float *sink)
{
    __shared__ float s_[2048];
    for (int i = threadIdx.x; i < 2048; i += blockDim.x)
        s_[i] = (float)i;
    __syncthreads();
    uint32_t a = (uint32_t)__cvta_generic_to_shared(s_) + threadIdx.x * 4;
    float v = (float)threadIdx.x, x[16];
    uint64_t d = 0;
    for (int round = 0; round < 2; round++) {
        __syncthreads();
        uint64_t c0 = clock64();
#pragma unroll
        for (int i = 0; i < N; i++) {
            if (LOAD)
                asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(x[i]) : "r"(a + 128 * i));
            else
                asm volatile("st.volatile.shared.f32 [%0], %1;" ::"r"(a + 128 * i), "f"(v));
        }
        uint64_t c1 = clock64();
        d = c1 - c0;
        if (LOAD) {
            float h = 0;
#pragma unroll
            for (int i = 0; i < N; i++)
                h += x[i];
            v += h;
        }
    }
    if (v == 1234.5f)
        sink[threadIdx.x] = v;
    if (threadIdx.x == 0) {
        cycles[blockIdx.x] = d;
        sms[blockIdx.x] = smid();
    }
}

typedef void (*pfn)(uint64_t *, uint32_t *, float *);
static const struct {
    int n;
    bool load;
    pfn f;
} probes[] = {
    {1, false, probe<1, false>},   {2, false, probe<2, false>},   {4, false, probe<4, false>},
    {6, false, probe<6, false>},   {8, false, probe<8, false>},   {10, false, probe<10, false>},
    {12, false, probe<12, false>}, {16, false, probe<16, false>}, {1, true, probe<1, true>},
    {2, true, probe<2, true>},     {4, true, probe<4, true>},     {6, true, probe<6, true>},
    {8, true, probe<8, true>},     {10, true, probe<10, true>},   {12, true, probe<12, true>},
    {16, true, probe<16, true>},
};

typedef void (*kfn)(uint64_t *, uint32_t *, float *, uint32_t, uint32_t, int);

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_lds DIR [REPS]\n");
        return 2;
    }
    std::string dir = argv[1];
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_lds");
    int dev = 0, nsm = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
    FILE *f = cap_open(dir, "lds.csv", "kernel,op,mask,nper,per_sm,warps,ops,rep,cta,sm,cycles");
    const kfn fn[NOPS] = {lds<LDS32>, lds<LDS32C2>, lds<LDS128>, lds<STS32>, lds<FFMA>, lds<SMEMK>};
    struct Cfg {
        int op;
        uint32_t mask, nper;
        int per_sm = 1;   // CTAs an SM (2: 64 warps, E16's occupancy)
    };
    std::vector<Cfg> cfgs;
    // ffma: 8 warps in one sub-partition (mask 1, nper 8) against 8 warps
    // spread over four (mask f, nper 2); then 1 and 2 warps a sub-partition
    for (uint32_t m : {0x1u, 0xfu})
        for (uint32_t n : {1u, 2u, 8u})
            cfgs.push_back({FFMA, m, n});
    for (int op : {LDS32, STS32, LDS128, LDS32C2, SMEMK})
        for (uint32_t m : {0x1u, 0x3u, 0xfu})
            for (uint32_t n : {1u, 2u, 4u, 8u})
                cfgs.push_back({op, m, n});
    for (int op : {LDS32, STS32, SMEMK})
        cfgs.push_back({op, 0xfu, 8u, 2});
    uint64_t *dc;
    uint32_t *ds;
    float *dsink;
    CK(cudaMalloc(&dc, 8 * 2 * nsm));
    CK(cudaMalloc(&ds, 4 * 2 * nsm));
    CK(cudaMalloc(&dsink, 4 * 1024));
    // the rows of two CTAs an SM need both resident at once: a kernel that
    // cannot hold two (lds128's 16 destination registers) has none
    int fit[NOPS];
    for (int op = 0; op < NOPS; op++)
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit[op], fn[op], 1024, 0));
    std::printf("%-8s %4s %4s %2s %5s  %10s  %8s  %s\n", "op", "mask", "nper", "k", "warps", "cycles", "op/cyc", "sms");
    for (const Cfg &k : cfgs) {
        if (fit[k.op] < k.per_sm) {
            std::fprintf(stderr, "cap_lds: %s: %d CTA(s) of 1024 threads an SM, %d wanted: row skipped\n",
                         op_name[k.op], fit[k.op], k.per_sm);
            continue;
        }
        int warps = __builtin_popcount(k.mask) * (int)k.nper;   // a CTA's active warps
        int grid = nsm * k.per_sm;
        long long ops = (long long)ITERS * op_per_step[k.op];
        std::vector<double> med;
        int distinct = 0;
        for (int r = 0; r <= reps; r++) {   // rep 0: warm-up, not written
            fn[k.op]<<<grid, 1024>>>(dc, ds, dsink, k.mask, k.nper, ITERS);
            CK(cudaDeviceSynchronize());
            CK(cudaGetLastError());
            std::vector<uint64_t> c(grid);
            std::vector<uint32_t> s(grid);
            CK(cudaMemcpy(c.data(), dc, 8 * grid, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(s.data(), ds, 4 * grid, cudaMemcpyDeviceToHost));
            if (r == 0)
                continue;
            std::vector<double> v;
            std::vector<int> seen(1024, 0);
            distinct = 0;
            for (int i = 0; i < grid; i++) {
                std::fprintf(f, "lds<%s>,%s,%x,%u,%d,%d,%lld,%d,%d,%u,%llu\n", op_name[k.op], op_name[k.op], k.mask,
                             k.nper, k.per_sm, warps, ops, r, i, s[i], (unsigned long long)c[i]);
                v.push_back((double)c[i]);
                if (s[i] < 1024 && !seen[s[i]]++)
                    distinct++;
            }
            med.push_back(median_d(v));
        }
        double cyc = median_d(med);
        // op/cyc: per SM (a CTA's warps times the CTAs an SM holds)
        std::printf("%-8s %4x %4u %2d %5d  %10.0f  %8.3f  %d\n", op_name[k.op], k.mask, k.nper, k.per_sm, warps, cyc,
                    k.per_sm * warps * (double)ops / cyc, distinct);
        std::fflush(stdout);
    }
    std::fclose(f);
    // the queue probes: one warp a CTA, one CTA an SM
    FILE *fp = cap_open(dir, "lds_probe.csv", "op,n,rep,cta,sm,cycles");
    std::printf("\nprobe: one warp, N back-to-back accesses between two clock reads\n");
    for (const auto &p : probes) {
        std::vector<double> med;
        for (int r = 0; r <= reps; r++) {
            p.f<<<nsm, 32>>>(dc, ds, dsink);
            CK(cudaDeviceSynchronize());
            CK(cudaGetLastError());
            std::vector<uint64_t> c(nsm);
            std::vector<uint32_t> s(nsm);
            CK(cudaMemcpy(c.data(), dc, 8 * nsm, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(s.data(), ds, 4 * nsm, cudaMemcpyDeviceToHost));
            if (r == 0)
                continue;
            std::vector<double> v;
            for (int i = 0; i < nsm; i++) {
                std::fprintf(fp, "%s,%d,%d,%d,%u,%llu\n", p.load ? "lds" : "sts", p.n, r, i, s[i],
                             (unsigned long long)c[i]);
                v.push_back((double)c[i]);
            }
            med.push_back(median_d(v));
        }
        std::printf("%s N %2d  median cycles %.0f\n", p.load ? "lds" : "sts", p.n, median_d(med));
        std::fflush(stdout);
    }
    std::fclose(fp);
    cap_end(cap);
    return 0;
}
