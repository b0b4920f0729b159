/* gen_lds.c -- E30's shared-memory rate kernels, tools/capture/cap_lds.cu's
 * lds<OP> (validation/h100/lds, board n's listing cap_lds_n.sass.gz):
 *
 *   lds32    16 LDS.32 an iteration, lane l reading word l of a 128-B row:
 *            one wavefront each;
 *   lds32c2  the same with lane l at word 2l mod 32 of its row: lanes l and
 *            l + 16 share a bank, two wavefronts each;
 *   lds128   8 LDS.128 an iteration, lane l reading 16 B at 16 l: four
 *            wavefronts each;
 *   sts32    16 STS.32 an iteration, one wavefront each.
 *
 * One CTA of 1024 threads fills 8192 floats of shared memory, meets a
 * barrier, and then warp w runs the loop --iters times when its
 * sub-partition (w mod 4) is among the first --smsps and w / 4 < --warps
 * (an `ifwarp w` block each); the others wait at the closing barrier.
 * Warp 0 (always running) reads clock64() before and after, as the kernel
 * does, and alone writes the record.  Each kernel is written from the
 * listing, instruction for instruction with its stall counts
 * (tests/test_sass.c checks it; the never-taken store of the sum's check
 * and the other threads' early EXIT left out, as gen unit does);
 * where the listing's scoreboards make an access wait, the trace gives
 * the wait as a register read (the first access of an iteration reads the
 * last one's destination: the listing's wait on scoreboard 0, which the
 * last eleven set; the branch reads three of the first five's), and where
 * the listing reuses a destination inside one iteration (LDS.128 R4 three
 * times) the trace renames it, as the model would otherwise hold the
 * second access for the first (a write-after-write the chip does not
 * wait for).  Shared-memory addresses are offsets into the CTA's array
 * (the patterns' bases); without memory.model hierarchy no bank conflict
 * is modelled, and lds32c2 takes one wavefront as lds32 does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/gen.h"
#include "gen_priv.h"

const char *const gen_lds_ops[] = { "lds32", "lds32c2", "lds128", "sts32", NULL };

/* The four kernels' listings differ in their registers and a few stall
 * counts; each part below is written per kernel (k: 0 lds<0> and lds<1>,
 * whose listings are the same but for one immediate, 1 lds<2>, 2 lds<3>).
 * Addresses are written only on the loop's accesses: lane l at word l of
 * a 128-B row (lds32, sts32), word 2l mod 32 (lds32c2), 16 B at 16 l
 * (lds128). */
static const char *const lds_fill[3] = {
    /* 0x000-0x140: thread t stores floats t, t + 1024, ... of the 8192,
     * then the barrier */
    "LDC R1 bytes=4 pattern=uniform stall=1\nS2R R0 stall=1\nBSSY stall=1\nIMAD.MOV.U32 R9 stall=1\n"
    "ISETP.GT.AND P0 <- R0 stall=2\nSHF.R.U32.HI R2 <- R0 stall=4\nLOP3.LUT R6 <- R2 stall=7\n"
    "S2R R4 stall=1\nLDC R7 bytes=4 pattern=uniform stall=1\nMOV R3 stall=1\nIMAD.MOV.U32 R2 <- R0 stall=3\n"
    "LEA R3 <- R4 R3 stall=7\nloop 8\nLEA R4 <- R2 R3 stall=2\nI2FP.F32.S32 R5 <- R2 stall=1\n"
    "IMAD.IADD R2 <- R7 R2 stall=4\nSTS <- R4 R5 bytes=4 addr=0 lane=4 stall=1\n"
    "ISETP.GE.AND P0 <- R2 stall=13\n@!P0 BRA stall=5\nend\nBSYNC stall=5\nBAR.SYNC.DEFER_BLOCKING stall=1\n",
    "LDC R1 bytes=4 pattern=uniform stall=1\nS2R R0 stall=1\nBSSY stall=1\nIMAD.MOV.U32 R8 stall=1\n"
    "ISETP.GT.AND P0 <- R0 stall=2\nSHF.R.U32.HI R2 <- R0 stall=4\nLOP3.LUT R6 <- R2 stall=7\n"
    "S2R R4 stall=1\nLDC R7 bytes=4 pattern=uniform stall=1\nMOV R3 stall=1\nIMAD.MOV.U32 R2 <- R0 stall=3\n"
    "LEA R3 <- R4 R3 stall=7\nloop 8\nIMAD R4 <- R2 R3 stall=1\nI2FP.F32.S32 R5 <- R2 stall=1\n"
    "IMAD.IADD R2 <- R7 R2 stall=4\nSTS <- R4 R5 bytes=4 addr=0 lane=4 stall=1\n"
    "ISETP.GE.AND P0 <- R2 stall=13\n@!P0 BRA stall=5\nend\nBSYNC stall=5\nBAR.SYNC.DEFER_BLOCKING stall=1\n",
    "LDC R1 bytes=4 pattern=uniform stall=1\nS2R R6 stall=1\nBSSY stall=1\nIMAD.MOV.U32 R9 stall=1\n"
    "ISETP.GT.AND P0 <- R6 stall=2\nSHF.R.U32.HI R0 <- R6 stall=4\nLOP3.LUT R4 <- R0 stall=7\n"
    "S2R R3 stall=1\nLDC R7 bytes=4 pattern=uniform stall=1\nMOV R2 stall=1\nIMAD.MOV.U32 R0 <- R6 stall=3\n"
    "LEA R3 <- R3 R2 stall=7\nloop 8\nIMAD R2 <- R0 R3 stall=1\nI2FP.F32.S32 R5 <- R0 stall=1\n"
    "IMAD.IADD R0 <- R7 R0 stall=4\nSTS <- R2 R5 bytes=4 addr=0 lane=4 stall=1\n"
    "ISETP.GE.AND P0 <- R0 stall=13\n@!P0 BRA stall=5\nend\nBSYNC stall=5\nBAR.SYNC.DEFER_BLOCKING stall=1\n",
};
/* 0x150-0x260: does this warp run the loop (its sub-partition in the
 * mask, w / 4 < N), the clock, the accumulators zeroed */
