// cap_green: green contexts and two-stream concurrency (E14, issue 12).
//
// green: through the driver API (cuDeviceGetDevResource,
//   cuDevSmResourceSplitByCount, cuDevResourceGenerateDesc, cuGreenCtxCreate,
//   cuGreenCtxStreamCreate) a group of N SMs is split off (N = 8, 16, ...,
//   128 with flags 0; a few N with CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING),
//   and a 2112-CTA kernel (128 threads, each CTA spins 20 us and stores its
//   %smid) runs alone in a green context of the group, then alone in one of
//   the remaining SMs.  -> DIR/green.csv: the SM ids each ran on.
// twostream: two fma_kernels (iters 4096, 256 threads) launched together on
//   two non-blocking streams, at 132+132, 1056+1056, 132+1056 and
//   1056+132 CTAs (A first), 3 reps; each also alone.  kernels.csv rows
//   carry stream 1 or 2; ctas.csv times of a pair share one time base.
//
// Build: nvcc -O3 -arch=sm_90 -o cap_green cap_green.cu -lcuda
// Usage: cap_green DIR [green,twostream]
#include "cap.h"
#include <cuda.h>
#include <set>

#define CU(call)                                                              \
    do {                                                                      \
        CUresult r_ = (call);                                                 \
        if (r_ != CUDA_SUCCESS) {                                             \
            const char *s_ = nullptr;                                         \
            cuGetErrorString(r_, &s_);                                        \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_ ? s_ : "?"); \
            std::exit(1);                                                     \
        }                                                                     \
    } while (0)

__global__ void smid_kernel(uint32_t *out, uint64_t spin_ns)
{
    if (threadIdx.x == 0) {
        out[blockIdx.x] = smid();
        uint64_t t0 = gtimer();
        while (gtimer() - t0 < spin_ns)
            ;
    }
    __syncthreads();
}

static std::string sm_list(const std::vector<uint32_t> &v, int &n)
{
    std::set<uint32_t> s(v.begin(), v.end());
    n = (int)s.size();
    std::string o;
    for (uint32_t x : s)
        o += (o.empty() ? "" : " ") + std::to_string(x);
    return o;
}

