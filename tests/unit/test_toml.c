/* The TOML reader: known answers, every refusal with its line and reason, and a seeded
 * mutation fuzzer over the tuned-file fixtures (every mutant parses or is refused with a
 * message; under the sanitizer build, without a memory error).  PST_FUZZ_SEED and
 * PST_FUZZ_CASES replay or extend it. */
#include "check.h"
#include "core/toml.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static pst_toml *parse(const char *text, char *err)
{
    return pst_toml_parse(text, strlen(text), "t.toml", err, 256);
}

static void refused(const char *text, const char *want, int line)
{
    char err[256] = "";
    pst_toml *t = parse(text, err);
    char where[64];
    snprintf(where, sizeof where, "t.toml:%d: ", line);
    CHECK(!t);
    bool ok = !strncmp(err, where, strlen(where)) && strstr(err, want);
    CHECK(ok);
    if (!ok) fprintf(stderr, "  input %s\n  got '%s', want '%s%s'\n", text, err, where, want);
    pst_toml_free(t);
}

static void known_answers(void)
{
    char err[256] = "";
    pst_toml *t = parse("# a tuned file\ntop = 1\n\n[legendre]\nalgorithm = \"ring\\u00e9\"  # comment\n"
                        "ringsum = { protocol = '0,6', overlap = true, t_s = 2.3e-05, n = -1_000 }\r\n"
                        "[fft]\nempty = {}\nf = -inf\n",
                        err);
    CHECK(t);
    if (!t) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    CHECK(t->n == 3 && pst_toml_get(t, "top")->kind == PST_TOML_INT && pst_toml_get(t, "top")->i == 1);
    const pst_toml *leg = pst_toml_get(t, "legendre");
    CHECK(leg && leg->kind == PST_TOML_TABLE && leg->line == 4);
    CHECK(!strcmp(pst_toml_get(leg, "algorithm")->str, "ring\xc3\xa9"));
    const pst_toml *rs = pst_toml_get(leg, "ringsum");
    CHECK(rs && rs->kind == PST_TOML_TABLE && rs->n == 4 && rs->line == 6);
    CHECK(!strcmp(pst_toml_get(rs, "protocol")->str, "0,6"));
    CHECK(pst_toml_get(rs, "overlap")->kind == PST_TOML_BOOL && pst_toml_get(rs, "overlap")->b);
    CHECK(pst_toml_get(rs, "t_s")->kind == PST_TOML_FLOAT && pst_toml_get(rs, "t_s")->f == 2.3e-05);
    CHECK(pst_toml_get(rs, "n")->i == -1000);
    const pst_toml *fft = pst_toml_get(t, "fft");
    CHECK(pst_toml_get(fft, "empty")->kind == PST_TOML_TABLE && pst_toml_get(fft, "empty")->n == 0);
    CHECK(isinf(pst_toml_get(fft, "f")->f) && pst_toml_get(fft, "f")->f < 0);
    CHECK(!pst_toml_get(fft, "algorithm"));
    pst_toml_free(t);
    /* a long line is one line (the old reader split lines at 1023 bytes) */
    char long_line[5000];
    snprintf(long_line, sizeof long_line, "k = \"%04000d\"\n", 7);
    t = parse(long_line, err);
    CHECK(t && strlen(pst_toml_get(t, "k")->str) == 4000);
    pst_toml_free(t);
    /* '#' and "overlap = true" inside a string are text, not a comment or a setting */
    t = parse("k = { protocol = \"0,6 # overlap = true\", overlap = false }\n", err);
    CHECK(t && !pst_toml_get(pst_toml_get(t, "k"), "overlap")->b &&
          !strcmp(pst_toml_get(pst_toml_get(t, "k"), "protocol")->str, "0,6 # overlap = true"));
    pst_toml_free(t);
}

static void refusals(void)
{
    refused("a = 1\na = 2\n", "duplicate key 'a' (first defined on line 1)", 2);
    refused("[x]\n[x]\n", "duplicate key 'x'", 2);
    refused("a = [1, 2]\n", "arrays are not supported", 1);
    refused("[[x]]\n", "arrays of tables are not supported", 1);
    refused("a.b = 1\n", "dotted keys are not supported", 1);
    refused("a = \"\"\"x\"\"\"\n", "multi-line strings are not supported", 1);
    refused("a = 2026-11-24\n", "dates and times are not supported", 1);
    refused("\n\na = \"open\n", "unterminated string", 3);
    refused("a = \"\\q\"\n", "unknown escape '\\q'", 1);
    refused("a = \"\\ud800\"\n", "not a Unicode scalar value", 1);
    refused("a = 1 2\n", "unexpected '2' after the value", 1);
    refused("a = 007\n", "'007' is not a value", 1);
    refused("a = 1.\n", "'1.' is not a value", 1);
    refused("a = 1e999\n", "out of range", 1);
    refused("a = 9223372036854775808\n", "out of range", 1);
    refused("a =\n", "a value is missing", 1);
    refused("a\n", "'=' expected after key 'a'", 1);
    refused("= 1\n", "'=' cannot start a key", 1);
    refused("[x\n", "']' expected after table name", 1);
    refused("a = { b = 1,, }\n", "cannot start a key", 1);
    refused("a = { b = 1, }\n", "'}' cannot start a key", 1);
    refused("a = { b = 1\n", "',' or '}' expected", 1);
    refused("a = truely\n", "'truely' is not a value", 1);
    refused("a = 1\n\x01\n", "control character 0x01", 2);
    refused("a = \"\xff\"\n", "invalid UTF-8", 1);
    refused("a = \"\xed\xa0\x80\"\n", "invalid UTF-8", 1);
    char nested[64] = "a = ";
    for (int k = 0; k < 10; k++) strcat(nested, "{b=");
    strcat(nested, "1");
    for (int k = 0; k < 10; k++) strcat(nested, "}");
    refused(nested, "inline tables nested deeper than 8", 1);
    char err[256];
    CHECK(!pst_toml_read("/", err, sizeof err) && strstr(err, "/: not a regular file"));
    CHECK(!pst_toml_read("/nonexistent.toml", err, sizeof err) && strstr(err, "No such file"));
}

