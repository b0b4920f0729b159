// cap_power: sustained workload mixes for clock and power (E16, issue 15).
//
// Each mix runs for SECONDS (default 7) of back-to-back launches of one
// kernel (each launch ~40 ms, its size calibrated by one trial launch), with
// 1.5 s idle between mixes; nvidia-smi samples the board every 20 ms in the
// background (run_all.sh), and every launch's CTAs give the in-kernel clock
// (clock64 cycles over %globaltimer ns).  Mixes, in this order:
//   fp32_1cta  fma_kernel, 132 CTAs x 256 (1 CTA/SM)       gen fma
//   int32      IMAD + IADD3 chains, 1056 x 256              (no generator)
//   smem       LDS/LDS/STS loop on 16 KB of shared memory, 1056 x 256
//   fp32_8cta  fma_kernel, 1056 x 256 (8 CTAs/SM)           gen fma
//   fp64       DFMA chains, 1056 x 256
//   l2_stream  stream_kernel<cg> over 24 MB (L2-resident), 1056 x 256
//   hbm_add    add_kernel, c = a + b over 3 x 1 GB           gen add
// and, asked for by name only (E28, the FFMA's data: the same SASS, the
// multiplier's operand changed; fma_data_kernel, 1056 x 256):
//   fp32_sparse   b = 1.0000001f (fma_kernel's: significand 1.000...01)
//   fp32_ones     b = 0.99999994f (significand all ones: 24 bits set, but
//                 a radix-4 Booth recoding of it has one non-zero digit)
//   fp32_dense    b alternating 1.4142135f and 0.70710677f (sqrt 2 and its
//                 reciprocal: a dense, random-looking significand; the
//                 product of the two is 1 to an ulp, so x stays in range)
//   reg_sparse    fma_reg_kernel: b and c in registers (as an SGEMM's
//                 operands are), fma_kernel's values in every thread
//   reg_rand_b    the same SASS, b = r, 1/r with r in [1, 2) hashed from
//                 the thread's global index (every lane a different b)
//   reg_rand_bc   and c = q, -q/r with q in [1, 2) hashed likewise: the
//                 adder aligns operands of like size (an SGEMM's sums)
// and (E32, shared memory's data: smem_data_kernel, the same SASS, only
// the array's contents differ; 1056 x 256):
//   smem_zero     smem_kernel's two loads and a store a trip on 32-bit
//                 words combined by XOR, the array all zeros (stays zero)
//   smem_rand     the same, the array hashed random bits (XORs of random
//                 words stay random: every word read and written toggles
//                 about half its bits)
// -> DIR/power_mix.csv (one row per mix: host start/end, launches, work,
//    rate, in-kernel MHz), kernels.csv/reps.csv rows (mode sustained),
//    ctas.csv for the first launch of each mix.
// power_gemm.py adds the torch GEMM mixes to the same power_mix.csv.
//
// Build: nvcc -O3 -arch=sm_90 -o cap_power cap_power.cu
// Usage: cap_power DIR [SECONDS] [mix,mix,...]
#include "cap.h"

#define RECORD_CTA()                                                          \
    do {                                                                      \
        __syncthreads();                                                      \
        if (threadIdx.x == 0)                                                 \
            rec[blockIdx.x] = Rec{blockIdx.x, smid(), t0, gtimer(), c0, (uint64_t)clock64()}; \
    } while (0)

__global__ void int_kernel(Rec *rec, int iters, uint32_t k, uint32_t *sink)
{
    uint64_t t0 = gtimer(), c0 = clock64();
    uint32_t a0 = threadIdx.x, a1 = threadIdx.x ^ k, a2 = threadIdx.x * 3u, a3 = threadIdx.x * 5u;
#pragma unroll 8
    for (int i = 0; i < iters; i++) {
        int_step(a0, a1, a2, a3, k);
    }
    if ((a0 ^ a1 ^ a2 ^ a3) == k)
        sink[0] = a0;
    RECORD_CTA();
}

__global__ void dfma_kernel(Rec *rec, int iters, double *sink)
{
    uint64_t t0 = gtimer(), c0 = clock64();
    double b = 1.0000000001, c = 1e-12;
    double x0 = threadIdx.x, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
#pragma unroll 8
    for (int i = 0; i < iters; i++) {
        x0 = fma(x0, b, c);
        x1 = fma(x1, b, c);
        x2 = fma(x2, b, c);
        x3 = fma(x3, b, c);
    }
    double v = x0 + x1 + x2 + x3;
    if (v == 1234.5)
        sink[0] = v;
    RECORD_CTA();
}

