// cap_l2keep: E21d. Does the L2 keep an array from one launch to the next?
// E21c's ncu counters (validation/h200 README) showed a float4 read of 4 or
// 16 MiB, repeated, reading every byte from DRAM each launch; this asks
// the same without a profiler.  cap_rw.cu's k_read (1056 x 256 threads,
// grid-stride float4 sum) over N = 4, 16, 32 MiB, timed with CUDA events,
// median of 7 reps, each rep one of:
//   warm   after the same read (E21's order)
//   flush  after a read of a separate 512 MiB array (evicts the L2)
//   write  after k_write over the same N bytes (the lines dirty in L2)
// -> stdout and DIR/l2keep.csv.  Build: nvcc -O3 -arch=sm_90 -o cap_l2keep cap_l2keep.cu
#include "cap.h"

#include "rw_kernels.h"

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const int G = 1056, B = 256;
    const size_t big = 512ull << 20;
    float4 *a, *f;
    float *out;
    CK(cudaMalloc(&a, 32ull << 20));
    CK(cudaMalloc(&f, big));
    CK(cudaMalloc(&out, G * B * sizeof(float)));
    CK(cudaMemset(a, 0x3c, 32ull << 20));
    CK(cudaMemset(f, 0x3d, big));
    FILE *fo = open_table(dir, "l2keep.csv", "bytes,before,median_us,gbps");
    const char *modes[] = {"warm", "flush", "write"};
    for (size_t mib : {4, 16, 32}) {
        size_t bytes = mib << 20, n = bytes / 16;
        for (int m = 0; m < 3; m++) {
            double us = median_launch_us(
                7, 2,
                [&] {
                    if (m == 0) k_read<<<G, B>>>(a, n, out);
                    if (m == 1) k_read<<<G, B>>>(f, big / 16, out);
                    if (m == 2) k_write<<<G, B>>>(a, n, 1.5f);
                },
                [&] { k_read<<<G, B>>>(a, n, out); });
            double gb = (double)bytes / (us * 1e3);
            std::fprintf(fo, "%zu,%s,%.2f,%.1f\n", bytes, modes[m], us, gb);
            std::printf("read %2zu MiB after %-5s: %7.2f us  %7.1f GB/s\n", mib, modes[m], us, gb);
        }
    }
    std::fclose(fo);
    return 0;
}
