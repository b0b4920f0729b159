// cap_l1: what shapes the L1 chase curve (issue 10), experiment E19.
//
// E11's ld.ca chase rises gradually from 32 KiB (47.6 cycles a hop at
// 16 KiB, 55 at 32, 71 at 64, 102 at 128, 246 at 256 KiB) instead of
// stepping at one capacity.  This program separates the candidate causes:
//
//  order     random cycle (full-period LCG over the lines, as E11) against a
//            sequential cycle (line i -> i+1): with LRU and a plain set
//            index a sequential cycle hits fully up to the capacity and
//            misses fully past it; a gradual rise in both points to capacity
//            shared with something else, one in random order only to the set
//            index or replacement.
//  carveout  the kernel's preferred shared-memory carve-out (the driver's
//            default, 0 % = largest L1, 100 % = largest shared memory)
//            through cudaFuncAttributePreferredSharedMemoryCarveout.
//  stride    lines 128 B apart (one sector per line used) against 32 B apart
//            (every sector of each line used; `sector` order).
//
// Each point: one warm pass over the cycle (max(lines, 4096) hops), then
// 4096 timed hops; cycles per hop by clock64.  -> DIR/l1.csv
//
// Build: nvcc -O3 -arch=sm_90 -o cap_l1 cap_l1.cu
// Usage: cap_l1 DIR
#include "cap.h"

// a[i*step] holds the next element index of the cycle over n elements.
__global__ void fill_kernel(uint32_t *a, uint32_t n, uint32_t step, int random)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[(size_t)i * step] = (random ? 1664525u * i + 1013904223u : i + 1) & (n - 1);   // Hull-Dobell
}

__global__ void chase_ca(const uint32_t *a, uint32_t step, int hops, uint64_t *out, uint32_t *sink)
{
    uint32_t j = 0;
    uint64_t c0 = clock64();
    for (int i = 0; i < hops; i++)
        j = __ldca(&a[(size_t)j * step]);
    sink[0] = j;
    uint64_t c1 = clock64();
    out[0] = c1 - c0;
    out[1] = smid();
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_l1 DIR\n");
        return 2;
    }
    std::string dir = argv[1];
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_l1");
    uint32_t *buf, *sink;
    uint64_t *dout;
    const size_t MB = 1ull << 20;
    CK(cudaMalloc(&buf, 64 * MB));
    CK(cudaMemset(buf, 0, 64 * MB));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMalloc(&dout, 64));
    FILE *f = cap_open(dir, "l1.csv", "bytes,order,elem_bytes,carveout,hops,cycles_per_hop");
    const int carve[] = {-1, 0, 100};
    const struct {
        const char *name;
        int random;
        uint32_t step;   // in uint32 words: 32 = 128 B, 8 = 32 B
    } orders[] = {{"random", 1, 32}, {"sequential", 0, 32}, {"random_sector", 1, 8}};
    std::printf("%-14s %8s", "order/carve", "KiB:");
    for (size_t kb = 8; kb <= 512; kb *= 2)
        std::printf(" %6zu", kb);
    std::printf("\n");
    for (int cv : carve) {
        CK(cudaFuncSetAttribute(chase_ca, cudaFuncAttributePreferredSharedMemoryCarveout, cv));
        for (const auto &o : orders) {
            std::printf("%-10s %3d %8s", o.name, cv, "");
            for (size_t kb = 8; kb <= 512; kb *= 2) {
                size_t bytes = kb * 1024;
                uint32_t n = (uint32_t)(bytes / (o.step * 4));
                fill_kernel<<<(n + 255) / 256, 256>>>(buf, n, o.step, o.random);
                CK(cudaGetLastError());
                int warm = (int)std::max<uint32_t>(n, 4096), hops = 4096;
                chase_ca<<<1, 1>>>(buf, o.step, warm, dout, sink);
                CK(cudaGetLastError());
                chase_ca<<<1, 1>>>(buf, o.step, hops, dout, sink);
                CK(cudaGetLastError());
                uint64_t r[2];
                CK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
                double cph = (double)r[0] / hops;
                std::fprintf(f, "%zu,%s,%u,%d,%d,%.2f\n", bytes, o.name, o.step * 4, cv, hops, cph);
                std::printf(" %6.1f", cph);
            }
            std::printf("\n");
            std::fflush(stdout);
        }
    }
    std::fclose(f);
    cap_end(cap);
    return 0;
}
