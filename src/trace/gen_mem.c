/* gen_mem.c -- memory kernels with addresses, for the hierarchy
 * (memory.model: hierarchy, docs/memory.md): the grid-stride read of
 * `gen stream --bytes`, the pointer chase of `gen chase`, and `gen add`.
 * They stand for tools/capture/cap_mem.cu's kernels (E11), written as a user
 * writes them:
 *
 *   stream:  for (p = 0; p < passes; p++)
 *              for (i = gtid; i < n4; i += gridDim.x * blockDim.x) {
 *                  float4 v = a[i]; acc += v.x + v.y + v.z + v.w; }
 *            if (acc == 1234.5f) *sink = acc;
 *   chase:   j = 0; for (i = 0; i < hops; i++) j = a[j * 32]; sink[0] = j;
 *            (one thread; a[] holds a random cycle of 128-byte lines)
 *   chase --stride S --order seq (E20's translation probe: one element per
 *            page, so the data stay in L2 and only translation misses add
 *            latency):
 *            host:   for (i = 0; i < n; i++) a[i * s] = (i + 1) % n * s;
 *                    (s = S / 4 words, n = bytes / S elements)
 *            kernel: j = 0; for (i = 0; i < hops; i++) j = a[j]; sink[0] = j;
 *            the same instructions as the chase above; its address pattern
 *            is affine, iteration stride S modulo the bytes, so the walk
 *            visits the elements in address order, wrapping around.
 *            --order spread: element i at i x (S + 128) instead, one line
 *            further into its slot each (n <= S / 128), as E20's cap_tlb.cu
 *            puts element i at line (i x 97) mod (S / 128) of its slot so
 *            that the lines spread over the L2's sets; lines S apart would
 *            pile into a few of the model's L2 sets and miss to HBM.
 *   add:     for (i = gtid; i < n; i += gridDim.x * blockDim.x) c[i] = a[i] + b[i];
 *
 * The stream and add are cap_mem's SASS line by line, stall counts
 * included (stream_head, add_head below: until 2026-12-06 they were loops
 * written by hand, 8 and 9 instructions an element, with no per-pass
 * instructions; the listing's pass loop has 11 of its own, among them an
 * LDC of the pass count that the pass waits for, and at a working set of
 * one element a thread they are half of what a pass issues:
 * docs/memory.md, "Calibration"); gen rw's float4 loops are
 * cap_inflight's SASS line by line (rw_iter below), its index set-up
 * written by hand.  Every memory instruction carries its address pattern
 * (docs/trace-format.md, "Addresses"): lane 16 (or 4) bytes, warp 512 (128),
 * CTA blockDim x that, iteration the grid's bytes.  A grid-stride loop's n
 * elements split as q = n / T iterations for every thread (T threads) and
 * one more for the first n % T: CTAs wholly in that remainder run program
 * `more`, the CTA across its edge runs `edge` (its extra warps in `ifwarp`
 * blocks; a partly needed warp is charged in full), the rest `main`.
 * Arrays start at 0x7f0000000000 and are 1 GiB-aligned (a, b, c in turn).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

#define ARRAY0 0x7f0000000000ull
#define ARRAY_GAP (1ull << 40)     /* a, b, c far apart: no aliasing whatever N */

/* The address keys of an array at base: inside the loop the iteration
 * stride is one grid; the extra iteration of the remainder threads sits
 * outside the loop, at the fixed iteration extra_iter (0 too: a working
 * set smaller than the grid has only that one, and its address must not
 * move with the passes loop around it, or each pass would read other
 * lines than the last). */
static void addr_keys(char *buf, size_t cap, uint64_t base, long elem, long block, uint64_t grid_bytes,
                      uint64_t ws, int extra, uint64_t extra_iter)
{
    if (extra)
        snprintf(buf, cap, "addr=0x%llx lane=%ld warp=%ld cta=%ld iter=0 ws=%llu",
                 (unsigned long long)(base + extra_iter * grid_bytes), elem, 32 * elem, block * elem,
                 (unsigned long long)ws);
    else
        snprintf(buf, cap, "addr=0x%llx lane=%ld warp=%ld cta=%ld iter=%llu ws=%llu",
                 (unsigned long long)base, elem, 32 * elem, block * elem,
                 (unsigned long long)grid_bytes, (unsigned long long)ws);
}

/* cap.h's add_kernel as nvcc -O3 -arch=sm_90 compiles it
 * (validation/h200/capture/sass/cap_mem.sass.gz, `Function :
 * _Z10add_kernelP3RecPKfS2_Pfm`; REG:20), line by line with each
 * control word's stall count: one do-while over the elements, 17
 * instructions an element (the byte offset, three 64-bit addresses, two
 * LDG.E, the index step and compare, one FADD waiting for both loads, one
 * STG.E, the branch), no pass loop. */
