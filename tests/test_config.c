/* test_config.c -- the schema table, the YAML loader, --set overrides and the
 * cross checks.  Bad inputs are files under tests/data/config/, each paired
 * with the exact message a user would see. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/config.h"
#include "tests.h"
#include "testutil.h"

#define CFGDIR TEST_DATA "/config/"

/* ---- helpers ---------------------------------------------------------- */

/* cfg_dump() into a malloc'd string (caller frees). */
static char *dump_string(const cfg *c, int with_help)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    cfg_dump(c, f, with_help);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

static void load_ok(cfg *c, const char *path)
{
    sk_error e = { 0 };
    int rc = cfg_load_file(c, path, &e);
    ck_assert_msg(rc == 0, "%s: %s", path, e.msg);
    rc = cfg_validate(c, &e);
    ck_assert_msg(rc == 0, "%s: %s", path, e.msg);
}

static void set_ok(cfg *c, const char *assignment)
{
    sk_error e = { 0 };
    int rc = cfg_set(c, assignment, &e);
    ck_assert_msg(rc == 0, "%s: %s", assignment, e.msg);
}

/* ---- bad files -------------------------------------------------------- */

static const struct bad_file {
    const char *path;
    int code;
    const char *msg;
} bad_files[] = {
#define BAD(file, code, rest) { CFGDIR file, code, CFGDIR file rest }
    BAD("range.yaml", SK_ERANGE,
        ":3:20: sm.warp_schedulers: 0: expected an integer in 1..32"),
    BAD("negative.yaml", SK_ERANGE,
        ":2:13: sm.max_ctas: -1: expected an integer in 1..1024"),
    BAD("overflow.yaml", SK_ERANGE,
        ":2:14: sm.registers: 99999999999999999999: expected an integer in 1..16777216"),
    BAD("trailing_junk.yaml", SK_ECONFIG,
        ":2:13: sm.max_ctas: 12abc: expected an integer in 1..1024"),
    BAD("float.yaml", SK_ECONFIG,
        ":2:11: clocks.sm_mhz: 1980.5: expected an integer in 100..10000"),
    BAD("string_for_int.yaml", SK_ECONFIG,
        ":2:13: sm.max_ctas: lots: expected an integer in 1..1024"),
    BAD("quoted_int.yaml", SK_ECONFIG,
        ":2:13: sm.max_ctas: \"32\": expected an integer in 1..1024, not a quoted string"),
    BAD("leading_zero.yaml", SK_ECONFIG,
        ":2:13: sm.max_ctas: 010: expected an integer in 1..1024, without leading zeros"),
    BAD("null_value.yaml", SK_ECONFIG,
        ":2:13: sm.max_warps: (empty): expected an integer in 1..1024"),
    BAD("bad_enum.yaml", SK_ECONFIG,
        ":2:16: sm.warp_policy: fifo: expected one of gto, lrr, oldest, two_level, baws, ccws, cta_rr"),
    BAD("name_too_long.yaml", SK_ERANGE,
        ":2:9: chip.name: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...: "
        "expected a string of 1..63 printable ASCII characters"),
    BAD("unknown_key.yaml", SK_ECONFIG,
        ":2:3: sm.wrap_schedulers: unknown key: expected one of the keys listed by "
        "'skewsim config --help-config'; did you mean sm.warp_schedulers?"),
    BAD("unknown_section.yaml", SK_ECONFIG,
        ":3:1: frobnicate: unknown key: expected one of the keys listed by "
        "'skewsim config --help-config'"),
    BAD("duplicate_key.yaml", SK_ECONFIG,
        ":4:3: sm.max_ctas: duplicate key: first set at line 2"),
    BAD("duplicate_section.yaml", SK_ECONFIG,
        ":4:1: sm: duplicate key: first set at line 1"),
    BAD("mapping_for_scalar.yaml", SK_ECONFIG,
        ":2:20: sm.warp_schedulers: a mapping: expected an integer in 1..32"),
    BAD("sequence_for_scalar.yaml", SK_ECONFIG,
        ":2:13: sm.max_ctas: a sequence: expected an integer in 1..1024"),
    BAD("scalar_for_mapping.yaml", SK_ECONFIG,
        ":1:5: sm: 4: expected a mapping of sm.* settings"),
    BAD("sequence_for_mapping.yaml", SK_ECONFIG,
        ":2:9: units.fp32: a sequence: expected a mapping of units.fp32.* settings"),
    BAD("complex_key.yaml", SK_ECONFIG,
        ":1:3: (document): a sequence as a key: expected a setting name"),
    BAD("empty.yaml", SK_ECONFIG,
        ":1:1: (document): empty: expected a mapping of settings"),
    BAD("comments_only.yaml", SK_ECONFIG,
        ":1:1: (document): empty: expected a mapping of settings"),
    BAD("top_scalar.yaml", SK_ECONFIG,
        ":1:1: (document): just a string: expected a mapping of settings"),
    BAD("top_sequence.yaml", SK_ECONFIG,
        ":1:1: (document): a sequence: expected a mapping of settings"),
    BAD("two_documents.yaml", SK_ECONFIG,
        ":3:1: (document): a second document: expected one document per file"),
    BAD("syntax.yaml", SK_ECONFIG,
        ":3:2: (yaml): did not find expected key (while parsing a block mapping at line 1)"),
    BAD("syntax2.yaml", SK_ECONFIG,
        ":3:16: (yaml): mapping values are not allowed in this context"),
    BAD("tab.yaml", SK_ECONFIG,
        ":2:1: (yaml): found character that cannot start any token "
        "(while scanning for the next token at line 2)"),
    BAD("unclosed_flow.yaml", SK_ECONFIG,
        ":2:1: (yaml): did not find expected ',' or '}' (while parsing a flow mapping at line 1)"),
    BAD("not_utf8.yaml", SK_ECONFIG,
        ":2:14: (yaml): invalid trailing UTF-8 octet 0x22"),
    BAD("alias.yaml", SK_ECONFIG,
        ":2:14: sm.max_warps: *w: expected a value, not an alias "
        "(anchors and aliases are not supported)"),
    BAD("anchor.yaml", SK_ECONFIG,
        ":2:20: sm.warp_schedulers: &w: expected a value without an anchor "
        "(anchors and aliases are not supported)"),
    BAD("tag.yaml", SK_ECONFIG,
        ":2:13: sm.max_ctas: 32: expected a value without a tag (found !!int)"),
    BAD("list_bad_entry.yaml", SK_ECONFIG,
        ":3:24: topology.tpcs_per_gpc[2]: x: expected an integer in 1..64"),
    BAD("list_nested.yaml", SK_ECONFIG,
        ":4:7: topology.tpcs_per_gpc[1]: a sequence: expected an integer in 1..64"),
    BAD("list_empty.yaml", SK_ECONFIG,
        ":2:17: topology.tpcs_per_gpc: []: expected an integer in 1..64, "
        "or a list of them (one per GPC)"),
    BAD("list_too_long.yaml", SK_ERANGE,
        ":2:82: topology.tpcs_per_gpc[32]: 1: expected at most 32 entries (one per GPC)"),
#undef BAD
};