static const char *const lds_select[3] = {
    "SHF.L.U32 R6 <- R9 R6 stall=2\nSHF.R.U32.HI R2 <- R0 stall=3\nULDC.64 UR4 bytes=8 pattern=uniform stall=2\n"
    "LOP3.LUT P0 <- R6 UR4 stall=4\nISETP.GE.U32.OR P0 <- R2 UR5 stall=2\nCS2R R2 clock=start stall=1\n"
    "LDC R22 bytes=4 pattern=uniform stall=1\nBSSY stall=1\nCS2R R20 stall=2\nCS2R R10 stall=2\nCS2R R12 stall=2\n"
    "CS2R R14 stall=2\nCS2R R16 stall=2\nCS2R R18 stall=2\nCS2R R8 stall=2\nCS2R R6 stall=2\n"
    "ISETP.LT.OR P0 <- R22 stall=13\n@P0 BRA stall=5\n",
    "SHF.L.U32 R6 <- R8 R6 stall=2\nSHF.R.U32.HI R2 <- R0 stall=3\nULDC.64 UR4 bytes=8 pattern=uniform stall=2\n"
    "LOP3.LUT P0 <- R6 UR4 stall=4\nISETP.GE.U32.OR P0 <- R2 UR5 stall=2\nCS2R R2 clock=start stall=1\n"
    "LDC R22 bytes=4 pattern=uniform stall=1\nBSSY stall=1\nCS2R R4 stall=2\nCS2R R6 stall=2\nCS2R R20 stall=2\n"
    "CS2R R10 stall=2\nCS2R R12 stall=2\nCS2R R14 stall=2\nCS2R R16 stall=2\nCS2R R18 stall=2\n"
    "ISETP.LT.OR P0 <- R22 stall=13\n@P0 BRA stall=5\n",
    "SHF.L.U32 R4 <- R9 R4 stall=2\nSHF.R.U32.HI R0 <- R6 stall=3\nULDC.64 UR4 bytes=8 pattern=uniform stall=2\n"
    "LOP3.LUT P0 <- R4 UR4 stall=4\nISETP.GE.U32.OR P0 <- R0 UR5 stall=2\nCS2R R2 clock=start stall=1\n"
    "LDC R7 bytes=4 pattern=uniform stall=1\nBSSY stall=1\nISETP.LT.OR P0 <- R7 stall=13\n@P0 BRA stall=5\n",
};
/* a running warp's address setup (0x270-0x2c0; lds<3> 0x1f0-0x260) */
static const char *const lds_setup[3] = {
    "S2UR UR5 stall=1\nIMAD.SHL.U32 R4 <- R0 stall=1\nUMOV UR4 stall=4\nLOP3.LUT R6 <- R4 stall=1\n"
    "ULEA UR5 <- UR5 UR4 stall=3\nUMOV UR4 stall=9\n",
    "S2UR UR5 stall=1\nSHF.L.U32 R20 <- R0 stall=1\nUMOV UR4 stall=3\nLOP3.LUT R20 <- R20 stall=1\n"
    "ULEA UR5 <- UR5 UR4 stall=3\nUMOV UR4 stall=9\n",
    "S2UR UR5 stall=1\nIMAD.SHL.U32 R4 <- R6.reuse stall=1\nLOP3.LUT R0 <- R6 stall=1\nUMOV UR4 stall=3\n"
    "LOP3.LUT R4 <- R4 stall=2\nI2FP.F32.U32 R5 <- R0 stall=1\nULEA UR5 <- UR5 UR4 stall=3\nUMOV UR4 stall=9\n",
};
/* after the loop, the loads' values moved for the sum (0x400-0x4a0,
 * lds<2> 0x380-0x390; none in lds<3>) */
