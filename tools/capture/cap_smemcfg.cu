// cap_smemcfg: E42. Which shared-memory configuration the driver gives a
// launch, by the CTA's threads, its registers and its shared memory
// (issue 10: the L1 is what the configuration leaves).  E38 read 32 KB for
// a stream kernel of 256 threads without shared memory, 16 KB at 512 and
// 8 KB at 1024, where occupancy (8, 4 and 2 CTAs an SM, 1 KB reserved
// each) would need 8 KB.  This asks what the driver counts.
//
// Three kernels, each launched once on 132 CTAs for every case:
//   lo      few registers, no static shared memory
//   hi      many registers (64 live accumulators; ptxas -v says how many)
//   st      lo's body with 4 KiB of static shared memory
// over CTA sizes 32..1024 and dynamic shared memory 0, 1, 3, 7, 20 KiB
// (lo), and fewer combinations for hi and st.  Each launch's line in
// DIR/smemcfg.csv gives the case and what cudaOccupancyMaxActiveBlocks
// PerMultiprocessor and cudaFuncGetAttributes say; run under
//   ncu --clock-control none --csv --metrics launch__shared_mem_config_size,
//       launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,
//       launch__occupancy_limit_warps,launch__occupancy_limit_blocks,
//       launch__registers_per_thread,launch__block_size
// to read the configuration each got.  Clocks and limits are not touched.
// Build: nvcc -O3 -arch=sm_90 -o cap_smemcfg cap_smemcfg.cu
#include "cap.h"

__global__ void k_lo(float *out, int n)
{
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < 0) {                        // never taken: keeps dyn declared
        dyn[threadIdx.x] = (float)i;
        out[i] = dyn[threadIdx.x ^ 1];
    }
}

__global__ void k_hi(float *out, const float *in, int n)
{
    extern __shared__ float dyn[];
    float acc[64];
#pragma unroll
    for (int j = 0; j < 64; j++)
        acc[j] = in[(threadIdx.x + j * 97) & 1023];
    for (int r = 0; r < n; r++) {
#pragma unroll
        for (int j = 0; j < 64; j++)
            acc[j] = acc[j] * acc[(j + 1) & 63] + 1.0f;
    }
    float s = 0;
#pragma unroll
    for (int j = 0; j < 64; j++)
        s += acc[j];
    if (n < 0)
        dyn[threadIdx.x] = s;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void k_st(float *out, int n)
{
    __shared__ float st[1024];          // 4 KiB static
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < 0) {
        st[threadIdx.x] = (float)i;
        dyn[threadIdx.x] = st[threadIdx.x ^ 1];
        out[i] = dyn[threadIdx.x ^ 3];
    }
}

static FILE *csv;
static int launch_no;

template <typename K>
static void one(const char *name, K kern, int threads, int dyn, float *out, const float *in, bool hi)
{
    int occ = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, threads, dyn));
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, kern));
    if (occ == 0) {                     // cannot launch (hi at 1024 threads: 72 x 1024 registers)
        fprintf(csv, "-1,%s,%d,%d,0,%d,%zu\n", name, threads, dyn, fa.numRegs, fa.sharedSizeBytes);
        printf("skip %s threads=%d dyn=%d: occupancy 0\n", name, threads, dyn);
        return;
    }
    if (hi)
        ((void (*)(float *, const float *, int))kern)<<<132, threads, dyn>>>(out, in, 1);
    else
        ((void (*)(float *, int))kern)<<<132, threads, dyn>>>(out, 1);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    fprintf(csv, "%d,%s,%d,%d,%d,%d,%zu\n", launch_no, name, threads, dyn, occ, fa.numRegs, fa.sharedSizeBytes);
    fflush(csv);
    printf("launch %d %s threads=%d dyn=%d occ=%d regs=%d static=%zu\n", launch_no, name, threads, dyn, occ,
           fa.numRegs, fa.sharedSizeBytes);
    launch_no++;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cap_smemcfg DIR\n");
        return 2;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/smemcfg.csv", argv[1]);
    csv = fopen(path, "w");
    if (!csv) {
        perror(path);
        return 1;
    }
    fprintf(csv, "launch,kernel,threads,dyn_bytes,occ_api,regs,static_bytes\n");
    float *out, *in;
    CK(cudaMalloc(&out, 132 * 1024 * sizeof(float)));
    CK(cudaMalloc(&in, 1024 * sizeof(float)));
    CK(cudaMemset(in, 0, 1024 * sizeof(float)));
    const int th[] = { 32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024 };
    const int dy[] = { 0, 1024, 3072, 7168, 20480 };
    for (int d : dy)
        for (int t : th)
            one("lo", k_lo, t, d, out, in, false);
    for (int t : { 128, 256, 512, 1024 })
        for (int d : { 0, 1024 })
            one("hi", k_hi, t, d, out, in, true);
    for (int t : { 64, 256, 1024 })
        for (int d : { 0, 1024 })
            one("st", k_st, t, d, out, in, false);
    fclose(csv);
    return 0;
}
