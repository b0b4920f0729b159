// E10: per-instruction latency and issue rate on the H200, to check the
// unit table of configs/h200.yaml (units.*, memory.*) against the chip
// rather than against published numbers alone.  Written for skewsim.
//
// lat:  one warp runs a chain of CHAIN dependent instructions; thread 0
//       reads clock64() around it: cycles per instruction = dependent
//       latency (issue to the next dependent issue).
// tput: 132 CTAs x 1024 threads (32 warps on every SM), each thread runs 8
//       independent chains; instructions per cycle per SM from each CTA's
//       own clock64() span (median over CTAs).
// bar_wN: one CTA of N warps runs 1024 __syncthreads() back to back;
// cycles per barrier.
// Loads are pointer chases: idx = a[idx] over a ring in shared memory, in a
// 4 KB global array (L1), a 16 MB one (L2) and a 2 GB one at a 4 KB + 64 B
// stride (DRAM, past the 60 MB L2 and the TLB reach of small pages).
//
// Build: nvcc -O3 -arch=sm_90 -o e10 e10_latency.cu
// Usage: e10 OUTDIR -> OUTDIR/e10_latency.csv (op,mode,value,unit)
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                           \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,          \
                         cudaGetErrorString(err_));                           \
            std::exit(1);                                                     \
        }                                                                     \
    } while (0)

#define CHAIN 4096       // dependent instructions per chain (256 x 16)
#define NSM 132

enum Op { FFMA, IMAD, IADD, DFMA, HFMA2, MUFU_EX2, MUFU_RSQ, SHFL, NOPS };
static const char *op_name[NOPS] = {"ffma", "imad", "iadd3", "dfma", "hfma2", "mufu_ex2", "mufu_rsq", "shfl"};

