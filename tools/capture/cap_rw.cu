// cap_rw: E21. HBM and L2 bandwidth by read/write mix (issue 10).
// Grid-stride float4 kernels, 1056 x 256 threads (E11's stream shape), on
// arrays of N bytes each, N = 4, 16, 64, 256 MiB and 1 GiB:
//   read   s += a[i]                    (1 array read; a sum written per thread)
//   write  a[i] = k                     (1 array written)
//   copy   b[i] = a[i]                  (1 read, 1 written)
//   add    c[i] = a[i] + b[i]           (2 read, 1 written: E11's add)
//   triad  d[i] = a[i] + b[i] + c[i]    (3 read, 1 written)
//   add1   c = a + b with 4-byte floats (E11's add_kernel without its
//          per-CTA records): the same bytes in four times the requests
// Each timed with CUDA events, median of 7 launches after 2 warm-ups; GB/s
// counts every array byte read and written once.
// -> stdout and DIR/rw.csv.  Build: nvcc -O3 -arch=sm_90 -o cap_rw cap_rw.cu
#include "cap.h"

#include "rw_kernels.h"

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const int G = 1056, B = 256;
    const size_t maxb = 1ull << 30;
    float4 *a, *b, *c, *d;
    float *out;
    CK(cudaMalloc(&a, maxb));
    CK(cudaMalloc(&b, maxb));
    CK(cudaMalloc(&c, maxb));
    CK(cudaMalloc(&d, maxb));
    CK(cudaMalloc(&out, G * B * sizeof(float)));
    CK(cudaMemset(a, 0x3c, maxb));   // small finite floats, not zeros
    CK(cudaMemset(b, 0x3d, maxb));
    CK(cudaMemset(c, 0x3e, maxb));
    FILE *f = open_table(dir, "rw.csv", "kernel,bytes_per_array,arrays_read,arrays_written,median_us,gbps");
    const char *names[] = {"read", "write", "copy", "add", "triad", "add1"};
    const int rd[] = {1, 0, 1, 2, 3, 2}, wr[] = {0, 1, 1, 1, 1, 1};
    for (size_t mib : {4, 16, 64, 256, 1024}) {
        size_t bytes = mib << 20, n = bytes / 16;
        for (int k = 0; k < 6; k++) {
            double us = median_launch_us(7, 2, [] {}, [&] {
                switch (k) {
                case 0: k_read<<<G, B>>>(a, n, out); break;
                case 1: k_write<<<G, B>>>(d, n, 1.5f); break;
                case 2: k_copy<<<G, B>>>(a, d, n); break;
                case 3: k_add<<<G, B>>>(a, b, d, n); break;
                case 4: k_triad<<<G, B>>>(a, b, c, d, n); break;
                case 5: k_add1<<<G, B>>>((const float *)a, (const float *)b, (float *)d, bytes / 4); break;
                }
            });
            double gb = (double)bytes * (rd[k] + wr[k]) / (us * 1e3);
            std::fprintf(f, "%s,%zu,%d,%d,%.2f,%.1f\n", names[k], bytes, rd[k], wr[k], us, gb);
            std::printf("%-5s %5zu MiB/array: %9.2f us  %7.1f GB/s\n", names[k], mib, us, gb);
            std::fflush(stdout);
        }
    }
    std::fclose(f);
    return 0;
}