__global__ void smem_kernel(Rec *rec, int iters, float *sink)
{
    uint64_t t0 = gtimer(), c0 = clock64();
    __shared__ float s_[4096];
    volatile float *s = s_;
    for (int i = threadIdx.x; i < 4096; i += blockDim.x)
        s[i] = (float)i;
    __syncthreads();
    unsigned idx = threadIdx.x;
    float acc = 0;
#pragma unroll 4
    for (int i = 0; i < iters; i++) {
        float v0 = s[idx & 4095];
        float v1 = s[(idx + 1024) & 4095];
        s[(idx + 2048) & 4095] = v0 + v1;
        acc += v0;
        idx += 32;
    }
    if (acc == 1234.5f)
        sink[0] = acc;
    RECORD_CTA();
}

// E32: smem_kernel's loop with the data made a parameter.  seed 0 fills
// the array with zeros, any other seed with hashed bits; the loop is the
// same instructions either way (LDS, LDS, LOP3, STS, LOP3 a trip).
__global__ void smem_data_kernel(Rec *rec, int iters, uint32_t seed, uint32_t *sink)
{
    uint64_t t0 = gtimer(), c0 = clock64();
    __shared__ uint32_t s_[4096];
    volatile uint32_t *s = s_;
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) {
        uint32_t h = ((uint32_t)i + blockIdx.x * 4096u + 1u) * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        s[i] = seed ? h : 0u;
    }
    __syncthreads();
    unsigned idx = threadIdx.x;
    uint32_t acc = 0;
#pragma unroll 4
    for (int i = 0; i < iters; i++) {
        uint32_t v0 = s[idx & 4095];
        uint32_t v1 = s[(idx + 1024) & 4095];
        s[(idx + 2048) & 4095] = v0 ^ v1;
        acc ^= v0;
        idx += 32;
    }
    if (acc == 0x12345678u)
        sink[0] = acc;
    RECORD_CTA();
}

// fma_work's four chains with the multiplier and addend as parameters (so
// that only the data differs between the E28 mixes): x = x b1 + c, then
// x = x b2 + c; iters even.
__global__ void fma_data_kernel(Rec *rec, int iters, float b1, float b2, float c, float *sink)
{
    uint64_t t0 = gtimer(), c0 = clock64();
    float seed = threadIdx.x * 1e-3f;
    float x0 = seed, x1 = seed + 1, x2 = seed + 2, x3 = seed + 3;
#pragma unroll 4
    for (int i = 0; i < iters; i += 2) {
        x0 = fmaf(x0, b1, c);
        x1 = fmaf(x1, b1, c);
        x2 = fmaf(x2, b1, c);
        x3 = fmaf(x3, b1, c);
        x0 = fmaf(x0, b2, c);
        x1 = fmaf(x1, b2, c);
        x2 = fmaf(x2, b2, c);
        x3 = fmaf(x3, b2, c);
    }
    float v = x0 + x1 + x2 + x3;
    if (v == 1234.5f)
        sink[0] = v;
    RECORD_CTA();
}

// The chains with b and c per thread in registers (forced by an empty asm:
// the compiler cannot fold them into immediates or constant-bank operands).
// rnd 0: b = b1, c = c1 everywhere; 1: b alternates r and 1/r; 2: and c
// alternates q and -q/r, so that two steps take x to x (1 +- ulp).
__global__ void fma_reg_kernel(Rec *rec, int iters, int rnd, float *sink)
{
    uint64_t t0 = gtimer(), c0 = clock64();
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t h1 = g * 2654435761u ^ 0x9e3779b9u, h2 = (g + 0x5bd1e995u) * 2246822519u;
    h1 ^= h1 >> 15, h2 ^= h2 >> 13;
    float r = 1.0f + (h1 >> 8) * (1.0f / 16777216.0f), q = 1.0f + (h2 >> 8) * (1.0f / 16777216.0f);
    float b1 = 1.0000001f, b2 = 1.0000001f, c1 = 1e-7f, c2 = 1e-7f;
    if (rnd >= 1)
        b1 = r, b2 = 1.0f / r;
    if (rnd >= 2)
        c1 = q, c2 = -q / r;
    asm volatile("mov.b32 %0, %0;" : "+f"(b1));
    asm volatile("mov.b32 %0, %0;" : "+f"(b2));
    asm volatile("mov.b32 %0, %0;" : "+f"(c1));
    asm volatile("mov.b32 %0, %0;" : "+f"(c2));
    float seed = threadIdx.x * 1e-3f;
    float x0 = seed, x1 = seed + 1, x2 = seed + 2, x3 = seed + 3;
#pragma unroll 4
    for (int i = 0; i < iters; i += 2) {
        x0 = fmaf(x0, b1, c1);
        x1 = fmaf(x1, b1, c1);
        x2 = fmaf(x2, b1, c1);
        x3 = fmaf(x3, b1, c1);
        x0 = fmaf(x0, b2, c2);
        x1 = fmaf(x1, b2, c2);
        x2 = fmaf(x2, b2, c2);
        x3 = fmaf(x3, b2, c2);
    }
    float v = x0 + x1 + x2 + x3;
    if (v == 1234.5f)
        sink[0] = v;
    RECORD_CTA();
}