START_TEST(test_bad_file)
{
    const struct bad_file *b = &bad_files[_i];
    cfg c, before;
    sk_error e = { 0 };
    cfg_defaults(&c);
    before = c;
    int rc = cfg_load_file(&c, b->path, &e);
    ck_assert_int_eq(rc, b->code);
    ck_assert_int_eq(e.code, b->code);
    ck_assert_str_eq(e.msg, b->msg);
    /* a failed load leaves the config as it was */
    ck_assert(memcmp(&c, &before, sizeof c) == 0);
}
END_TEST

START_TEST(test_missing_file)
{
    cfg c;
    sk_error e = { 0 };
    char want[256];
    cfg_defaults(&c);
    snprintf(want, sizeof want, CFGDIR "no_such_file.yaml: cannot open: %s", strerror(ENOENT));
    ck_assert_int_eq(cfg_load_file(&c, CFGDIR "no_such_file.yaml", &e), SK_EIO);
    ck_assert_str_eq(e.msg, want);
}
END_TEST

/* Messages use the name given to cfg_load_string(). */
START_TEST(test_load_string_errors)
{
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    ck_assert_int_eq(cfg_load_string(&c, "<inline>", "sm:\n  max_ctas: 2048\n", &e), SK_ERANGE);
    ck_assert_str_eq(e.msg, "<inline>:2:13: sm.max_ctas: 2048: expected an integer in 1..1024");

    sk_error e2 = { 0 };
    ck_assert_int_eq(cfg_load_string(&c, "s", "sim: {seed: 18446744073709551616}", &e2), SK_ERANGE);
    ck_assert_str_eq(e2.msg, "s:1:13: sim.seed: 18446744073709551616: "
                     "expected an integer in 0..18446744073709551615");

    sk_error e3 = { 0 };
    ck_assert_int_eq(cfg_load_string(&c, "s", "sim: {max_time_ns: 9223372036854776}", &e3),
                     SK_ERANGE);
    ck_assert_str_eq(e3.msg, "s:1:20: sim.max_time_ns: 9223372036854776: "
                     "expected an integer in 0..9223372036854775");

    sk_error e4 = { 0 };
    ck_assert_int_eq(cfg_load_string(&c, "s", "chip: {name: \"a\\tb\"}", &e4), SK_ECONFIG);
    ck_assert_str_eq(e4.msg, "s:1:14: chip.name: a?b: expected a string of 1..63 "
                     "printable ASCII characters");

    sk_error e5 = { 0 };
    ck_assert_int_eq(cfg_load_string(&c, "s", "units:\n  fp23:\n    count: 2\n", &e5), SK_ECONFIG);
    ck_assert_str_eq(e5.msg, "s:2:3: units.fp23: unknown key: expected one of the keys listed "
                     "by 'skewsim config --help-config'; did you mean units.fp32?");
}
END_TEST

