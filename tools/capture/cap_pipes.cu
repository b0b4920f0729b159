// cap_pipes: which SASS integer and FP32 instructions share an issue pipe
// (E29).  E10 measured each instruction alone (IMAD and IADD3 each 2 warp
// instructions a cycle per SM); a kernel mixes them, and whether IMAD and
// IADD3 (or VIADD, LOP3, SHF, FFMA, FADD) can issue in the same cycles on
// different pipes decides how fast integer-heavy code runs (E16's shared-
// memory mix runs on the chip at 3.8 instructions a cycle, 9 of its 13 of
// them integer).
//
// Each kernel: 132 CTAs x 1024 threads (32 warps on every SM), each thread
// 4 independent chains of op A and 4 of op B (8 of A when B is none),
// CHAIN steps each, in inline PTX so nothing folds; thread 0 times the
// chains with clock64() between two __syncthreads().  -> DIR/pipes.csv:
// kernel (its template name), a, b, rep, cta, sm, cycles.  Which SASS each
// step became (ptxas may merge two adds into one IADD3, or choose VIADD
// for an add of an immediate) is read off `cuobjdump -sass` of this
// program (sass/cap_pipes.sass), not assumed.
//
// Build: nvcc -O3 -arch=sm_90 -o cap_pipes cap_pipes.cu
// Usage: cap_pipes DIR [REPS [OPS]]   (OPS: run the kernels whose first op's
//        name is in this string)
#include "cap.h"

#define CHAIN 2048

enum Op { NONE, FFMA, FADD, IMAD, IADD, IADDI, LOP3, SHF, AI_LOP3, AR_LOP3, AI_FFMA, AI_IMAD, IMAD3, NOPS };
static const char *op_name[NOPS] = {"none", "ffma", "fadd", "imad", "iadd", "iaddi", "lop3", "shf",
                                    "addi_lop3", "addr_lop3", "addi_ffma", "addi_imad", "imad3"};

// One step of a chain on a 32-bit word; the float ops move through a float
// register (the bits are the chain).
template <int OP> struct Step;
template <> struct Step<NONE> { static __device__ __forceinline__ void f(uint32_t &, uint32_t, uint32_t) {} };
template <> struct Step<FFMA> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t, uint32_t)
    {
        asm volatile("fma.rn.f32 %0, %0, 0f3F800001, 0f33D6BF95;" : "+r"(v));
    }
};
template <> struct Step<FADD> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t, uint32_t)
    {
        asm volatile("add.rn.f32 %0, %0, 0f33D6BF95;" : "+r"(v));
    }
};
template <> struct Step<IMAD> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t k, uint32_t)
    {
        asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(v) : "r"(k));
    }
};
template <> struct Step<IADD> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t k, uint32_t)
    {
        asm volatile("add.u32 %0, %0, %1;" : "+r"(v) : "r"(k));
    }
};
template <> struct Step<IADDI> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t, uint32_t)
    {
        asm volatile("add.u32 %0, %0, 1024;" : "+r"(v));
    }
};
template <> struct Step<LOP3> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t k, uint32_t j)
    {
        asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(v) : "r"(k), "r"(j));
    }
};
template <> struct Step<SHF> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t k, uint32_t)
    {
        asm volatile("shf.l.wrap.b32 %0, %0, %0, %1;" : "+r"(v) : "r"(k));
    }
};

// Two-instruction steps: an add of an immediate (for which sm_90's ptxas
// writes VIADD; a chain of them alone it folds into one add) or of a
// register (IADD3), then an op that stops the folding.  Which pipe VIADD
// issues to shows in how fast each pair runs against the others.
template <> struct Step<AI_LOP3> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t k, uint32_t j)
    {
        asm volatile("add.u32 %0, %0, 1024;\n\tlop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(v) : "r"(k), "r"(j));
    }
};
template <> struct Step<AR_LOP3> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t k, uint32_t j)
    {
        asm volatile("add.u32 %0, %0, %1;\n\tlop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(v) : "r"(k), "r"(j));
    }
};
template <> struct Step<AI_FFMA> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t, uint32_t)
    {
        asm volatile("add.u32 %0, %0, 1024;\n\tfma.rn.f32 %0, %0, 0f3F800001, 0f33D6BF95;" : "+r"(v));
    }
};
template <> struct Step<AI_IMAD> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t k, uint32_t)
    {
        asm volatile("add.u32 %0, %0, 1024;\n\tmad.lo.u32 %0, %0, %1, %1;" : "+r"(v) : "r"(k));
    }
};