// One step of a chain: v depends on v.  Inline PTX so nothing folds.
template <int OP> struct Step;
template <> struct Step<FFMA> { typedef float T; static __device__ __forceinline__ void f(T &v, uint32_t k) { asm volatile("fma.rn.f32 %0, %0, 0f3F800001, 0f33D6BF95;" : "+f"(v)); (void)k; } };
template <> struct Step<IMAD> { typedef uint32_t T; static __device__ __forceinline__ void f(T &v, uint32_t k) { asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(v) : "r"(k)); } };
template <> struct Step<IADD> { typedef uint32_t T; static __device__ __forceinline__ void f(T &v, uint32_t k) { asm volatile("add.u32 %0, %0, %1;" : "+r"(v) : "r"(k)); } };
template <> struct Step<DFMA> { typedef double T; static __device__ __forceinline__ void f(T &v, uint32_t k) { asm volatile("fma.rn.f64 %0, %0, 0d3FF0000000000001, 0d3CB0000000000000;" : "+d"(v)); (void)k; } };
template <> struct Step<HFMA2> { typedef uint32_t T; static __device__ __forceinline__ void f(T &v, uint32_t k) { const uint32_t m = 0x3C003C00u, a = 0x00010001u; asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(v) : "r"(m), "r"(a)); (void)k; } };
template <> struct Step<MUFU_EX2> { typedef float T; static __device__ __forceinline__ void f(T &v, uint32_t k) { asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(v)); (void)k; } };
template <> struct Step<MUFU_RSQ> { typedef float T; static __device__ __forceinline__ void f(T &v, uint32_t k) { asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(v)); (void)k; } };
template <> struct Step<SHFL> { typedef uint32_t T; static __device__ __forceinline__ void f(T &v, uint32_t k) { asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 0x1f, 0xffffffff;" : "+r"(v)); (void)k; } };

// The chains' results must look used, or the compiler drops them: their
// bits are folded into one word and compared with `magic`, which it cannot
// know (a float sum compared with a constant is not enough: the sum of
// integers converted to float can never equal 1234.5, and it knows that).
static __device__ __forceinline__ uint32_t bits(float v) { return __float_as_uint(v); }
static __device__ __forceinline__ uint32_t bits(uint32_t v) { return v; }
static __device__ __forceinline__ uint32_t bits(double v) { return (uint32_t)__double_as_longlong(v) ^ (uint32_t)(__double_as_longlong(v) >> 32); }

template <int OP, int WAYS>
__global__ void chain(uint64_t *cycles, uint32_t *sink, uint32_t magic)
{
    typedef typename Step<OP>::T T;
    T v[WAYS];
    for (int w = 0; w < WAYS; w++)
        v[w] = (T)(threadIdx.x * 0.001f + 0.5f + w);
    __syncthreads();
    uint64_t c0 = clock64();
    for (int i = 0; i < CHAIN / 16; i++) {
#pragma unroll
        for (int u = 0; u < 16; u++)
#pragma unroll
            for (int w = 0; w < WAYS; w++)
                Step<OP>::f(v[w], magic | 1u);
    }
    __syncthreads();
    uint64_t c1 = clock64();
    uint32_t h = 0;
    for (int w = 0; w < WAYS; w++)
        h ^= bits(v[w]);
    if (h == magic)
        sink[threadIdx.x] = h;
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = c1 - c0;
}

// Tensor core: mma.sync m16n8k16 bf16 -> fp32 (HMMA.16816.F32.BF16), the
// accumulator carried from one to the next.
template <int WAYS>
__global__ void mma_chain(uint64_t *cycles, uint32_t *sink, uint32_t magic)
{
    float d[WAYS][4];
    for (int w = 0; w < WAYS; w++)
        for (int j = 0; j < 4; j++)
            d[w][j] = 0.25f * (float)(threadIdx.x + w + j);
    uint32_t a0 = magic ^ threadIdx.x, a1 = a0 * 3u, a2 = a0 * 5u, a3 = a0 * 7u, b0 = a0 * 11u, b1 = a0 * 13u;
    __syncthreads();
    uint64_t c0 = clock64();
    for (int i = 0; i < CHAIN / 16; i++) {
#pragma unroll
        for (int u = 0; u < 16; u++)
#pragma unroll
            for (int w = 0; w < WAYS; w++)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                             "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                             : "+f"(d[w][0]), "+f"(d[w][1]), "+f"(d[w][2]), "+f"(d[w][3])
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
    __syncthreads();
    uint64_t c1 = clock64();
    uint32_t h = 0;
    for (int w = 0; w < WAYS; w++)
        for (int j = 0; j < 4; j++)
            h ^= __float_as_uint(d[w][j]);
    if (h == magic)
        sink[threadIdx.x] = h;
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = c1 - c0;
}

// CTA barrier: thread 0 times CHAIN / 4 back-to-back __syncthreads() of a
// CTA of blockDim.x threads (nothing between them): the cost of one
// barrier as a function of the warps that meet at it.
__global__ void bar_chain(uint64_t *cycles)
{
    __syncthreads();
    uint64_t c0 = clock64();
    for (int i = 0; i < CHAIN / 64; i++) {
#pragma unroll
        for (int u = 0; u < 16; u++)
            asm volatile("bar.sync 0;" ::: "memory");
    }
    uint64_t c1 = clock64();
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = c1 - c0;
}

// Pointer chase in shared memory (LDS) or global memory (LDG, .ca or .cg).
template <int SPACE>   // 0 shared, 1 global via L1 (.ca), 2 global via L2 only (.cg)
__global__ void chase(const uint32_t *a, uint32_t start, uint64_t *cycles, uint32_t *sink)
{
    __shared__ uint32_t s[4096];
    if (SPACE == 0) {
        for (uint32_t i = threadIdx.x; i < 4096; i += blockDim.x)
            s[i] = (i + 33) % 4096;
        __syncthreads();
    }
    uint32_t idx = start;
    // warm: one pass touches the lines (L1/L2 cases), not timed
    if (SPACE == 1)
        for (int i = 0; i < 256; i++)
            idx = __ldca(&a[idx]);
    uint64_t c0 = clock64();
    for (int i = 0; i < 1024; i++) {
        if (SPACE == 0)
            idx = s[idx];
        else if (SPACE == 1)
            idx = __ldca(&a[idx]);
        else
            idx = __ldcg(&a[idx]);
    }
    uint64_t c1 = clock64();
    if (threadIdx.x == 0) {
        cycles[0] = c1 - c0;
        sink[0] = idx;
    }
}

static double median(std::vector<uint64_t> v)
{
    std::sort(v.begin(), v.end());
    return (double)v[v.size() / 2];
}

template <int OP>
static void run_op(FILE *out, uint64_t *d_cyc, uint32_t *d_sink, uint32_t magic)
{
    std::vector<uint64_t> c(NSM);
    chain<OP, 1><<<1, 32>>>(d_cyc, d_sink, magic);   // warm-up
    CHECK(cudaDeviceSynchronize());
    chain<OP, 1><<<1, 32>>>(d_cyc, d_sink, magic);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c.data(), d_cyc, sizeof(uint64_t), cudaMemcpyDeviceToHost));
    std::fprintf(out, "%s,lat,%.3f,cycles\n", op_name[OP], (double)c[0] / CHAIN);
    chain<OP, 8><<<NSM, 1024>>>(d_cyc, d_sink, magic);
    CHECK(cudaDeviceSynchronize());
    chain<OP, 8><<<NSM, 1024>>>(d_cyc, d_sink, magic);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c.data(), d_cyc, NSM * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    double ops = 32.0 * 8 * CHAIN;   // warp-instructions per CTA
    std::fprintf(out, "%s,tput,%.3f,warp-instr/cycle/SM\n", op_name[OP], ops / median(c));
}

static void run_mma(FILE *out, uint64_t *d_cyc, uint32_t *d_sink, uint32_t magic)
{
    std::vector<uint64_t> c(NSM);
    for (int rep = 0; rep < 2; rep++)
        mma_chain<1><<<1, 32>>>(d_cyc, d_sink, magic);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c.data(), d_cyc, sizeof(uint64_t), cudaMemcpyDeviceToHost));
    std::fprintf(out, "hmma,lat,%.3f,cycles\n", (double)c[0] / CHAIN);
    for (int rep = 0; rep < 2; rep++)
        mma_chain<4><<<NSM, 1024>>>(d_cyc, d_sink, magic);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c.data(), d_cyc, NSM * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    std::fprintf(out, "hmma,tput,%.3f,warp-instr/cycle/SM\n", 32.0 * 4 * CHAIN / median(c));
}