/* xorshift64*: the same seed gives the same cases on every machine. */
static uint64_t rng_state;
static uint64_t next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static const char *const tokens[] = {"[", "]", "{", "}", "=", ",", "\"", "'", "#", "\n", "\\u", ".", "-", "_",
                                     "true", "nan", "1e308", "9223372036854775807", "\xc3", "\x00", "[[", "\"\"\""};

/* One mutation of buf (length *n, capacity cap): flip, insert, delete, duplicate or splice a token. */
static void mutate(char *buf, size_t *n, size_t cap)
{
    size_t at = *n ? next() % *n : 0;
    switch (next() % 5) {
    case 0:
        if (*n) buf[at] = (char)(next() & 0xFF);
        break;
    case 1: {
        const char *t = tokens[next() % (sizeof tokens / sizeof *tokens)];
        size_t len = *t ? strlen(t) : 1;
        if (*n + len > cap) break;
        memmove(buf + at + len, buf + at, *n - at);
        memcpy(buf + at, t, len);
        *n += len;
        break;
    }
    case 2: {
        size_t len = next() % 16;
        if (at + len > *n) len = *n - at;
        memmove(buf + at, buf + at + len, *n - at - len);
        *n -= len;
        break;
    }
    case 3: {
        size_t len = next() % 64;
        if (at + len > *n) len = *n - at;
        if (*n + len > cap) break;
        memmove(buf + at + len, buf + at, *n - at);
        memcpy(buf + at + len, buf + at, len);
        *n += len;
        break;
    }
    default:
        *n = at; /* truncate */
    }
}

static void fuzz(const char *const *seeds, size_t nseeds)
{
    const char *env = getenv("PST_FUZZ_SEED"), *cases_env = getenv("PST_FUZZ_CASES");
    uint64_t seed = env ? strtoull(env, NULL, 10) : 20261124;
    long cases = cases_env ? atol(cases_env) : 100000;
    rng_state = seed ? seed : 1;
    enum { CAP = 8192 };
    static char buf[CAP];
    long parsed = 0, refused_n = 0;
    for (long c = 0; c < cases; c++) {
        const char *s = seeds[c % nseeds];
        size_t n = strlen(s);
        memcpy(buf, s, n);
        for (int m = 1 + (int)(next() % 4); m > 0; m--) mutate(buf, &n, CAP);
        char err[256] = "";
        pst_toml *t = pst_toml_parse(buf, n, "fuzz.toml", err, sizeof err);
        if (t) parsed++;
        else refused_n++;
        /* A refusal always says where and why. */
        if (!t && strncmp(err, "fuzz.toml:", 10)) {
            CHECK(!"refusal without a location");
            fprintf(stderr, "  seed %llu case %ld: '%s'\n", (unsigned long long)seed, c, err);
        }
        pst_toml_free(t);
    }
    printf("toml fuzz: seed %llu, %ld cases: %ld parsed, %ld refused\n", (unsigned long long)seed, cases, parsed,
           refused_n);
    CHECK(parsed > 0 && refused_n > 0); /* the mutations reach both outcomes */
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    known_answers();
    refusals();
    static const char *const seeds[] = {
        "# pstswm 'opt' preset\n[fft]\nalgorithm = \"logtrans\"\n"
        "logtrans = { protocol = \"1,3\", overlap = true, t_s = 1.0e-04 }\n"
        "srtrans = { protocol = \"0,1\", overlap = false, t_s = 2.0e-04 }\n\n[legendre]\nalgorithm = \"ringpipe\"\n"
        "ringpipe = { protocol = \"3,1\", overlap = false, t_s = 8.0e-05 }\n",
        "[legendre]\nalgorithm = 'coll'\n# MPI collective allreduce: t_s = 2.180200e-05\n",
        "a = { b = { c = \"\\u00e9\\U0001F600\" }, d = -1_000, e = +inf, f = nan }\n",
    };
    fuzz(seeds, sizeof seeds / sizeof *seeds);
    CHECK_MAIN_END();
}
