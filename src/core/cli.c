#include "core/cli.h"

#include "core/alloc.h"
#include "core/checked.h"
#include "core/errors.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LIST_MAX_ITEMS 100000

int pst_parse_int(const char *s, long long *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || errno) { snprintf(err, errlen, "'%s' is not an integer", s); return -1; }
    *out = v;
    return 0;
}

int pst_parse_double(const char *s, double *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(v)) { snprintf(err, errlen, "'%s' is not a finite number", s); return -1; }
    *out = v;
    return 0;
}

int pst_parse_size(const char *s, long long *out, char *err, size_t errlen)
{
    static const struct { const char *suffix; unsigned long long mult; } units[] = {
        {"", 1}, {"B", 1}, {"K", 1ULL << 10}, {"KB", 1ULL << 10}, {"KiB", 1ULL << 10},
        {"M", 1ULL << 20}, {"MB", 1ULL << 20}, {"MiB", 1ULL << 20},
        {"G", 1ULL << 30}, {"GB", 1ULL << 30}, {"GiB", 1ULL << 30},
    };
    char *end;
    errno = 0;
    unsigned long long v = isdigit((unsigned char)*s) ? strtoull(s, &end, 10) : 0;
    const size_t nunits = sizeof units / sizeof units[0];
    size_t u = 0;
    if (isdigit((unsigned char)*s))
        while (u < nunits && strcasecmp(units[u].suffix, end) != 0) u++;
    if (!isdigit((unsigned char)*s) || u == nunits) {
        snprintf(err, errlen, "'%s' is not a size in bytes (e.g. 64, 4K, 2M)", s);
        return -1;
    }
    if (errno || v > (unsigned long long)INT64_MAX / units[u].mult) {
        snprintf(err, errlen, "'%s' is too large", s);
        return -1;
    }
    *out = (long long)(v * units[u].mult);
    return 0;
}

static int parse_value(const char *s, bool sizes, long long *out, char *err, size_t errlen)
{
    return sizes ? pst_parse_size(s, out, err, errlen) : pst_parse_int(s, out, err, errlen);
}

void pst_int_list_set(pst_int_list *l, size_t n, const long long *v)
{
    l->v = pst_realloc(NULL, (n ? n : 1) * sizeof *l->v);
    memcpy(l->v, v, n * sizeof *v);
    l->n = n;
}

void pst_int_list_free(pst_int_list *l) { free(l->v); l->v = NULL; l->n = 0; }

void pst_str_list_free(pst_str_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

bool pst_str_list_has(const pst_str_list *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s)) return true;
    return false;
}

static int list_push(pst_int_list *l, size_t *cap, long long v, char *err, size_t errlen)
{
    if (l->n >= LIST_MAX_ITEMS) { snprintf(err, errlen, "list has more than %d items", LIST_MAX_ITEMS); return -1; }
    if (l->n == *cap) { *cap = *cap ? 2 * *cap : 16; l->v = pst_realloc(l->v, *cap * sizeof *l->v); }
    l->v[l->n++] = v;
    return 0;
}

/* The comma-separated items of s, each a fresh string; an empty item is an error (",", "8,,16"
 * and "8," are typing mistakes, not requests for the default). */
static int split_items(const char *s, pst_str_list *out, char *err, size_t errlen)
{
    pst_str_list l = {0};
    if (!*s) { snprintf(err, errlen, "empty list"); return -1; }
    for (const char *p = s;; p++) {
        size_t len = strcspn(p, ",");
        if (len == 0) {
            snprintf(err, errlen, "empty item in list '%s'", s);
            pst_str_list_free(&l);
            return -1;
        }
        l.v = pst_realloc(l.v, (l.n + 1) * sizeof *l.v);
        l.v[l.n++] = pst_strndup(p, len);
        p += len;
        if (!*p) break;
    }
    *out = l;
    return 0;
}

static bool int_list_has(const pst_int_list *l, long long v)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == v) return true;
    return false;
}

static bool in_bounds(const pst_opt *o, double v);
static const char *bounds_text(const pst_opt *o, char *buf, size_t len);

/* A value or range end must lie inside the option's bounds (o may be NULL: no bounds). */
static int check_bounds(const pst_opt *o, long long v, char *err, size_t errlen)
{
    char b[128];
    if (!o || in_bounds(o, (double)v)) return 0;
    snprintf(err, errlen, "%lld is out of range%s", v, bounds_text(o, b, sizeof b));
    return -1;
}

