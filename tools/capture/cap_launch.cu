// cap_launch: launch pipelining (E12, issue 12) and idle-gap launches (E17,
// issue 15).
//
// E12: N = 1 .. 2000 launches in a row in one stream, for three kernels:
//   empty  `__global__ void empty_kernel() {}`, 1 CTA x 32 threads
//   fma0   fma_kernel, iters 0, 1 CTA x 32 threads (records CTA 0's
//          %globaltimer start and end: `skewsim gen fma --iters 0 --block 32 --grid 1`)
//   fma64  fma_kernel, iters 64, 132 CTAs x 256 threads
// each in two modes:
//   host   the host launches them back to back (what a program does)
//   gated  a gate kernel holds the stream while the host enqueues all N,
//          then the host opens it: the GPU runs the queue without waiting
//          for the host (the gate gives up after 300 ms if the queue is full;
//          params `gate=timeout` then says so)
// CUDA events around the N launches (after the gate) give total_ns; the CTA
// records give every launch's span (reps.csv) and its CTAs (ctas.csv: all
// CTAs for N <= 50, CTA 0 only above).
//
// E17: fma_kernel iters 256 on 1056 CTAs (E4's short kernel) launched after
// a host idle gap of 0.1 .. 100 ms, 8 reps per gap in shuffled order;
// reps.csv gap_ns is the measured gap from the previous kernel's end (host
// side) to this launch; ctas.csv cycles/(t1-t0) is the SM clock in-kernel.
//
// Build: nvcc -O3 -arch=sm_90 -o cap_launch cap_launch.cu
// Usage: cap_launch DIR
#include "cap.h"
#include <random>

__global__ void empty_kernel() {}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_launch DIR [parts: launch,idle]\n");
        return 2;
    }
    std::string dir = argv[1], parts = argc > 2 ? argv[2] : "launch,idle";
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_launch");
    float *sink;
    CK(cudaMalloc(&sink, 64));
    const int maxn = 2000, maxg = 1056;
    Rec *drec;
    CK(cudaMalloc(&drec, sizeof(Rec) * (size_t)maxn * 132));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    Gate gate = gate_make();
    // warm every kernel once
    empty_kernel<<<1, 32, 0, st>>>();
    fma_kernel<<<132, 256, 0, st>>>(drec, 64, sink);
    gate_open(gate);
    gate_kernel<<<1, 1, 0, st>>>(gate.dflag, gate.doutcome, 1000000);
    CK(cudaStreamSynchronize(st));
    CK(cudaGetLastError());

    if (parts.find("launch") != std::string::npos) {
        const int counts[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000};
        struct Kind {
            const char *name;
            int grid, block, iters;   // iters < 0: empty kernel
        } kinds[] = {{"empty", 1, 32, -1}, {"fma0", 1, 32, 0}, {"fma64", 132, 256, 64}};
        for (int gated = 0; gated < 2; gated++)
            for (const Kind &kd : kinds)
                for (int n : counts)
                    for (int rep = 0; rep < 3; rep++) {
                        std::vector<KRep> reps(n);
                        if (gated)
                            gate_close(gate, st, 300000000ull);
                        CK(cudaEventRecord(ea, st));
                        for (int i = 0; i < n; i++) {
                            reps[i].host = host_ns();
                            if (kd.iters < 0)
                                empty_kernel<<<kd.grid, kd.block, 0, st>>>();
                            else
                                fma_kernel<<<kd.grid, kd.block, 0, st>>>(drec + (size_t)i * kd.grid, kd.iters, sink);
                        }
                        CK(cudaEventRecord(eb, st));
                        uint64_t enq_done = host_ns();
                        if (gated)
                            gate_open(gate);
                        CK(cudaStreamSynchronize(st));
                        CK(cudaGetLastError());
                        const char *outcome = gated ? gate_outcome(gate) : "none";
                        if (kd.iters >= 0) {
                            std::vector<Rec> all = fetch_recs(drec, (size_t)n * kd.grid);
                            for (int i = 0; i < n; i++)
                                reps[i].recs.assign(all.begin() + (size_t)i * kd.grid, all.begin() + (size_t)(i + 1) * kd.grid);
                        }
                        KInfo k;
                        k.kernel = fmt("e12.%s.%s.n%d.r%d", gated ? "gated" : "host", kd.name, n, rep);
                        k.exp = "e12_launch";
                        k.name = kd.iters < 0 ? "empty_kernel" : "fma_kernel";
                        k.gen = kd.iters < 0 ? fmt("skewsim gen empty --block %d --grid %d", kd.block, kd.grid)
                                             : fmt("skewsim gen fma --iters %d --block %d --grid %d", kd.iters, kd.block, kd.grid);
                        k.grid = kd.grid;
                        k.block = kd.block;
                        k.stream = 1;
                        k.mode = gated ? "chain_gated" : "chain";
                        k.total_ns = ev_ms(ea, eb) * 1e6;
                        k.params = fmt("count=%d;chain_rep=%d;enqueue_ns=%llu;gate=%s", n, rep,
                                       (unsigned long long)(enq_done - reps[0].host),
                                       outcome);
                        k.cta0_only = n > 50;
                        cap_kernel(cap, k, reps);
                    }
        std::printf("launch done\n");
        std::fflush(stdout);
    }

    if (parts.find("idle") != std::string::npos) {
        const double gaps_ms[] = {0.1, 0.3, 1, 2, 5, 10, 20, 50, 100};
        std::vector<double> order;
        for (int r = 0; r < 8; r++)
            for (double g : gaps_ms)
                order.push_back(g);
        std::mt19937 rng(12345);
        std::shuffle(order.begin(), order.end(), rng);
        // 200 ms of back-to-back kernels first, so that every gap starts from a busy chip
        uint64_t until = host_ns() + 200000000ull;
        while (host_ns() < until) {
            fma_kernel<<<maxg, 256, 0, st>>>(drec, 4096, sink);
            CK(cudaStreamSynchronize(st));
        }
        std::vector<KRep> reps;
        uint64_t prev_end = host_ns();
        for (double g : order) {
            sleep_ns((uint64_t)(g * 1e6));
            KRep r;
            r.host = host_ns();
            r.gap_ns = r.host - prev_end;
            CK(cudaEventRecord(ea, st));
            fma_kernel<<<maxg, 256, 0, st>>>(drec, 256, sink);
            CK(cudaEventRecord(eb, st));
            CK(cudaEventSynchronize(eb));
            prev_end = host_ns();
            CK(cudaGetLastError());
            r.time_ns = ev_ms(ea, eb) * 1e6;
            r.recs = fetch_recs(drec, maxg);
            reps.push_back(r);
            prev_end = host_ns();
        }
        KInfo k;
        k.kernel = "e17.idle.fma256";
        k.exp = "e17_idle";
        k.name = "fma_kernel";
        k.gen = "skewsim gen fma --iters 256 --block 256 --grid 1056";
        k.grid = maxg;
        k.block = 256;
        k.stream = 1;
        k.mode = "after_gap";
        k.params = "gaps_ms=0.1/0.3/1/2/5/10/20/50/100;reps_per_gap=8;order=shuffled(mt19937 seed 12345)";
        cap_kernel(cap, k, reps);
        std::printf("idle done\n");
    }
    cap_end(cap);
    return 0;
}
