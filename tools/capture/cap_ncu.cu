// cap_ncu: kernels for Nsight Compute's hardware counters (E36, issue 10).
//
// The L1 and the L2 past their capacity, counted rather than inferred from
// times: E35's stream (cap_mem `l1cap`) keeps part of a cyclic walk of 1.5
// times the L1 where per-set LRU keeps none, and E11's .cg stream falls
// from L2-resident at 48 MiB to nearly HBM at 64 MiB.  Each spec below is
// launched at P passes and at 2P, so that under ncu (which flushes the
// caches before every replay) the difference of two launches' counts is P
// steady passes, the cold first pass cancelled.
//
//  stream  stream_kernel<CG> (cap.h, as E11/E35 ran it) over a per-SM
//          footprint of F KiB a pass (132 F KiB in all) at k CTAs of 256
//          threads an SM
//  chase   one thread follows a full-period LCG cycle of 128-byte lines
//          through N bytes (cap_mem's chase, ld.ca), H and 2H hops
//  add     c = a + b over three fp32 arrays of N bytes (cap.h add_kernel)
//  stride  one thread reads N lines S bytes apart in order, R rounds
//          (`cap_ncu DIR strides`: only these, more strides and counts)
//          (ld.ca, each read's address from the last): how many lines of a
//          stride the L1 holds, i.e. whether its set index lets lines at
//          power-of-two-like strides (E35's 528 KiB at one CTA an SM) meet
//  layout  one thread walks N lines laid out as a one-CTA-an-SM stream
//          lays out what one SM reads (`cap_ncu DIR layout`): pieces of P
//          bytes D bytes apart, in address order, ld.ca, R rounds.  E37 found
//          the one-CTA stream at 192 KiB an SM losing a third of its L1 hits
//          with CTAs of 32-256 threads (pieces of 512 B - 4 KiB, 66-528 KiB
//          apart) and 3 % with 512 or 1024 (8, 16 KiB pieces): does the
//          same walk from one thread lose them too (the set index crowds
//          such pieces) or only the CTA's warps (their concurrency)?
//          (`spectrum`: 48 pieces of 4 KiB at 2-140 times 4 KiB apart and
//          a few farther: which distances crowd the sets; `ways`: how many
//          pieces, or single lines, fit at distances that crowd; `ways2`:
//          the same nearer the edge, and up to 64 pieces; `conflict`:
//          which 4 KiB blocks join one group of four)
//
// The arrays hold hashed words (no two lines alike, none zero), except the
// chase's next-line indices.  DIR/ncu_launches.csv and stdout: one line per
// launch of the three kernels above, in launch order (ncu's launch order
// when it is told to profile only them: -k regex:'stream_kernel|add_kernel|ncu_chase|ncu_walk'),
// with its event-timed ns (right without ncu as well).
//
// Build: nvcc -O3 -arch=sm_90 -o cap_ncu cap_ncu.cu
// Usage: cap_ncu DIR [e36|strides|carve|warps|pref|layout|spectrum|ways|ways2|conflict]   (run under ncu --clock-control none)
#include "cap.h"

__global__ void ncu_chase(const uint32_t *a, int hops, uint32_t *sink)
{
    uint32_t j = 0;
    for (int i = 0; i < hops; i++)
        j = __ldca(&a[(size_t)j * 32]);
    sink[0] = j;
}

// the strided cycle: word i * S / 4 holds the next line's word index
__global__ void ncu_fill_stride(uint32_t *a, uint32_t n, uint32_t sw)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[(size_t)i * sw] = (uint32_t)(((i + 1) % n) * (size_t)sw);
}

__global__ void ncu_walk(const uint32_t *a, int hops, uint32_t *sink)
{
    uint32_t j = 0;
    for (int i = 0; i < hops; i++)
        j = __ldca(&a[j]);
    sink[0] = j;
}