static int parse_list_bounded(const char *s, bool sizes, const pst_opt *o, pst_int_list *out, char *err, size_t errlen)
{
    pst_int_list l = {0};
    pst_str_list items;
    size_t cap = 0;
    if (split_items(s, &items, err, errlen)) return -1;
    int rc = 0;
    for (size_t it = 0; it < items.n && !rc; it++) {
        char *parts[3] = {items.v[it], NULL, NULL};
        for (int k = 1; k < 3; k++) {
            char *colon = parts[k - 1] ? strchr(parts[k - 1], ':') : NULL;
            if (colon) { *colon = '\0'; parts[k] = colon + 1; }
        }
        long long lo, hi;
        if ((rc = parse_value(parts[0], sizes, &lo, err, errlen)) || (rc = check_bounds(o, lo, err, errlen))) break;
        if (!parts[1]) {
            /* Duplicates are dropped: each point is measured once. */
            if (!int_list_has(&l, lo)) rc = list_push(&l, &cap, lo, err, errlen);
            continue;
        }
        if ((rc = parse_value(parts[1], sizes, &hi, err, errlen)) || (rc = check_bounds(o, hi, err, errlen))) break;
        char mode = 'x';
        long long step = 2;
        if (parts[2]) {
            mode = parts[2][0];
            /* An additive step of a size list takes a unit like its ends (1M:2M:+128K). */
            bool unit = sizes && mode == '+';
            if ((mode != 'x' && mode != '+') || parse_value(parts[2] + 1, unit, &step, err, errlen)) {
                snprintf(err, errlen, "range step '%s' must be xF (multiply) or +S (add)", parts[2]);
                rc = -1;
                break;
            }
        }
        if (hi < lo || (mode == 'x' && (step < 2 || lo < 1)) || (mode == '+' && step < 1)) {
            snprintf(err, errlen, "range '%s:%s%s%s' is empty or does not advance", parts[0], parts[1],
                     parts[2] ? ":" : "", parts[2] ? parts[2] : "");
            rc = -1;
            break;
        }
        /* Checked steps: the range ends where the next value would pass hi or leave 64 bits. */
        for (long long v = lo; !rc;) {
            if (!int_list_has(&l, v)) rc = list_push(&l, &cap, v, err, errlen);
            bool ok = mode == 'x' ? pst_mul_ll(v, step, &v) : pst_add_ll(v, step, &v);
            if (!ok || v > hi) break;
        }
    }
    pst_str_list_free(&items);
    if (rc) { free(l.v); return -1; }
    *out = l;
    return 0;
}

int pst_parse_list(const char *s, bool sizes, pst_int_list *out, char *err, size_t errlen)
{
    return parse_list_bounded(s, sizes, NULL, out, err, errlen);
}

int pst_parse_strings(const char *s, pst_str_list *out, char *err, size_t errlen)
{
    pst_str_list items, l = {0};
    if (split_items(s, &items, err, errlen)) return -1;
    /* Duplicates are dropped, first occurrence kept. */
    for (size_t i = 0; i < items.n; i++) {
        if (pst_str_list_has(&l, items.v[i])) { free(items.v[i]); continue; }
        l.v = pst_realloc(l.v, (l.n + 1) * sizeof *l.v);
        l.v[l.n++] = items.v[i];
    }
    free(items.v);
    *out = l;
    return 0;
}

bool pst_scan_count(const char **p, long long max, long long *out)
{
    long long v = 0;
    const char *q = *p;
    if (!isdigit((unsigned char)*q)) return false;
    for (; isdigit((unsigned char)*q); q++)
        if (!pst_mul_ll(v, 10, &v) || !pst_add_ll(v, *q - '0', &v) || v > max) return false;
    *p = q;
    *out = v;
    return true;
}

int pst_parse_grid(const char *s, int *px, int *py, char *err, size_t errlen)
{
    const char *p = s;
    long long x, y, ranks;
    if (!pst_scan_count(&p, INT_MAX, &x) || *p++ != 'x' || !pst_scan_count(&p, INT_MAX, &y) || *p || x < 1 || y < 1 ||
        !pst_mul_ll(x, y, &ranks) || ranks > INT_MAX) {
        snprintf(err, errlen, "'%s' is not PXxPY (e.g. 4x2) with PX*PY in 1 ... %d", s, INT_MAX);
        return -1;
    }
    *px = (int)x;
    *py = (int)y;
    return 0;
}

const char *pst_format_bytes(long long bytes, char *buf, size_t buflen)
{
    static const char *units[] = {"", "K", "M", "G"};
    int u = 0;
    long long v = bytes;
    while (u < 3 && v >= 1024 && v % 1024 == 0) { v /= 1024; u++; }
    snprintf(buf, buflen, "%lld%s", v, units[u]);
    return buf;
}

