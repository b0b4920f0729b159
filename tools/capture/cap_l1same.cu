// cap_l1same: E19b. The chase of cap_l1/E11 (random LCG cycle over 128-byte
// lines) warmed in a separate launch, as E11 did, against warmed in the same
// launch; prints the SM of each launch.  Shows whether L1 contents survive a
// kernel boundary.  Build: nvcc -O3 -arch=sm_90 -o cap_l1same cap_l1same.cu
#include "cap.h"
__global__ void fill_kernel(uint32_t *a, uint32_t n) { uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[(size_t)i * 32] = (1664525u * i + 1013904223u) & (n - 1); }
__global__ void chase(const uint32_t *a, int warm, int hops, uint64_t *out, uint32_t *sink)
{
    uint32_t j = 0;
    for (int i = 0; i < warm; i++) j = __ldca(&a[(size_t)j * 32]);
    uint64_t c0 = clock64();
    for (int i = 0; i < hops; i++) j = __ldca(&a[(size_t)j * 32]);
    sink[0] = j;
    uint64_t c1 = clock64();
    out[0] = c1 - c0; out[1] = smid();
}
int main() {
    uint32_t *buf, *sink; uint64_t *dout;
    CK(cudaMalloc(&buf, 64 << 20)); CK(cudaMalloc(&sink, 64)); CK(cudaMalloc(&dout, 64));
    printf("KiB  separate(sm_warm,sm_timed)  same_launch  same_launch_2x_timed_after_warm\n");
    for (size_t kb = 16; kb <= 512; kb *= 2) {
        uint32_t n = kb * 1024 / 128;
        fill_kernel<<<(n + 255) / 256, 256>>>(buf, n); CK(cudaGetLastError());
        int warm = n > 4096 ? n : 4096; uint64_t r[2], r2[2], r3[2];
        chase<<<1, 1>>>(buf, 0, warm, dout, sink); CK(cudaMemcpy(r2, dout, 16, cudaMemcpyDeviceToHost));
        chase<<<1, 1>>>(buf, 0, 4096, dout, sink); CK(cudaMemcpy(r, dout, 16, cudaMemcpyDeviceToHost));
        chase<<<1, 1>>>(buf, warm, 4096, dout, sink); CK(cudaMemcpy(r3, dout, 16, cudaMemcpyDeviceToHost));
        printf("%4zu  %7.1f (%llu,%llu)  %7.1f (sm %llu)\n", kb, r[0] / 4096.0, (unsigned long long)r2[1], (unsigned long long)r[1], r3[0] / 4096.0, (unsigned long long)r3[1]);
    }
    return 0;
}