/* ---- good input --------------------------------------------------------- */

START_TEST(test_defaults)
{
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    ck_assert_str_eq(c.name, "generic");
    ck_assert_int_eq(c.gpcs, 8);
    for (int g = 0; g < CFG_MAX_GPCS; g++)
        ck_assert_int_eq(c.tpcs_per_gpc[g], 8);
    ck_assert_int_eq(c.numbering, NUMBER_GPC_MAJOR);
    ck_assert_int_eq(c.warp_schedulers, 2);
    ck_assert_int_eq(c.warp_policy, WARP_GTO);
    ck_assert_int_eq(c.units[FU_SFU].lat_cycles, 23);
    ck_assert_int_eq(c.units[FU_TENSOR].ii_cycles, 8);
    ck_assert_int_eq(c.units[FU_INT].ii_cycles, 2);
    ck_assert_int_eq(c.sm_mhz, 1980);
    ck_assert_int_eq(c.dispatch_policy, DISPATCH_GIGATHREAD);
    ck_assert_uint_eq(c.seed, 1);
    ck_assert_int_eq(c.max_time_ns, 0);
    ck_assert_int_eq(cfg_validate(&c, &e), 0);
    ck_assert_int_eq(cfg_num_tpcs(&c), 64);
    ck_assert_int_eq(cfg_num_sms(&c), 128);
    ck_assert_str_eq(fu_class_name(FU_FP32), "fp32");
    ck_assert_str_eq(fu_class_name(FU_MISC), "misc");
    ck_assert_str_eq(fu_class_name(FU_NCLASS), "?");
}
END_TEST

/* Every default is accepted by its own row's parser and bounds, and setting
 * it again changes nothing. */
START_TEST(test_schema_defaults_in_bounds)
{
    cfg d, c;
    cfg_defaults(&d);
    c = d;
    ck_assert_uint_gt(cfg_schema_len(), 50);
    for (size_t i = 0; i < cfg_schema_len(); i++) {
        char a[256];
        snprintf(a, sizeof a, "%s=%s", cfg_schema_key(i), cfg_schema_default(i));
        set_ok(&c, a);
        for (size_t j = 0; j < i; j++)
            ck_assert_str_ne(cfg_schema_key(i), cfg_schema_key(j));
    }
    ck_assert(memcmp(&c, &d, sizeof c) == 0);
    ck_assert_ptr_null(cfg_schema_key(cfg_schema_len()));
    ck_assert_ptr_null(cfg_schema_default(cfg_schema_len()));
}
END_TEST

/* One units.* row of each kind per class, generated from FU_CLASS_MAP. */
START_TEST(test_schema_units)
{
    for (int cls = 0; cls < FU_NCLASS; cls++) {
        static const char *const fields[] = { "count", "lat_cycles", "ii_cycles" };
        for (size_t f = 0; f < 3; f++) {
            char key[64];
            int found = 0;
            snprintf(key, sizeof key, "units.%s.%s", fu_class_name(cls), fields[f]);
            for (size_t i = 0; i < cfg_schema_len(); i++)
                found += strcmp(cfg_schema_key(i), key) == 0;
            ck_assert_msg(found == 1, "%s appears %d times", key, found);
        }
    }
}
END_TEST

START_TEST(test_block_and_flow)
{
    cfg a, b;
    cfg_defaults(&a);
    cfg_defaults(&b);
    load_ok(&a, CFGDIR "good_block.yaml");
    load_ok(&b, CFGDIR "good_flow.yaml");
    ck_assert(memcmp(&a, &b, sizeof a) == 0);

    static const int tpcs[] = { 4, 8, 8, 8, 8, 8, 9, 9 };
    ck_assert_str_eq(a.name, "H200 \"SXM\" \\ 141GB");
    for (int g = 0; g < 8; g++)
        ck_assert_int_eq(a.tpcs_per_gpc[g], tpcs[g]);
    ck_assert_int_eq(a.tpcs_per_gpc[8], 0);
    ck_assert_int_eq(cfg_num_tpcs(&a), 62);
    ck_assert_int_eq(cfg_num_sms(&a), 124);
    ck_assert_int_eq(a.numbering, NUMBER_TPC_ROUND_ROBIN);
    ck_assert_int_eq(a.tail_gpcs, 1);
    ck_assert_int_eq(a.warp_schedulers, 4);
    ck_assert_int_eq(a.warp_policy, WARP_LRR);
    ck_assert_int_eq(a.units[FU_FP32].count, 2);
    ck_assert_int_eq(a.units[FU_SFU].lat_cycles, 18);
    ck_assert_int_eq(a.units[FU_FP16].lat_cycles, 4); /* untouched: default */
    ck_assert_int_eq(a.dispatch_policy, DISPATCH_ROUND_ROBIN);
    ck_assert_int_eq(a.dispatch_cta_ps, 2500);
    ck_assert_uint_eq(a.seed, UINT64_MAX);
    ck_assert_int_eq(a.max_time_ns, 1000000000);
}
END_TEST