static bool in_bounds(const pst_opt *o, double v) { return o->min > o->max || (v >= o->min && v <= o->max); }

static const char *bounds_text(const pst_opt *o, char *buf, size_t len)
{
    if (o->min > o->max) return "";
    if (o->max >= 1e300) snprintf(buf, len, " (allowed: >= %.10g)", o->min);
    else snprintf(buf, len, " (allowed: %.10g ... %.10g)", o->min, o->max);
    return buf;
}

static bool choice_ok(const pst_opt *o, const char *v)
{
    if (!o->choices) return true;
    for (const char *const *c = o->choices; *c; c++)
        if (!strcmp(*c, v)) return true;
    return false;
}

static noreturn void bad_choice(const pst_command *cmd, const pst_opt *o, const char *v)
{
    char allowed[512] = "";
    for (const char *const *c = o->choices; *c; c++) {
        strncat(allowed, *c, sizeof allowed - strlen(allowed) - 1);
        if (c[1]) strncat(allowed, ", ", sizeof allowed - strlen(allowed) - 1);
    }
    pst_usage_error("--%s: unknown value '%s' (allowed: %s)", o->name, v, allowed);
}

static void apply(const pst_command *cmd, const pst_opt *o, const char *val)
{
    char err[256], b[128];
    switch (o->kind) {
    case PST_OPT_FLAG: *(bool *)o->dest = true; return;
    case PST_OPT_INT:
    case PST_OPT_SIZE: {
        long long v;
        int rc =
            o->kind == PST_OPT_INT ? pst_parse_int(val, &v, err, sizeof err) : pst_parse_size(val, &v, err, sizeof err);
        if (rc) pst_usage_error("--%s: %s", o->name, err);
        if (!in_bounds(o, (double)v))
            pst_usage_error("--%s: %s is out of range%s", o->name, val, bounds_text(o, b, sizeof b));
        *(long long *)o->dest = v;
        return;
    }
    case PST_OPT_DOUBLE: {
        double v;
        if (pst_parse_double(val, &v, err, sizeof err)) pst_usage_error("--%s: %s", o->name, err);
        if (!in_bounds(o, v)) pst_usage_error("--%s: %s is out of range%s", o->name, val, bounds_text(o, b, sizeof b));
        *(double *)o->dest = v;
        return;
    }
    case PST_OPT_STRING:
        if (!choice_ok(o, val)) bad_choice(cmd, o, val);
        *(const char **)o->dest = val;
        return;
    case PST_OPT_SIZES:
    case PST_OPT_INTS: {
        pst_int_list l;
        if (parse_list_bounded(val, o->kind == PST_OPT_SIZES, o, &l, err, sizeof err))
            pst_usage_error("--%s: %s", o->name, err);
        pst_int_list_free((pst_int_list *)o->dest); /* a repeated option replaces the earlier list */
        *(pst_int_list *)o->dest = l;
        return;
    }
    case PST_OPT_STRINGS: {
        pst_str_list l;
        if (pst_parse_strings(val, &l, err, sizeof err)) pst_usage_error("--%s: %s", o->name, err);
        for (size_t i = 0; i < l.n; i++)
            if (!choice_ok(o, l.v[i])) bad_choice(cmd, o, l.v[i]);
        pst_str_list_free((pst_str_list *)o->dest); /* a repeated option replaces the earlier list */
        *(pst_str_list *)o->dest = l;
        return;
    }
    }
}

/* The value an option holds, written as an argument it accepts; "" when it holds none: no
 * string, an empty list, NaN, a flag that is off, or a number outside its own bounds (a
 * stand-in for a value the command derives). */