static const char add_head[] =
    "LDC R1 bytes=4 pattern=uniform stall=1\n"            /* 0000 */
    "ULDC.64 UR4 bytes=8 pattern=uniform stall=1\n"       /* 0010 the memory descriptor */
    "CS2R R2 timer=start stall=2\n"                       /* 0020 SR_GLOBALTIMERLO */
    "CS2R R4 clock=start stall=1\n"                       /* 0030 SR_CLOCKLO */
    "S2R R7 stall=1\n"                                    /* 0040 SR_TID.X */
    "ULDC UR6 bytes=4 pattern=uniform stall=1\n"          /* 0050 blockDim.x */
    "ULDC.64 UR8 bytes=8 pattern=uniform stall=1\n"       /* 0060 n */
    "ULDC.64 UR10 bytes=8 pattern=uniform stall=1\n"      /* 0070 b */
    "S2R R6 stall=1\n"                                    /* 0080 SR_CTAID.X */
    "ULDC.64 UR12 bytes=8 pattern=uniform stall=1\n"      /* 0090 a */
    "ULDC.64 UR14 bytes=8 pattern=uniform stall=1\n"      /* 00a0 c */
    "BSSY stall=1\n"                                      /* 00b0 */
    "ISETP.NE.AND P1 <- R7 stall=1\n"                     /* 00c0 tid != 0 */
    "IMAD R0 <- R6 R7 stall=5\n"                          /* 00d0 gtid */
    "ISETP.GE.U32.AND P0 <- R0 stall=4\n"                 /* 00e0 gtid >= n (low) */
    "ISETP.GE.U32.AND.EX P0 <- P0 stall=13\n"             /* 00f0 (high) */
    "@P0 BRA stall=5\n";                                  /* 0100 no element: to 0x250 */

static const char add_setup[] =
    "LDC R8 bytes=4 pattern=uniform stall=1\n"            /* 0110 gridDim.x */
    "IMAD.MOV.U32 R17 stall=2\n"                          /* 0120 i (high) */
    "IMAD.WIDE.U32 R8 <- R8 stall=7\n";                   /* 0130 the grid's stride */

static void add_elem(strbuf *b, const char *const *addr, const void *ctx)
{
    (void)ctx;
    sb_printf(b, "IMAD.SHL.U32 R14 <- R0.reuse stall=1\n"     /* 0140 4 i */
                 "SHF.L.U64.HI R7 <- R0 R17 stall=4\n"        /* 0150 */
                 "IADD3 R12 P2 <- R14.reuse stall=2\n"        /* 0160 a + 4 i */
                 "IADD3 R10 P0 <- R14 stall=2\n"              /* 0170 b + 4 i */
                 "IADD3.X R13 <- R7.reuse P2 stall=2\n"       /* 0180 */
                 "IADD3.X R11 <- R7 P0 stall=4\n"             /* 0190 */
                 "LDG.E R13 <- R12 R13 bytes=4 pattern=coalesced %s stall=4\n" /* 01a0 a[i] */
                 "LDG.E R10 <- R10 R11 bytes=4 pattern=coalesced %s stall=1\n" /* 01b0 b[i] */
                 "IADD3 R14 P0 <- R14 stall=4\n"              /* 01c0 c + 4 i */
                 "IADD3.X R15 <- R7 P0 stall=2\n"             /* 01d0 */
                 "IADD3 R0 P0 <- R8 R0 stall=5\n"             /* 01e0 i += stride */
                 "IMAD.X R17 <- R9 R17 P0 stall=1\n"          /* 01f0 */
                 "ISETP.GE.U32.AND P0 <- R0 stall=4\n"        /* 0200 i >= n */
                 "ISETP.GE.U32.AND.EX P0 <- R17 P0 stall=1\n" /* 0210 */
                 "FADD R7 <- R10 R13 stall=5\n"               /* 0220 waits for both loads */
                 "STG.E <- R14 R15 R7 bytes=4 pattern=coalesced %s stall=7\n" /* 0230 c[i] */
                 "@!P0 BRA stall=5\n",                        /* 0240 to 0x140 */
              addr[0], addr[1], addr[2]);
}

/* 0x250-0x320: every thread but 0 exits at 0x270; thread 0 writes its
 * record (warp 0 only) and exits (warp 0's EXIT at 0x270 a NOP, as the
 * stream's). */
static const char add_tail[] =
    "BSYNC stall=5\n"                                     /* 0250 */
    "BAR.SYNC.DEFER_BLOCKING stall=6\n"                   /* 0260 */
    "ifwarp 0\n"
    "NOP stall=5\n"                                       /* 0270 @P1 EXIT: lanes 1-31 leave, warp 0 goes on */
    "S2R R7 stall=1\n"                                    /* 0280 SR_VIRTUALSMID */
    "CS2R R10 timer=end stall=2\n"                        /* 0290 */
    "CS2R R12 clock=end stall=1\n"                        /* 02a0 */
    "LDC.64 R8 bytes=8 pattern=uniform stall=2\n"         /* 02b0 rec */
    "IMAD.WIDE.U32 R8 <- R6 R8 stall=5\n"                 /* 02c0 */
    "STG.E.64 <- R8 R6 R7 bytes=8 pattern=uniform stall=4\n" /* 02d0 */
    "STG.E.64 <- R8 R2 bytes=8 pattern=uniform stall=4\n"  /* 02e0 */
    "STG.E.64 <- R8 R10 bytes=8 pattern=uniform stall=4\n" /* 02f0 */
    "STG.E.64 <- R8 R4 bytes=8 pattern=uniform stall=4\n"  /* 0300 */
    "STG.E.64 <- R8 R12 bytes=8 pattern=uniform stall=1\n" /* 0310 */
    "end\n"
    "EXIT stall=5\n";                                     /* 0270 / 0320 */

/* E21's kernels (tools/capture/cap_rw.cu): one element of each, float4
 * (LDG.E.128 / STG.E.128) or fp32, of the shape ctx points to. */
typedef struct rw_shape {
    int nread, nwrite, elem;
} rw_shape;