static void run_bar(FILE *out, uint64_t *d_cyc)
{
    static const int blocks[] = {32, 128, 256, 1024};
    for (int b : blocks) {
        uint64_t c = 0;
        for (int rep = 0; rep < 2; rep++)
            bar_chain<<<1, b>>>(d_cyc);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(&c, d_cyc, sizeof c, cudaMemcpyDeviceToHost));
        std::fprintf(out, "bar_w%d,lat,%.3f,cycles\n", b / 32, (double)c / (CHAIN / 4));
    }
}

template <int SPACE>
static void run_chase(FILE *out, const char *name, uint32_t n, uint32_t stride, uint64_t *d_cyc, uint32_t *d_sink)
{
    std::vector<uint32_t> h(n);
    for (uint32_t i = 0; i < n; i++)
        h[i] = (uint32_t)(((uint64_t)i + stride) % n);
    uint32_t *d = nullptr;
    if (SPACE != 0) {
        CHECK(cudaMalloc(&d, (size_t)n * 4));
        CHECK(cudaMemcpy(d, h.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
    }
    uint64_t c = 0;
    // The second run is timed.  It walks the lines the first one brought
    // into the L2, except for the DRAM case, which starts half way round.
    for (int rep = 0; rep < 2; rep++) {
        uint32_t start = (rep == 1 && n > (64u << 20) / 4) ? n / 2 : 0;
        chase<SPACE><<<1, 32>>>(d, start, d_cyc, d_sink);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(&c, d_cyc, sizeof c, cudaMemcpyDeviceToHost));
    }
    std::fprintf(out, "%s,lat,%.3f,cycles\n", name, (double)c / 1024);
    if (d)
        CHECK(cudaFree(d));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: e10 OUTDIR\n");
        return 2;
    }
    char path[4096];
    std::snprintf(path, sizeof path, "%s/e10_latency.csv", argv[1]);
    FILE *out = std::fopen(path, "w");
    if (!out) {
        std::perror(path);
        return 1;
    }
    std::fprintf(out, "op,mode,value,unit\n");
    uint64_t *d_cyc;
    uint32_t *d_sink, *d_usink;
    uint32_t magic = (uint32_t)std::strtoul("2654435769", nullptr, 10) ^ (uint32_t)argc;   // not a compile-time constant
    CHECK(cudaMalloc(&d_cyc, NSM * sizeof(uint64_t)));
    CHECK(cudaMalloc(&d_sink, 1024 * sizeof(uint32_t)));
    CHECK(cudaMalloc(&d_usink, 4));
    run_op<FFMA>(out, d_cyc, d_sink, magic);
    run_op<IMAD>(out, d_cyc, d_sink, magic);
    run_op<IADD>(out, d_cyc, d_sink, magic);
    run_op<DFMA>(out, d_cyc, d_sink, magic);
    run_op<HFMA2>(out, d_cyc, d_sink, magic);
    run_op<MUFU_EX2>(out, d_cyc, d_sink, magic);
    run_op<MUFU_RSQ>(out, d_cyc, d_sink, magic);
    run_op<SHFL>(out, d_cyc, d_sink, magic);
    run_mma(out, d_cyc, d_sink, magic);
    run_bar(out, d_cyc);
    run_chase<0>(out, "lds", 4096, 33, d_cyc, d_usink);
    run_chase<1>(out, "ldg_l1", 1024, 33, d_cyc, d_usink);                // 4 KB
    run_chase<2>(out, "ldg_l2", 4u << 20, 1040, d_cyc, d_usink);          // 16 MB, 4 KB + 64 B apart
    run_chase<2>(out, "ldg_dram", 512u << 20, 1040, d_cyc, d_usink);      // 2 GB
    std::fclose(out);
    return 0;
}