/* Dotted keys may also be written in full, at any level. */
START_TEST(test_dotted_keys)
{
    cfg a, b;
    sk_error e = { 0 };
    cfg_defaults(&a);
    cfg_defaults(&b);
    ck_assert_int_eq(cfg_load_string(&a, "a", "sm.warp_schedulers: 4\n"
                                     "units: {fp32.count: 2}\n", &e), 0);
    ck_assert_int_eq(cfg_load_string(&b, "b", "sm: {warp_schedulers: 4}\n"
                                     "units: {fp32: {count: 2}}\n", &e), 0);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    ck_assert_int_eq(cfg_load_string(&a, "c", "sm.max_ctas: 4\nsm: {max_ctas: 5}\n", &e),
                     SK_ECONFIG);
    ck_assert_str_eq(e.msg, "c:2:6: sm.max_ctas: duplicate key: first set at line 1");
}
END_TEST

START_TEST(test_tpcs_list_and_scalar)
{
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    ck_assert_int_eq(cfg_load_string(&c, "s", "topology: {gpcs: 3, tpcs_per_gpc: 5}", &e), 0);
    ck_assert_int_eq(cfg_validate(&c, &e), 0);
    ck_assert_int_eq(cfg_num_tpcs(&c), 15);
    ck_assert_int_eq(cfg_load_string(&c, "s", "topology:\n  tpcs_per_gpc:\n  - 1\n  - 2\n"
                                     "  - 3\n", &e), 0);
    ck_assert_int_eq(cfg_validate(&c, &e), 0);
    ck_assert_int_eq(cfg_num_tpcs(&c), 6);
    /* a list of 32 equal entries is the same as the scalar */
    char buf[256] = "topology.tpcs_per_gpc=7";
    for (int g = 1; g < CFG_MAX_GPCS; g++)
        strcat(buf, ",7");
    set_ok(&c, buf);
    ck_assert_int_eq(cfg_validate(&c, &e), 0);
    ck_assert_int_eq(cfg_num_tpcs(&c), 21);
}
END_TEST

/* dump -> load gives identical values, with and without help comments. */
START_TEST(test_dump_round_trip)
{
    static const char *const inputs[] = { NULL, CFGDIR "good_block.yaml" };
    for (size_t t = 0; t < SK_ARRAY_LEN(inputs); t++) {
        for (int with_help = 0; with_help <= 1; with_help++) {
            cfg a, b;
            sk_error e = { 0 };
            cfg_defaults(&a);
            if (inputs[t])
                load_ok(&a, inputs[t]);
            set_ok(&a, "sim.seed=12345678901234567890");
            set_ok(&a, "sm.max_threads=1536");
            char *text = dump_string(&a, with_help);
            memset(&b, 0, sizeof b);
            int rc = cfg_load_string(&b, "dump", text, &e);
            ck_assert_msg(rc == 0, "%s\n%s", e.msg, text);
            ck_assert(memcmp(&a, &b, sizeof a) == 0);
            char *again = dump_string(&b, with_help);
            ck_assert_str_eq(text, again);
            free(again);
            free(text);
        }
    }
}
END_TEST

/* Every field of cfg has a row: loading a full dump over a struct of 0x00
 * bytes and over one of 0xff bytes, the bytes that stay different were
 * written by no row.  Only alignment padding may remain, which with cfg's
 * int and 64-bit members is one run of under 8 bytes ending at an 8-aligned
 * offset.  A field added to config.h without a schema row shows up here. */
START_TEST(test_schema_covers_struct)
{
    cfg d, lo, hi;
    sk_error e = { 0 };
    cfg_defaults(&d);
    char *text = dump_string(&d, 0);
    memset(&lo, 0x00, sizeof lo);
    memset(&hi, 0xff, sizeof hi);
    ck_assert_int_eq(cfg_load_string(&lo, "dump", text, &e), 0);
    ck_assert_int_eq(cfg_load_string(&hi, "dump", text, &e), 0);
    free(text);

    const unsigned char *a = (const unsigned char *)&lo, *b = (const unsigned char *)&hi;
    size_t unwritten = 0;
    for (size_t i = 0; i < sizeof(cfg); i++) {
        if (a[i] == b[i])
            continue;
        size_t j = i;
        while (j < sizeof(cfg) && a[j] != b[j])
            j++;
        ck_assert_msg(j - i < 8 && j % 8 == 0,
                      "cfg bytes %zu..%zu are set by no schema row", i, j - 1);
        unwritten += j - i;
        i = j;
    }
    ck_assert_uint_lt(unwritten, 8);
}
END_TEST

