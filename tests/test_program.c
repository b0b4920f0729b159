/* test_program.c -- the opcode table and the program form (src/trace/program.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "skewsim/program.h"

/* ------------------------------------------------------------ classify */

static const struct {
    const char *opcode;
    int kind, cls;
} classify_cases[] = {
    {"FFMA", IK_ALU, FU_FP32},
    {"FFMA.FTZ.RZ", IK_ALU, FU_FP32},
    {"FADD", IK_ALU, FU_FP32},
    {"FSETP.NEU.AND", IK_ALU, FU_FP32},
    {"I2FP.F32.U32", IK_ALU, FU_FP32},
    {"HFMA2.MMA", IK_ALU, FU_FP16},          /* by base: see program.c */
    {"HADD2.F32", IK_ALU, FU_FP16},
    {"IADD3", IK_ALU, FU_INT},
    {"IMAD.WIDE.U32", IK_ALU, FU_FP32},   /* the FMA pipe (E29) */
    {"LOP3.LUT", IK_ALU, FU_INT},
    {"ISETP.GE.U32.AND", IK_ALU, FU_INT},
    {"LEA.HI.X", IK_ALU, FU_INT},
    {"DFMA.RM", IK_ALU, FU_FP64},
    {"MUFU.RCP", IK_ALU, FU_SFU},
    {"HMMA.16816.F32", IK_ALU, FU_TENSOR},
    {"HGMMA.64x128x16.F32", IK_ALU, FU_TENSOR},
    {"LDG.E.128", IK_LD_GLOBAL, FU_LDST},
    {"LDL", IK_LD_GLOBAL, FU_LDST},
    {"ATOMG.E.ADD.F32", IK_LD_GLOBAL, FU_LDST},
    {"STG.E.64", IK_ST_GLOBAL, FU_LDST},
    {"RED.E.ADD", IK_ST_GLOBAL, FU_LDST},
    {"LDS.128", IK_LD_SHARED, FU_LDST},
    {"LDC.64", IK_LD_SHARED, FU_LDST},
    {"ULDC.64", IK_LD_SHARED, FU_LDST},
    {"STS.128", IK_ST_SHARED, FU_LDST},
    {"BAR.SYNC.DEFER_BLOCKING", IK_BAR, FU_MISC},
    {"EXIT", IK_EXIT, FU_BRANCH},
    {"BRA", IK_ALU, FU_BRANCH},
    {"BSSY", IK_ALU, FU_BRANCH},
    {"BSYNC", IK_ALU, FU_BRANCH},
    {"MOV", IK_ALU, FU_MISC},
    {"S2R", IK_ALU, FU_MISC},
    {"CS2R", IK_ALU, FU_MISC},
    {"S2UR", IK_ALU, FU_MISC},
    {"UMOV", IK_ALU, FU_MISC},
    {"ULEA", IK_ALU, FU_MISC},
    {"NOP", IK_ALU, FU_MISC},
};

START_TEST(test_classify_known)
{
    const char *op = classify_cases[_i].opcode;
    uint8_t kind = 0xff, cls = 0xff;
    sk_error e = {0};
    ck_assert_msg(prog_classify(op, &kind, &cls, &e) == 0, "%s: %s", op, e.msg);
    ck_assert_msg(kind == classify_cases[_i].kind, "%s: kind %d", op, kind);
    ck_assert_msg(cls == classify_cases[_i].cls, "%s: class %d", op, cls);
    ck_assert_int_eq(e.code, 0);
}
END_TEST

static const struct {
    const char *opcode, *msg;
} unknown_cases[] = {
    {"FOOBAR", "FOOBAR: unknown opcode"},
    {"FFM", "FFM: unknown opcode"},              /* a prefix of FFMA */
    {"FFMAX.FTZ", "FFMAX.FTZ: unknown opcode"},
    {"ffma", "ffma: unknown opcode"},            /* mnemonics are upper case */
    {".FFMA", ".FFMA: unknown opcode"},          /* empty base */
    {"", "'': unknown opcode"},
    {"AVERYLONGMNEMONICTHATNOTABLEHOLDSATALL", "AVERYLONGMNEMONICTHATNOTABLEHOLDSATALL: unknown opcode"},
};

START_TEST(test_classify_unknown)
{
    uint8_t kind = 7, cls = 7;
    sk_error e = {0};
    ck_assert_int_eq(prog_classify(unknown_cases[_i].opcode, &kind, &cls, &e), SK_ETRACE);
    ck_assert_int_eq(e.code, SK_ETRACE);
    ck_assert_str_eq(e.msg, unknown_cases[_i].msg);
    ck_assert_int_eq(kind, 7);                   /* untouched on failure */
    ck_assert_int_eq(cls, 7);
}
END_TEST

