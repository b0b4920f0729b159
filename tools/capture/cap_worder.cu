// cap_worder: E31.  When a sub-partition has more ready warps than its one
// issue a cycle can serve, which does it serve?  Greedy-then-oldest (the
// model's sm.warp_policy gto) keeps the oldest warps issuing and lets the
// young ones wait, so the warps of one sub-partition finish one after
// another, oldest first; round-robin shares the port, and they finish
// together.  E1 (validation/h200) saw co-resident CTAs finish oldest first;
// E30 (validation/h100) saw loops run at rates GTO does not reach and LRR
// does.  This looks at the warps themselves.
//
// Each kernel: CTAs of B threads, K an SM; every warp runs CH independent
// FFMA chains ITERS times (latency 4, so a warp alone issues CH FFMA in 4
// cycles: CH = 2 is 0.5 a cycle, and 8 such warps a sub-partition ask for 4
// times what it issues).  Lane 0 of every warp reads clock64() after the
// CTA's __syncthreads() and again after its loop.  -> DIR/worder.csv:
// kernel, ch, block, per_sm, rep, cta, warp, sm, c0, c1 (the warp's two
// clock64 reads).  Rep 0 is a warm-up and not written.
//
// Build: nvcc -O3 -arch=sm_90 -o cap_worder cap_worder.cu
// Usage: cap_worder DIR [REPS] [arrive]
#include "cap.h"

#define ITERS 4096
#define FM(x) asm volatile("fma.rn.f32 %0, %0, 0f3F800001, 0f33D6BF95;" : "+f"(x))

template <int CH>
__global__ void worder(uint64_t *out, uint32_t *sms, float *sink, int iters)
{
    uint32_t w = threadIdx.x / 32, lane = threadIdx.x % 32, nw = blockDim.x / 32;
    float x[CH];
#pragma unroll
    for (int c = 0; c < CH; c++)
        x[c] = (float)(lane + c);
    __syncthreads();
    uint64_t c0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int c = 0; c < CH; c++)
            FM(x[c]);
    }
    uint64_t c1 = clock64();
    float s = 0;
#pragma unroll
    for (int c = 0; c < CH; c++)
        s += x[c];
    if (s == 1234.5f)
        sink[threadIdx.x] = s;
    if (lane == 0) {
        size_t i = (size_t)blockIdx.x * nw + w;
        out[2 * i] = c0;
        out[2 * i + 1] = c1;
        sms[i] = smid();
    }
}

// The arrivals (E31b, `cap_worder DIR REPS arrive`): more CTAs than an SM
// holds (dynamic shared memory limits it to 2 of 512 threads), so CTAs
// arrive as others leave.  Every warp's lane 0 also reads clock64() and
// %globaltimer at entry, before the barrier: does a CTA that arrives
// behind a running older one start at once, and does it share the port
// or wait?  -> DIR/worder_arrive.csv: ch, block, grid, rep, cta, warp,
// sm, e (entry clock), c0, c1, g0 (entry globaltimer), g1 (end).
template <int CH>
__global__ void worder_arrive(uint64_t *out, uint32_t *sms, float *sink, int iters)
{
    extern __shared__ float dyn[];
    uint64_t e = clock64(), g0 = gtimer();
    uint32_t w = threadIdx.x / 32, lane = threadIdx.x % 32, nw = blockDim.x / 32;
    float x[CH];
#pragma unroll
    for (int c = 0; c < CH; c++)
        x[c] = (float)(lane + c);
    __syncthreads();
    uint64_t c0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int c = 0; c < CH; c++)
            FM(x[c]);
    }
    uint64_t c1 = clock64(), g1 = gtimer();
    float s = 0;
#pragma unroll
    for (int c = 0; c < CH; c++)
        s += x[c];
    if (s == 1234.5f)
        sink[threadIdx.x] = s + dyn[0];
    if (lane == 0) {
        size_t i = (size_t)blockIdx.x * nw + w;
        out[5 * i] = e;
        out[5 * i + 1] = c0;
        out[5 * i + 2] = c1;
        out[5 * i + 3] = g0;
        out[5 * i + 4] = g1;
        sms[i] = smid();
    }
}