static const char *const lds_moves[3] = {
    "MOV R6 <- R7 stall=1\nIMAD.MOV.U32 R7 <- R8 stall=2\nFADD R21 <- R4 stall=1\nIMAD.MOV.U32 R8 <- R9 stall=1\n"
    "MOV R9 <- R11 stall=1\nIMAD.MOV.U32 R11 <- R13 stall=2\nIMAD.MOV.U32 R13 <- R15 stall=1\nMOV R15 <- R17 stall=1\n"
    "IMAD.MOV.U32 R17 <- R19 stall=2\nIMAD.MOV.U32 R19 <- R20 stall=1\nMOV R20 <- R5 stall=7\n",
    "IMAD.MOV.U32 R20 <- R8 stall=2\nIMAD.MOV.U32 R21 <- R9 stall=7\n",
    "",
};
/* the closing barrier, the clock, the sum and its check (its store,
 * behind a test the data never pass, left out), and thread 0's record */
static const char *const lds_tail[3] = {
    "BSYNC stall=5\nBAR.SYNC.DEFER_BLOCKING stall=1\nCS2R R4 clock=end stall=1\nFADD R6 <- R21 R6 stall=1\n"
    "ISETP.NE.AND P1 <- R0 stall=3\nULDC.64 UR4 bytes=8 pattern=uniform stall=1\nFADD R7 <- R6 R7 stall=4\n"
    "FADD R8 <- R7 R8 stall=4\nFADD R8 <- R8 R9 stall=4\nFADD R8 <- R8 R11 stall=4\nFADD R8 <- R8 R13 stall=4\n"
    "FADD R8 <- R8 R15 stall=4\nFADD R8 <- R8 R17 stall=4\nFADD R19 <- R8 R19 stall=4\nFADD R19 <- R19 R18 stall=4\n"
    "FADD R19 <- R19 R16 stall=4\nFADD R19 <- R19 R14 stall=4\nFADD R19 <- R19 R12 stall=4\n"
    "FADD R19 <- R19 R10 stall=4\nFADD R19 <- R19 R20 stall=5\nFSETP.NEU.AND P0 <- R19 stall=13\n"
    "ifwarp 0\nS2R R13 stall=1\nLDC.64 R8 bytes=8 pattern=uniform stall=1\nIADD3 R6 <- R2 R4 stall=1\n"
    "S2R R15 stall=3\nIADD3.X R7 <- R3 R5 stall=3\nLDC.64 R10 bytes=8 pattern=uniform stall=1\n"
    "IMAD.WIDE.U32 R2 <- R13 R8 stall=4\nIMAD.WIDE.U32 R4 <- R13 R10 stall=1\n"
    "STG.E.64 <- UR4 R2 R6 bytes=8 pattern=uniform stall=4\nSTG.E <- UR4 R4 R15 bytes=4 pattern=uniform stall=1\n"
    "end\nEXIT stall=5\n",
    "BSYNC stall=5\nBAR.SYNC.DEFER_BLOCKING stall=1\nCS2R R8 clock=end stall=1\nFADD R4 <- R5 R4 stall=1\n"
    "FADD R20 <- R21 R20 stall=1\nFADD R12 <- R13 R12 stall=1\nFADD R16 <- R17 R16 stall=1\nFADD R4 <- R4 R6 stall=1\n"
    "FADD R10 <- R20 R10 stall=1\nFADD R12 <- R12 R14 stall=1\nFADD R16 <- R16 R18 stall=1\nFADD R4 <- R4 R7 stall=1\n"
    "FADD R10 <- R10 R11 stall=1\nFADD R12 <- R12 R15 stall=1\nFADD R16 <- R16 R19 stall=1\nFADD R4 <- R4 stall=1\n"
    "ISETP.NE.AND P1 <- R0 stall=1\nULDC.64 UR4 bytes=8 pattern=uniform stall=2\nFADD R4 <- R4 R10 stall=4\n"
    "FADD R4 <- R4 R12 stall=4\nFADD R4 <- R4 R16 stall=4\nFADD R4 <- R4 stall=5\nFSETP.NEU.AND P0 <- R4 stall=13\n"
    "ifwarp 0\nS2R R0 stall=1\nLDC.64 R4 bytes=8 pattern=uniform stall=1\nIADD3 R6 <- R2 R8 stall=1\n"
    "S2R R12 stall=4\nIMAD.X R7 <- R9 R3 stall=2\nLDC.64 R10 bytes=8 pattern=uniform stall=1\n"
    "IMAD.WIDE.U32 R2 <- R0 R4 stall=4\nIMAD.WIDE.U32 R4 <- R0 R10 stall=1\n"
    "STG.E.64 <- UR4 R2 R6 bytes=8 pattern=uniform stall=4\nSTG.E <- UR4 R4 R12 bytes=4 pattern=uniform stall=1\n"
    "end\nEXIT stall=5\n",
    "BSYNC stall=5\nBAR.SYNC.DEFER_BLOCKING stall=1\nCS2R R4 clock=end stall=2\nISETP.NE.AND P0 <- R6 stall=13\n"
    "ifwarp 0\nS2R R13 stall=1\nLDC.64 R8 bytes=8 pattern=uniform stall=1\nIADD3 R6 <- R2 R4 stall=1\n"
    "ULDC.64 UR4 bytes=8 pattern=uniform stall=1\nS2R R15 stall=3\nIMAD.X R7 <- R5 R3 stall=2\n"
    "LDC.64 R10 bytes=8 pattern=uniform stall=1\nIMAD.WIDE.U32 R2 <- R13 R8 stall=4\n"
    "IMAD.WIDE.U32 R4 <- R13 R10 stall=1\nSTG.E.64 <- UR4 R2 R6 bytes=8 pattern=uniform stall=4\n"
    "STG.E <- UR4 R4 R15 bytes=4 pattern=uniform stall=1\nend\nEXIT stall=5\n",
};