// IMAD reading three registers (E16's int_kernel's IMADs do; `imad` reads
// two, its multiplier and addend being one register).
template <> struct Step<IMAD3> {
    static __device__ __forceinline__ void f(uint32_t &v, uint32_t k, uint32_t j)
    {
        asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(v) : "r"(k), "r"(j));
    }
};

// E16's int_kernel loop (cap_power.cu) in this harness: its four coupled
// chains, 6 PTX ops a step (2 IMAD + 2 IADD3 in SASS).
// The trip count is CHAIN * 2 unless magic is 12345 (it never is), so ptxas
// cannot count it, as it cannot cap_power's run-time `iters` (pipes_k2;
// pipes_k1 ran this loop with the bound the constant CHAIN * 2, which ptxas
// compiled otherwise: validation/h100/README.md, "E29").
__global__ void intk(uint64_t *cycles, uint32_t *sms, uint32_t *sink, uint32_t magic)
{
    uint32_t k = magic;
    uint32_t a0 = threadIdx.x, a1 = threadIdx.x ^ k, a2 = threadIdx.x * 3u, a3 = threadIdx.x * 5u;
    int iters = CHAIN * 2;
    if (magic == 12345u)
        iters = (int)magic;
    __syncthreads();
    uint64_t c0 = clock64();
#pragma unroll 8
    for (int i = 0; i < iters; i++) {
        int_step(a0, a1, a2, a3, k);
    }
    __syncthreads();
    uint64_t c1 = clock64();
    if ((a0 ^ a1 ^ a2 ^ a3) == k)
        sink[threadIdx.x] = a0;
    if (threadIdx.x == 0) {
        cycles[blockIdx.x] = c1 - c0;
        sms[blockIdx.x] = smid();
    }
}

template <int A, int B>
__global__ void pair(uint64_t *cycles, uint32_t *sms, uint32_t *sink, uint32_t magic)
{
    const int WA = B == NONE ? 8 : 4;
    uint32_t a[8], b[4];
    for (int w = 0; w < 8; w++)
        a[w] = magic ^ (threadIdx.x * 2654435761u + w);
    for (int w = 0; w < 4; w++)
        b[w] = magic ^ (threadIdx.x * 2246822519u + w);
    uint32_t k = magic | 1u, j = magic * 3u;
    __syncthreads();
    uint64_t c0 = clock64();
    for (int i = 0; i < CHAIN / 16; i++) {
#pragma unroll
        for (int u = 0; u < 16; u++) {
#pragma unroll
            for (int w = 0; w < WA; w++)
                Step<A>::f(a[w], k, j);
            if (B != NONE) {
#pragma unroll
                for (int w = 0; w < 4; w++)
                    Step<B>::f(b[w], k, j);
            }
        }
    }
    __syncthreads();
    uint64_t c1 = clock64();
    uint32_t h = 0;
    for (int w = 0; w < 8; w++)
        h ^= a[w];
    for (int w = 0; w < 4; w++)
        h ^= b[w];
    if (h == magic)
        sink[threadIdx.x] = h;
    if (threadIdx.x == 0) {
        cycles[blockIdx.x] = c1 - c0;
        sms[blockIdx.x] = smid();
    }
}

