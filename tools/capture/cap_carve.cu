// cap_carve: E20c. Which L1/shared-memory carve-out a launch gets (issue 10).
// The same one-thread ld.global.ca random-cycle chase as cap_l1rep (E20b: 2
// warm passes, 4096 timed hops) over 192-288 KiB, launched
//   grid=1              one CTA of one thread (E11's chase)
//   grid=G              G CTAs of one thread; only CTA 0 chases, the rest
//                       exit at once (does the grid size change the L1?)
//   carve=0 / carve=100 cudaFuncAttributePreferredSharedMemoryCarveout: the
//                       largest L1 / the largest shared memory
//   smem=S              S bytes of dynamic shared memory per CTA (reserved, unused)
// -> stdout and DIR/carve.csv.  Run under `ncu --clock-control none
// --metrics launch__shared_mem_config_size,launch__grid_size` to read the
// configuration each launch got.  Build: nvcc -O3 -arch=sm_90 -o cap_carve cap_carve.cu
#include "cap.h"

__global__ void fill(uint32_t *a, const uint32_t *next, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[(size_t)i * 32] = next[i];
}

__global__ void chase(const uint32_t *a, int warm, int hops, uint64_t *out, uint32_t *sink)
{
    if (blockIdx.x != 0)
        return;
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

static uint64_t rng;
static std::vector<uint32_t> cycle(uint32_t n)
{
    std::vector<uint32_t> perm(n);
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) {      // Sattolo: a single cycle
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        std::swap(perm[i], perm[(uint32_t)((rng >> 33) % i)]);
    }
    return perm;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    uint32_t *buf, *sink, *dnext;
    uint64_t *dout;
    CK(cudaMalloc(&buf, 64u << 20));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMalloc(&dout, 64));
    CK(cudaMalloc(&dnext, 16384 * 4));
    std::string path = std::string(dir) + "/carve.csv";
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) { std::perror(path.c_str()); return 1; }
    std::fprintf(f, "kib,grid,carve,smem_bytes,cycles_per_hop,sm\n");
    auto run = [&](int kib, int grid, int carve, int smem) {
        uint32_t n = (uint32_t)kib * 8;
        rng = 12345;
        std::vector<uint32_t> nx = cycle(n);
        CK(cudaMemcpy(dnext, nx.data(), n * 4, cudaMemcpyHostToDevice));
        fill<<<(n + 255) / 256, 256>>>(buf, dnext, n);
        CK(cudaGetLastError());
        // -1: leave the attribute as the driver has it (never set before)
        if (carve >= 0)
            CK(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout, carve));
        if (smem > 48 * 1024)
            CK(cudaFuncSetAttribute(chase, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        uint64_t r[2];
        chase<<<grid, 1, smem>>>(buf, 2 * (int)n, 4096, dout, sink);
        CK(cudaGetLastError());
        CK(cudaMemcpy(r, dout, 16, cudaMemcpyDeviceToHost));
        std::fprintf(f, "%d,%d,%d,%d,%.1f,%llu\n", kib, grid, carve, smem, r[0] / 4096.0, (unsigned long long)r[1]);
        std::printf("kib %3d grid %5d carve %4d smem %6d: %6.1f cyc/hop (sm %llu)\n", kib, grid, carve, smem,
                    r[0] / 4096.0, (unsigned long long)r[1]);
        std::fflush(stdout);
    };
    const int kibs[] = {192, 224, 240, 256, 288};
    // the default first, before any attribute is set on the kernel
    for (int kb : kibs)
        run(kb, 1, -1, 0);
    for (int kb : kibs)
        run(kb, 1056, -1, 0);
    for (int kb : kibs)
        run(kb, 4224, -1, 0);
    for (int kb : kibs)
        run(kb, 1, -1, 1024);
    for (int kb : kibs)
        run(kb, 1, 0, 0);
    for (int kb : kibs)
        run(kb, 4224, 0, 0);
    for (int kb : kibs)
        run(kb, 1, 100, 0);
    std::fclose(f);
    return 0;
}
