#include "core/record.h"

#include "core/alloc.h"
#include "core/errors.h"
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

static const char *schema_name(const pst_schema *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s%s%s", s->bench, s->type, s->summary ? "/" : "", s->summary ? s->summary : "");
    return buf;
}

/* A writer of type `writes` may fill a field of type `is`: the same type, an integer in a number
 * field, or null (`writes` < 0) in any. */
static bool fits(pst_ftype is, int writes)
{
    return writes < 0 || (int)is == writes || (is == PST_F_NUM && writes == PST_F_INT) ||
           (is == PST_F_NUMS && writes == PST_F_INTS) || (is == PST_F_MAP && writes == PST_F_OBJ);
}

/* The schema check of one key: a record that disagrees with its schema is a bug in pstswm, and a
 * record file that disagrees with its documentation would mislead every reader of it. */
static void check_key(pst_rec *r, const char *k, int writes)
{
    char name[96];
    const pst_field *f = NULL;
    if (r->depth == 0) {
        size_t part, index;
        f = pst_schema_field(r->schema, k, &part, &index);
        if (f) {
            uint64_t bit = (uint64_t)1 << index;
            if (r->seen[part] & bit)
                pst_fatal(PST_EXIT_FAILED, "internal error: record %s writes field '%s' twice",
                          schema_name(r->schema, name, sizeof name), k);
            r->seen[part] |= bit;
        }
    } else {
        const pst_field *in = r->open[r->depth - 1];
        if (!in->members) { r->last = in; return; } /* a map: free keys */
        f = pst_fields_find(in->members, k);
    }
    if (!f)
        pst_fatal(PST_EXIT_FAILED,
                  "internal error: record %s writes field '%s%s%s', which is not in its schema (src/core/schema.h)",
                  schema_name(r->schema, name, sizeof name), r->depth ? r->open[r->depth - 1]->name : "",
                  r->depth ? "." : "", k);
    if (!fits(f->type, writes))
        pst_fatal(PST_EXIT_FAILED, "internal error: record %s writes field '%s' as %s; its schema says %s",
                  schema_name(r->schema, name, sizeof name), k,
                  writes == PST_F_OBJS ? "a list" : pst_ftype_name((pst_ftype)writes), pst_ftype_name(f->type));
    r->last = f;
}

static void push(pst_rec *r, const pst_field *f)
{
    if (r->depth == PST_REC_DEPTH)
        pst_fatal(PST_EXIT_FAILED, "internal error: records nest deeper than %d", PST_REC_DEPTH);
    r->open[r->depth++] = f;
}

static void key(pst_rec *r, const char *k, int writes)
{
    if (r->schema) check_key(r, k, writes);
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

void pst_rec_open_schema(pst_rec *r, const pst_schema *s)
{
    pst_rec_open(r);
    r->schema = s;
}

/* Every required top-level field was written. */
static void check_complete(const pst_rec *r)
{
    for (size_t p = 0; p < PST_SCHEMA_PARTS && r->schema->part[p]; p++) {
        const pst_fields *g = r->schema->part[p];
        for (size_t i = 0; i < g->n; i++)
            if (!g->field[i].optional && !(r->seen[p] & (uint64_t)1 << i)) {
                char name[96];
                pst_fatal(PST_EXIT_FAILED, "internal error: record %s lacks its field '%s'",
                          schema_name(r->schema, name, sizeof name), g->field[i].name);
            }
    }
}

void pst_rec_str(pst_rec *r, const char *k, const char *v)
{
    key(r, k, v ? PST_F_STR : -1);
    if (v) pst_json_escape(r, v);
    else puts_(r, "null");
}

void pst_rec_int(pst_rec *r, const char *k, long long v) { key(r, k, PST_F_INT); putf(r, "%lld", v); }
void pst_rec_num(pst_rec *r, const char *k, double v) { key(r, k, isfinite(v) ? PST_F_NUM : -1); number(r, v); }
void pst_rec_bool(pst_rec *r, const char *k, bool v) { key(r, k, PST_F_BOOL); puts_(r, v ? "true" : "false"); }

void pst_rec_nums(pst_rec *r, const char *k, const double *v, size_t n)
{
    key(r, k, PST_F_NUMS);
    put(r, "[", 1);
    for (size_t i = 0; i < n; i++) { if (i) put(r, ",", 1); number(r, v[i]); }
    put(r, "]", 1);
}

void pst_rec_nums_compact(pst_rec *r, const char *k, const double *v, size_t n)
{
    key(r, k, PST_F_NUMS);
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
    key(r, k, PST_F_INTS);
    put(r, "[", 1);
    for (size_t i = 0; i < n; i++) { if (i) put(r, ",", 1); putf(r, "%lld", v[i]); }
    put(r, "]", 1);
}

void pst_rec_strs(pst_rec *r, const char *k, const char *const *v, size_t n)
{
    key(r, k, PST_F_STRS);
    put(r, "[", 1);
    for (size_t i = 0; i < n; i++) { if (i) put(r, ",", 1); pst_json_escape(r, v[i]); }
    put(r, "]", 1);
}

void pst_rec_obj_begin(pst_rec *r, const char *k)
{
    if (k) key(r, k, PST_F_OBJ);
    else if (!r->empty) put(r, ",", 1);
    /* An element of a list of objects has the list's members. */
    if (r->schema) push(r, k ? r->last : r->open[r->depth - 1]);
    put(r, "{", 1);
    r->empty = true;
}

void pst_rec_obj_end(pst_rec *r)
{
    if (r->schema) r->depth--;
    put(r, "}", 1);
    r->empty = false;
}

void pst_rec_list_begin(pst_rec *r, const char *k)
{
    key(r, k, PST_F_OBJS);
    if (r->schema) push(r, r->last);
    put(r, "[", 1);
    r->empty = true;
}

void pst_rec_list_end(pst_rec *r)
{
    if (r->schema) r->depth--;
    put(r, "]", 1);
    r->empty = false;
}

void pst_rec_null(pst_rec *r, const char *k) { key(r, k, -1); puts_(r, "null"); }

void pst_rec_print(pst_rec *r, FILE *f)
{
    put(r, "}\n", 2);
    fputs(r->buf, f);
    fflush(f);
    free(r->buf);
    *r = (pst_rec){.empty = true};
}

void pst_rec_write(pst_rec *r, bool to_file)
{
    if (r->schema) check_complete(r);
    put(r, "}\n", 2);
    /* One write() per line: a reader (or a crash) never sees half a record. */
    if (to_file && pst_outfile_is_open()) pst_outfile_write(r->buf, r->len);
    free(r->buf);
    *r = (pst_rec){.empty = true};
}
