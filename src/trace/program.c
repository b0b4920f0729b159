/* program.c -- the opcode table and the pre-decoded program form.
 *
 * The simulator does not model what an instruction computes, only where it
 * goes and how long it holds the warp: a kind (ALU, load, store, barrier,
 * exit) and a functional-unit class.  Both come from the mnemonic's base, the
 * text before the first '.', so "LDG.E.128" and "LDG.E.64.CONSTANT" are one
 * row.  Modifiers that move an op to another pipe (HFMA2.MMA runs on the
 * tensor pipe on Ampere+) are deliberately ignored: one row per base keeps
 * the table auditable, and the unit latencies in the chip config are
 * calibrated against the same mapping.  A base in half_rate[] issues to half
 * of its class's lanes and holds the pipe twice the unit's ii_cycles.
 * IMAD and VIADD are such rows of the FP32 pipe (the FMA pipe): E29
 * (validation/h100/pipes, an H100's GH100 SM) ran IMAD beside LOP3 at 1.94
 * + 1.94 a cycle per SM and VIADD beside LOP3 at 1.99 + 1.97, so neither is
 * on the ALU of IADD3, LOP3 and SHF; beside each other they shared 2 a
 * cycle, and IMAD beside FFMA ran one after the other (1.32 + 1.32).
 * E16's INT32 mix (IMAD and IADD3 in turn) nevertheless runs at 2.2, not
 * 4: its register reads conflict in the banks (prog_bank_cycles,
 * sm.register_banks; validation/h100/README.md, "E29").
 * docs/trace-format.md reproduces the table.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/program.h"
#include "skewsim/memsys.h"

#define OPCODE_BASE_MAX 32

static const struct op_row {
    const char *base;
    uint8_t kind;     /* enum instr_kind */
    uint8_t cls;      /* enum fu_class */
} op_table[] = {
    /* FP32 */
    {"FFMA", IK_ALU, FU_FP32}, {"FADD", IK_ALU, FU_FP32}, {"FMUL", IK_ALU, FU_FP32},
    {"FSETP", IK_ALU, FU_FP32}, {"FMNMX", IK_ALU, FU_FP32}, {"FSEL", IK_ALU, FU_FP32},
    {"FCHK", IK_ALU, FU_FP32}, {"FSET", IK_ALU, FU_FP32}, {"I2FP", IK_ALU, FU_FP32},
    {"F2FP", IK_ALU, FU_FP32}, {"FSWZADD", IK_ALU, FU_FP32}, {"FFMA32I", IK_ALU, FU_FP32},
    {"FADD32I", IK_ALU, FU_FP32}, {"FMUL32I", IK_ALU, FU_FP32},
    {"VIADD", IK_ALU, FU_FP32},   /* an integer add, on the FP32 pipe's 16-lane half (E29) */
    {"IMAD", IK_ALU, FU_FP32},    /* the integer multiply-add, the same (E29) */
    {"IMAD32I", IK_ALU, FU_FP32}, /* IMAD with a 32-bit immediate: IMAD's pipe (not measured) */
    /* FP16 */
    {"HFMA2", IK_ALU, FU_FP16}, {"HADD2", IK_ALU, FU_FP16}, {"HMUL2", IK_ALU, FU_FP16},
    {"HSETP2", IK_ALU, FU_FP16}, {"HMNMX2", IK_ALU, FU_FP16}, {"HSET2", IK_ALU, FU_FP16},
    /* INT */
    {"IADD3", IK_ALU, FU_INT}, {"IMUL", IK_ALU, FU_INT},
    {"LOP3", IK_ALU, FU_INT}, {"LOP", IK_ALU, FU_INT}, {"PLOP3", IK_ALU, FU_INT},
    {"ISETP", IK_ALU, FU_INT}, {"SHF", IK_ALU, FU_INT}, {"SHL", IK_ALU, FU_INT},
    {"SHR", IK_ALU, FU_INT}, {"LEA", IK_ALU, FU_INT}, {"IABS", IK_ALU, FU_INT},
    {"IMNMX", IK_ALU, FU_INT}, {"SEL", IK_ALU, FU_INT}, {"PRMT", IK_ALU, FU_INT},
    {"POPC", IK_ALU, FU_INT}, {"FLO", IK_ALU, FU_INT}, {"BREV", IK_ALU, FU_INT},
    {"IADD", IK_ALU, FU_INT}, {"ISCADD", IK_ALU, FU_INT},
    {"VIMNMX", IK_ALU, FU_INT}, {"IDP", IK_ALU, FU_INT}, {"BMSK", IK_ALU, FU_INT},
    {"SGXT", IK_ALU, FU_INT}, {"IADD32I", IK_ALU, FU_INT},
    {"LOP32I", IK_ALU, FU_INT},
    /* FP64 */
    {"DFMA", IK_ALU, FU_FP64}, {"DADD", IK_ALU, FU_FP64}, {"DMUL", IK_ALU, FU_FP64},
    {"DSETP", IK_ALU, FU_FP64}, {"DMNMX", IK_ALU, FU_FP64},
    /* SFU */
    {"MUFU", IK_ALU, FU_SFU},
    /* TENSOR */
    {"HMMA", IK_ALU, FU_TENSOR}, {"HGMMA", IK_ALU, FU_TENSOR}, {"IMMA", IK_ALU, FU_TENSOR},
    {"DMMA", IK_ALU, FU_TENSOR}, {"BMMA", IK_ALU, FU_TENSOR}, {"WGMMA", IK_ALU, FU_TENSOR},
    {"QGMMA", IK_ALU, FU_TENSOR}, {"IGMMA", IK_ALU, FU_TENSOR}, {"BGMMA", IK_ALU, FU_TENSOR},
    /* global/local memory: atomics return a value, so they are loads */
    {"LDG", IK_LD_GLOBAL, FU_LDST}, {"LD", IK_LD_GLOBAL, FU_LDST},
    {"LDL", IK_LD_GLOBAL, FU_LDST}, {"ATOM", IK_LD_GLOBAL, FU_LDST},
    {"ATOMG", IK_LD_GLOBAL, FU_LDST},
    {"STG", IK_ST_GLOBAL, FU_LDST}, {"ST", IK_ST_GLOBAL, FU_LDST},
    {"STL", IK_ST_GLOBAL, FU_LDST}, {"RED", IK_ST_GLOBAL, FU_LDST},
    /* shared and constant memory */
    {"LDS", IK_LD_SHARED, FU_LDST}, {"LDSM", IK_LD_SHARED, FU_LDST},
    {"LDC", IK_LD_SHARED, FU_LDST}, {"ULDC", IK_LD_SHARED, FU_LDST},
    {"LDGSTS", IK_LD_SHARED, FU_LDST}, {"ATOMS", IK_LD_SHARED, FU_LDST},
    {"STS", IK_ST_SHARED, FU_LDST}, {"STSM", IK_ST_SHARED, FU_LDST},
    /* warp shuffle: through the shared-memory crossbar, on the LD/ST pipe
     * (E10: 24 cycles, 1 warp-instr/cycle/SM) */
    {"SHFL", IK_ALU, FU_LDST},
    /* barrier, exit */
    {"BAR", IK_BAR, FU_MISC},
    {"GRID", IK_GRIDBAR, FU_MISC},   /* GRID.SYNC pseudo-op: cooperative grid barrier */
    {"EXIT", IK_EXIT, FU_BRANCH},
    /* control flow (the trace already resolved where it goes) */
    {"BRA", IK_ALU, FU_BRANCH}, {"BRX", IK_ALU, FU_BRANCH}, {"JMP", IK_ALU, FU_BRANCH},
    {"JMX", IK_ALU, FU_BRANCH}, {"CALL", IK_ALU, FU_BRANCH}, {"RET", IK_ALU, FU_BRANCH},
    {"BSSY", IK_ALU, FU_BRANCH}, {"BSYNC", IK_ALU, FU_BRANCH},
    {"WARPSYNC", IK_ALU, FU_BRANCH}, {"YIELD", IK_ALU, FU_BRANCH},
    {"BREAK", IK_ALU, FU_BRANCH}, {"KILL", IK_ALU, FU_BRANCH}, {"BMOV", IK_ALU, FU_BRANCH},
    {"BPT", IK_ALU, FU_BRANCH},
    /* moves, special registers, uniform datapath, conversions, fences */
    {"MOV", IK_ALU, FU_MISC}, {"MOV32I", IK_ALU, FU_MISC}, {"S2R", IK_ALU, FU_MISC},
    {"CS2R", IK_ALU, FU_MISC}, {"S2UR", IK_ALU, FU_MISC}, {"UMOV", IK_ALU, FU_MISC},
    {"ULEA", IK_ALU, FU_MISC}, {"UIADD3", IK_ALU, FU_MISC}, {"ULOP3", IK_ALU, FU_MISC},
    {"USHF", IK_ALU, FU_MISC}, {"UISETP", IK_ALU, FU_MISC}, {"USEL", IK_ALU, FU_MISC},
    {"UIMAD", IK_ALU, FU_MISC}, {"UPRMT", IK_ALU, FU_MISC}, {"UFLO", IK_ALU, FU_MISC},
    {"UPOPC", IK_ALU, FU_MISC}, {"R2UR", IK_ALU, FU_MISC}, {"P2R", IK_ALU, FU_MISC},
    {"R2P", IK_ALU, FU_MISC}, {"NOP", IK_ALU, FU_MISC},
    {"VOTE", IK_ALU, FU_MISC}, {"VOTEU", IK_ALU, FU_MISC}, {"MATCH", IK_ALU, FU_MISC},
    {"REDUX", IK_ALU, FU_MISC}, {"I2F", IK_ALU, FU_MISC}, {"F2I", IK_ALU, FU_MISC},
    {"F2F", IK_ALU, FU_MISC}, {"I2I", IK_ALU, FU_MISC}, {"FRND", IK_ALU, FU_MISC},
    {"DEPBAR", IK_ALU, FU_MISC}, {"MEMBAR", IK_ALU, FU_MISC}, {"ERRBAR", IK_ALU, FU_MISC},
    {"CCTL", IK_ALU, FU_MISC}, {"NANOSLEEP", IK_ALU, FU_MISC}, {"ELECT", IK_ALU, FU_MISC},

    /* The rest of the sm_90 (Hopper) SASS base mnemonics, as NVIDIA's CUDA
     * Binary Utilities instruction-set reference lists them, so that real
     * traces (Accel-Sim, docs/accelsim.md) read whole.  Each row follows the
     * nearest row above: same datapath, same unit. */
    /* FP16 and integer variants with an immediate or SIMD form */
    {"HADD2_32I", IK_ALU, FU_FP16}, {"HFMA2_32I", IK_ALU, FU_FP16}, {"HMUL2_32I", IK_ALU, FU_FP16},
    {"VHMNMX", IK_ALU, FU_FP16}, {"ISCADD32I", IK_ALU, FU_INT}, {"IMUL32I", IK_ALU, FU_INT},
    {"IDP4A", IK_ALU, FU_INT}, {"VABSDIFF", IK_ALU, FU_INT}, {"VABSDIFF4", IK_ALU, FU_INT},
    {"VIADDMNMX", IK_ALU, FU_INT}, {"PSETP", IK_ALU, FU_INT},
    /* conversions and moves, like I2I / MOV */
    {"F2IP", IK_ALU, FU_MISC}, {"I2IP", IK_ALU, FU_MISC}, {"MOVM", IK_ALU, FU_MISC},
    /* uniform datapath, like UIADD3 */
    {"UBMSK", IK_ALU, FU_MISC}, {"UBREV", IK_ALU, FU_MISC}, {"UCLEA", IK_ALU, FU_MISC},
    {"ULOP", IK_ALU, FU_MISC}, {"ULOP32I", IK_ALU, FU_MISC}, {"UP2UR", IK_ALU, FU_MISC},
    {"UR2UP", IK_ALU, FU_MISC}, {"UPLOP3", IK_ALU, FU_MISC}, {"UPSETP", IK_ALU, FU_MISC},
    {"USGXT", IK_ALU, FU_MISC}, {"USHL", IK_ALU, FU_MISC}, {"USHR", IK_ALU, FU_MISC},
    {"USETMAXREG", IK_ALU, FU_MISC},
    /* memory: texture and surface reads return a value (loads), surface
     * writes and reductions do not (stores); LDGMC (multicast load-reduce)
     * returns one */
    {"TEX", IK_LD_GLOBAL, FU_LDST}, {"TLD", IK_LD_GLOBAL, FU_LDST}, {"TLD4", IK_LD_GLOBAL, FU_LDST},
    {"TMML", IK_LD_GLOBAL, FU_LDST}, {"TXD", IK_LD_GLOBAL, FU_LDST}, {"TXQ", IK_LD_GLOBAL, FU_LDST},
    {"SULD", IK_LD_GLOBAL, FU_LDST}, {"SUATOM", IK_LD_GLOBAL, FU_LDST},
    {"SUST", IK_ST_GLOBAL, FU_LDST}, {"SURED", IK_ST_GLOBAL, FU_LDST},
    {"LDGMC", IK_LD_GLOBAL, FU_LDST},
    /* distributed shared memory (thread-block clusters): asynchronous store
     * and reduction into shared memory */
    {"STAS", IK_ST_SHARED, FU_LDST}, {"REDAS", IK_ST_SHARED, FU_LDST},
    /* tensor memory accelerator: bulk copies between global and shared
     * memory that complete on an mbarrier, not a register, so a warp never
     * waits on them here (the SYNCS wait is an issue slot only) */
    {"UTMALDG", IK_LD_GLOBAL, FU_LDST}, {"UTMAPF", IK_LD_GLOBAL, FU_LDST},
    {"UBLKCP", IK_LD_GLOBAL, FU_LDST}, {"UBLKPF", IK_LD_GLOBAL, FU_LDST},
    {"UTMASTG", IK_ST_GLOBAL, FU_LDST}, {"UTMAREDG", IK_ST_GLOBAL, FU_LDST},
    {"UBLKRED", IK_ST_GLOBAL, FU_LDST},
    {"UTMACCTL", IK_ALU, FU_MISC}, {"UTMACMDFLUSH", IK_ALU, FU_MISC},
    /* fences, cache control, dependency barriers, mbarrier and cluster
     * barrier operations: modelled as an issue slot, not a wait */
    {"FENCE", IK_ALU, FU_MISC}, {"LDGDEPBAR", IK_ALU, FU_MISC}, {"CCTLL", IK_ALU, FU_MISC},
    {"CCTLT", IK_ALU, FU_MISC}, {"QSPC", IK_ALU, FU_MISC}, {"SYNCS", IK_ALU, FU_MISC},
    {"WARPGROUP", IK_ALU, FU_MISC}, {"UCGABAR_ARV", IK_ALU, FU_MISC},
    {"UCGABAR_WAIT", IK_ALU, FU_MISC}, {"CGAERRBAR", IK_ALU, FU_MISC},
    /* control flow */
    {"BRXU", IK_ALU, FU_BRANCH}, {"JMXU", IK_ALU, FU_BRANCH}, {"ACQBULK", IK_ALU, FU_BRANCH},
    {"PREEXIT", IK_ALU, FU_BRANCH}, {"RPCMOV", IK_ALU, FU_BRANCH},
    {"ENDCOLLECTIVE", IK_ALU, FU_BRANCH},
    /* PEXIT pseudo-op: an EXIT that an Accel-Sim trace shows before the
     * warp's last instruction, so it retired only some threads and the
     * warp went on (docs/accelsim.md) */
    {"PEXIT", IK_ALU, FU_BRANCH},
    /* miscellaneous: special and convergence-barrier registers, local
     * memory window, performance-monitor triggers */
    {"B2R", IK_ALU, FU_MISC}, {"R2B", IK_ALU, FU_MISC}, {"GETLMEMBASE", IK_ALU, FU_MISC},
    {"SETLMEMBASE", IK_ALU, FU_MISC}, {"LEPC", IK_ALU, FU_MISC}, {"PMTRIG", IK_ALU, FU_MISC},
    {"SETCTAID", IK_ALU, FU_MISC},
};

