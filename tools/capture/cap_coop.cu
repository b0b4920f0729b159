// cap_coop: cooperative kernels (E13, issue 15).
//
// sweep: capture.cu's coop_kernel (per round: fma_work(iters), __syncthreads,
//   thread 0 stamps %globaltimer, grid.sync()) launched with
//   cudaLaunchCooperativeKernel at 132, 264, 528 and 1056 CTAs (where they
//   are co-resident), blocks of 64, 256 and 1024 threads, 10, 100 and 1000
//   rounds, iters 0 (barrier only) and 512 (E5's); 3 timed reps after one
//   untimed launch.  Time per round = slope of time over rounds.
//   ctas.csv for these kernels: t0_ns/t1_ns are thread 0's stamps before the
//   first and the last grid.sync (not the CTA's start and end), cycles 0.
//   DIR/coop_arrive.csv: every CTA's stamp in every round, for the 100-round
//   kernels with 256 threads and iters 512 (last rep).
// first TAG: in a fresh process, the first launches: an ordinary kernel
//   twice, then coop_kernel three times (CUDA events and host wall clock
//   around each); run it in several processes, with CUDA_MODULE_LOADING
//   LAZY (the default) and EAGER.
//
// grid (E34): the barrier-only coop_kernel (iters 0) at 1-8 CTAs an SM
//   (132-1056 CTAs in steps of one per SM), blocks of 64 and 256, 10 and
//   100 rounds, 3 timed reps after one untimed launch -> DIR/coop_grid.csv
//   (every rep's event time); and of each 100-round rep, every round's
//   spread of thread 0's stamps before grid.sync() (the min, the median
//   and the max over CTAs, relative to the round's min) ->
//   DIR/coop_spread.csv.  A round's stamps follow the previous round's
//   release, so their spread is how unevenly the CTAs saw it.
//
// Build: nvcc -O3 -arch=sm_90 -o cap_coop cap_coop.cu
// Usage: cap_coop DIR sweep | cap_coop DIR first TAG | cap_coop DIR grid
#include "cap.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void coop_kernel(uint64_t *arrive, uint32_t *sms, int rounds, int iters, float *sink)
{
    cg::grid_group g = cg::this_grid();
    float acc = 0;
    if (threadIdx.x == 0)
        sms[blockIdx.x] = smid();
    for (int r = 0; r < rounds; r++) {
        acc += fma_work(iters, acc * 1e-9f + threadIdx.x);
        __syncthreads();
        if (threadIdx.x == 0)
            arrive[(size_t)r * gridDim.x + blockIdx.x] = gtimer();
        g.sync();
    }
    if (acc == 1234.5f)
        sink[0] = acc;
}

