// cap_inflight: E22. How many bytes can one SM keep in flight?  One CTA
// (so one SM) runs cap_rw's grid-stride float4 read or write (rw_kernels.h
// k_read / k_write, here with the SM id of the CTA recorded) over N bytes,
// with 32 .. 1024 threads.  By Little's law the bandwidth one SM reaches
// is the bytes it has in flight over the round trip: as threads are added
// it rises until the SM's request entries (loads: the L1's miss entries;
// stores: the entries a store holds until the L2 took it) or its issue
// rate cap it.  Two working sets: 256 MiB (from HBM) and 4 MiB (L2
// resident, read once before each timed launch).  CUDA events, median of
// 7 reps after 2 untimed.  Then the same kernels over 256 MiB on 1 .. 132
// CTAs of 1024 threads (one a SM while they fit: the per-SM rate as SMs
// are added, until the L2 or HBM limits the chip).
// -> stdout and DIR/inflight.csv, DIR/inflight_scale.csv.
// `cap_inflight DIR add` instead: one CTA of 32-1024 threads running the
// scalar c = a + b (k_add1) and the float4 one (k_add) over three arrays
// of 16 MiB (L2 resident after a 132 x 1024 warm-up of the same kernel) or
// 256 MiB -> DIR/inflight_add.csv.  Build: nvcc -O3 -arch=sm_90 -o cap_inflight cap_inflight.cu
#include "cap.h"

#include "rw_kernels.h"

__global__ void k_read_id(const float4 *a, size_t n, float *out, uint32_t *sm)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *sm = smid();
    float s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = a[i];
        s += v.x + v.y + v.z + v.w;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void k_write_id(float4 *a, size_t n, float k, uint32_t *sm)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *sm = smid();
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        a[i] = make_float4(k, k, k, k);
}

static int add_table(const char *dir)
{
    const size_t big = 256ull << 20;
    float4 *a, *b, *c;
    CK(cudaMalloc(&a, big));
    CK(cudaMalloc(&b, big));
    CK(cudaMalloc(&c, big));
    CK(cudaMemset(a, 0x3c, big));
    CK(cudaMemset(b, 0x3d, big));
    CK(cudaMemset(c, 0, big));
    FILE *fo = open_table(dir, "inflight_add.csv", "mode,bytes,ctas,threads,median_us,gbps");
    for (int elem : {4, 16}) {
        for (size_t bytes : {(size_t)16 << 20, big}) {
            for (int threads : {32, 64, 128, 256, 512, 1024}) {
                size_t n = bytes / elem;
                auto add = [&](int g, int th) {
                    if (elem == 4)
                        k_add1<<<g, th>>>((const float *)a, (const float *)b, (float *)c, n);
                    else
                        k_add<<<g, th>>>(a, b, c, n);
                };
                // L2 resident: the same kernel on the whole chip first
                double us = median_launch_us(7, 2, [&] { if (bytes < big) add(132, 1024); },
                                             [&] { add(1, threads); });
                double gb = 3.0 * (double)bytes / (us * 1e3);
                const char *mode = elem == 4 ? "add1" : "add";
                std::fprintf(fo, "%s,%zu,1,%d,%.2f,%.2f\n", mode, bytes, threads, us, gb);
                std::printf("%-4s 3 x %3zu MiB  1 CTA x %4d threads: %10.2f us  %7.2f GB/s (3 arrays)\n", mode,
                            bytes >> 20, threads, us, gb);
            }
        }
    }
    std::fclose(fo);
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    if (argc > 2 && std::strcmp(argv[2], "add") == 0)
        return add_table(dir);
    const size_t big = 256ull << 20;
    float4 *a;
    float *out;
    uint32_t *dsm;
    CK(cudaMalloc(&a, big));
    CK(cudaMalloc(&out, 132 * 1024 * sizeof(float)));
    CK(cudaMalloc(&dsm, sizeof(uint32_t)));
    CK(cudaMemset(a, 0x3c, big));
    // the timed kernel: mode m (read, write) on g CTAs of th threads
    auto rw_id = [&](int m, int g, int th, size_t n) {
        if (m == 0)
            k_read_id<<<g, th>>>(a, n, out, dsm);
        else
            k_write_id<<<g, th>>>(a, n, 1.5f, dsm);
    };
    FILE *fo = open_table(dir, "inflight.csv", "mode,bytes,ctas,threads,sm,median_us,gbps");
    const char *modes[] = {"read", "write"};
    for (int m = 0; m < 2; m++) {
        for (size_t bytes : {big, (size_t)4 << 20}) {
            size_t n = bytes / 16;
            for (int threads : {32, 64, 128, 256, 512, 1024}) {
                uint32_t sm = 0;
                // L2 resident: bring it in first
                double us = median_launch_us(7, 2, [&] { if (bytes < big) k_read<<<132, 1024>>>(a, n, out); },
                                             [&] { rw_id(m, 1, threads, n); });
                CK(cudaMemcpy(&sm, dsm, sizeof sm, cudaMemcpyDeviceToHost));
                double gb = (double)bytes / (us * 1e3);
                std::fprintf(fo, "%s,%zu,1,%d,%u,%.2f,%.2f\n", modes[m], bytes, threads, sm, us, gb);
                std::printf("%-5s %3zu MiB  1 CTA x %4d threads (SM %3u): %10.2f us  %7.2f GB/s\n", modes[m],
                            bytes >> 20, threads, sm, us, gb);
            }
        }
    }
    std::fclose(fo);

    fo = open_table(dir, "inflight_scale.csv", "mode,bytes,ctas,threads,median_us,gbps,gbps_per_cta");
    for (int m = 0; m < 2; m++) {
        for (int g : {1, 2, 4, 8, 16, 33, 66, 132}) {
            double us = median_launch_us(7, 2, [] {}, [&] { rw_id(m, g, 1024, big / 16); });
            double gb = (double)big / (us * 1e3);
            std::fprintf(fo, "%s,%zu,%d,1024,%.2f,%.2f,%.2f\n", modes[m], big, g, us, gb, gb / g);
            std::printf("%-5s 256 MiB %3d CTAs x 1024 threads: %9.2f us  %8.2f GB/s  %6.2f GB/s a CTA\n", modes[m], g,
                        us, gb, gb / g);
        }
    }
    std::fclose(fo);
    return 0;
}