/* one iteration of the loop (0x2d0-0x3f0 of lds<0> and lds<1>, 0x2d0-0x370
 * of lds<2>, 0x270-0x390 of lds<3>) */
static void lds_loop(strbuf *b, int op)
{
    static const char *const dst32[16] = { "R4", "R7", "R8", "R9", "R11", "R13", "R15", "R17",
                                           "R19", "R20", "R18", "R16", "R14", "R12", "R10", "R5" };
    static const char *const dst128[8] = { "R4", "R32", "R24", "R28", "R36", "R8", "R12", "R16" };
    const char *addr = op == 1 ? " addr=0 lane=8" : op == 2 ? " addr=0 lane=16" : " addr=0 lane=4";
    int n = op == 2 ? 8 : 16;
    sb_printf(b, "UIADD3 UR4 <- UR4 stall=1\n");
    for (int i = 0; i < n; i++) {
        int stall = i == 1 || i == n - 1 ? 1 : 4;
        if (op == 3)
            sb_printf(b, "STS <- R4 UR5 R5 bytes=4%s stall=%d\n", addr, stall);
        else if (op == 2)
            sb_printf(b, "LDS.128 %s <- R20 UR5%s bytes=16%s stall=%d\n", dst128[i], i == 0 ? " R16" : "", addr,
                      stall);
        else
            sb_printf(b, "LDS %s <- R6 UR5%s bytes=4%s stall=%d\n", dst32[i], i == 0 ? " R5" : "", addr, stall);
        if (i == 1)
            sb_printf(b, "ISETP.LE.AND P0 <- %s UR4 stall=3\n", op == 3 ? "R7" : "R22");
    }
    sb_printf(b, "@!P0 BRA%s stall=5\n", op < 2 ? " <- R8 R9 R11" : "");
}

int gen_lds(kernel *k, int op, long iters, long warps, long smsps, long grid, sk_error *e)
{
    memset(k, 0, sizeof *k);
    const long v[] = {op, iters, warps, smsps, grid};
    if (gen_check(&gen_workloads[GEN_LDS], v, 0, 5, e) < 0)
        return e->code;
    const int kk = op < 2 ? 0 : op - 1;     /* the listing: lds<0, 1>, lds<2>, lds<3> */
    strbuf b = {NULL, 0, 0};
    sb_printf(&b, "skewsim-trace 1\nkernel lds_%s grid=%ld block=1024 regs=40 smem=32768 data=quiet\n"
              "program main\n%s%s", gen_lds_ops[op], grid, lds_fill[kk], lds_select[kk]);
    for (long w = 0; w < 32; w++) {
        if (w % 4 >= smsps || w / 4 >= warps)
            continue;
        sb_printf(&b, "ifwarp %ld\n%sloop %ld\n", w, lds_setup[kk], iters);
        lds_loop(&b, op);
        sb_printf(&b, "end\n%send\n", lds_moves[kk]);
    }
    sb_printf(&b, "%send\nendkernel\n", lds_tail[kk]);
    int rc = gen_parse(k, "gen lds", b.s, e);
    free(b.s);
    return rc;
}