// Runs smid_kernel in a fresh green context on `res`; returns the SM list.
// method 0: runtime launch on the green stream, primary context current;
// method 1: the green context made current (cuCtxFromGreenCtx, cuCtxSetCurrent) first.
static std::string run_in(CUdevice dev, CUcontext primary, int method, CUdevResource *res, uint32_t *dout, int grid,
                          int &nseen, std::string &err)
{
    CUdevResourceDesc desc;
    CUresult r = cuDevResourceGenerateDesc(&desc, res, 1);
    const char *s = nullptr;
    if (r != CUDA_SUCCESS) {
        cuGetErrorName(r, &s);
        err = fmt("GenerateDesc:%s", s ? s : "?");
        return "";
    }
    CUgreenCtx g;
    r = cuGreenCtxCreate(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM);
    if (r != CUDA_SUCCESS) {
        cuGetErrorName(r, &s);
        err = fmt("GreenCtxCreate:%s", s ? s : "?");
        return "";
    }
    CUstream st;
    CU(cuGreenCtxStreamCreate(&st, g, CU_STREAM_NON_BLOCKING, 0));
    CK(cudaMemset(dout, 0xff, 4ull * grid));
    CK(cudaDeviceSynchronize());
    if (method == 1) {
        CUcontext gc;
        CU(cuCtxFromGreenCtx(&gc, g));
        CU(cuCtxSetCurrent(gc));
    }
    smid_kernel<<<grid, 128, 0, (cudaStream_t)st>>>(dout, 20000);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        CU(cuStreamSynchronize(st));
    CU(cuCtxSetCurrent(primary));
    if (e != cudaSuccess) {
        err = fmt("launch:%s", cudaGetErrorName(e));
        cuStreamDestroy(st);
        cuGreenCtxDestroy(g);
        return "";
    }
    std::vector<uint32_t> h(grid);
    CK(cudaMemcpy(h.data(), dout, 4ull * grid, cudaMemcpyDeviceToHost));
    CU(cuStreamDestroy(st));
    CU(cuGreenCtxDestroy(g));
    err = "ok";
    for (uint32_t x : h)
        if (x == 0xffffffffu)
            err = "missing_ctas";
    return sm_list(h, nseen);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_green DIR [green,twostream]\n");
        return 2;
    }
    std::string dir = argv[1], parts = argc > 2 ? argv[2] : "green,twostream";
    CK(cudaFree(0));
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_green");
    CU(cuInit(0));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    const int grid = 2112;
    uint32_t *dout;
    CK(cudaMalloc(&dout, 4ull * grid));

    if (parts.find("green") != std::string::npos) {
        CUdevResource all;
        CU(cuDeviceGetDevResource(dev, &all, CU_DEV_RESOURCE_TYPE_SM));
        cap_meta(cap, "green.sm_count", fmt("%u", all.sm.smCount));
        cap_meta(cap, "green.min_sm_partition_size", fmt("%u", all.sm.minSmPartitionSize));
        cap_meta(cap, "green.sm_coscheduled_alignment", fmt("%u", all.sm.smCoscheduledAlignment));
        FILE *f = cap_open(dir, "green.csv", "method,flags,n_requested,part,api_sm_count,status,n_sms_seen,sms");
        CUcontext primary;
        CU(cuCtxGetCurrent(&primary));
        // primary context, for reference
        {
            smid_kernel<<<grid, 128>>>(dout, 20000);
            CK(cudaDeviceSynchronize());
            std::vector<uint32_t> h(grid);
            CK(cudaMemcpy(h.data(), dout, 4ull * grid, cudaMemcpyDeviceToHost));
            int n;
            std::string l = sm_list(h, n);
            std::fprintf(f, "-,-,%u,primary,%u,ok,%d,%s\n", all.sm.smCount, all.sm.smCount, n, l.c_str());
        }
        std::vector<std::pair<unsigned, unsigned>> cases;
        for (unsigned n = 8; n <= 128; n += 8)
            cases.push_back({0u, n});
        for (unsigned n : {1u, 2u, 4u, 6u, 10u, 12u, 20u, 66u, 124u, 130u})
            cases.push_back({(unsigned)CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING, n});
        for (auto &c : cases) {
            CUdevResource grp, rem;
            std::memset(&grp, 0, sizeof grp);
            std::memset(&rem, 0, sizeof rem);
            unsigned nb = 1;
            CUresult r = cuDevSmResourceSplitByCount(&grp, &nb, &all, &rem, c.first, c.second);
            if (r != CUDA_SUCCESS) {
                const char *s = nullptr;
                cuGetErrorName(r, &s);
                std::fprintf(f, "-,%u,%u,group,0,Split:%s,0,\n", c.first, c.second, s ? s : "?");
                continue;
            }
            for (int method = 0; method < 2; method++)
                for (int part = 0; part < 2; part++) {
                    CUdevResource *res = part ? &rem : &grp;
                    if (res->type != CU_DEV_RESOURCE_TYPE_SM || res->sm.smCount == 0) {
                        std::fprintf(f, "%d,%u,%u,%s,0,empty,0,\n", method, c.first, c.second, part ? "rest" : "group");
                        continue;
                    }
                    int nseen = 0;
                    std::string err, l = run_in(dev, primary, method, res, dout, grid, nseen, err);
                    std::fprintf(f, "%d,%u,%u,%s,%u,%s,%d,%s\n", method, c.first, c.second, part ? "rest" : "group",
                                 res->sm.smCount, err.c_str(), nseen, l.c_str());
                    std::fflush(f);
                }
        }
        std::fclose(f);
        std::printf("green done\n");
        std::fflush(stdout);
    }

    if (parts.find("twostream") != std::string::npos) {
        float *sink;
        CK(cudaMalloc(&sink, 64));
        Rec *ra, *rb;
        CK(cudaMalloc(&ra, sizeof(Rec) * 1056));
        CK(cudaMalloc(&rb, sizeof(Rec) * 1056));
        cudaStream_t s1, s2;
        CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
        CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
        cudaEvent_t a0, a1, b0, b1;
        CK(cudaEventCreate(&a0));
        CK(cudaEventCreate(&a1));
        CK(cudaEventCreate(&b0));
        CK(cudaEventCreate(&b1));
        fma_kernel<<<1056, 256, 0, s1>>>(ra, 4096, sink);
        CK(cudaDeviceSynchronize());
        const int iters = 4096;
        struct Pair {
            int ga, gb;
        } pairs[] = {{132, 132}, {1056, 1056}, {132, 1056}, {1056, 132}};
        for (auto &p : pairs) {
            std::vector<KRep> RA, RB, SA, SB;
            for (int rep = 0; rep < 3; rep++) {
                KRep x, y;
                x.host = host_ns();
                CK(cudaEventRecord(a0, s1));
                fma_kernel<<<p.ga, 256, 0, s1>>>(ra, iters, sink);
                CK(cudaEventRecord(a1, s1));
                y.host = host_ns();
                CK(cudaEventRecord(b0, s2));
                fma_kernel<<<p.gb, 256, 0, s2>>>(rb, iters, sink);
                CK(cudaEventRecord(b1, s2));
                CK(cudaDeviceSynchronize());
                CK(cudaGetLastError());
                x.time_ns = ev_ms(a0, a1) * 1e6;
                y.time_ns = ev_ms(b0, b1) * 1e6;
                x.recs = fetch_recs(ra, p.ga);
                y.recs = fetch_recs(rb, p.gb);
                RA.push_back(x);
                RB.push_back(y);
            }
            for (int rep = 0; rep < 3; rep++)   // each alone
                for (int w = 0; w < 2; w++) {
                    KRep x;
                    int gsz = w ? p.gb : p.ga;
                    CK(cudaEventRecord(a0, s1));
                    fma_kernel<<<gsz, 256, 0, s1>>>(ra, iters, sink);
                    CK(cudaEventRecord(a1, s1));
                    CK(cudaDeviceSynchronize());
                    x.time_ns = ev_ms(a0, a1) * 1e6;
                    x.recs = fetch_recs(ra, gsz);
                    (w ? SB : SA).push_back(x);
                }
            // shared time base per pair: the earliest CTA start of either kernel, over reps
            uint64_t base = UINT64_MAX;
            for (auto *v : {&RA, &RB})
                for (auto &r : *v)
                    for (auto &c : r.recs)
                        base = std::min(base, c.t0);
            for (int w = 0; w < 2; w++) {
                KInfo k;
                int gsz = w ? p.gb : p.ga;
                k.kernel = fmt("e14.2s.%d_%d.%s", p.ga, p.gb, w ? "B" : "A");
                k.exp = "e14_twostream";
                k.name = "fma_kernel";
                k.gen = fmt("skewsim gen fma --iters %d --block 256 --grid %d", iters, gsz);
                k.grid = gsz;
                k.block = 256;
                k.stream = w + 1;
                k.mode = "concurrent";
                k.params = fmt("pair=%d+%d;launched=%s;partner=e14.2s.%d_%d.%s", p.ga, p.gb, w ? "second" : "first", p.ga,
                               p.gb, w ? "A" : "B");
                // ctas.csv times of a rep are relative to the pair's base: rep r of A and B
                // share the axis only through gt_base (same value on both rows)
                cap_kernel(cap, k, w ? RB : RA, base);
                KInfo s = k;
                s.kernel = fmt("e14.alone.%d_%d.%s", p.ga, p.gb, w ? "B" : "A");
                s.mode = "single";
                s.stream = 1;
                s.params = fmt("reference for e14.2s.%d_%d.%s", p.ga, p.gb, w ? "B" : "A");
                cap_kernel(cap, s, w ? SB : SA);
            }
        }
        std::printf("twostream done\n");
    }
    cap_end(cap);
    return 0;
}