int prog_classify(const char *opcode, uint8_t *kind, uint8_t *cls, sk_error *e)
{
    size_t len = opcode ? strcspn(opcode, ".") : 0;
    if (len == 0 || len >= OPCODE_BASE_MAX)
        return sk_errorf(e, SK_ETRACE, "%s: unknown opcode", opcode && *opcode ? opcode : "''");
    for (size_t i = 0; i < SK_ARRAY_LEN(op_table); i++) {
        if (strlen(op_table[i].base) == len && memcmp(op_table[i].base, opcode, len) == 0) {
            *kind = op_table[i].kind;
            *cls = op_table[i].cls;
            return 0;
        }
    }
    return sk_errorf(e, SK_ETRACE, "%s: unknown opcode", opcode);
}

/* Bases of op_table that issue to half of their class's lanes (above). */
static const char *const half_rate[] = { "VIADD", "IMAD", "IMAD32I" };

int prog_op_half(const char *opcode)
{
    size_t len = opcode ? strcspn(opcode, ".") : 0;
    for (size_t i = 0; i < SK_ARRAY_LEN(half_rate); i++)
        if (strlen(half_rate[i]) == len && memcmp(half_rate[i], opcode, len) == 0)
            return 1;
    return 0;
}

int prog_synth_regname(uint32_t id, char *buf, size_t n)
{
    static const struct { const char *prefix; uint32_t count; } spaces[] = {
        {"R", 255}, {"UR", 63}, {"P", 7}, {"UP", 7},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(spaces); i++) {
        if (id < spaces[i].count) {
            snprintf(buf, n, "%s%u", spaces[i].prefix, id);
            return 0;
        }
        id -= spaces[i].count;
    }
    return -1;
}

