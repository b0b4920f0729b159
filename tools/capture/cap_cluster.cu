// cap_cluster: thread block cluster launches (E26).
//
// fma_kernel (cap.h, `skewsim gen fma`) launched with cudaLaunchKernelEx
// and a cluster dimension of C CTAs (C = 1, 2, 4, 8, 16; 16 needs
// cudaFuncAttributeNonPortableClusterSizeAllowed), 4096 iterations, blocks
// of 256 threads (8 CTAs an SM) and of 1024 (2 an SM), grids of 528, 1056
// and 2112 CTAs (1024 threads: 528 only; each a multiple of 16).  One untimed launch, then three
// timed ones (CUDA events), every CTA recorded: where the clusters went
// (a cluster is CTAs C*k .. C*k + C - 1 of a 1-D grid) and what the
// launch cost.  Also, per C and block, cudaOccupancyMaxActiveClusters into
// meta.csv (`cluster.max_active.bB.cC`).  A configuration the driver
// refuses is recorded in meta.csv (`cluster.refused...`) and skipped.
//
// Build: nvcc -O3 -arch=sm_90 -o cap_cluster cap_cluster.cu
// Usage: cap_cluster DIR
#include "cap.h"

// The launch configuration of a 1-D grid in clusters of c CTAs; at (one
// attribute) must outlive it.
static cudaLaunchConfig_t cluster_cfg(int grid, int block, int c, cudaLaunchAttribute *at)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid, 1, 1);
    cfg.blockDim = dim3(block, 1, 1);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = 0;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = c;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cfg;
}

static cudaError_t launch(int grid, int block, int c, Rec *rec, int iters, float *sink)
{
    cudaLaunchAttribute at[1];
    cudaLaunchConfig_t cfg = cluster_cfg(grid, block, c, at);
    return cudaLaunchKernelEx(&cfg, fma_kernel, rec, iters, sink);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_cluster DIR\n");
        return 2;
    }
    std::string dir = argv[1];
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_cluster");
    CK(cudaFuncSetAttribute(fma_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    float *sink;
    CK(cudaMalloc(&sink, 64));
    Rec *drec;
    CK(cudaMalloc(&drec, sizeof(Rec) * 2112));
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    const int iters = 4096;
    for (int block : {256, 1024})
        for (int c : {1, 2, 4, 8, 16}) {
            cudaLaunchAttribute at[1];
            cudaLaunchConfig_t q = cluster_cfg(c * 64, block, c, at);
            int nclus = -1;
            cudaError_t oe = cudaOccupancyMaxActiveClusters(&nclus, fma_kernel, &q);
            if (oe != cudaSuccess) {
                (void)cudaGetLastError();
                nclus = -1;
            }
            cap_meta(cap, fmt("cluster.max_active.b%d.c%d", block, c).c_str(), fmt("%d", nclus));
            for (int grid : {528, 1056, 2112}) {
                if (block == 1024 && grid != 528)
                    continue;
                std::vector<KRep> reps;
                bool refused = false;
                for (int rep = -1; rep < 3 && !refused; rep++) {
                    CK(cudaEventRecord(ea));
                    cudaError_t le = launch(grid, block, c, drec, iters, sink);
                    if (le != cudaSuccess) {
                        std::string why = cudaGetErrorString(le);
                        for (char &ch : why)
                            if (ch == ',')
                                ch = ';';
                        cap_meta(cap, fmt("cluster.refused.b%d.c%d.g%d", block, c, grid).c_str(), why);
                        (void)cudaGetLastError();
                        refused = true;
                        break;
                    }
                    CK(cudaEventRecord(eb));
                    CK(cudaEventSynchronize(eb));
                    CK(cudaGetLastError());
                    if (rep < 0)
                        continue;
                    KRep r;
                    r.time_ns = ev_ms(ea, eb) * 1e6;
                    r.recs = fetch_recs(drec, grid);
                    reps.push_back(r);
                }
                if (refused)
                    continue;
                KInfo k;
                k.kernel = fmt("e26.cluster.c%d.b%d.g%d.i%d", c, block, grid, iters);
                k.exp = "e26_cluster";
                k.name = "fma_kernel";
                k.gen = fmt("skewsim gen fma --iters %d --block %d --grid %d --cluster %d", iters, block, grid, c);
                k.grid = grid;
                k.block = block;
                k.params = fmt("iters=%d;cluster=%d", iters, c);
                cap_kernel(cap, k, reps);
                std::printf("cluster c%d b%d g%d: %.1f us\n", c, block, grid, reps.empty() ? -1.0 : reps[0].time_ns / 1e3);
            }
        }
    cap_end(cap);
    std::printf("cluster done\n");
    return 0;
}