START_TEST(test_help_lists_every_key)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    cfg_help(f);
    ck_assert_int_eq(fclose(f), 0);
    for (size_t i = 0; i < cfg_schema_len(); i++) {
        char line[128];
        snprintf(line, sizeof line, "\n%s ", cfg_schema_key(i));
        ck_assert_msg(strstr(buf, line) != NULL, "%s missing from help", cfg_schema_key(i));
    }
    ck_assert_ptr_nonnull(strstr(buf, "gto|lrr|oldest"));
    free(buf);
}
END_TEST

/* The policy choices, their help and the enum all come from the lists of
 * policies.h: each row's name sets its enum value and has its line of
 * help, and the choices are exactly the rows, in order. */
static const struct {
    const char *key, *name, *help;
    int value;
} policy_rows[] = {
#define ROW_D_(id, name, help) {"dispatch.policy", #name, help, DISPATCH_##id},
    DISPATCH_POLICY_MAP(ROW_D_)
#undef ROW_D_
#define ROW_W_(id, name, help) {"sm.warp_policy", #name, help, WARP_##id},
    WARP_POLICY_MAP(ROW_W_)
#undef ROW_W_
};

START_TEST(test_policy_rows)
{
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    ck_assert_int_eq(cfg_set_value(&c, policy_rows[_i].key, policy_rows[_i].name, &e), 0);
    int got = strcmp(policy_rows[_i].key, "sm.warp_policy") == 0 ? c.warp_policy : c.dispatch_policy;
    ck_assert_int_eq(got, policy_rows[_i].value);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    cfg_help(f);
    ck_assert_int_eq(fclose(f), 0);
    char want[256];
    snprintf(want, sizeof want, " %s: %s.", policy_rows[_i].name, policy_rows[_i].help);
    ck_assert_msg(strstr(buf, want) != NULL, "help lacks \"%s\"", want);
    free(buf);
}
END_TEST

START_TEST(test_policy_choices)
{
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    ck_assert_int_eq(cfg_set_value(&c, "dispatch.policy", "no_such_policy", &e), SK_ECONFIG);
    ck_assert_str_eq(e.msg, "dispatch.policy: no_such_policy: expected one of gigathread, round_robin, clock_aware, greedy, lcs, bcs, dyncta, static_weights, learned, oracle, freq_aware, numa, numa_idsplit");
    ck_assert_int_eq(DISPATCH_NPOLICIES + WARP_NPOLICIES, (int)SK_ARRAY_LEN(policy_rows));
}
END_TEST

/* ---- --set -------------------------------------------------------------- */

START_TEST(test_set_good)
{
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    set_ok(&c, "sm.warp_schedulers=4");
    set_ok(&c, "sm.warp_policy=oldest");
    set_ok(&c, "chip.name=my chip = big");
    set_ok(&c, "units.tensor.lat_cycles=0");
    set_ok(&c, "topology.gpcs=4");
    set_ok(&c, "topology.tpcs_per_gpc=4,8,9,9");
    ck_assert_int_eq(c.warp_schedulers, 4);
    ck_assert_int_eq(c.warp_policy, WARP_OLDEST);
    ck_assert_str_eq(c.name, "my chip = big");
    ck_assert_int_eq(c.units[FU_TENSOR].lat_cycles, 0);
    ck_assert_int_eq(cfg_validate(&c, &e), 0);
    ck_assert_int_eq(cfg_num_tpcs(&c), 30);
    set_ok(&c, "topology.tpcs_per_gpc=2");
    ck_assert_int_eq(cfg_num_tpcs(&c), 8);
    ck_assert_int_eq(c.tpcs_per_gpc[CFG_MAX_GPCS - 1], 2);
}
END_TEST