int prog_vreg(const program *p, uint16_t id)
{
    if (!p->regnames)
        return id < 255 ? id : -1;
    if (id >= p->nregs)
        return -1;
    const char *s = p->regnames[id];
    if (s[0] != 'R' || s[1] < '0' || s[1] > '9')
        return -1;                      /* RZ is never interned; UR, P, UP are no vector registers */
    return atoi(s + 1);
}

unsigned prog_bank_cycles(const program *p, const instr *in, int banks)
{
    /* E29 measured 32-bit ALU ops (FFMA, FADD, IMAD, IADD3, LOP3, SHF,
     * VIADD).  A 64-bit operand (DFMA's, IMAD.WIDE's addend, a load's
     * address) reads a register pair, one of each bank, and the trace names
     * it by its first register only: those and memory ops are left out. */
    if (banks <= 0 || in->kind != IK_ALU || (in->cls != FU_FP32 && in->cls != FU_INT && in->cls != FU_FP16) ||
        (in->opcode < p->nopnames && strstr(p->opnames[in->opcode], ".WIDE")))
        return 0;
    int seen[PROG_MAX_SRC], n = 0;
    unsigned most = 0;
    for (int j = 0; j < in->nsrc; j++) {
        int r = (in->reuse >> j & 1) ? -1 : prog_vreg(p, in->src[j]);
        unsigned same = 1;              /* reads of r's bank, r's own included */
        int dup = 0;
        for (int i = 0; i < n && r >= 0; i++) {
            dup |= seen[i] == r;
            same += seen[i] % banks == r % banks;
        }
        if (r < 0 || dup)
            continue;
        seen[n++] = r;
        most = SK_MAX(most, same);
    }
    return most > 1 ? most - 1 : 0;
}