/* The float4 loops as nvcc -O3 -arch=sm_90 compiled rw_kernels.h
 * (validation/h200/capture/inflight.sass, cuobjdump of cap_inflight), one
 * line per SASS instruction, with the stall count of its control word.
 * The trace names one register per operand: a 128-bit load's four
 * registers are its first, and what reads any of them reads that one; a
 * 64-bit address is its two halves, a store's data its last-written
 * register (an instruction takes at most four sources).  The stores'
 * read barriers (an instruction that overwrites a store's source register
 * waits until the store has read it: in k_write the next iteration's
 * LEA, which E22 shows as 41 cycles an iteration against the SASS's 36)
 * are not in the trace (docs/trace-format.md has no barriers): the
 * simulator applies one to every global store, sm.store_read_cycles. */
/* read: s += a[i].x + a[i].y + a[i].z + a[i].w */
#define RW4_READ \
    "LEA R4 <- R15 stall=4\n" \
    "LEA.HI.X R5 <- R15 R10 stall=6\n" \
    "LDG.E.128 R4 <- R4 R5 bytes=16 pattern=coalesced %s stall=1\n" \
    "IADD3 R15 <- R15 R8 stall=5\n" \
    "IMAD.X R10 <- R10 R0 stall=1\n" \
    "ISETP.GE.U32.AND P0 <- R15 stall=4\n" \
    "ISETP.GE.U32.AND.EX P0 <- R10 P0 stall=1\n" \
    "FADD R13 <- R4 stall=4\n" \
    "FADD R16 <- R4 R13 stall=4\n" \
    "FADD R16 <- R4 R16 stall=4\n" \
    "FADD R11 <- R16 R11 stall=1\n" \
    "@!P0 BRA <- P0 stall=6\n"

/* write: a[i] = make_float4(k, k, k, k) */
#define RW4_WRITE \
    "LEA R2 <- R11 stall=1\n" \
    "IMAD.MOV.U32 R5 <- R4 stall=1\n" \
    "MOV R6 <- R4 stall=1\n" \
    "IMAD.MOV.U32 R7 <- R4 stall=1\n" \
    "LEA.HI.X R3 <- R11 R10 stall=2\n" \
    "IADD3 R11 <- R11 R8 stall=3\n" \
    "STG.E.128 <- R2 R3 R5 R7 bytes=16 pattern=coalesced %s stall=1\n" \
    "IADD3.X R10 <- R10 R0 stall=2\n" \
    "ISETP.GE.U32.AND P0 <- R11 stall=4\n" \
    "ISETP.GE.U32.AND.EX P0 <- R10 P0 stall=13\n" \
    "@!P0 BRA <- P0 stall=5\n"

/* copy: b[i] = a[i] */
#define RW4_COPY \
    "IMAD.SHL.U32 R2 <- R11 stall=1\n" \
    "SHF.L.U64.HI R3 <- R11 R10 stall=4\n" \
    "IADD3 R4 <- R2 stall=4\n" \
    "IADD3.X R5 <- R3 stall=6\n" \
    "LDG.E.128 R4 <- R4 R5 bytes=16 pattern=coalesced %s stall=1\n" \
    "IADD3 R2 <- R2 stall=4\n" \
    "IADD3.X R3 <- R3 stall=2\n" \
    "IADD3 R11 <- R11 R8 stall=5\n" \
    "IMAD.X R10 <- R10 R0 stall=1\n" \
    "ISETP.GE.U32.AND P0 <- R11 stall=4\n" \
    "ISETP.GE.U32.AND.EX P0 <- R10 P0 stall=1\n" \
    "STG.E.128 <- R2 R3 R4 bytes=16 pattern=coalesced %s stall=12\n" \
    "@!P0 BRA <- P0 stall=5\n"

/* add: c[i] = a[i] + b[i] */
#define RW4_ADD \
    "IMAD.SHL.U32 R14 <- R17 stall=1\n" \
    "SHF.L.U64.HI R15 <- R17 R16 stall=4\n" \
    "IADD3 R8 <- R14 stall=2\n" \
    "IADD3 R12 <- R14 stall=2\n" \
    "IADD3.X R9 <- R15 stall=2\n" \
    "IADD3.X R13 <- R15 stall=4\n" \
    "LDG.E.128 R8 <- R8 R9 bytes=16 pattern=coalesced %s stall=4\n" \
    "LDG.E.128 R4 <- R12 R13 bytes=16 pattern=coalesced %s stall=1\n" \
    "IADD3 R14 <- R14 stall=4\n" \
    "IADD3.X R15 <- R15 stall=2\n" \
    "IADD3 R17 <- R17 R2 stall=5\n" \
    "IMAD.X R16 <- R16 R0 stall=1\n" \
    "ISETP.GE.U32.AND P0 <- R17 stall=4\n" \
    "ISETP.GE.U32.AND.EX P0 <- R16 P0 stall=1\n" \
    "FADD R20 <- R4 R8 stall=1\n" \
    "FADD R21 <- R4 R8 stall=1\n" \
    "FADD R22 <- R4 R8 stall=1\n" \
    "FADD R23 <- R4 R8 stall=5\n" \
    "STG.E.128 <- R14 R15 R20 R23 bytes=16 pattern=coalesced %s stall=4\n" \
    "@!P0 BRA <- P0 stall=5\n"

