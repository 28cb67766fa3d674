#include "core/record.h"

#include "core/alloc.h"
#include "core/outfile.h"
#include "core/utf8.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(pst_rec *r, const char *s, size_t n)
{
    if (r->len + n + 1 > r->cap) {
        while (r->len + n + 1 > r->cap) r->cap = r->cap ? 2 * r->cap : 512;
        r->buf = pst_realloc(r->buf, r->cap);
    }
    memcpy(r->buf + r->len, s, n);
    r->len += n;
    r->buf[r->len] = '\0';
}

static void puts_(pst_rec *r, const char *s) { put(r, s, strlen(s)); }

static void putf(pst_rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(pst_rec *r, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(r, tmp, (size_t)n);
}

void pst_json_escape(pst_rec *r, const char *s)
{
    put(r, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': puts_(r, "\\\""); break;
        case '\\': puts_(r, "\\\\"); break;
        case '\n': puts_(r, "\\n"); break;
        case '\t': puts_(r, "\\t"); break;
        case '\r': puts_(r, "\\r"); break;
        default:
            if (*p < 0x20) {
                putf(r, "\\u%04x", *p);
            } else if (*p < 0x80) {
                put(r, (const char *)p, 1);
            } else {
                /* Records are UTF-8 JSON: a byte that starts no valid sequence (a Latin-1
                 * argument, say) becomes U+FFFD, the replacement character. */
                size_t n = pst_utf8_sequence(p, SIZE_MAX);
                if (n) { put(r, (const char *)p, n); p += n - 1; }
                else puts_(r, "\\ufffd");
            }
        }
    }
    put(r, "\"", 1);
}

static void key(pst_rec *r, const char *k)
{
    if (!r->empty) put(r, ",", 1);
    r->empty = false;
    pst_json_escape(r, k);
    put(r, ":", 1);
}

static void number(pst_rec *r, double v)
{
    if (isfinite(v)) putf(r, "%.17g", v);
    else puts_(r, "null");
}

void pst_rec_open(pst_rec *r)
{
    *r = (pst_rec){.empty = true};
    put(r, "{", 1);
}

void pst_rec_begin(pst_rec *r, const pst_ctx *c, const char *bench, const char *type)
{
    pst_rec_open(r);
    pst_rec_str(r, "bench", bench);
    pst_rec_str(r, "type", type);
    pst_rec_str(r, "run_id", c->run_id);
    pst_rec_int(r, "ranks", c->size);
    pst_rec_str(r, "transport", c->transport);
}

void pst_rec_str(pst_rec *r, const char *k, const char *v)
{
    key(r, k);
    if (v) pst_json_escape(r, v);
    else puts_(r, "null");
}

void pst_rec_int(pst_rec *r, const char *k, long long v) { key(r, k); putf(r, "%lld", v); }
void pst_rec_num(pst_rec *r, const char *k, double v) { key(r, k); number(r, v); }
void pst_rec_bool(pst_rec *r, const char *k, bool v) { key(r, k); puts_(r, v ? "true" : "false"); }

void pst_rec_nums(pst_rec *r, const char *k, const double *v, size_t n)
{
    key(r, k);
    put(r, "[", 1);
    for (size_t i = 0; i < n; i++) { if (i) put(r, ",", 1); number(r, v[i]); }
    put(r, "]", 1);
}

void pst_rec_nums_compact(pst_rec *r, const char *k, const double *v, size_t n)
{
    key(r, k);
    put(r, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i) put(r, ",", 1);
        if (isfinite(v[i])) putf(r, "%.5g", v[i]);
        else puts_(r, "null");
    }
    put(r, "]", 1);
}

void pst_rec_ints(pst_rec *r, const char *k, const long long *v, size_t n)
{
    key(r, k);
    put(r, "[", 1);
    for (size_t i = 0; i < n; i++) { if (i) put(r, ",", 1); putf(r, "%lld", v[i]); }
    put(r, "]", 1);
}

void pst_rec_strs(pst_rec *r, const char *k, const char *const *v, size_t n)
{
    key(r, k);
    put(r, "[", 1);
    for (size_t i = 0; i < n; i++) { if (i) put(r, ",", 1); pst_json_escape(r, v[i]); }
    put(r, "]", 1);
}

void pst_rec_obj_begin(pst_rec *r, const char *k)
{
    if (k) key(r, k);
    else if (!r->empty) put(r, ",", 1);
    put(r, "{", 1);
    r->empty = true;
}

void pst_rec_obj_end(pst_rec *r)
{
    put(r, "}", 1);
    r->empty = false;
}

void pst_rec_list_begin(pst_rec *r, const char *k)
{
    key(r, k);
    put(r, "[", 1);
    r->empty = true;
}

void pst_rec_list_end(pst_rec *r)
{
    put(r, "]", 1);
    r->empty = false;
}

void pst_rec_null(pst_rec *r, const char *k) { key(r, k); puts_(r, "null"); }

void pst_rec_times(pst_rec *r, const pst_summary *s)
{
    pst_rec_num(r, "t_min", s->min);
    pst_rec_num(r, "t_med", s->median);
    pst_rec_num(r, "t_mean", s->mean);
    pst_rec_num(r, "t_max", s->max);
    pst_rec_int(r, "reps", (long long)s->n);
}

void pst_rec_print(pst_rec *r, FILE *f)
{
    put(r, "}\n", 2);
    fputs(r->buf, f);
    fflush(f);
    free(r->buf);
    *r = (pst_rec){.empty = true};
}

void pst_rec_emit(pst_rec *r, pst_ctx *c)
{
    put(r, "}\n", 2);
    /* One write() per line: a reader (or a crash) never sees half a record. */
    if (c->rank == 0 && pst_outfile_is_open()) pst_outfile_write(r->buf, r->len);
    free(r->buf);
    *r = (pst_rec){.empty = true};
}