START_TEST(test_classify_first_error_wins)
{
    uint8_t kind, cls;
    sk_error e = {0};
    ck_assert_int_eq(prog_classify("XYZ", &kind, &cls, &e), SK_ETRACE);
    ck_assert_int_eq(prog_classify("ABC", &kind, &cls, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, "XYZ: unknown opcode");
    ck_assert_int_eq(prog_classify("FFMA", &kind, &cls, NULL), 0);
    ck_assert_int_eq(prog_classify("XYZ", &kind, &cls, NULL), SK_ETRACE);
}
END_TEST

/* ------------------------------------------------------------ building */

START_TEST(test_prog_build)
{
    program p;
    prog_init(&p, "main");
    ck_assert_str_eq(p.name, "main");
    ck_assert_uint_eq(p.n, 0);
    ck_assert_ptr_null(p.regnames);
    for (uint32_t i = 0; i < 1000; i++) {
        instr *in = prog_append(&p);
        ck_assert_uint_eq(in->stall, 1);
        ck_assert_uint_eq(in->kind, 0);
        ck_assert_uint_eq(in->ndst + in->nsrc + in->arg + in->jump + in->flags, 0);
        in->arg = i;
    }
    ck_assert_uint_eq(p.n, 1000);
    for (uint32_t i = 0; i < 1000; i++)
        ck_assert_uint_eq(p.code[i].arg, i);

    ck_assert_uint_eq(prog_opname(&p, "FFMA"), 0);
    ck_assert_uint_eq(prog_opname(&p, "IADD3"), 1);
    ck_assert_uint_eq(prog_opname(&p, "FFMA"), 0);
    char name[16];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "OP%d", i);
        ck_assert_uint_eq(prog_opname(&p, name), (uint32_t)i + 2);
    }
    ck_assert_uint_eq(p.nopnames, 102);
    ck_assert_uint_eq(prog_opname(&p, "OP50"), 52);
    ck_assert_str_eq(p.opnames[1], "IADD3");
    prog_free(&p);
    ck_assert_ptr_null(p.code);
    prog_free(&p);          /* freed twice: zeroed, still fine */
    prog_free(NULL);
    kernel_free(NULL);
}
END_TEST

/* Hand-built: loop 3 { A; loop 4 work { B; C } }; ifwarp 0 { D }; EXIT */
static void build_nested(program *p)
{
    struct { uint8_t kind; uint32_t arg; uint8_t flags; } seq[] = {
        {IK_LOOP, 3, 0}, {IK_ALU, 0, 0}, {IK_LOOP, 4, IF_WORK_SCALED}, {IK_ALU, 0, 0},
        {IK_ALU, 0, 0}, {IK_ENDLOOP, 2, 0}, {IK_ENDLOOP, 0, 0}, {IK_IFWARP, 0, 0},
        {IK_ST_GLOBAL, 0, 0}, {IK_ENDIF, 7, 0}, {IK_EXIT, 0, 0},
    };
    prog_init(p, "nested");
    for (size_t i = 0; i < SK_ARRAY_LEN(seq); i++) {
        instr *in = prog_append(p);
        in->kind = seq[i].kind;
        in->arg = seq[i].arg;
        in->flags = seq[i].flags;
    }
    p->code[0].jump = 7;
    p->code[2].jump = 6;
    p->code[7].jump = 10;
}

START_TEST(test_dynamic_count)
{
    program p;
    build_nested(&p);
    /* 3 * (1 + round(4 w) * 2) + D + EXIT; the ifwarp block is counted. */
    ck_assert_uint_eq(prog_dynamic_count(&p, 1.0), 3 * (1 + 4 * 2) + 2);
    ck_assert_uint_eq(prog_dynamic_count(&p, 0.5), 3 * (1 + 2 * 2) + 2);
    ck_assert_uint_eq(prog_dynamic_count(&p, 0.0), 3 + 2);
    ck_assert_uint_eq(prog_dynamic_count(&p, 0.125), 3 * (1 + 1 * 2) + 2);   /* round(0.5) = 1 */
    ck_assert_uint_eq(prog_dynamic_count(&p, 0.1), 3 + 2);                   /* round(0.4) = 0 */
    ck_assert_uint_eq(prog_dynamic_count(&p, 2.5), 3 * (1 + 10 * 2) + 2);
    prog_free(&p);
}
END_TEST

START_TEST(test_dynamic_count_saturates)
{
    program p;
    prog_init(&p, "deep");
    for (int i = 0; i < PROG_MAX_LOOP_DEPTH; i++) {
        instr *in = prog_append(&p);
        in->kind = IK_LOOP;
        in->arg = UINT32_MAX;
        in->flags = i == 0 ? IF_WORK_SCALED : 0;
    }
    prog_append(&p)->kind = IK_ALU;
    for (int i = PROG_MAX_LOOP_DEPTH - 1; i >= 0; i--) {
        instr *in = prog_append(&p);
        in->kind = IK_ENDLOOP;
        in->arg = (uint32_t)i;
    }
    prog_append(&p)->kind = IK_EXIT;
    ck_assert_uint_eq(prog_dynamic_count(&p, 1.0), UINT64_MAX);
    ck_assert_uint_eq(prog_dynamic_count(&p, 0.0), 1);
    prog_free(&p);
}
END_TEST

START_TEST(test_kernel_free)
{
    kernel k;
    memset(&k, 0, sizeof k);
    k.name = xstrdup("k");
    k.nprogs = 2;
    k.progs = xcalloc(2, sizeof *k.progs);
    build_nested(&k.progs[0]);
    prog_init(&k.progs[1], "other");
    prog_opname(&k.progs[1], "EXIT");
    kernel_free(&k);
    ck_assert_ptr_null(k.progs);
    ck_assert_uint_eq(k.nprogs, 0);
    kernel_free(&k);
}
END_TEST

Suite *program_suite(void)
{
    Suite *s = suite_create("program");
    TCase *tc = tcase_create("classify");
    tcase_add_loop_test(tc, test_classify_known, 0, (int)SK_ARRAY_LEN(classify_cases));
    tcase_add_loop_test(tc, test_classify_unknown, 0, (int)SK_ARRAY_LEN(unknown_cases));
    tcase_add_test(tc, test_classify_first_error_wins);
    suite_add_tcase(s, tc);
    tc = tcase_create("build");
    tcase_add_test(tc, test_prog_build);
    tcase_add_test(tc, test_dynamic_count);
    tcase_add_test(tc, test_dynamic_count_saturates);
    tcase_add_test(tc, test_kernel_free);
    suite_add_tcase(s, tc);
    return s;
}