static const struct bad_set {
    const char *assignment;
    int code;
    const char *msg;
} bad_sets[] = {
    { "sm.warp_schedulers", SK_EUSAGE,
      "--set sm.warp_schedulers: missing '=': expected KEY=VALUE" },
    { "sm.warp_schedulers=0", SK_ERANGE,
      "--set sm.warp_schedulers=0: sm.warp_schedulers: 0: expected an integer in 1..32" },
    { "sm.warp_schedulers=", SK_ECONFIG,
      "--set sm.warp_schedulers=: sm.warp_schedulers: (empty): expected an integer in 1..32" },
    { "sm.warp_schedulers=4x", SK_ECONFIG,
      "--set sm.warp_schedulers=4x: sm.warp_schedulers: 4x: expected an integer in 1..32" },
    { "sm.warp_schedulers= 4", SK_ECONFIG,
      "--set sm.warp_schedulers= 4: sm.warp_schedulers:  4: expected an integer in 1..32" },
    { "sm.warp_schedulers=+4", SK_ECONFIG,
      "--set sm.warp_schedulers=+4: sm.warp_schedulers: +4: expected an integer in 1..32" },
    { "sm.registers=-99999999999999999999", SK_ERANGE,
      "--set sm.registers=-99999999999999999999: sm.registers: -99999999999999999999: "
      "expected an integer in 1..16777216" },
    { "sim.seed=-1", SK_ECONFIG,
      "--set sim.seed=-1: sim.seed: -1: expected an integer in 0..18446744073709551615" },
    { "sm.warp_policy=GTO", SK_ECONFIG,
      "--set sm.warp_policy=GTO: sm.warp_policy: GTO: expected one of gto, lrr, oldest, two_level, baws, ccws, cta_rr" },
    { "sm.wrap_schedulers=4", SK_ECONFIG,
      "--set sm.wrap_schedulers=4: sm.wrap_schedulers: unknown key: expected one of the keys "
      "listed by 'skewsim config --help-config'; did you mean sm.warp_schedulers?" },
    { "=4", SK_ECONFIG,
      "--set =4: (empty): unknown key: expected one of the keys listed by "
      "'skewsim config --help-config'" },
    { "units.fp32=4", SK_ECONFIG,
      "--set units.fp32=4: units.fp32: a section: expected one of its keys, "
      "e.g. units.fp32.count" },
    { "chip.name=", SK_ECONFIG,
      "--set chip.name=: chip.name: (empty): expected a string of 1..63 printable ASCII characters" },
    { "topology.tpcs_per_gpc=4,8,,8", SK_ECONFIG,
      "--set topology.tpcs_per_gpc=4,8,,8: topology.tpcs_per_gpc[2]: (empty): "
      "expected an integer in 1..64" },
    { "topology.tpcs_per_gpc=4,08", SK_ECONFIG,
      "--set topology.tpcs_per_gpc=4,08: topology.tpcs_per_gpc[1]: 08: "
      "expected an integer in 1..64, without leading zeros" },
    { "topology.tpcs_per_gpc=4,65", SK_ERANGE,
      "--set topology.tpcs_per_gpc=4,65: topology.tpcs_per_gpc[1]: 65: "
      "expected an integer in 1..64" },
    { "topology.tpcs_per_gpc=x", SK_ECONFIG,
      "--set topology.tpcs_per_gpc=x: topology.tpcs_per_gpc: x: "
      "expected an integer in 1..64, or a list of them (one per GPC)" },
    { "topology.tpcs_per_gpc=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
      SK_ERANGE,
      "--set topology.tpcs_per_gpc=1,1,1,1,1,1,1,1,1,1,1,1,1,...: "
      "topology.tpcs_per_gpc[32]: 1: expected at most 32 entries (one per GPC)" },
};

START_TEST(test_set_bad)
{
    const struct bad_set *b = &bad_sets[_i];
    cfg c, before;
    sk_error e = { 0 };
    cfg_defaults(&c);
    before = c;
    ck_assert_int_eq(cfg_set(&c, b->assignment, &e), b->code);
    ck_assert_str_eq(e.msg, b->msg);
    ck_assert(memcmp(&c, &before, sizeof c) == 0);
}
END_TEST

/* ---- cross checks ----------------------------------------------------- */

static const struct bad_combo {
    const char *sets[3];
    const char *msg;
} bad_combos[] = {
    { { "sm.warp_schedulers=4", "sm.max_warps=62" },
      "config: sm.max_warps: 62: expected a multiple of sm.warp_schedulers (4)" },
    { { "sm.max_threads=4096" },
      "config: sm.max_threads: 4096: expected at most sm.max_warps * 32 (2048)" },
    { { "topology.tpcs_per_gpc=4,8,8,8,8,8,9" },
      "config: topology.tpcs_per_gpc: a list of 7: expected one entry per GPC (topology.gpcs = 8)" },
    { { "topology.tpcs_per_gpc=4,8,8,8,8,8,9,9", "topology.gpcs=9" },
      "config: topology.tpcs_per_gpc: a list of 8: expected one entry per GPC (topology.gpcs = 9)" },
    { { "topology.tpcs_per_gpc=4,8,8,8,8,8,9,9", "topology.gpcs=7" },
      "config: topology.tpcs_per_gpc: a list of 8: expected one entry per GPC (topology.gpcs = 7)" },
    { { "topology.tail_gpcs=8" },
      "config: topology.tail_gpcs: 8: expected less than topology.gpcs (8)" },
    { { "sm.registers=128" },
      "config: sm.reg_alloc_unit: 256: expected at most sm.registers (128)" },
    { { "sm.smem_bytes=0" },
      "config: sm.smem_reserved_per_cta_bytes: 1024: expected at most sm.smem_bytes (0)" },
};