void prog_init(program *p, const char *name)
{
    memset(p, 0, sizeof *p);
    p->name = xstrdup(name);
}

uint8_t prog_mem_flags(const char *opcode, uint8_t kind)
{
    /* the cache modifiers of a global load that does not allocate in L1
     * (ld.global.cg, ld.volatile, ld.relaxed/acquire.gpu|sys) */
    if (kind == IK_LD_GLOBAL && (strstr(opcode, ".CG") || strstr(opcode, ".STRONG.GPU") ||
                                 strstr(opcode, ".STRONG.SYS") || strstr(opcode, ".VOLATILE")))
        return IF_BYPASS_L1;
    if (kind == IK_LD_SHARED || kind == IK_ST_SHARED) {
        static const char *const array_ops[] = { "LDS", "LDSM", "STS", "STSM", "ATOMS" };
        size_t len = strcspn(opcode, ".");
        for (size_t i = 0; i < SK_ARRAY_LEN(array_ops); i++)
            if (strlen(array_ops[i]) == len && memcmp(array_ops[i], opcode, len) == 0)
                return IF_SMEM;
    }
    return 0;
}

uint16_t prog_add_apat(program *p, const mem_apat *a)
{
    if (p->napats >= 65535)
        return 0;
    if (p->napats == p->apcap) {
        p->apcap = p->apcap ? 2 * p->apcap : 4;
        p->apats = xrealloc(p->apats, p->apcap * sizeof *p->apats);
    }
    p->apats[p->napats++] = *a;
    return (uint16_t)p->napats;
}