/* triad: d[i] = a[i] + b[i] + c[i] */
#define RW4_TRIAD \
    "IMAD.SHL.U32 R23 <- R0 stall=1\n" \
    "SHF.L.U64.HI R20 <- R0 R17 stall=4\n" \
    "IADD3 R4 <- R23 stall=2\n" \
    "IADD3 R8 <- R23 stall=2\n" \
    "IADD3.X R5 <- R20 stall=2\n" \
    "IADD3.X R9 <- R20 stall=2\n" \
    "IADD3 R18 <- R23 stall=2\n" \
    "LDG.E.128 R4 <- R4 R5 bytes=16 pattern=coalesced %s stall=2\n" \
    "IADD3.X R19 <- R20 stall=2\n" \
    "LDG.E.128 R8 <- R8 R9 bytes=16 pattern=coalesced %s stall=4\n" \
    "LDG.E.128 R12 <- R18 R19 bytes=16 pattern=coalesced %s stall=1\n" \
    "FADD R22 <- R4 R8 stall=1\n" \
    "FADD R7 <- R4 R8 stall=1\n" \
    "FADD R21 <- R4 R8 stall=1\n" \
    "FADD R24 <- R4 R8 stall=1\n" \
    "IADD3 R6 <- R23 stall=1\n" \
    "FADD R14 <- R12 R7 stall=1\n" \
    "FADD R15 <- R12 R22 stall=1\n" \
    "FADD R13 <- R12 R24 stall=1\n" \
    "IADD3.X R7 <- R20 stall=1\n" \
    "FADD R12 <- R12 R21 stall=4\n" \
    "IADD3 R0 <- R0 R2 stall=1\n" \
    "STG.E.128 <- R6 R7 R13 R12 bytes=16 pattern=coalesced %s stall=1\n" \
    "IADD3.X R17 <- R17 R16 stall=2\n" \
    "ISETP.GE.U32.AND P0 <- R0 stall=4\n" \
    "ISETP.GE.U32.AND.EX P0 <- R17 P0 stall=13\n" \
    "@!P0 BRA <- P0 stall=5\n"

static void rw_iter(strbuf *b, const char *const *addr, const void *ctx)
{
    const rw_shape *sh = ctx;
    const int nread = sh->nread, nwrite = sh->nwrite, elem = sh->elem;
    if (elem == 16) {
        /* the mix's index: reads then writes name it (nread 1, 0, 1, 2, 3) */
        switch (nwrite == 0 ? 0 : nread == 0 ? 1 : nread + 1) {
        case 0: sb_printf(b, RW4_READ, addr[0]); break;
        case 1: sb_printf(b, RW4_WRITE, addr[0]); break;
        case 2: sb_printf(b, RW4_COPY, addr[0], addr[1]); break;
        case 3: sb_printf(b, RW4_ADD, addr[0], addr[1], addr[2]); break;
        default: sb_printf(b, RW4_TRIAD, addr[0], addr[1], addr[2], addr[3]); break;
        }
        return;
    }
    /* fp32 (add1): the loop written as nvcc schedules such loops, loads
     * first; R8, R9, R13 walk the arrays read, R12 the one written */
    static const char *const ptr[] = {"R8", "R9", "R13"};
    for (int a = 0; a < nread; a++)
        sb_printf(b, "LDG.E R%d <- %s bytes=%d pattern=coalesced %s stall=1\n", 4 + a, ptr[a], elem, addr[a]);
    for (int a = 0; a < nread; a++)
        sb_printf(b, "IADD3 %s <- %s R10 stall=1\n", ptr[a], ptr[a]);      /* p += gridDim * blockDim */
    sb_printf(b, "ISETP.GE.U32.AND P0 <- %s R11 stall=1\n", nread ? "R8" : "R12");
    /* the sum of the loaded values: one FADD a pair of arrays, read's s += x */
    for (int a = 1; a < nread; a++)
        sb_printf(b, "FADD R20 <- R%d R%d stall=4\n", a == 1 ? 4 : 20, 4 + a);
    if (nread && !nwrite)
        sb_printf(b, "FADD R0 <- R0 R4 stall=4\n");
    if (nwrite)
        sb_printf(b, "STG.E <- R12 %s bytes=%d pattern=coalesced %s stall=1\n"
                     "IADD3 R12 <- R12 R10 stall=1\n", nread > 1 ? "R20" : nread ? "R4" : "R6", elem,
                  addr[nread]);
    sb_printf(b, "@!P0 BRA stall=5\n");
}

/* One element's instructions; ctx: the kernel's own detail (above). */
typedef void (*iter_fn)(strbuf *b, const char *const *addr, const void *ctx);

/* A grid-stride kernel's listing, in the parts its dynamic path runs
 * them: `head` once, then per pass `pass_head`, for a thread with
 * elements `setup` and `elem` once an element (the do-while), and
 * `pass_tail`; `tail` once at the end (it ends the program: EXIT). */
typedef struct gs_listing {
    const char *kname;
    int regs;
    const char *head, *pass_head, *setup, *pass_tail, *tail;
    iter_fn elem;
    const void *ctx;
} gs_listing;

/* A grid-stride kernel of n elements of `elem` bytes per array (narrays
 * arrays, each ws bytes), `passes` times over: every thread runs q = n / T
 * elements, the first n % T one more.  CTAs all of whose threads have one
 * more run program `more`, the CTA across the edge runs `edge` (its warps
 * with one more run it in an `ifwarp` block, at that element's fixed
 * address; a partly needed warp is charged in full), the rest `main`. */