static double launch_coop(int grid, int block, uint64_t *arr, uint32_t *sms, int rounds, int iters, float *sink,
                          cudaEvent_t ea, cudaEvent_t eb, uint64_t *host_wall)
{
    void *args[] = {&arr, &sms, &rounds, &iters, &sink};
    uint64_t h0 = host_ns();
    CK(cudaEventRecord(ea));
    CK(cudaLaunchCooperativeKernel((void *)coop_kernel, grid, block, args, 0, 0));
    CK(cudaEventRecord(eb));
    CK(cudaEventSynchronize(eb));
    if (host_wall)
        *host_wall = host_ns() - h0;
    CK(cudaGetLastError());
    return ev_ms(ea, eb) * 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: cap_coop DIR sweep | cap_coop DIR first TAG | cap_coop DIR grid\n");
        return 2;
    }
    std::string dir = argv[1], mode = argv[2];
    uint64_t t_start = host_ns();
    CK(cudaFree(0));
    uint64_t t_init = host_ns() - t_start;
    Cap cap = cap_begin(dir);
    float *sink;
    CK(cudaMalloc(&sink, 64));
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    int nsm;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    const int maxg = 4224, maxr = 1000;
    uint64_t *arr;
    uint32_t *sms;
    CK(cudaMalloc(&arr, 8ull * maxg * maxr));
    CK(cudaMalloc(&sms, 4ull * maxg));

    if (mode == "first") {
        std::string tag = argc > 3 ? argv[3] : "0";
        const char *ml = getenv("CUDA_MODULE_LOADING");
        Rec *drec;
        CK(cudaMalloc(&drec, sizeof(Rec) * 132));
        struct Step {
            const char *what;
            double ev;
            uint64_t wall;
        };
        std::vector<Step> steps;
        for (int i = 0; i < 2; i++) {
            uint64_t h0 = host_ns();
            CK(cudaEventRecord(ea));
            fma_kernel<<<132, 256>>>(drec, 64, sink);
            CK(cudaEventRecord(eb));
            CK(cudaEventSynchronize(eb));
            steps.push_back({"fma", ev_ms(ea, eb) * 1e6, host_ns() - h0});
        }
        for (int i = 0; i < 3; i++) {
            uint64_t w;
            double t = launch_coop(132, 256, arr, sms, 10, 64, sink, ea, eb, &w);
            steps.push_back({"coop", t, w});
        }
        FILE *f = cap_open(dir, "coop_first.csv", "tag,module_loading,init_ns,step,kernel,event_ns,host_wall_ns");
        for (size_t i = 0; i < steps.size(); i++)
            std::fprintf(f, "%s,%s,%llu,%zu,%s,%.0f,%llu\n", tag.c_str(), ml ? ml : "default", (unsigned long long)t_init, i,
                         steps[i].what, steps[i].ev, (unsigned long long)steps[i].wall);
        std::fclose(f);
        for (int which = 0; which < 2; which++) {   // kernels.csv rows for the two coop-related series
            KInfo k;
            k.kernel = fmt("e13.first.%s.%s.%s", ml ? ml : "default", tag.c_str(), which ? "coop" : "fma");
            k.exp = "e13_first";
            k.name = which ? "coop_kernel" : "fma_kernel";
            k.gen = which ? "skewsim gen coop --ctas 132 --block 256 --rounds 10 --iters 64"
                          : "skewsim gen fma --iters 64 --block 256 --grid 132";
            k.grid = 132;
            k.block = 256;
            k.mode = "first_in_process";
            k.params = fmt("module_loading=%s;init_ns=%llu;rep0=first launch of this kernel in the process", ml ? ml : "default",
                           (unsigned long long)t_init);
            std::vector<KRep> reps;
            for (auto &s : steps)
                if ((which == 1) == (std::string(s.what) == "coop")) {
                    KRep r;
                    r.time_ns = s.ev;
                    reps.push_back(r);
                }
            cap_kernel(cap, k, reps);
        }
        cap_end(cap);
        return 0;
    }

    if (mode == "grid") {
        cap_device_meta(cap, "cap_coop grid");
        FILE *fg = cap_open(dir, "coop_grid.csv", "ctas,block,rounds,rep,time_ns");
        FILE *fp = cap_open(dir, "coop_spread.csv", "ctas,block,rep,round,min_ns,p50_ns,max_ns");
        launch_coop(nsm, 256, arr, sms, 1, 0, sink, ea, eb, nullptr);
        std::vector<uint64_t> ha;
        for (int block : {64, 256})
            for (int per = 1; per <= 8; per++) {
                int ctas = per * nsm;
                for (int rounds : {10, 100}) {
                    launch_coop(ctas, block, arr, sms, rounds, 0, sink, ea, eb, nullptr);
                    for (int rep = 0; rep < 3; rep++) {
                        double t = launch_coop(ctas, block, arr, sms, rounds, 0, sink, ea, eb, nullptr);
                        std::fprintf(fg, "%d,%d,%d,%d,%.0f\n", ctas, block, rounds, rep, t);
                        if (rounds != 100)
                            continue;
                        ha.resize((size_t)ctas * rounds);
                        CK(cudaMemcpy(ha.data(), arr, 8ull * ctas * rounds, cudaMemcpyDeviceToHost));
                        for (int r = 0; r < rounds; r++) {
                            std::vector<uint64_t> v(ha.begin() + (size_t)r * ctas, ha.begin() + (size_t)(r + 1) * ctas);
                            std::sort(v.begin(), v.end());
                            std::fprintf(fp, "%d,%d,%d,%d,0,%llu,%llu\n", ctas, block, rep, r,
                                         (unsigned long long)(v[v.size() / 2] - v[0]),
                                         (unsigned long long)(v.back() - v[0]));
                        }
                    }
                }
            }
        std::fclose(fg);
        std::fclose(fp);
        cap_end(cap);
        std::printf("coop grid done\n");
        return 0;
    }

    cap_device_meta(cap, "cap_coop");
    FILE *fa = cap_open(dir, "coop_arrive.csv", "kernel,round,cta,sm,arrive_ns");
    FILE *fs = cap_open(dir, "coop.csv", "kernel,ctas,block,rounds,iters,occ_per_sm,time_ns_median,host_wall_ns_median");
    // first coop launch of this process, untimed in the sweep
    launch_coop(nsm, 256, arr, sms, 1, 0, sink, ea, eb, nullptr);
    std::vector<uint64_t> ha;
    std::vector<uint32_t> hs;
    for (int iters : {0, 512})
        for (int block : {64, 256, 1024}) {
            int occ = 0;
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, coop_kernel, block, 0));
            for (int ctas : {132, 264, 528, 1056}) {
                if (ctas > occ * nsm)
                    continue;
                for (int rounds : {10, 100, 1000}) {
                    launch_coop(ctas, block, arr, sms, rounds, iters, sink, ea, eb, nullptr);
                    std::vector<KRep> reps;
                    std::vector<double> walls;
                    for (int rep = 0; rep < 3; rep++) {
                        uint64_t w;
                        KRep r;
                        r.time_ns = launch_coop(ctas, block, arr, sms, rounds, iters, sink, ea, eb, &w);
                        walls.push_back((double)w);
                        ha.resize((size_t)ctas * rounds);
                        hs.resize(ctas);
                        CK(cudaMemcpy(ha.data(), arr, 8ull * ctas * rounds, cudaMemcpyDeviceToHost));
                        CK(cudaMemcpy(hs.data(), sms, 4ull * ctas, cudaMemcpyDeviceToHost));
                        for (int c = 0; c < ctas; c++)
                            r.recs.push_back(Rec{(uint32_t)c, hs[c], ha[c], ha[(size_t)(rounds - 1) * ctas + c], 0, 0});
                        reps.push_back(r);
                    }
                    KInfo k;
                    k.kernel = fmt("e13.coop.c%d.b%d.r%d.i%d", ctas, block, rounds, iters);
                    k.exp = "e13_coop";
                    k.name = "coop_kernel";
                    k.gen = fmt("skewsim gen coop --ctas %d --block %d --rounds %d --iters %d", ctas, block, rounds, iters);
                    k.grid = ctas;
                    k.block = block;
                    k.mode = "cooperative";
                    k.params = fmt("rounds=%d;iters=%d;occ_per_sm=%d;cta_t0_t1=first_and_last_round_stamp", rounds, iters, occ);
                    k.cta_rows_reps = 1;
                    cap_kernel(cap, k, reps);
                    std::vector<double> t;
                    for (auto &r : reps)
                        t.push_back(r.time_ns);
                    std::fprintf(fs, "%s,%d,%d,%d,%d,%d,%.0f,%.0f\n", k.kernel.c_str(), ctas, block, rounds, iters, occ,
                                 median_d(t), median_d(walls));
                    if (rounds == 100 && block == 256 && iters == 512) {
                        uint64_t base = UINT64_MAX;
                        for (auto v : ha)
                            base = std::min(base, v);
                        for (int r = 0; r < rounds; r++)
                            for (int c = 0; c < ctas; c++)
                                std::fprintf(fa, "%s,%d,%d,%u,%llu\n", k.kernel.c_str(), r, c, hs[c],
                                             (unsigned long long)(ha[(size_t)r * ctas + c] - base));
                    }
                }
            }
        }
    std::fclose(fa);
    std::fclose(fs);
    cap_end(cap);
    std::printf("coop done\n");
    return 0;
}