START_TEST(test_validate_bad)
{
    const struct bad_combo *b = &bad_combos[_i];
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    for (size_t i = 0; i < SK_ARRAY_LEN(b->sets) && b->sets[i]; i++)
        set_ok(&c, b->sets[i]);
    ck_assert_int_eq(cfg_validate(&c, &e), SK_ECONFIG);
    ck_assert_str_eq(e.msg, b->msg);
}
END_TEST

/* A cfg filled in by code gets its bounds checked too. */
START_TEST(test_validate_bounds)
{
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    c.units[FU_LDST].count = 0;
    ck_assert_int_eq(cfg_validate(&c, &e), SK_ERANGE);
    ck_assert_str_eq(e.msg, "config: units.ldst.count: 0: expected an integer in 1..64");

    sk_error e2 = { 0 };
    cfg_defaults(&c);
    c.warp_policy = 7;
    ck_assert_int_eq(cfg_validate(&c, &e2), SK_ECONFIG);
    ck_assert_str_eq(e2.msg, "config: sm.warp_policy: 7: expected one of gto, lrr, oldest, two_level, baws, ccws, cta_rr");

    sk_error e3 = { 0 };
    cfg_defaults(&c);
    c.tpcs_per_gpc[3] = 65;
    ck_assert_int_eq(cfg_validate(&c, &e3), SK_ERANGE);
    ck_assert_str_eq(e3.msg, "config: topology.tpcs_per_gpc[3]: 65: expected an integer in 1..64");

    sk_error e4 = { 0 };
    cfg_defaults(&c);
    c.name[0] = '\0';
    ck_assert_int_eq(cfg_validate(&c, &e4), SK_ECONFIG);
    ck_assert_str_eq(e4.msg, "config: chip.name: (not shown): expected a string of 1..63 "
                     "printable ASCII characters");
}
END_TEST


/* include: loads the base first (relative to the including file, so
 * include/base.yaml finds include/deeper.yaml), then each file's own
 * settings override what it included. */
START_TEST(test_include)
{
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    ck_assert_int_eq(cfg_load_file(&c, CFGDIR "include_top.yaml", &e), 0);
    ck_assert_str_eq(c.name, "deeper");          /* only deeper.yaml sets it */
    ck_assert_int_eq(c.sm_mhz, 1200);             /* base.yaml overrides deeper.yaml */
    ck_assert_int_eq(c.warp_schedulers, 4);       /* the top file overrides both */
    ck_assert_int_eq(c.max_ctas, 7);
    /* The teaching chips are a base and a size: the four-SM one differs
     * from the two-SM one where it says so, and only there. */
    cfg t2, t4;
    cfg_defaults(&t2);
    cfg_defaults(&t4);
    ck_assert_int_eq(cfg_load_file(&t2, "configs/teach/tiny2.yaml", &e), 0);
    ck_assert_int_eq(cfg_load_file(&t4, "configs/teach/tiny4.yaml", &e), 0);
    ck_assert_int_eq(t2.gpcs, 1);
    ck_assert_int_eq(t4.gpcs, 2);
    ck_assert_int_eq(t2.sm_mhz, 1000);
    ck_assert_int_eq(t4.max_threads, 512);
    ck_assert_int_eq(t4.warp_schedulers, 2);
}
END_TEST

/* Nine nested includes are refused at the ninth, with its position. */
START_TEST(test_include_depth)
{
    char dir[128];
    tu_mkdtemp(dir, sizeof dir, "include");
    for (int i = 0; i < 10; i++) {
        char *p = tu_strf("%s/c%d.yaml", dir, i);
        FILE *f = fopen(p, "w");
        ck_assert_ptr_nonnull(f);
        if (i < 9)
            fprintf(f, "include: c%d.yaml\n", i + 1);
        else
            fputs("clocks: {sm_mhz: 1100}\n", f);
        fclose(f);
        free(p);
    }
    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    char *top = tu_strf("%s/c1.yaml", dir);        /* 8 includes: fine */
    ck_assert_int_eq(cfg_load_file(&c, top, &e), 0);
    ck_assert_int_eq(c.sm_mhz, 1100);
    free(top);
    top = tu_strf("%s/c0.yaml", dir);              /* 9: refused */
    sk_error e2 = { 0 };
    ck_assert_int_eq(cfg_load_file(&c, top, &e2), SK_ECONFIG);
    char *want = tu_strf("%s/c8.yaml:1:10: include: c9.yaml: expected at most 8 nested includes", dir);
    ck_assert_str_eq(e2.msg, want);
    free(want);
    free(top);
    tu_rmdir(dir);
}
END_TEST