static int grid_stride(kernel *k, const char *what, const gs_listing *g, long ctas, long block,
                       uint64_t n, long elem, int narrays, long passes, sk_error *e)
{
    uint64_t T = (uint64_t)ctas * (uint64_t)block, q = n / T, r = n % T;
    uint64_t grid_bytes = T * (uint64_t)elem, ws = n * (uint64_t)elem;
    if (q > UINT32_MAX)
        return sk_errorf(e, SK_EUSAGE, "%s: %llu elements over %llu threads: expected at most "
                         "4294967295 iterations a thread", what, (unsigned long long)n,
                         (unsigned long long)T);
    char in_loop[4][160], extra[4][160];
    const char *lp[4], *xp[4];
    for (int a = 0; a < narrays; a++) {
        uint64_t base = ARRAY0 + (uint64_t)a * ARRAY_GAP;
        addr_keys(in_loop[a], sizeof in_loop[a], base, elem, block, grid_bytes, ws, 0, 0);
        addr_keys(extra[a], sizeof extra[a], base, elem, block, grid_bytes, ws, 1, q);
        lp[a] = in_loop[a];
        xp[a] = extra[a];
    }
    for (int a = narrays; a < 4; a++)
        lp[a] = xp[a] = "";
    long full = (long)(r / (uint64_t)block);        /* CTAs 0..full-1 all do q + 1 */
    uint64_t edge_threads = r % (uint64_t)block;    /* CTA `full` has this many that do */

    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel %s grid=%ld block=%ld regs=%d smem=0 data=quiet\n", g->kname,
              ctas, block, g->regs);
    for (int prog = 0; prog < 3; prog++) {
        static const char *const names[] = {"main", "more", "edge"};
        sb_printf(&b, "program %s\n%sloop %ld\n%s", names[prog], g->head, passes, g->pass_head);
        if (q > 0) {
            sb_printf(&b, "%sloop %llu\n", g->setup, (unsigned long long)q);
            g->elem(&b, lp, g->ctx);
            sb_printf(&b, "end\n");
        }
        /* the element past the q: one more trip of the do-while (its
         * set-up too when it is the thread's only one), at its fixed
         * address, for every warp of `more` and the needed warps of `edge` */
        if (prog == 1) {
            sb_printf(&b, "%s", q ? "" : g->setup);
            g->elem(&b, xp, g->ctx);
        } else if (prog == 2) {
            for (uint64_t w = 0; w * 32 < edge_threads; w++) {
                sb_printf(&b, "ifwarp %llu\n%s", (unsigned long long)w, q ? "" : g->setup);
                g->elem(&b, xp, g->ctx);
                sb_printf(&b, "end\n");
            }
        }
        sb_printf(&b, "%send\n%send\n", g->pass_tail, g->tail);
    }
    /* the CTA-to-program map, parsed with the kernel and kept for the
     * writer (the reader streams a ctas section, the kernel keeps none) */
    strbuf m = {NULL, 0, 0};
    if (full > 0)
        sb_printf(&m, "range 0 %ld program=more\n", full - 1);
    if (edge_threads)
        sb_printf(&m, "cta %ld program=edge\n", full);
    long rest = full + (edge_threads ? 1 : 0);
    if (rest < ctas)
        sb_printf(&m, "range %ld %ld program=main\n", rest, ctas - 1);
    sb_printf(&b, "ctas\n%send\nendkernel\n", m.s);
    int rc = gen_parse(k, what, b.s, e);
    free(b.s);
    if (rc == 0)
        k->ctas_text = m.s;
    else
        free(m.s);
    return rc;
}

/* cap.h's stream_kernel<CG> as nvcc -O3 -arch=sm_90 compiles it
 * (validation/h200/capture/sass/cap_mem.sass.gz, `Function :
 * _Z13stream_kernelILb0EE...` and `...ILb1EE...`, the capture's own build;
 * cuobjdump -res-usage: REG:18), line by line with each control word's stall count
 * (bits 41-44 of the second word).  The two loops are do-whiles: a pass
 * loads the pass count (LDC, waited for by the ISETP at 0x170, so every
 * pass pays its latency), tests the first index, and a thread with work
 * runs the inner loop, 12 instructions an element: the 64-bit address
 * (LEA, LEA.HI.X), one LDG.E.128, the 64-bit index step and compare, the
 * four dependent FADDs of which the first waits for the load, the branch.
 * One load in flight a warp.  The listing is the same for both instances
 * but for the load's mnemonic. */
static const char stream_head[] =
    "LDC R1 bytes=4 pattern=uniform stall=1\n"            /* 0000 */
    "ULDC.64 UR6 bytes=8 pattern=uniform stall=1\n"       /* 0010 the memory descriptor */
    "CS2R R2 timer=start stall=2\n"                       /* 0020 SR_GLOBALTIMERLO */
    "CS2R R8 clock=start stall=4\n"                       /* 0030 SR_CLOCKLO */
    "LDC R0 bytes=4 pattern=uniform stall=2\n"            /* 0040 passes */
    "ISETP.GE.AND P0 <- R0 stall=1\n"                     /* 0050 passes >= 1 */
    "IMAD.MOV.U32 R0 stall=12\n"                          /* 0060 acc = 0 */
    "@!P0 BRA stall=5\n"                                  /* 0070 */
    "S2R R5 stall=1\n"                                    /* 0080 SR_TID.X */
    "S2UR UR4 stall=1\n"                                  /* 0090 SR_CTAID.X */
    "IMAD.MOV.U32 R0 stall=7\n"                           /* 00a0 */
    "LDC R10 bytes=4 pattern=uniform stall=1\n"           /* 00b0 blockDim.x */
    "ULDC UR5 bytes=4 pattern=uniform stall=1\n"          /* 00c0 gridDim.x */
    "IMAD R12 <- R10 R5 stall=1\n"                        /* 00d0 gtid */
    "UMOV UR4 stall=1\n"                                  /* 00e0 p = 0 */
    "IMAD.WIDE.U32 R10 <- R10 stall=7\n";                 /* 00f0 the grid's stride */