static const char *held_value(const pst_opt *o, char *buf, size_t len)
{
    buf[0] = '\0';
    switch (o->kind) {
    case PST_OPT_FLAG:
        if (*(const bool *)o->dest) snprintf(buf, len, "on");
        break;
    case PST_OPT_INT:
        if (in_bounds(o, (double)*(const long long *)o->dest)) snprintf(buf, len, "%lld", *(const long long *)o->dest);
        break;
    case PST_OPT_DOUBLE: {
        double v = *(const double *)o->dest;
        if (!isnan(v) && in_bounds(o, v)) snprintf(buf, len, "%g", v);
        break;
    }
    case PST_OPT_STRING:
        if (*(const char *const *)o->dest) snprintf(buf, len, "%s", *(const char *const *)o->dest);
        break;
    case PST_OPT_SIZE:
        if (in_bounds(o, (double)*(const long long *)o->dest)) pst_format_bytes(*(const long long *)o->dest, buf, len);
        break;
    case PST_OPT_SIZES:
    case PST_OPT_INTS: {
        const pst_int_list *l = o->dest;
        size_t used = 0;
        for (size_t i = 0; i < l->n && used + 32 < len; i++) {
            char one[32];
            if (o->kind == PST_OPT_SIZES) pst_format_bytes(l->v[i], one, sizeof one);
            else snprintf(one, sizeof one, "%lld", l->v[i]);
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", one);
        }
        break;
    }
    case PST_OPT_STRINGS: {
        const pst_str_list *l = o->dest;
        size_t used = 0;
        for (size_t i = 0; i < l->n && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", l->v[i]);
        break;
    }
    }
    return buf;
}

void pst_cli_print_help(const pst_command *cmd, FILE *f)
{
    fprintf(f, "usage: pstswm %s [options]\n\n%s\n\noptions:\n", cmd->name, cmd->summary);
    for (const pst_opt *o = cmd->opts; o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->kind == PST_OPT_FLAG ? "" : " ",
                 o->kind == PST_OPT_FLAG ? "" : (o->metavar ? o->metavar : "VALUE"));
        fprintf(f, "  %-24s %s", left, o->help);
        /* The default comes from the value the option holds, so help and behaviour cannot drift;
         * default_text speaks only for an option that holds none. */
        char held[256];
        if (*held_value(o, held, sizeof held) && o->default_text)
            pst_fatal(PST_EXIT_FAILED, "pstswm %s --%s: default_text '%s' beside the value it holds, %s", cmd->name,
                      o->name, o->default_text, held);
        const char *shown = *held ? held : o->default_text;
        if (shown) fprintf(f, " (default %s)", shown);
        if (o->choices) {
            fputs(" [", f);
            for (const char *const *c = o->choices; *c; c++) fprintf(f, "%s%s", *c, c[1] ? "|" : "]");
        }
        fputc('\n', f);
    }
    fprintf(f, "  %-24s %s\n", "--help", "show this help and exit");
    if (cmd->description) fprintf(f, "\n%s\n", cmd->description);
    if (cmd->examples) fprintf(f, "\nexamples:\n%s\n", cmd->examples);
}

/* Copies of the rows of the command parsed last, for pst_cli_print_values: a command may build
 * its table in a function that has returned by then.  Only name, kind, dest and the bounds are
 * read from them (dest points into the command's options struct, which outlives validation). */
static pst_opt *parsed_opts;
static size_t nparsed_opts;

static void remember_opts(const pst_opt *opts)
{
    size_t n = 0;
    while (opts[n].name) n++;
    parsed_opts = pst_realloc(parsed_opts, (n ? n : 1) * sizeof *parsed_opts);
    memcpy(parsed_opts, opts, n * sizeof *opts);
    nparsed_opts = n;
}

void pst_cli_print_values(FILE *f)
{
    for (size_t i = 0; i < nparsed_opts; i++) {
        char held[4096];
        fprintf(f, "--%s %s\n", parsed_opts[i].name, held_value(&parsed_opts[i], held, sizeof held));
    }
}

typedef struct {
    void (*fn)(void *);
    void *arg;
} parsed_hook;
static parsed_hook on_parsed;

void pst_cli_on_parsed(void (*fn)(void *), void *arg) { on_parsed.fn = fn, on_parsed.arg = arg; }

void pst_cli_parse(const pst_command *cmd, int argc, char **argv)
{
    /* The hook serves this parse only, however it ends: a later command that registers none
     * (pstswm schema, in the same process under the fuzzer) must not call an earlier one's. */
    parsed_hook then = on_parsed;
    on_parsed.fn = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            int rank = 0;
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
            if (rank == 0) pst_cli_print_help(cmd, stdout);
            fflush(stdout);
            pst_exit_trap_point(0, "help");
            pst_finalize();
            exit(0);
        }
    }
    remember_opts(cmd->opts);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            pst_usage_error("unexpected argument '%s' (see 'pstswm %s --help')", arg, cmd->name);
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const pst_opt *o = cmd->opts;
        while (o->name && !(strlen(o->name) == len && !strncmp(o->name, name, len))) o++;
        if (!o->name) pst_usage_error("unknown option '--%.*s' (see 'pstswm %s --help')", (int)len, name, cmd->name);
        const char *val = NULL;
        if (o->kind == PST_OPT_FLAG) {
            if (eq) pst_usage_error("--%s takes no value", o->name);
        } else if (eq) {
            val = eq + 1;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            pst_usage_error("--%s needs a value (%s)", o->name, o->metavar ? o->metavar : "VALUE");
        }
        if (val && !*val) pst_usage_error("--%s: empty value", o->name);
        apply(cmd, o, val);
    }
    if (then.fn) then.fn(then.arg);
}