static void arrivals(const std::string &dir, int reps, int nsm)
{
    FILE *f = cap_open(dir, "worder_arrive.csv", "ch,block,grid,rep,cta,warp,sm,e,c0,c1,g0,g1");
    const int block = 512, per = 6, nw = block / 32;
    int grid = nsm * per;
    size_t smem = 100 * 1024;   // two of these fit an SM's 228 KB, three do not
    CK(cudaFuncSetAttribute(worder_arrive<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int fit = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, worder_arrive<2>, block, smem));
    std::printf("arrive: %d CTAs of %d threads an SM resident, %d an SM in all\n", fit, block, per);
    uint64_t *dout;
    uint32_t *dsm;
    float *dsink;
    CK(cudaMalloc(&dout, 8 * 5 * (size_t)grid * nw));
    CK(cudaMalloc(&dsm, 4 * (size_t)grid * nw));
    CK(cudaMalloc(&dsink, 4 * 1024));
    for (int r = 0; r <= reps; r++) {
        worder_arrive<2><<<grid, block, smem>>>(dout, dsm, dsink, ITERS);
        CK(cudaDeviceSynchronize());
        CK(cudaGetLastError());
        std::vector<uint64_t> o(5 * (size_t)grid * nw);
        std::vector<uint32_t> s((size_t)grid * nw);
        CK(cudaMemcpy(o.data(), dout, 8 * o.size(), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(s.data(), dsm, 4 * s.size(), cudaMemcpyDeviceToHost));
        if (r == 0)
            continue;
        for (int c = 0; c < grid; c++)
            for (int w = 0; w < nw; w++) {
                size_t i = (size_t)c * nw + w;
                std::fprintf(f, "2,%d,%d,%d,%d,%d,%u,%llu,%llu,%llu,%llu,%llu\n", block, grid, r, c, w, s[i],
                             (unsigned long long)o[5 * i], (unsigned long long)o[5 * i + 1],
                             (unsigned long long)o[5 * i + 2], (unsigned long long)o[5 * i + 3],
                             (unsigned long long)o[5 * i + 4]);
            }
    }
    fclose(f);
    CK(cudaFree(dout));
    CK(cudaFree(dsm));
    CK(cudaFree(dsink));
}

typedef void (*kfn)(uint64_t *, uint32_t *, float *, int);

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_worder DIR [REPS]\n");
        return 2;
    }
    std::string dir = argv[1];
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_worder");
    int dev = 0, nsm = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
    if (argc > 3 && !strcmp(argv[3], "arrive")) {
        arrivals(dir, reps, nsm);
        cap_end(cap);
        return 0;
    }
    FILE *f = cap_open(dir, "worder.csv", "kernel,ch,block,per_sm,rep,cta,warp,sm,c0,c1");
    struct Cfg {
        int ch, block, per_sm;
    } cfgs[] = {
        {2, 1024, 1}, {2, 512, 1}, {2, 256, 1}, {1, 1024, 1}, {4, 1024, 1}, {2, 512, 2}, {2, 256, 4},
    };
    const kfn fn[5] = {nullptr, worder<1>, worder<2>, nullptr, worder<4>};
    uint64_t *dout;
    uint32_t *dsm;
    float *dsink;
    CK(cudaMalloc(&dout, 8 * 2 * 32 * 4 * (size_t)nsm));
    CK(cudaMalloc(&dsm, 4 * 32 * 4 * (size_t)nsm));
    CK(cudaMalloc(&dsink, 4 * 1024));
    std::printf("ch block k | sub-partition 0's warps by age: median over SMs of (end - CTA's first start), cycles\n");
    for (const Cfg &k : cfgs) {
        int grid = nsm * k.per_sm, nw = k.block / 32;
        int fit = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, fn[k.ch], k.block, 0));
        if (fit < k.per_sm) {
            std::fprintf(stderr, "cap_worder: ch %d block %d: %d CTAs an SM fit, %d wanted: skipped\n", k.ch,
                         k.block, fit, k.per_sm);
            continue;
        }
        std::vector<std::vector<double>> ends(nw * k.per_sm);
        for (int r = 0; r <= reps; r++) {
            fn[k.ch]<<<grid, k.block>>>(dout, dsm, dsink, ITERS);
            CK(cudaDeviceSynchronize());
            CK(cudaGetLastError());
            std::vector<uint64_t> o(2 * (size_t)grid * nw);
            std::vector<uint32_t> s((size_t)grid * nw);
            CK(cudaMemcpy(o.data(), dout, 8 * o.size(), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(s.data(), dsm, 4 * s.size(), cudaMemcpyDeviceToHost));
            if (r == 0)
                continue;
            for (int c = 0; c < grid; c++)
                for (int w = 0; w < nw; w++) {
                    size_t i = (size_t)c * nw + w;
                    std::fprintf(f, "worder<%d>,%d,%d,%d,%d,%d,%d,%u,%llu,%llu\n", k.ch, k.ch, k.block, k.per_sm,
                                 r, c, w, s[i], (unsigned long long)o[2 * i], (unsigned long long)o[2 * i + 1]);
                }
            // the summary: on each SM, its CTAs in launch order (CTA index),
            // sub-partition 0's warps (w % 4 == 0), end - the SM's first start
            std::vector<int> first(1024, -1);
            std::vector<std::vector<int>> on(1024);
            for (int c = 0; c < grid; c++)
                if (s[(size_t)c * nw] < 1024)
                    on[s[(size_t)c * nw]].push_back(c);
            for (int sm = 0; sm < 1024; sm++) {
                if ((int)on[sm].size() != k.per_sm)
                    continue;
                uint64_t t0 = UINT64_MAX;
                for (int c : on[sm])
                    for (int w = 0; w < nw; w++)
                        t0 = std::min(t0, o[2 * ((size_t)c * nw + w)]);
                int j = 0;
                for (int c : on[sm])
                    for (int w = 0; w < nw; w += 4, j++)
                        ends[j].push_back((double)(o[2 * ((size_t)c * nw + w) + 1] - t0));
            }
        }
        std::printf("%2d %5d %d |", k.ch, k.block, k.per_sm);
        for (auto &v : ends)
            if (!v.empty())
                std::printf(" %.0f", median_d(v));
        std::printf("\n");
        std::fflush(stdout);
    }
    fclose(f);
    cap_end(cap);
    return 0;
}