static const char stream_pass_head[] =
    "LDC R4 bytes=4 pattern=uniform stall=1\n"            /* 0100 passes */
    "ULDC.64 UR8 bytes=8 pattern=uniform stall=1\n"       /* 0110 n4 */
    "UIADD3 UR4 stall=1\n"                                /* 0120 p + 1 */
    "ISETP.GE.U32.AND P0 <- R12 stall=1\n"                /* 0130 gtid >= n4 (low) */
    "ULDC.64 UR10 bytes=8 pattern=uniform stall=1\n"      /* 0140 a */
    "BSSY stall=2\n"                                      /* 0150 */
    "ISETP.GE.U32.AND.EX P0 <- P0 stall=2\n"              /* 0160 (high) */
    "ISETP.LE.AND P1 <- R4 stall=11\n"                    /* 0170 passes <= p + 1 */
    "@P0 BRA stall=5\n";                                  /* 0180 no element: to 0x270 */

static const char stream_work_setup[] =
    "IMAD.MOV.U32 R15 <- R12 stall=2\n"                   /* 0190 i = gtid */
    "IMAD.MOV.U32 R14 stall=7\n";                         /* 01a0 (high) */

static void stream_elem(strbuf *b, const char *const *addr, const void *ctx)
{
    sb_printf(b, "LEA R4 P0 <- R15 stall=4\n"                 /* 01b0 a + 16 i */
                 "LEA.HI.X R5 <- R15 R14 P0 stall=6\n"        /* 01c0 */
                 "%s R4 <- R4 R5 bytes=16 pattern=coalesced %s stall=1\n" /* 01d0 */
                 "IADD3 R15 P0 <- R10 R15 stall=5\n"          /* 01e0 i += stride */
                 "IMAD.X R14 <- R11 R14 P0 stall=1\n"         /* 01f0 */
                 "ISETP.GE.U32.AND P0 <- R15 stall=4\n"       /* 0200 i >= n4 */
                 "ISETP.GE.U32.AND.EX P0 <- R14 P0 stall=1\n" /* 0210 */
                 "FADD R13 <- R4 R5 stall=4\n"                /* 0220 x + y: waits for the load */
                 "FADD R6 <- R6 R13 stall=4\n"                /* 0230 + z */
                 "FADD R7 <- R7 R6 stall=4\n"                 /* 0240 + w */
                 "FADD R0 <- R7 R0 stall=1\n"                 /* 0250 acc += */
                 "@!P0 BRA stall=6\n",                        /* 0260 to 0x1b0 */
              (const char *)ctx, addr[0]);
}

static const char stream_pass_tail[] =
    "BSYNC stall=5\n"                                     /* 0270 */
    "@!P1 BRA stall=5\n";                                 /* 0280 to 0x100 */

/* 0x290-0x3c0: acc is never 1234.5, so the guarded sink store touches
 * nothing (mask=0); every thread but 0 exits at 0x300, thread 0 writes its
 * record (warp 0 only) and exits at 0x3c0.  Warp 0 issues the EXIT at
 * 0x300 too and goes on; an EXIT in a trace ends its warp, so warp 0's is
 * a NOP with the EXIT's stall, and the others' is the last EXIT. */
static const char stream_tail[] =
    "FSETP.NEU.AND P0 <- R0 stall=1\n"                    /* 0290 */
    "S2R R6 stall=12\n"                                   /* 02a0 SR_TID.X */
    "@!P0 LDC.64 R4 bytes=8 pattern=uniform stall=1\n"     /* 02b0 sink */
    "@!P0 IMAD.MOV.U32 R7 stall=1\n"                      /* 02c0 */
    "ISETP.NE.AND P1 <- R6 stall=4\n"                     /* 02d0 */
    "@!P0 STG.E <- R4 R7 bytes=4 addr=0x7e0000000000 lane=0 warp=0 cta=0 iter=0 mask=0 stall=2\n" /* 02e0 */
    "BAR.SYNC.DEFER_BLOCKING stall=7\n"                   /* 02f0 */
    "ifwarp 0\n"
    "NOP stall=5\n"                                       /* 0300 @P1 EXIT: lanes 1-31 leave, warp 0 goes on */
    "S2R R13 stall=1\n"                                   /* 0310 SR_VIRTUALSMID */
    "CS2R R6 timer=end stall=2\n"                         /* 0320 */
    "CS2R R10 clock=end stall=1\n"                        /* 0330 */
    "S2R R12 stall=1\n"                                   /* 0340 SR_CTAID.X */
    "LDC.64 R4 bytes=8 pattern=uniform stall=2\n"         /* 0350 rec */
    "IMAD.WIDE.U32 R4 <- R12 R4 stall=5\n"                /* 0360 */
    "STG.E.64 <- R4 R12 R13 bytes=8 pattern=uniform stall=4\n" /* 0370 */
    "STG.E.64 <- R4 R2 bytes=8 pattern=uniform stall=4\n"  /* 0380 */
    "STG.E.64 <- R4 R6 bytes=8 pattern=uniform stall=4\n"  /* 0390 */
    "STG.E.64 <- R4 R8 bytes=8 pattern=uniform stall=4\n"  /* 03a0 */
    "STG.E.64 <- R4 R10 bytes=8 pattern=uniform stall=1\n" /* 03b0 */
    "end\n"
    "EXIT stall=5\n";                                     /* 0300 / 03c0 */

