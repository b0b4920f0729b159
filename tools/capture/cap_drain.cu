// cap_drain: what a kernel's last stores and loads add to a pre-queued
// launch chain (E27, issue 12's launch pipelining).
//
// E12 found pre-queued empty kernels 1.29 us apart and fma_kernel iters 0
// (one warp that reads two timers and stores its record) 1.53 us apart,
// while the model, which starts the next kernel a constant queue_gap_ns
// after the previous kernel's last CTA ends, has 1.43 and 1.52.  Does the
// next launch wait for the previous kernel's stores to be acknowledged?
// Each kernel below runs as a chain of N = 200 launches of 1 CTA, queued
// behind a gate kernel (as cap_launch's chain_gated), 5 chains each, in an
// interleaved order; CUDA events around the chain give its time:
//   empty    `{}` (E12's empty_kernel)
//   st4      thread 0 stores 4 bytes
//   st128    32 threads store 4 bytes each (one 128-byte line)
//   st16k    1024 threads store 16 bytes each (16 KiB, 128 lines)
//   st256k   1024 threads store 16 x 16 bytes each (256 KiB, 2048 lines)
//   ld4      thread 0 loads 4 bytes and stores nothing unless the value is
//            impossible: the warp waits for the load, so its latency is
//            in the kernel's run, not after it (the control)
//   ld4st4   ld4, then thread 0 stores the loaded value + 1
//   st4f     st4 followed by __threadfence() (the store acknowledged
//            inside the kernel)
// Each store kernel writes launch i's data to its own place in a 64 MiB
// buffer (i x stride), so no two launches write the same lines.  ld4 and
// ld4st4 read the same 200 lines of a second buffer, and in the rotating
// order ld4st4 always follows ld4, so it finds them in the L2 while ld4,
// after st256k's 50 MB, reads them from HBM (validation/h100 "E27").
// -> DIR/drain.csv: kernel,block,n,rep,total_ns,per_launch_ns,gate
//
// Build: nvcc -O3 -arch=sm_90 -o cap_drain cap_drain.cu
// Usage: cap_drain DIR
// Run on an H100 in session 14 (validation/h100/drain, README "E27").
#include "cap.h"

__global__ void empty_kernel() {}

__global__ void st4_kernel(int *out) { if (threadIdx.x == 0) out[0] = 1; }

__global__ void st4f_kernel(int *out)
{
    if (threadIdx.x == 0) {
        out[0] = 1;
        __threadfence();
    }
}

__global__ void st128_kernel(int *out) { out[threadIdx.x] = 1; }

__global__ void st16k_kernel(int4 *out) { out[threadIdx.x] = make_int4(1, 2, 3, 4); }

__global__ void st256k_kernel(int4 *out)
{
#pragma unroll
    for (int j = 0; j < 16; j++)
        out[j * blockDim.x + threadIdx.x] = make_int4(j, 2, 3, 4);
}

__global__ void ld4_kernel(const int *in, int *out)
{
    if (threadIdx.x == 0) {
        int v = in[0];
        if (v == 0x7fffffff)
            out[0] = v;
    }
}

__global__ void ld4st4_kernel(const int *in, int *out)
{
    if (threadIdx.x == 0)
        out[0] = in[0] + 1;
}

enum { EMPTY, ST4, ST128, ST16K, ST256K, LD4, LD4ST4, ST4F, NKINDS };
static const char *const names[NKINDS] = {"empty", "st4", "st128", "st16k", "st256k", "ld4", "ld4st4", "st4f"};
static const int blocks[NKINDS] = {32, 32, 32, 1024, 1024, 32, 32, 32};

static void launch(int kind, cudaStream_t st, char *buf, size_t off, const int *in)
{
    char *p = buf + off;
    switch (kind) {
    case EMPTY: empty_kernel<<<1, 32, 0, st>>>(); break;
    case ST4: st4_kernel<<<1, 32, 0, st>>>((int *)p); break;
    case ST128: st128_kernel<<<1, 32, 0, st>>>((int *)p); break;
    case ST16K: st16k_kernel<<<1, 1024, 0, st>>>((int4 *)p); break;
    case ST256K: st256k_kernel<<<1, 1024, 0, st>>>((int4 *)p); break;
    case LD4: ld4_kernel<<<1, 32, 0, st>>>(in + off / 4, (int *)p); break;
    case LD4ST4: ld4st4_kernel<<<1, 32, 0, st>>>(in + off / 4, (int *)p); break;
    case ST4F: st4f_kernel<<<1, 32, 0, st>>>((int *)p); break;
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_drain DIR\n");
        return 2;
    }
    std::string dir = argv[1];
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_drain");
    FILE *out = cap_open(dir, "drain.csv", "kernel,block,n,rep,total_ns,per_launch_ns,gate");
    const int n = 200, nreps = 5;
    const size_t stride = 256 * 1024, bytes = (size_t)n * stride;   // 200 x 256 KiB < 64 MiB
    char *buf;
    int *in;
    CK(cudaMalloc(&buf, bytes));
    CK(cudaMalloc(&in, bytes));
    CK(cudaMemset(in, 0, bytes));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    Gate gate = gate_make();
    for (int k = 0; k < NKINDS; k++)
        launch(k, st, buf, 0, in);       // warm every kernel once
    CK(cudaStreamSynchronize(st));
    CK(cudaGetLastError());
    for (int rep = 0; rep < nreps; rep++)
        for (int k0 = 0; k0 < NKINDS; k0++) {
            int k = (k0 + rep) % NKINDS;     // rotate the order between reps
            gate_close(gate, st, 300000000ull);
            CK(cudaEventRecord(ea, st));
            for (int i = 0; i < n; i++)
                launch(k, st, buf, (size_t)i * stride, in);
            CK(cudaEventRecord(eb, st));
            gate_open(gate);
            CK(cudaStreamSynchronize(st));
            CK(cudaGetLastError());
            double total = ev_ms(ea, eb) * 1e6;
            std::fprintf(out, "%s,%d,%d,%d,%.0f,%.1f,%s\n", names[k], blocks[k], n, rep, total, total / n,
                         gate_outcome(gate));
            std::printf("%-7s rep %d: %.1f ns a launch\n", names[k], rep, total / n);
        }
    std::fclose(out);
    cap_end(cap);
    std::printf("drain done\n");
    return 0;
}