void prog_free(program *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; i < p->nopnames; i++)
        free(p->opnames[i]);
    free(p->opnames);
    free(p->opindex);
    if (p->regnames) {
        for (uint32_t i = 0; i < p->nregs; i++)
            free(p->regnames[i]);
        free(p->regnames);
    }
    free(p->code);
    free(p->apats);
    free(p->name);
    memset(p, 0, sizeof *p);
}

/* FNV-1a: mnemonics are short and few; the table only has to spread them. */
static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Slot of `opcode` in the index: its entry, or the empty slot it would take. */
static uint32_t index_slot(const program *p, const char *opcode)
{
    uint32_t mask = 2 * p->opcap - 1, i = name_hash(opcode) & mask;
    while (p->opindex[i] != 0 && strcmp(p->opnames[p->opindex[i] - 1], opcode) != 0)
        i = (i + 1) & mask;
    return i;
}

uint32_t prog_opname(program *p, const char *opcode)
{
    /* Usually a few dozen mnemonics, but a hostile trace may bring a
     * thousand and repeat them millions of times: hash, never scan. */
    if (p->opcap > 0) {
        uint32_t slot = index_slot(p, opcode);
        if (p->opindex[slot] != 0)
            return p->opindex[slot] - 1;
    }
    if (p->nopnames == p->opcap) {
        p->opcap = p->opcap ? 2 * p->opcap : 16;
        p->opnames = xrealloc(p->opnames, p->opcap * sizeof *p->opnames);
        free(p->opindex);
        p->opindex = xcalloc(2 * (size_t)p->opcap, sizeof *p->opindex);
        for (uint32_t i = 0; i < p->nopnames; i++)
            p->opindex[index_slot(p, p->opnames[i])] = i + 1;
    }
    p->opnames[p->nopnames] = xstrdup(opcode);
    p->opindex[index_slot(p, opcode)] = p->nopnames + 1;
    return p->nopnames++;
}