// the layout's cycle: off[i] (a word index) holds off[i + 1], the last the first
__global__ void ncu_fill_list(uint32_t *a, const uint32_t *off, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[off[i]] = off[(i + 1) % n];
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cap_ncu DIR [e36|strides|carve|warps|pref|layout|spectrum|ways|ways2|conflict]\n");
        return 2;
    }
    std::string dir = argv[1], part = argc > 2 ? argv[2] : "e36";
    if (part != "e36" && part != "strides" && part != "carve" && part != "warps" && part != "pref" &&
        part != "layout" && part != "spectrum" && part != "ways" && part != "ways2" && part != "conflict") {
        std::fprintf(stderr,
                     "cap_ncu: '%s': expected e36, strides, carve, warps, pref, layout, spectrum, ways, ways2 "
                     "or conflict\n",
                     part.c_str());
        return 2;
    }
    Cap cap = cap_begin(dir);
    cap_device_meta(cap, "cap_ncu");
    int nsm;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    const size_t MB = 1ull << 20;
    size_t big = 1024 * MB;
    uint32_t *buf, *usink;
    float *fsink;
    Rec *drec;
    CK(cudaMalloc(&buf, big));
    CK(cudaMalloc(&usink, 64));
    CK(cudaMalloc(&fsink, 64));
    CK(cudaMalloc(&drec, sizeof(Rec) * 132 * 16));
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    FILE *f = cap_open(dir, "ncu_launches.csv", "launch,kind,cache,ctas_per_sm,kib_per_sm,bytes,passes,time_ns");
    // (stride rows: ctas_per_sm holds N, kib_per_sm the stride in KiB, passes the hops)
    int launch = 0;
    auto fill_all = [&]() {
        size_t words = big / 4;
        fill_hash<<<(unsigned)((words + 255) / 256), 256>>>(buf, words);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    };
    auto log = [&](const char *kind, const char *cache, int k, int kib, size_t bytes, int passes, double t) {
        std::fprintf(f, "%d,%s,%s,%d,%d,%zu,%d,%.0f\n", launch, kind, cache, k, kib, bytes, passes, t);
        std::printf("launch %d %s %s k=%d kib=%d bytes=%zu passes=%d %.0f ns\n", launch, kind, cache, k, kib, bytes,
                    passes, t);
        std::fflush(stdout);
        launch++;
    };
    // one thread's walk of the n-line cycle in buf, R and 2R rounds of it
    // (R = 8192 / n, at least 4), logged with kib and bytes as given
    auto walk_pair = [&](const char *kind, uint32_t n, int kib, size_t bytes) {
        int rounds = (int)std::max<uint32_t>(4, 8192 / n);
        for (int hops : {rounds * (int)n, 2 * rounds * (int)n}) {
            CK(cudaEventRecord(ea));
            ncu_walk<<<1, 1>>>(buf, hops, usink);
            CK(cudaEventRecord(eb));
            CK(cudaEventSynchronize(eb));
            CK(cudaGetLastError());
            log(kind, "default", (int)n, kib, bytes, hops, ev_ms(ea, eb) * 1e6);
        }
    };
    // one stream cell at 3 and at 6 passes (the counts' difference is three
    // steady passes), logged with `field` in the ctas_per_sm column
    auto stream_pair = [&](const char *kind, int cg, int ctas, int block, int field, int kib) {
        size_t bytes = (size_t)kib * 1024 * (ctas < nsm ? ctas : nsm);
        for (int passes : {3, 6})
            log(kind, cg ? "cg" : "default", field, kib, bytes, passes,
                timed_stream(cg, ctas, block, drec, buf, bytes / 16, passes, fsink, ea, eb));
    };
    if (part == "e36") {
    fill_all();
    // the stream past the L1 (default) and past the L2 (.cg)
    for (int cg = 0; cg < 2; cg++)
        for (int k : {1, 8}) {
            if (cg && k == 1)
                continue;
            for (int kib : {128, 192, 256, 288, 320, 384, 448, 512})
                stream_pair("stream", cg, nsm * k, 256, k, kib);
        }
    // the add, as E11 ran it (one launch from a flushed L2 under ncu)
    for (size_t mb : {4, 16, 64}) {
        size_t bytes = mb * MB, n = bytes / 4;
        float *a = (float *)buf, *b = a + n, *c = b + n;
        CK(cudaEventRecord(ea));
        add_kernel<<<nsm * 8, 256>>>(drec, a, b, c, n);
        CK(cudaEventRecord(eb));
        CK(cudaEventSynchronize(eb));
        CK(cudaGetLastError());
        log("add", "default", 8, 0, bytes, 1, ev_ms(ea, eb) * 1e6);
    }
    // the one-thread chase around the L1's capacity (E20's random order)
    for (int kib : {128, 256}) {   // the LCG needs a power of two of lines
        uint32_t nlines = (uint32_t)((size_t)kib * 1024 / 128);
        fill_lcg<<<(nlines + 255) / 256, 256>>>(buf, nlines);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        for (int hops : {4 * (int)nlines, 8 * (int)nlines}) {
            CK(cudaEventRecord(ea));
            ncu_chase<<<1, 1>>>(buf, hops, usink);
            CK(cudaEventRecord(eb));
            CK(cudaEventSynchronize(eb));
            CK(cudaGetLastError());
            log("chase", "default", 0, kib, (size_t)kib * 1024, hops, ev_ms(ea, eb) * 1e6);
        }
    }
    }
    // carve: the default-cached stream at 1, 2, 4 and 8 CTAs an SM, 128 and
    // 192 KiB an SM (ncu's launch__shared_mem_config_size: the L1's share)
    if (part == "carve") {
        fill_all();
        for (int k : {1, 2, 4, 8})
            for (int kib : {128, 192})
                stream_pair("stream", 0, nsm * k, 256, k, kib);
    }
    // warps: one CTA an SM of 1-32 warps at 192 KiB an SM (does the L1 lose
    // lines below capacity by warps or by CTAs?), and the .cg and default
    // streams at eight CTAs an SM between 320 and 384 KiB (the L2's cliff)
    if (part == "warps") {
        fill_all();
        for (int block : {32, 64, 128, 256, 512, 1024})
            stream_pair("stream_b", 0, nsm, block, block, 192);
        for (int cg = 0; cg < 2; cg++)
            for (int kib : {336, 352, 368})
                stream_pair("stream", cg, nsm * 8, 256, 8, kib);
        // one CTA of 32 warps on one SM, .cg, 8-48 MiB: does one SM's
        // partition hold the replicas of all its far lines (its cliff near
        // half the L2) or only its own (near all of it)?
        for (int mib : {8, 16, 20, 24, 28, 32, 40, 48})
            stream_pair("stream_1sm", 1, 1, 1024, 1, mib * 1024);
    }
    // pref: one CTA an SM of 256 or 1024 threads at 192 KiB an SM, the
    // default-cached stream, under the kernel's preferred shared-memory
    // carve-out (cudaFuncAttributePreferredSharedMemoryCarveout, a launch
    // attribute of this program's kernel, not a clock or power setting):
    // E37's one-CTA stream lost a third of its L1 hits with a 32 KB
    // configuration (<= 256 threads) and 3 % with 16 or 8 KB (512, 1024):
    // is it the configuration or the CTA's size?  Logged as kind
    // stream_pP (P the percentage, or d for the default), k= the threads.
    if (part == "pref") {
        fill_all();
        for (int block : {256, 1024})
            for (int pref : {-1, 0, 13, 25}) {
                CK(cudaFuncSetAttribute((const void *)stream_kernel<false>,
                                        cudaFuncAttributePreferredSharedMemoryCarveout, pref));
                char kind[24];
                if (pref < 0)
                    std::snprintf(kind, sizeof kind, "stream_pd");
                else
                    std::snprintf(kind, sizeof kind, "stream_p%d", pref);
                stream_pair(kind, 0, nsm, block, block, 192);
            }
        CK(cudaFuncSetAttribute((const void *)stream_kernel<false>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                -1));
    }
    // layout: one thread, N lines in pieces of P bytes D apart (the stream's
    // per-SM layout at C threads a CTA: P = 16 C, D = 132 P), address order,
    // logged as kind layout_P_D (bytes), k= N, kib= D in KiB, passes the hops
    if (part == "layout" || part == "spectrum" || part == "ways" || part == "ways2" || part == "conflict") {
        struct cell { uint32_t n; size_t piece, gap, extra; };
        std::vector<cell> cells = {
            {1536, 4096, 540672},      // 256 threads: E37 lost a third
            {1536, 16384, 2162688},    // 1024 threads: E37 kept 0.97
            {1536, 196608, 196608},    // contiguous 192 KiB
            {1536, 512, 67584},        // 32 threads
            {1536, 8192, 1081344},     // 512 threads
            {1536, 4096, 544768},      // 4 KiB pieces 532 KiB apart (no power of two)
            {1536, 4096, 8192},        // 4 KiB pieces 8 KiB apart
            {1280, 4096, 540672}, {1792, 4096, 540672},
            {1280, 196608, 196608}, {1792, 229376, 229376},
        };
        // spectrum: 48 pieces of 4 KiB (1536 lines) at every distance of
        // 2-140 times 4 KiB and a few beyond: which distances crowd
        // ways: how many pieces fit where they crowd: M pieces of 4 KiB at
        // 65, 8 and 132 times 4 KiB apart, and M single lines 260 KiB apart
        if (part == "ways") {
            cells.clear();
            for (size_t t : {65ul, 8ul, 132ul})
                for (uint32_t m : {2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u, 20u, 24u, 28u,
                                   32u, 40u, 48u})
                    cells.push_back({32 * m, 4096, 4096 * t});
            for (uint32_t m : {2u, 4u, 6u, 7u, 8u, 9u, 10u, 12u, 14u, 15u, 16u, 17u, 18u, 20u, 24u, 28u, 32u, 40u})
                cells.push_back({m, 128, 4096 * 65});
        }
        // ways2: where the group fills (t = 65, 33-39 pieces), and up to
        // 64 pieces (the whole 256 KB) 4, 8, 256 and 512 KiB apart
        if (part == "ways2") {
            cells.clear();
            for (uint32_t m = 33; m <= 39; m++)
                cells.push_back({32 * m, 4096, 4096 * 65});
            for (size_t t : {1ul, 2ul, 64ul, 128ul})
                for (uint32_t m : {44u, 48u, 52u, 56u, 60u, 64u})
                    cells.push_back({32 * m, 4096, 4096 * t});
        }
        // conflict: four 4 KiB pieces that E40d's groups of 4 ways would
        // share were 260 KiB pieces dealt to them by k mod 8 (4 KiB blocks
        // 0, 520, 1040, 1560: 65 k for k = 0, 8, 16, 24) and a fifth at
        // block X: all five lost if X's block joins them, none if not
        // (E40e: none joined, so the deal is another).  X: 65 k (a check),
        // single bits, pairs of bits 0-11 and triples of bits 0-7 of the
        // block number
        if (part == "conflict") {
            cells.clear();
            std::vector<size_t> xs = {65, 130, 195, 260, 325, 390, 455, 2080, 2600};
            for (int i = 0; i < 18; i++)
                xs.push_back(1ul << i);
            for (int i = 0; i < 12; i++)
                for (int j = i + 1; j < 12; j++)
                    xs.push_back((1ul << i) | (1ul << j));
            for (int i = 0; i < 8; i++)
                for (int j = i + 1; j < 8; j++)
                    for (int k = j + 1; k < 8; k++)
                        xs.push_back((1ul << i) | (1ul << j) | (1ul << k));
            for (size_t x : xs)
                if (x != 520 && x != 1040 && x != 1560)
                    cells.push_back({160, 4096, 0, x});
        }
        if (part == "spectrum") {
            cells.clear();
            for (size_t t = 2; t <= 140; t++)
                cells.push_back({1536, 4096, 4096 * t});
            for (size_t t : {256ul, 264ul, 512ul, 528ul, 1024ul, 1056ul})
                cells.push_back({1536, 4096, 4096 * t});
        }
        const uint32_t max_lines = 4096;
        uint32_t *doff;
        CK(cudaMalloc(&doff, max_lines * sizeof(uint32_t)));
        for (auto &x : cells) {
            if (x.n > max_lines) {
                std::fprintf(stderr, "cap_ncu: a walk of %u lines: at most %u\n", x.n, max_lines);
                continue;
            }
            std::vector<uint32_t> off;
            size_t lines_a_piece = x.piece / 128;
            static const size_t group[4] = {0, 520, 1040, 1560};
            for (uint32_t i = 0; i < x.n; i++) {
                size_t p = i / lines_a_piece;
                size_t base = !x.extra ? p * x.gap : (p < 4 ? group[p] : x.extra) * 4096;
                off.push_back((uint32_t)((base + (i % lines_a_piece) * 128) / 4));
            }
            if ((size_t)*std::max_element(off.begin(), off.end()) * 4 + 128 > big) {
                std::fprintf(stderr, "cap_ncu: layout %zu/%zu past the buffer\n", x.piece, x.gap);
                continue;
            }
            CK(cudaMemcpy(doff, off.data(), off.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
            ncu_fill_list<<<(x.n + 255) / 256, 256>>>(buf, doff, x.n);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            char kind[48];
            if (x.extra)
                std::snprintf(kind, sizeof kind, "conflict_%zu", x.extra);
            else
                std::snprintf(kind, sizeof kind, "layout_%zu_%zu", x.piece, x.gap);
            walk_pair(kind, x.n, (int)(x.gap / 1024), (size_t)x.n * 128);
        }
        CK(cudaFree(doff));
    }
    if (part == "carve" || part == "warps" || part == "pref" || part == "layout" || part == "spectrum" ||
        part == "ways" || part == "ways2" || part == "conflict") {
        std::fclose(f);
        cap_end(cap);
        return 0;
    }
    // strided cycles: N lines S bytes apart (S in words below 2^32)
    // (strides: every power of two from 128 B to 2 MiB and E35's 528 KiB and
    // 4.125 MiB, 32-2048 lines: where a stride's lines start to meet in a set)
    std::vector<size_t> strides = {4096ul, 65536ul, 540672ul, 2097152ul};
    std::vector<uint32_t> counts = {16u, 64u, 256u, 1024u};
    if (part == "strides") {
        strides.clear();
        for (size_t S = 128; S <= 2097152; S *= 2)
            strides.push_back(S);
        strides.push_back(540672ul);
        strides.push_back(4325376ul);
        counts = {32u, 64u, 128u, 256u, 512u, 1024u, 2048u};
    }
    for (size_t S : strides)
        for (uint32_t n : counts) {
            if ((size_t)n * S > big)
                continue;
            uint32_t sw = (uint32_t)(S / 4);
            ncu_fill_stride<<<(n + 255) / 256, 256>>>(buf, n, sw);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            walk_pair("stride", n, (int)(S / 1024), (size_t)n * S);
        }
    std::fclose(f);
    cap_end(cap);
    std::printf("cap_ncu done: %d launches\n", launch);
    return 0;
}