/* Where a key was set (cfg_key_origin), and a cross check's error said
 * there (cfg_locate_error): the included file's line where only it sets
 * the key, the including file's where both do (its setting wins), the last
 * --set naming the key before either, and the message as it was for a key
 * left at its default. */
START_TEST(test_key_origin)
{
    char dir[128];
    tu_mkdtemp(dir, sizeof dir, "origin");
    char *base = tu_strf("%s/base.yaml", dir), *top = tu_strf("%s/top.yaml", dir);
    tu_spit(base, "sm:\n  max_warps: 63\n  max_threads: 2016\n  max_ctas: 8\n");
    tu_spit(top, "include: base.yaml\nsm: {max_ctas: 16}\n");
    char where[256];
    char *want = tu_strf("%s:2:14", base);
    ck_assert_int_eq(cfg_key_origin(top, "sm.max_warps", where, sizeof where), 1);
    ck_assert_str_eq(where, want);
    free(want);
    want = tu_strf("%s:2:16", top);
    ck_assert_int_eq(cfg_key_origin(top, "sm.max_ctas", where, sizeof where), 1);
    ck_assert_str_eq(where, want);
    free(want);
    ck_assert_int_eq(cfg_key_origin(top, "sm.registers", where, sizeof where), 0);

    cfg c;
    sk_error e = { 0 };
    cfg_defaults(&c);
    ck_assert_int_eq(cfg_load_file(&c, top, &e), 0);
    ck_assert_int_eq(cfg_validate(&c, &e), SK_ECONFIG);
    ck_assert_str_eq(e.msg, "config: sm.max_warps: 63: expected a multiple of sm.warp_schedulers (2)");
    sk_error e1 = e;
    cfg_locate_error(top, NULL, 0, &e1);
    want = tu_strf("%s:2:14: sm.max_warps: 63: expected a multiple of sm.warp_schedulers (2)", base);
    ck_assert_str_eq(e1.msg, want);
    free(want);
    char *sets[] = { "sm.max_warps=61", "sm.max_warps=63", "sm.max_ctas=4" };
    sk_error e2 = e;
    cfg_locate_error(top, sets, 3, &e2);
    ck_assert_str_eq(e2.msg, "--set sm.max_warps=63: sm.max_warps: 63: expected a multiple of sm.warp_schedulers (2)");
    sk_error e3 = { SK_ECONFIG, "config: sm.registers: 7: expected more" };
    cfg_locate_error(top, NULL, 0, &e3);
    ck_assert_str_eq(e3.msg, "config: sm.registers: 7: expected more");
    sk_error e4 = { SK_ECONFIG, "config: 16384 SMs x sm.max_warps=1024 = 16777216 warp slots: expected fewer" };
    cfg_locate_error(top, NULL, 0, &e4);
    ck_assert_str_eq(e4.msg, "config: 16384 SMs x sm.max_warps=1024 = 16777216 warp slots: expected fewer");
    free(base);
    free(top);
    tu_rmdir(dir);
}
END_TEST

Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("load");
    tcase_add_loop_test(tc, test_bad_file, 0, (int)SK_ARRAY_LEN(bad_files));
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_load_string_errors);
    tcase_add_test(tc, test_block_and_flow);
    tcase_add_test(tc, test_dotted_keys);
    tcase_add_test(tc, test_tpcs_list_and_scalar);
    tcase_add_test(tc, test_include);
    tcase_add_test(tc, test_include_depth);
    tcase_add_test(tc, test_key_origin);
    suite_add_tcase(s, tc);

    tc = tcase_create("schema");
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_schema_defaults_in_bounds);
    tcase_add_test(tc, test_schema_units);
    tcase_add_test(tc, test_dump_round_trip);
    tcase_add_test(tc, test_schema_covers_struct);
    tcase_add_test(tc, test_help_lists_every_key);
    tcase_add_loop_test(tc, test_policy_rows, 0, (int)SK_ARRAY_LEN(policy_rows));
    tcase_add_test(tc, test_policy_choices);
    suite_add_tcase(s, tc);

    tc = tcase_create("set");
    tcase_add_test(tc, test_set_good);
    tcase_add_loop_test(tc, test_set_bad, 0, (int)SK_ARRAY_LEN(bad_sets));
    suite_add_tcase(s, tc);

    tc = tcase_create("validate");
    tcase_add_loop_test(tc, test_validate_bad, 0, (int)SK_ARRAY_LEN(bad_combos));
    tcase_add_test(tc, test_validate_bounds);
    suite_add_tcase(s, tc);
    return s;
}