int gen_stream_cache(kernel *k, long ctas, long block, long long bytes, long passes, int cg, sk_error *e)
{
    memset(k, 0, sizeof *k);
    if (bytes % 16)
        return sk_errorf(e, SK_EUSAGE, "gen stream: bytes %lld: expected a multiple of 16 (float4)",
                         bytes);
    const gs_listing g = {"stream_kernel", 18, stream_head, stream_pass_head, stream_work_setup,
                          stream_pass_tail, stream_tail, stream_elem,
                          cg ? "LDG.E.128.STRONG.GPU" : "LDG.E.128"};
    return grid_stride(k, "gen stream", &g, ctas, block, (uint64_t)bytes / 16, 16, 1, passes, e);
}

int gen_stream_bytes(kernel *k, long ctas, long block, long long bytes, long passes, sk_error *e)
{
    return gen_stream_cache(k, ctas, block, bytes, passes, 0, e);
}

int gen_add(kernel *k, long ctas, long block, long long bytes, sk_error *e)
{
    memset(k, 0, sizeof *k);
    if (bytes % 4)
        return sk_errorf(e, SK_EUSAGE, "gen add: bytes %lld: expected a multiple of 4 (fp32)", bytes);
    const gs_listing g = {"add_kernel", 20, add_head, "", add_setup, "", add_tail, add_elem, NULL};
    return grid_stride(k, "gen add", &g, ctas, block, (uint64_t)bytes / 4, 4, 3, 1, e);
}

const char *const gen_rw_mixes[] = { "read", "write", "copy", "add", "triad", NULL };

int gen_rw(kernel *k, long ctas, long block, long long bytes, int mix, long elem, sk_error *e)
{
    static const int nread[] = {1, 0, 1, 2, 3}, nwrite[] = {0, 1, 1, 1, 1};
    memset(k, 0, sizeof *k);
    if (mix < 0 || mix >= (int)SK_ARRAY_LEN(nread))
        return sk_errorf(e, SK_EUSAGE, "gen rw: mix %d: expected read, write, copy, add or triad", mix);
    if (elem != 4 && elem != 16)
        return sk_errorf(e, SK_EUSAGE, "gen rw: elem %ld: expected 4 (fp32) or 16 (float4)", elem);
    if (bytes % elem)
        return sk_errorf(e, SK_EUSAGE, "gen rw: bytes %lld: expected a multiple of the element (%ld)", bytes,
                         elem);
    const rw_shape sh = {nread[mix], nwrite[mix], (int)elem};
    int narrays = sh.nread + sh.nwrite;
    /* the index set-up and a pointer per array, written by hand (the
     * loops' own instructions are the listing's, rw_iter) */
    static const char head[] = "S2R R2 stall=2\n"                        /* SR_TID.X */
                               "S2R R3 stall=2\n"                        /* SR_CTAID.X */
                               "LDC.64 R10 bytes=8 pattern=uniform stall=1\n" /* stride, n */
                               "IMAD R2 <- R3 R2 stall=4\n"              /* gtid */
                               "MOV R0 stall=1\n";                       /* acc = 0 */
#define RW_PTRS3 "IMAD.WIDE.U32 R8 <- R2 stall=4\n"   /* &a[gtid] */ \
                 "IMAD.WIDE.U32 R9 <- R2 stall=4\n"                                \
                 "IMAD.WIDE.U32 R12 <- R2 stall=4\n"
    static const char tail[] = "FSETP.NEU.AND P1 <- R0 stall=13\n"
                               "@P1 EXIT stall=5\n";
    /* three pointers, or four for triad's four arrays */
    const char *pass_head = narrays > 3 ? RW_PTRS3 "IMAD.WIDE.U32 R13 <- R2 stall=4\n" : RW_PTRS3;
#undef RW_PTRS3
    const gs_listing g = {"rw_kernel", 32, head, pass_head, "", "", tail, rw_iter, &sh};
    return grid_stride(k, "gen rw", &g, ctas, block, (uint64_t)bytes / (uint64_t)elem, elem, narrays, 1, e);
}

const char *const gen_chase_orders[] = { "random", "seq", "spread", NULL };

/* One thread's pointer chase, opened: a in R4 (its base), j = 0 in R2. */
static void chase_open(strbuf *b, const char *name, long ctas)
{
    sb_printf(b, "skewsim-trace 1\nkernel %s grid=%ld block=1 regs=16 smem=0 data=quiet\n"
                 "program main\n"
                 "LDC.64 R4 bytes=8 pattern=uniform stall=1\n"   /* a */
                 "MOV R2 stall=1\n", name, ctas);                /* j = 0 */
}

/* One hop, j = a[j]: the address from j, then the load of the next j
 * through an access `op` whose address keys are `keys`. */