typedef void (*kfn)(uint64_t *, uint32_t *, uint32_t *, uint32_t);
struct K {
    int a, b;
    kfn f;
    int grid = 132, block = 1024;   // one CTA of 32 warps an SM, or E16's 1056 x 256
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_pipes DIR [REPS [OPS]]\n");
        return 2;
    }
    std::string dir = argv[1];
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_pipes");
    FILE *f = cap_open(dir, "pipes.csv", "kernel,a,b,rep,cta,sm,cycles");
    const K ks[] = {
        {FFMA, NONE, pair<FFMA, NONE>},  {FADD, NONE, pair<FADD, NONE>},  {IMAD, NONE, pair<IMAD, NONE>},
        {IADD, NONE, pair<IADD, NONE>},  {IADDI, NONE, pair<IADDI, NONE>}, {LOP3, NONE, pair<LOP3, NONE>},
        {SHF, NONE, pair<SHF, NONE>},    {IMAD, IADD, pair<IMAD, IADD>},  {IMAD, LOP3, pair<IMAD, LOP3>},
        {IMAD, SHF, pair<IMAD, SHF>},    {IMAD, IADDI, pair<IMAD, IADDI>}, {IADDI, LOP3, pair<IADDI, LOP3>},
        {IADD, LOP3, pair<IADD, LOP3>},  {FFMA, IMAD, pair<FFMA, IMAD>},  {FFMA, IADD, pair<FFMA, IADD>},
        {FFMA, LOP3, pair<FFMA, LOP3>},  {FFMA, IADDI, pair<FFMA, IADDI>}, {FADD, IMAD, pair<FADD, IMAD>},
        {FADD, LOP3, pair<FADD, LOP3>},  {FFMA, FADD, pair<FFMA, FADD>},
        {AI_LOP3, NONE, pair<AI_LOP3, NONE>}, {AR_LOP3, NONE, pair<AR_LOP3, NONE>},
        {AI_FFMA, NONE, pair<AI_FFMA, NONE>}, {AI_IMAD, NONE, pair<AI_IMAD, NONE>},
        {AI_LOP3, FFMA, pair<AI_LOP3, FFMA>}, {AI_LOP3, IMAD, pair<AI_LOP3, IMAD>},
        {IMAD3, NONE, pair<IMAD3, NONE>},    {IMAD3, LOP3, pair<IMAD3, LOP3>},
        {IMAD3, IADD, pair<IMAD3, IADD>},    {NOPS, NONE, intk},
        {NOPS, FFMA, intk, 1056, 256},
    };
    const char *only = argc > 3 ? argv[3] : NULL;
    uint64_t *dc;
    uint32_t *ds, *dsink;
    CK(cudaMalloc(&dc, 8 * 1056));
    CK(cudaMalloc(&ds, 4 * 1056));
    CK(cudaMalloc(&dsink, 4 * 1024));
    uint32_t magic = 0x9e3779b9u ^ (uint32_t)argc;
    for (const K &k : ks) {
        // {NOPS, FFMA}: int_kernel at E16's 1056 x 256 (b names nothing here)
        const char *an = k.a != NOPS ? op_name[k.a] : k.b == FFMA ? "int_kernel_1056x256" : "int_kernel";
        const char *bn = k.a != NOPS ? op_name[k.b] : "none";
        if (only && !listed(only, an))
            continue;
        std::vector<double> med;
        for (int r = 0; r <= reps; r++) {   // rep 0: warm-up, not written
            k.f<<<k.grid, k.block>>>(dc, ds, dsink, magic);
            CK(cudaDeviceSynchronize());
            CK(cudaGetLastError());
            std::vector<uint64_t> c(k.grid);
            std::vector<uint32_t> s(k.grid);
            CK(cudaMemcpy(c.data(), dc, 8 * k.grid, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(s.data(), ds, 4 * k.grid, cudaMemcpyDeviceToHost));
            if (r == 0)
                continue;
            std::vector<double> v;
            for (int i = 0; i < k.grid; i++) {
                std::fprintf(f, "pair<%s;%s>,%s,%s,%d,%d,%u,%llu\n", an, bn, an, bn, r, i, s[i],
                             (unsigned long long)c[i]);
                v.push_back((double)c[i]);
            }
            med.push_back(median_d(v));
        }
        std::printf("%-6s + %-6s  median cycles %.0f (reps %d)\n", an, bn, median_d(med), reps);
        std::fflush(stdout);
    }
    std::fclose(f);
    cap_end(cap);
    return 0;
}
