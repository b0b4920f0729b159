// cap_hetero: heterogeneous per-CTA work (E15, issue 15).
//
// fma_hetero_kernel is fma_kernel (capture.cu) except that CTA i runs
//   iters_i = base * (1 + (i * mul) % mod)
// FMA iterations: base 256, mod 8, mul 7 (neighbouring CTAs differ) and
// mul 1 (a saw-tooth); 256 threads; 1056, 1584, 2112 and 4224 CTAs; one
// untimed launch then 3 timed reps, every CTA recorded, so the refill of an
// SM after each CTA ends is visible (t0 of the CTA that takes its slot).
// `skewsim gen fma --iters BASE --grid G --work-mul MUL --work-mod MOD`
// stands for it (kernels.csv gen; the captures made before that generator
// existed carry it in gen_added.csv instead), and params names base, mul
// and mod.
//
// Build: nvcc -O3 -arch=sm_90 -o cap_hetero cap_hetero.cu
// Usage: cap_hetero DIR
#include "cap.h"

__global__ void fma_hetero_kernel(Rec *rec, int base, int mul, int mod, float *sink)
{
    __shared__ uint64_t t0s, c0s;
    if (threadIdx.x == 0) {
        t0s = gtimer();
        c0s = clock64();
    }
    __syncthreads();
    int iters = base * (1 + (int)((blockIdx.x * (unsigned)mul) % (unsigned)mod));
    float v = fma_work(iters, threadIdx.x * 1e-3f);
    __syncthreads();
    if (threadIdx.x == 0) {
        Rec r;
        r.cta = blockIdx.x;
        r.sm = smid();
        r.t0 = t0s;
        r.c0 = c0s;
        r.t1 = gtimer();
        r.c1 = clock64();
        rec[blockIdx.x] = r;
    }
    if (v == 1234.5f)
        sink[0] = v;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_hetero DIR\n");
        return 2;
    }
    std::string dir = argv[1];
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_hetero");
    float *sink;
    CK(cudaMalloc(&sink, 64));
    Rec *drec;
    CK(cudaMalloc(&drec, sizeof(Rec) * 4224));
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    const int base = 256, mod = 8;
    for (int mul : {7, 1})
        for (int grid : {1056, 1584, 2112, 4224}) {
            std::vector<KRep> reps;
            for (int rep = -1; rep < 3; rep++) {
                CK(cudaEventRecord(ea));
                fma_hetero_kernel<<<grid, 256>>>(drec, base, mul, mod, sink);
                CK(cudaEventRecord(eb));
                CK(cudaEventSynchronize(eb));
                CK(cudaGetLastError());
                if (rep < 0)
                    continue;
                KRep r;
                r.time_ns = ev_ms(ea, eb) * 1e6;
                r.recs = fetch_recs(drec, grid);
                reps.push_back(r);
            }
            KInfo k;
            k.kernel = fmt("e15.hetero.m%d.g%d", mul, grid);
            k.exp = "e15_hetero";
            k.name = "fma_hetero_kernel";
            k.gen = fmt("skewsim gen fma --iters %d --block 256 --grid %d --work-mul %d --work-mod %d", base, grid, mul, mod);
            k.grid = grid;
            k.block = 256;
            k.params = fmt("iters=base*(1+(cta*mul)%%mod);base=%d;mul=%d;mod=%d", base, mul, mod);
            cap_kernel(cap, k, reps);
        }
    cap_end(cap);
    std::printf("hetero done\n");
    return 0;
}
