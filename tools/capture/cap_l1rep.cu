// cap_l1rep: E20b. What the L1 keeps past ~208 KiB (issue 10), warmed in the
// timed launch (E19b).  One thread, ld.global.ca chase over 128-byte lines:
//  passes   sequential and random (Sattolo) cycles of 224-288 KiB, timed
//           after 1, 2, 4, 8 and 16 warm passes: does the hit rate settle
//           (LRU-like, fixed) or keep growing (random-like replacement)?
//  seeds    random cycles of 256 KiB from 6 seeds: spread between cycles
//  stride   lines 256 B and 512 B apart (every 2nd / 4th line), as many
//           lines as 160-320 KiB of contiguous ones: with sets indexed by
//           the low line bits they use 1/2 or 1/4 of the sets
// -> stdout and DIR/l1rep.csv.  Build: nvcc -O3 -arch=sm_90 -o cap_l1rep cap_l1rep.cu
#include "cap.h"

__global__ void fill(uint32_t *a, const uint32_t *next, uint32_t n, uint32_t step)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[(size_t)i * step] = next[i];
}

__global__ void chase(const uint32_t *a, uint32_t step, int warm, int hops, uint64_t *out, uint32_t *sink)
{
    uint32_t j = 0;
    for (int i = 0; i < warm; i++)
        j = __ldca(&a[(size_t)j * step]);
    uint64_t c0 = clock64();
    for (int i = 0; i < hops; i++)
        j = __ldca(&a[(size_t)j * step]);
    sink[0] = j;
    uint64_t c1 = clock64();
    out[0] = c1 - c0;
    out[1] = smid();
}

static uint64_t rng;
static std::vector<uint32_t> cycle(uint32_t n, bool random)
{
    std::vector<uint32_t> perm(n), nx(n);
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    if (!random) {
        for (uint32_t i = 0; i < n; i++)
            nx[i] = (i + 1) % n;
        return nx;
    }
    for (uint32_t i = n - 1; i > 0; i--) {      // Sattolo: a single cycle
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        std::swap(perm[i], perm[(uint32_t)((rng >> 33) % i)]);
    }
    for (uint32_t i = 0; i < n; i++)
        nx[i] = perm[i];
    return nx;
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
    std::string path = std::string(dir) + "/l1rep.csv";
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) { std::perror(path.c_str()); return 1; }
    std::fprintf(f, "test,order,line_step,lines,kib_of_lines,warm_passes,seed,cycles_per_hop,sm\n");
    auto run = [&](const char *test, bool random, uint32_t step_lines, uint32_t n, int passes, int seed) {
        std::vector<uint32_t> nx = cycle(n, random);
        CK(cudaMemcpy(dnext, nx.data(), n * 4, cudaMemcpyHostToDevice));
        fill<<<(n + 255) / 256, 256>>>(buf, dnext, n, 32 * step_lines);
        CK(cudaGetLastError());
        uint64_t r[2];
        chase<<<1, 1>>>(buf, 32 * step_lines, passes * (int)n, 4096, dout, sink);
        CK(cudaMemcpy(r, dout, 16, cudaMemcpyDeviceToHost));
        std::fprintf(f, "%s,%s,%u,%u,%u,%d,%d,%.1f,%llu\n", test, random ? "random" : "sequential", step_lines, n,
                     n * 128 / 1024, passes, seed, r[0] / 4096.0, (unsigned long long)r[1]);
        std::printf("%-6s %-10s step %u lines %5u (%3u KiB) warm %2d seed %d: %.1f cyc (sm %llu)\n", test,
                    random ? "random" : "sequential", step_lines, n, n * 128 / 1024, passes, seed, r[0] / 4096.0,
                    (unsigned long long)r[1]);
    };
    const int kibs[] = {224, 240, 256, 272, 288};
    const int passes[] = {1, 2, 4, 8, 16};
    for (int random = 0; random < 2; random++)
        for (int kb : kibs)
            for (int p : passes) {
                rng = 12345;
                run("passes", random, 1, kb * 8, p, 0);
            }
    for (int seed = 1; seed <= 6; seed++) {
        rng = 0x9e3779b97f4a7c15ull * seed;
        run("seeds", true, 1, 2048, 2, seed);
    }
    for (uint32_t step : {2u, 4u})
        for (int random = 0; random < 2; random++)
            for (int kb = 64; kb <= 320; kb += 32) {
                rng = 12345;
                run("stride", random, step, kb * 8, 2, 0);
            }
    std::fclose(f);
    return 0;
}