static void chase_hop(strbuf *b, const char *op, const char *keys)
{
    sb_printf(b, "IMAD.WIDE.U32 R8 <- R2 R4 stall=4\n%s R2 <- R8 bytes=4 %s stall=1\n", op, keys);
}

/* n hops in a loop (the keys' iter= and chase= count its iterations). */
static void chase_loop(strbuf *b, long n, const char *op, const char *keys)
{
    sb_printf(b, "loop %ld\n", n);
    chase_hop(b, op, keys);
    sb_printf(b, "end\n");
}

int gen_chase(kernel *k, long long bytes, long hops, long ctas, long warm, long cg, sk_error *e)
{
    return gen_chase_stride(k, bytes, hops, ctas, warm, cg, 128, GEN_CHASE_RANDOM, e);
}

int gen_chase_stride(kernel *k, long long bytes, long hops, long ctas, long warm, long cg,
                     long stride, int order, sk_error *e)
{
    memset(k, 0, sizeof *k);
    char keys[128];
    if (order != GEN_CHASE_RANDOM) {
        if (stride < 4 || stride % 4 || bytes < stride || bytes % stride)
            return sk_errorf(e, SK_EUSAGE, "gen chase: bytes %lld: expected a multiple of the stride "
                             "(%ld, itself a multiple of 4)", bytes, stride);
        long long n = bytes / stride, step = stride;
        if (order == GEN_CHASE_SPREAD) {
            /* element i at i x (stride + 128): one line further into its
             * stride-sized slot than the one before, while that stays
             * inside the slot */
            if (n > stride / 128)
                return sk_errorf(e, SK_EUSAGE, "gen chase: bytes %lld: expected at most stride / 128 = %ld "
                                 "elements for order spread", bytes, stride / 128);
            step = stride + 128;
        }
        /* every CTA walks the one cycle from its start (the probe runs one) */
        snprintf(keys, sizeof keys, "addr=0x%llx lane=0 warp=0 cta=0 iter=%lld ws=%lld",
                 (unsigned long long)ARRAY0, step, n * step);
    } else {
        if (stride != 128)
            return sk_errorf(e, SK_EUSAGE, "gen chase: stride %ld: expected 128 with order random "
                             "(a random cycle of lines); order seq takes any stride", stride);
        if (bytes < 128 || bytes % 128)
            return sk_errorf(e, SK_EUSAGE, "gen chase: bytes %lld: expected a positive multiple of 128 "
                             "(whole lines; a power of two of them walks E11's LCG cycle)", bytes);
        snprintf(keys, sizeof keys, "addr=0x%llx ws=%lld chase=1", (unsigned long long)ARRAY0, bytes);
    }
    const char *op = cg ? "LDG.E.STRONG.GPU" : "LDG.E";
    strbuf b = {NULL, 0, 0};
    chase_open(&b, "chase_kernel", ctas);
    /* the untimed walk E11 makes first (the same cycle from its start) */
    if (warm > 0)
        chase_loop(&b, warm, op, keys);
    sb_printf(&b, "CS2R R6 timer=start clock=start stall=1\n");
    if (hops > 0)
        chase_loop(&b, hops, op, keys);
    sb_printf(&b, "STG.E <- R4 R2 bytes=4 pattern=uniform stall=1\n"   /* sink[0] = j: waits */
                  "CS2R R6 timer=end clock=end stall=1\n"
                  "EXIT stall=5\nend\nendkernel\n");
    int rc = gen_parse(k, "gen chase", b.s, e);
    free(b.s);
    return rc;
}

int gen_walk(kernel *k, long long piece, long long gap, long lines, long hops, sk_error *e)
{
    memset(k, 0, sizeof *k);
    long lp = (long)(piece / 128);
    int contiguous = piece == gap || lp >= lines;
    if (piece < 128 || piece % 128 || gap < piece || lines < 1 || hops < lines || hops % lines ||
        (!contiguous && (lp > 256 || lines % lp)) || (double)gap * (double)(lines / SK_MAX(lp, 1)) > 1e15)
        return sk_errorf(e, SK_EUSAGE, "gen walk: piece %lld, gap %lld, %ld lines, %ld hops: expected pieces of "
                         "128 B - 32 KiB (or contiguous lines), gap >= piece, whole pieces and whole rounds",
                         piece, gap, lines, hops);
    strbuf b = {NULL, 0, 0};
    char keys[128];
    chase_open(&b, "walk_kernel", 1);
    if (contiguous) {
        snprintf(keys, sizeof keys, "addr=0x%llx lane=0 warp=0 cta=0 iter=128 ws=%lld", (unsigned long long)ARRAY0,
                 (long long)lines * 128);
        chase_loop(&b, hops, "LDG.E", keys);
    } else {
        /* a round: the pieces (the innermost loop, whose iteration moves
         * the gap), each its lines unrolled */
        sb_printf(&b, "loop %ld\nloop %ld\n", hops / lines, lines / lp);
        for (long l = 0; l < lp; l++) {
            snprintf(keys, sizeof keys, "addr=0x%llx lane=0 warp=0 cta=0 iter=%lld",
                     (unsigned long long)(ARRAY0 + (uint64_t)l * 128), gap);
            chase_hop(&b, "LDG.E", keys);
        }
        sb_printf(&b, "end\nend\n");
    }
    sb_printf(&b, "STG.E <- R4 R2 bytes=4 pattern=uniform stall=1\nEXIT stall=5\nend\nendkernel\n");
    int rc = gen_parse(k, "gen walk", b.s, e);
    free(b.s);
    return rc;
}