int prog_regname(program *p, const char *name, uint16_t *out)
{
    for (uint32_t i = 0; i < p->nregs; i++) {
        if (strcmp(p->regnames[i], name) == 0) {
            *out = (uint16_t)i;
            return 0;
        }
    }
    if (p->nregs >= PROG_MAX_REGS)
        return -1;
    if (p->nregs == p->regcap) {
        p->regcap = p->regcap ? 2 * p->regcap : 32;
        p->regnames = xrealloc(p->regnames, p->regcap * sizeof *p->regnames);
    }
    p->regnames[p->nregs] = xstrdup(name);
    *out = (uint16_t)p->nregs++;
    return 0;
}

instr *prog_append(program *p)
{
    if (p->n == p->cap) {
        assert(p->cap < UINT32_MAX / 2);
        p->cap = p->cap ? 2 * p->cap : 64;
        p->code = xrealloc(p->code, p->cap * sizeof *p->code);
    }
    instr *in = &p->code[p->n++];
    memset(in, 0, sizeof *in);
    in->stall = 1;
    return in;
}

/* round(count * work), the one rounding rule the SM model also applies. */
static uint64_t scaled_count(uint32_t count, double work)
{
    double x = round((double)count * work);
    if (!(x > 0))
        return 0;
    if (x >= 18446744073709551615.0)
        return UINT64_MAX;
    return (uint64_t)x;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    if (a != 0 && b > UINT64_MAX / a)
        return UINT64_MAX;
    return a * b;
}

/* Warp-instructions of one walk over p: loop bodies times their counts,
 * ifwarp blocks only for warp `widx` (all of them when widx < 0).
 * Saturates at UINT64_MAX. */
static uint64_t walk_count(const program *p, double work, long widx)
{
    uint64_t mult[PROG_MAX_LOOP_DEPTH + 1];
    int depth = 0;
    uint64_t total = 0;
    mult[0] = 1;
    for (uint32_t i = 0; i < p->n; i++) {
        const instr *in = &p->code[i];
        switch (in->kind) {
        case IK_LOOP: {
            uint64_t c = (in->flags & IF_WORK_SCALED) ? scaled_count(in->arg, work) : in->arg;
            assert(depth < PROG_MAX_LOOP_DEPTH);
            mult[depth + 1] = mul_sat(mult[depth], c);
            depth++;
            break;
        }
        case IK_ENDLOOP:
            assert(depth > 0);
            depth--;
            break;
        case IK_IFWARP:
            if (widx >= 0 && in->arg != (uint64_t)widx)
                i = in->jump - 1;       /* past its IK_ENDIF */
            break;
        case IK_ENDIF:
            break;
        default:
            total = mult[depth] > UINT64_MAX - total ? UINT64_MAX : total + mult[depth];
            break;
        }
    }
    return total;
}

/* Every IK_IFWARP block is counted as executed: the result is the count of
 * the warp that runs them all (warp 0 for the usual `ifwarp 0`), an upper
 * bound for the others. */
uint64_t prog_dynamic_count(const program *p, double work)
{
    return walk_count(p, work, -1);
}

uint64_t prog_warp_count(const program *p, double work, uint32_t widx)
{
    return walk_count(p, work, (long)widx);
}

void kernel_free(kernel *k)
{
    if (!k)
        return;
    for (uint32_t i = 0; i < k->nprogs; i++)
        prog_free(&k->progs[i]);
    free(k->progs);
    free(k->ctas_text);
    free(k->name);
    memset(k, 0, sizeof *k);
}
