/* json.c -- the pinned JSON format (json.h) over libjansson. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/json.h"

static json_t *must(json_t *v)
{
    if (!v) {
        fputs("skewsim: out of memory\n", stderr);
        abort();
    }
    return v;
}

json_t *skjson_fixed(double v, int decimals)
{
    if (!isfinite(v))
        return must(json_null());
    /* the decimal printf gives, then the double nearest to it */
    char buf[512];
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    double d = strtod(buf, NULL);
    if (d == 0)
        d = 0;          /* -0.000 prints as 0.0 */
    return must(json_real(d));
}

json_t *skjson_ns(ps_t t)
{
    char buf[32];
    const char *sign = t < 0 ? "-" : "";
    unsigned long long a = (unsigned long long)(t < 0 ? -t : t);
    snprintf(buf, sizeof buf, "%s%llu.%03llu", sign, a / 1000, a % 1000);
    double d = strtod(buf, NULL);
    return must(json_real(d == 0 ? 0 : d));
}

/* jansson's integers are signed 64-bit; a larger uint64 (a seed may be
 * up to 2^64 - 1) goes in as a marker string that no C string can forge,
 * NUL first, and skjson_dumps() writes its digits in place of it. */
static const char u64_mark[] = "\\u0000u64:";      /* as dumped, after the opening quote */

json_t *skjson_u64(uint64_t v)
{
    if (v <= (uint64_t)INT64_MAX)
        return must(json_integer((json_int_t)v));
    char buf[32];
    buf[0] = '\0';
    int n = snprintf(buf + 1, sizeof buf - 1, "u64:%llu", (unsigned long long)v);
    return must(json_stringn_nocheck(buf, (size_t)n + 1));
}

json_t *skjson_str(const char *s)
{
    /* JSON text is UTF-8 and jansson refuses to dump anything else: a
     * string that is not (a name or a message quoting bad input) keeps its
     * ASCII and shows each other byte as '?'. */
    const char *t = s ? s : "";
    json_t *v = json_string(t);
    if (v)
        return v;
    char *copy = xstrdup(t);
    for (char *p = copy; *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    v = must(json_string(copy));
    free(copy);
    return v;
}

void skjson_set(json_t *obj, const char *key, json_t *v)
{
    if (json_object_set_new_nocheck(obj, key, must(v)) != 0)
        must(NULL);
}

void skjson_append(json_t *arr, json_t *v)
{
    if (json_array_append_new(arr, must(v)) != 0)
        must(NULL);
}

char *skjson_dumps(const json_t *root, size_t *len)
{
    char *body = json_dumps(root, SKJSON_FLAGS);
    if (!body)
        must(NULL);     /* every string is UTF-8 (skjson_str): only memory can fail */
    size_t n = strlen(body), o = 0;
    char *out = xmalloc(n + 2);
    /* "\u0000u64:DIGITS" -> DIGITS (skjson_u64): a user string cannot hold
     * it, since it cannot hold a NUL and a backslash of its own is dumped
     * doubled. */
    size_t mlen = strlen(u64_mark);
    for (size_t i = 0; i < n;) {
        if (body[i] == '"' && strncmp(body + i + 1, u64_mark, mlen) == 0) {
            i += 1 + mlen;
            while (body[i] != '"')
                out[o++] = body[i++];
            i++;
        } else {
            out[o++] = body[i++];
        }
    }
    out[o++] = '\n';
    out[o] = '\0';
    free(body);
    if (len)
        *len = o;
    return out;
}

int64_t skjson_ns_ps(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        return 0;
    return (int64_t)llround(json_number_value(v) * 1000.0);
}
