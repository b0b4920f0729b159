// cap_tlb: E20. Address translation on the H200 (issue 10 part 3: "model a
// translation cost for large working sets only if you measure one"), and the
// L1's capacity and replacement warmed inside one launch.
//
// (a) tlb: one thread chases a random cycle (full-period LCG) over n elements
//     placed `stride` bytes apart, each at a line offset inside its stride
//     slot that varies with the element (so that the lines spread over L2
//     sets and slices instead of piling on one).  ld.global.cg: every hop
//     goes to the L2; n <= 16384 lines (2 MiB of lines) stay L2-resident
//     after the warm walk, so latency above the L2 hit is translation.
//     Strides 4 KiB, 64 KiB and 2 MiB; n = 16 .. 16384.  One warm walk of
//     max(n, 4096) hops, then 4096 timed hops, in the same launch.
// (b) l1: ld.global.ca chase over 128-byte lines, random or sequential
//     cycle, 160-320 KiB, warmed in the same launch (E19b showed the L1 is
//     emptied at every kernel boundary), default carve-out.
// -> stdout and DIR/tlb.csv, DIR/l1cap.csv
// Build: nvcc -O3 -arch=sm_90 -o cap_tlb cap_tlb.cu
// Usage: cap_tlb DIR
#include "cap.h"

// element i's 128-byte line: its stride slot, at line (i * 97) mod slot_lines within it
static __device__ __forceinline__ uint32_t elem_line(uint32_t i, uint32_t slot_lines)
{
    return i * slot_lines + (i * 97u) % slot_lines;
}

// a[line * 32] holds the line of the next element (lines < 2^32: 34 GiB / 128 B)
__global__ void fill_tlb(uint32_t *a, uint32_t n, uint32_t slot_lines)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uint32_t nx = (1664525u * i + 1013904223u) & (n - 1);
        a[(uint64_t)elem_line(i, slot_lines) * 32] = elem_line(nx, slot_lines);
    }
}

// the hop is E11's chase (j = a[j * 32]), so cycles compare with its 288-cycle L2 hit
__global__ void chase_tlb(const uint32_t *a, uint32_t first, int warm, int hops, uint64_t *out, uint32_t *sink)
{
    uint32_t j = first;
    for (int i = 0; i < warm; i++)
        j = __ldcg(&a[(uint64_t)j * 32]);
    uint64_t c0 = clock64();
    for (int i = 0; i < hops; i++)
        j = __ldcg(&a[(uint64_t)j * 32]);
    sink[0] = j;
    uint64_t c1 = clock64();
    out[0] = c1 - c0;
    out[1] = smid();
}

// a[i * 32] = next[i] for a cycle built on the host
__global__ void fill_l1(uint32_t *a, const uint32_t *next, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[(size_t)i * 32] = next[i];
}

__global__ void chase_l1(const uint32_t *a, int warm, int hops, uint64_t *out, uint32_t *sink)
{
    uint32_t j = 0;
    for (int i = 0; i < warm; i++)
        j = __ldca(&a[(size_t)j * 32]);
    uint64_t c0 = clock64();
    for (int i = 0; i < hops; i++)
        j = __ldca(&a[(size_t)j * 32]);
    sink[0] = j;
    uint64_t c1 = clock64();
    out[0] = c1 - c0;
    out[1] = smid();
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    uint32_t *buf, *sink;
    uint64_t *dout;
    const uint64_t GB = 1ull << 30;
    const uint64_t total = 34 * GB;
    CK(cudaMalloc(&buf, total));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMalloc(&dout, 64));
    std::string p1 = std::string(dir) + "/tlb.csv", p2 = std::string(dir) + "/l1cap.csv";
    FILE *f = std::fopen(p1.c_str(), "w"), *g = std::fopen(p2.c_str(), "w");
    if (!f || !g) { std::perror("open"); return 1; }
    std::fprintf(f, "stride_bytes,n,span_bytes,cycles_per_hop,sm\n");
    const uint64_t strides[] = {4096, 65536, 2ull << 20, 32ull << 20};
    for (uint64_t s : strides) {
        uint32_t slot_lines = (uint32_t)(s / 128);
        for (uint32_t n = 16; n <= 16384; n *= 2) {
            if ((uint64_t)n * s > total) break;
            if (s == (32ull << 20) && n > 1024) break;
            fill_tlb<<<(n + 255) / 256, 256>>>(buf, n, slot_lines);
            CK(cudaGetLastError());
            int warm = n > 4096 ? (int)n : 4096;
            uint64_t r[2];
            for (int rep = 0; rep < 2; rep++) {
                chase_tlb<<<1, 1>>>(buf, 0, warm, 4096, dout, sink);
                CK(cudaMemcpy(r, dout, 16, cudaMemcpyDeviceToHost));
                std::fprintf(f, "%llu,%u,%llu,%.1f,%llu\n", (unsigned long long)s, n,
                             (unsigned long long)((uint64_t)n * s), r[0] / 4096.0, (unsigned long long)r[1]);
                std::printf("tlb stride %8llu n %6u span %12llu: %.1f cyc (sm %llu)\n", (unsigned long long)s, n,
                            (unsigned long long)((uint64_t)n * s), r[0] / 4096.0, (unsigned long long)r[1]);
            }
        }
    }
    std::fprintf(g, "order,kib,cycles_per_hop,sm\n");
    uint32_t *dnext;
    CK(cudaMalloc(&dnext, 4096 * sizeof(uint32_t)));
    const char *orders[] = {"sequential", "random", "lcg"};
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (int o = 0; o < 3; o++)
        for (int kb = 160; kb <= 320; kb += 16) {
            uint32_t n = kb * 1024 / 128;
            if (o == 2 && (n & (n - 1)))
                continue;                      // E11's LCG is full-period for powers of two only
            std::vector<uint32_t> nx(n), perm(n);
            for (uint32_t i = 0; i < n; i++)
                perm[i] = i;
            if (o == 1)                        // Sattolo: one random cycle through all n lines
                for (uint32_t i = n - 1; i > 0; i--) {
                    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                    uint32_t k = (uint32_t)((rng >> 33) % i);
                    std::swap(perm[i], perm[k]);
                }
            for (uint32_t i = 0; i < n; i++)
                nx[i] = o == 0 ? (i + 1) % n : o == 1 ? perm[i] : (1664525u * i + 1013904223u) & (n - 1);
            CK(cudaMemcpy(dnext, nx.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
            fill_l1<<<(n + 255) / 256, 256>>>(buf, dnext, n);
            CK(cudaGetLastError());
            uint64_t r[2];
            chase_l1<<<1, 1>>>(buf, 2 * (int)n, 4096, dout, sink);
            CK(cudaMemcpy(r, dout, 16, cudaMemcpyDeviceToHost));
            std::fprintf(g, "%s,%d,%.1f,%llu\n", orders[o], kb, r[0] / 4096.0, (unsigned long long)r[1]);
            std::printf("l1 %s %d KiB: %.1f cyc (sm %llu)\n", orders[o], kb, r[0] / 4096.0,
                        (unsigned long long)r[1]);
        }
    std::fclose(f);
    std::fclose(g);
    return 0;
}