struct Mix {
    const char *name;
    int grid, block;
    const char *unit;   // work unit
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_power DIR [SECONDS] [mixes]\n");
        return 2;
    }
    std::string dir = argv[1];
    double seconds = argc > 2 ? atof(argv[2]) : 7.0;
    std::string only = argc > 3 ? argv[3] : "";
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_power");
    FILE *f = cap_open(dir, "power_mix.csv",
                       "mix,kernel,gen,grid,block,param,launches,start_host_ns,end_host_ns,time_ns_median,"
                       "mhz_inkernel_median,work_per_launch,work_unit,rate_per_s");
    float *fsink;
    CK(cudaMalloc(&fsink, 64));
    Rec *drec;
    CK(cudaMalloc(&drec, sizeof(Rec) * 1056));
    const size_t MB = 1ull << 20, GB = 1ull << 30;
    char *buf;
    CK(cudaMalloc(&buf, 3 * GB));
    CK(cudaMemset(buf, 0, 3 * GB));
    {   // non-zero data for the add (values do not matter for the others)
        std::vector<float> h(16 * MB / 4);
        for (size_t i = 0; i < h.size(); i++)
            h[i] = (float)(i % 1000) * 0.001f;
        for (size_t o = 0; o < 3 * GB; o += 16 * MB)
            CK(cudaMemcpy(buf + o, h.data(), 16 * MB, cudaMemcpyHostToDevice));
    }
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    Mix mixes[] = {{"fp32_1cta", 132, 256, "flop"},  {"int32", 1056, 256, "int_op"},
                   {"smem", 1056, 256, "smem_byte"}, {"fp32_8cta", 1056, 256, "flop"},
                   {"fp64", 1056, 256, "flop"},      {"l2_stream", 1056, 256, "byte"},
                   {"hbm_add", 1056, 256, "byte"},   {"fp32_sparse", 1056, 256, "flop"},
                   {"fp32_ones", 1056, 256, "flop"}, {"fp32_dense", 1056, 256, "flop"},
                   {"reg_sparse", 1056, 256, "flop"}, {"reg_rand_b", 1056, 256, "flop"},
                   {"reg_rand_bc", 1056, 256, "flop"}, {"smem_zero", 1056, 256, "smem_byte"},
                   {"smem_rand", 1056, 256, "smem_byte"}};
    const uint32_t kk = (uint32_t)std::strtoul("2654435769", nullptr, 10) ^ (uint32_t)argc;
    for (const Mix &m : mixes) {
        std::string nm = m.name;
        bool reg = nm.compare(0, 4, "reg_") == 0;
        bool e32 = nm == "smem_zero" || nm == "smem_rand";
        bool e28 = nm == "fp32_sparse" || nm == "fp32_ones" || nm == "fp32_dense" || reg;
        if (only.empty() ? e28 || e32 : !listed(only.c_str(), m.name))
            continue;
        // launch(p): one launch with size parameter p; returns work done
        auto launch = [&](long long p) -> double {
            double thr = (double)m.grid * m.block;
            if (nm == "fp32_1cta" || nm == "fp32_8cta") {
                fma_kernel<<<m.grid, m.block>>>(drec, (int)p, fsink);
                return 8.0 * p * thr;
            } else if (e32) {
                smem_data_kernel<<<m.grid, m.block>>>(drec, (int)p, nm == "smem_zero" ? 0u : 0x9e3779b9u,
                                                      (uint32_t *)fsink);
                return 12.0 * p * thr;
            } else if (reg) {
                fma_reg_kernel<<<m.grid, m.block>>>(drec, (int)(p & ~1LL), nm == "reg_sparse" ? 0 : nm == "reg_rand_b" ? 1 : 2,
                                                    fsink);
                return 8.0 * (p & ~1LL) * thr;
            } else if (e28) {
                float b1 = nm == "fp32_sparse" ? 1.0000001f : nm == "fp32_ones" ? 0.99999994f : 1.4142135f;
                float b2 = nm == "fp32_dense" ? 0.70710677f : b1;
                fma_data_kernel<<<m.grid, m.block>>>(drec, (int)(p & ~1LL), b1, b2, 1e-7f, fsink);
                return 8.0 * (p & ~1LL) * thr;
            } else if (nm == "int32") {
                int_kernel<<<m.grid, m.block>>>(drec, (int)p, kk, (uint32_t *)fsink);
                return 6.0 * p * thr;   // PTX integer ops (SASS: see cap_power.sass)
            } else if (nm == "smem") {
                smem_kernel<<<m.grid, m.block>>>(drec, (int)p, fsink);
                return 12.0 * p * thr;
            } else if (nm == "fp64") {
                dfma_kernel<<<m.grid, m.block>>>(drec, (int)p, (double *)fsink);
                return 8.0 * p * thr;
            } else if (nm == "l2_stream") {
                stream_kernel<true><<<m.grid, m.block>>>(drec, (const float4 *)buf, 24 * MB / 16, (int)p, fsink);
                return 24.0 * MB * p;
            } else {
                add_kernel<<<m.grid, m.block>>>(drec, (const float *)buf, (const float *)(buf + GB), (float *)(buf + 2 * GB),
                                                GB / 4);
                return 3.0 * GB;
            }
        };
        // calibrate to ~40 ms a launch
        long long p = nm == "l2_stream" ? 100 : nm == "hbm_add" ? 1 : 65536;
        for (int t = 0; t < 2 && nm != "hbm_add"; t++) {
            CK(cudaEventRecord(ea));
            launch(p);
            CK(cudaEventRecord(eb));
            CK(cudaEventSynchronize(eb));
            CK(cudaGetLastError());
            double ms = ev_ms(ea, eb);
            if (t == 1)
                p = std::max(1LL, (long long)(p * 40.0 / ms));
        }
        p = std::min(p, 2000000000LL);
        if (e28)
            p &= ~1LL;   // the E28 loops take two steps a trip
        std::vector<KRep> reps;
        std::vector<double> mhz;
        double work = 0;
        uint64_t start = host_ns(), end = start + (uint64_t)(seconds * 1e9);
        while (host_ns() < end) {
            KRep r;
            r.host = host_ns();
            CK(cudaEventRecord(ea));
            work = launch(p);
            CK(cudaEventRecord(eb));
            CK(cudaEventSynchronize(eb));
            CK(cudaGetLastError());
            r.time_ns = ev_ms(ea, eb) * 1e6;
            r.recs = fetch_recs(drec, m.grid);
            std::vector<double> c;
            for (auto &x : r.recs)
                if (x.t1 > x.t0)
                    c.push_back((double)(x.c1 - x.c0) / (double)(x.t1 - x.t0) * 1000.0);
            mhz.push_back(median_d(c));
            reps.push_back(r);
        }
        uint64_t stop = host_ns();
        std::vector<double> t;
        for (auto &r : reps)
            t.push_back(r.time_ns);
        double med = median_d(t);
        KInfo k;
        k.kernel = fmt(e32 ? "e32.power.%s" : e28 ? "e28.power.%s" : "e16.power.%s", m.name);
        k.exp = e32 ? "e32_power" : e28 ? "e28_power" : "e16_power";
        k.name = nm == "fp32_1cta" || nm == "fp32_8cta" ? "fma_kernel"
                 : nm == "int32"                        ? "int_kernel"
                 : nm == "smem"                         ? "smem_kernel"
                 : nm == "fp64"                         ? "dfma_kernel"
                 : nm == "l2_stream"                    ? "stream_kernel<cg>"
                 : e32                                  ? "smem_data_kernel"
                 : reg                                  ? "fma_reg_kernel"
                 : e28                                  ? "fma_data_kernel"
                                                        : "add_kernel";
        k.gen = k.name == "fma_kernel" ? fmt("skewsim gen fma --iters %lld --block %d --grid %d", p, m.block, m.grid)
                : nm == "hbm_add"      ? fmt("skewsim gen add --bytes %zu --ctas %d --block %d", GB, m.grid, m.block)
                                       : "";
        k.grid = m.grid;
        k.block = m.block;
        k.mode = "sustained";
        k.params = fmt("param=%lld;seconds=%.1f;%s", p, seconds, nm == "l2_stream" ? "bytes=25165824;passes=param" : "iters=param");
        k.cta_rows_reps = 1;
        cap_kernel(cap, k, reps);
        std::fprintf(f, "%s,%s,%s,%d,%d,%lld,%zu,%llu,%llu,%.0f,%.1f,%.4g,%s,%.4g\n", m.name, k.name.c_str(), k.gen.c_str(),
                     m.grid, m.block, p, reps.size(), (unsigned long long)start, (unsigned long long)stop, med,
                     median_d(mhz), work, m.unit, work / (med * 1e-9));
        std::fflush(f);
        std::printf("%-10s %5zu launches  %.2f ms  %.0f MHz  %.4g %s/s\n", m.name, reps.size(), med / 1e6, median_d(mhz),
                    work / (med * 1e-9), m.unit);
        std::fflush(stdout);
        sleep_ns(1500000000ull);
    }
    std::fclose(f);
    cap_end(cap);
    return 0;
}
