#include "core/toml.h"

#include "core/alloc.h"
#include "core/utf8.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_DEPTH = 8 };                 /* inline tables within inline tables */
static const size_t MAX_FILE_BYTES = 1 << 20; /* a tuned file is a few kB */

typedef struct {
    const char *p, *end, *name;
    int line;
    char *err;
    size_t errlen;
} parser;

__attribute__((format(printf, 2, 3))) static bool fail(parser *ps, const char *fmt, ...)
{
    int n = snprintf(ps->err, ps->errlen, "%s:%d: ", ps->name, ps->line);
    if (n >= 0 && (size_t)n < ps->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool at_end(const parser *ps) { return ps->p >= ps->end; }
static int peek(const parser *ps) { return at_end(ps) ? -1 : (unsigned char)*ps->p; }
static bool starts(const parser *ps, const char *s)
{
    return (size_t)(ps->end - ps->p) >= strlen(s) && !memcmp(ps->p, s, strlen(s));
}

/* TOML text is UTF-8 without control characters other than tab and line ends. */
static bool check_text(parser *ps)
{
    for (const char *q = ps->p; q < ps->end;) {
        unsigned char c = (unsigned char)*q;
        if (c == '\n') ps->line++;
        if ((c < 0x20 && c != '\t' && c != '\n' && !(c == '\r' && q + 1 < ps->end && q[1] == '\n')) || c == 0x7F)
            return fail(ps, "control character 0x%02X", c);
        size_t n = pst_utf8_sequence((const unsigned char *)q, (size_t)(ps->end - q));
        if (!n) return fail(ps, "invalid UTF-8");
        q += n;
    }
    ps->line = 1;
    return true;
}

static void skip_blank(parser *ps)
{
    while (peek(ps) == ' ' || peek(ps) == '\t') ps->p++;
}

/* Blanks, a comment, then the end of the line or of the text. */
static bool end_of_line(parser *ps)
{
    skip_blank(ps);
    if (peek(ps) == '#')
        while (!at_end(ps) && *ps->p != '\n' && *ps->p != '\r') ps->p++;
    if (starts(ps, "\r\n")) ps->p++;
    if (at_end(ps)) return true;
    if (*ps->p != '\n') return fail(ps, "unexpected '%c' after the value (one key = value per line)", *ps->p);
    ps->p++;
    ps->line++;
    return true;
}

typedef struct {
    char *s;
    size_t n, cap;
} strbuf;

static void put(strbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = 2 * (b->n + n + 1);
        b->s = pst_realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void put_codepoint(strbuf *b, uint32_t c)
{
    char u[4];
    size_t n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    static const unsigned char lead[5] = {0, 0, 0xC0, 0xE0, 0xF0};
    for (size_t k = n - 1; k > 0; k--, c >>= 6) u[k] = (char)(0x80 | (c & 0x3F));
    u[0] = (char)(lead[n] | c);
    put(b, u, n);
}

static bool hex_escape(parser *ps, int digits, strbuf *b)
{
    uint32_t c = 0;
    for (int k = 0; k < digits; k++) {
        int h = peek(ps);
        int v = h >= '0' && h <= '9'   ? h - '0'
                : h >= 'a' && h <= 'f' ? h - 'a' + 10
                : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                       : -1;
        if (v < 0) return fail(ps, "\\%c escape needs %d hex digits", digits == 4 ? 'u' : 'U', digits);
        c = c * 16 + (uint32_t)v;
        ps->p++;
    }
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return fail(ps, "escape U+%X is not a Unicode scalar value", c);
    put_codepoint(b, c);
    return true;
}

/* A "basic" or 'literal' string on one line; *out is allocated. */
static bool parse_string(parser *ps, char **out)
{
    char quote = *ps->p;
    if (starts(ps, quote == '"' ? "\"\"\"" : "'''")) return fail(ps, "multi-line strings are not supported");
    ps->p++;
    strbuf b = {0};
    put(&b, "", 0);
    for (;;) {
        int c = peek(ps);
        if (c < 0 || c == '\n' || c == '\r') {
            free(b.s);
            return fail(ps, "unterminated string");
        }
        ps->p++;
        if (c == quote) break;
        if (c != '\\' || quote == '\'') {
            put(&b, ps->p - 1, 1);
            continue;
        }
        int e = peek(ps);
        ps->p++;
        static const char from[] = "btnfr\"\\", to[] = "\b\t\n\f\r\"\\";
        const char *k = e > 0 ? strchr(from, e) : NULL;
        if (k) {
            put(&b, &to[k - from], 1);
        } else if (e == 'u' || e == 'U') {
            if (!hex_escape(ps, e == 'u' ? 4 : 8, &b)) {
                free(b.s);
                return false;
            }
        } else {
            free(b.s);
            return fail(ps, "unknown escape '\\%c' in a string", e > 0 ? e : ' ');
        }
    }
    *out = b.s;
    return true;
}

static bool bare_char(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static bool parse_key(parser *ps, char **out)
{
    if (peek(ps) == '"' || peek(ps) == '\'') {
        if (!parse_string(ps, out)) return false;
    } else {
        const char *start = ps->p;
        while (bare_char(peek(ps))) ps->p++;
        if (ps->p == start)
            return at_end(ps) ? fail(ps, "a key is missing") : fail(ps, "'%c' cannot start a key", *ps->p);
        *out = pst_strndup(start, (size_t)(ps->p - start));
    }
    skip_blank(ps);
    if (peek(ps) == '.') {
        free(*out);
        return fail(ps, "dotted keys are not supported");
    }
    return true;
}

/* Digits with single underscores between them, copied to b without the underscores when b is
 * not NULL; returns how many characters they take, 0 if none. */
static size_t digits(const char *s, const char *end, strbuf *b)
{
    const char *q = s;
    while (q < end && *q >= '0' && *q <= '9') {
        if (b) put(b, q, 1);
        q++;
        if (q + 1 < end && *q == '_' && q[1] >= '0' && q[1] <= '9') q++;
    }
    return (size_t)(q - s);
}

/* Integers and floats in TOML's decimal syntax, inf and nan. */
static bool parse_number(parser *ps, pst_toml *v)
{
    const char *start = ps->p, *q = ps->p;
    while (q < ps->end && (bare_char(*q) || *q == '+' || *q == '.' || *q == ':')) q++;
    size_t len = (size_t)(q - start);
    if (memchr(start, ':', len) || (len >= 5 && start[4] == '-' && digits(start, start + 4, NULL) == 4))
        return fail(ps, "dates and times are not supported");
    const char *s = start;
    bool sign = *s == '+' || *s == '-';
    if (len - sign == 3 && (!memcmp(s + sign, "inf", 3) || !memcmp(s + sign, "nan", 3))) {
        v->kind = PST_TOML_FLOAT;
        v->f = s[sign] == 'i' ? (*s == '-' ? -1.0 / 0.0 : 1.0 / 0.0) : 0.0 / 0.0;
        ps->p = q;
        return true;
    }
    strbuf b = {0};
    put(&b, s, sign);
    s += sign;
    size_t whole = digits(s, q, &b);
    bool ok = whole > 0 && !(whole > 1 && *s == '0'), is_float = false;
    s += whole;
    if (ok && s < q && *s == '.') {
        put(&b, s++, 1);
        size_t frac = digits(s, q, &b);
        ok = frac > 0;
        s += frac;
        is_float = true;
    }
    if (ok && s < q && (*s == 'e' || *s == 'E')) {
        put(&b, s++, 1);
        if (s < q && (*s == '+' || *s == '-')) put(&b, s++, 1);
        size_t exp = digits(s, q, &b);
        ok = exp > 0;
        s += exp;
        is_float = true;
    }
    ok = ok && s == q;
    if (ok) {
        errno = 0;
        char *endp;
        if (is_float) {
            v->kind = PST_TOML_FLOAT;
            v->f = strtod(b.s, &endp);
        } else {
            v->kind = PST_TOML_INT;
            v->i = strtoll(b.s, &endp, 10);
        }
        if (errno == ERANGE) {
            free(b.s);
            return fail(ps, "number '%.*s' is out of range", (int)len, start);
        }
    }
    free(b.s);
    if (!ok)
        return len ? fail(ps, "'%.*s' is not a value (string, number, true, false or { table })",
                          (int)(len > 40 ? 40 : len), start)
                   : fail(ps, "a value is missing");
    ps->p = q;
    return true;
}

static bool add_member(parser *ps, pst_toml *table, pst_toml *child);
static void free_value(pst_toml *v);

static bool parse_value(parser *ps, pst_toml *v, int depth)
{
    v->line = ps->line;
    int c = peek(ps);
    if (c == '"' || c == '\'') {
        v->kind = PST_TOML_STRING;
        return parse_string(ps, &v->str);
    }
    if (c == '[') return fail(ps, "arrays are not supported");
    if (c == '{') {
        if (depth >= MAX_DEPTH) return fail(ps, "inline tables nested deeper than %d", MAX_DEPTH);
        ps->p++;
        v->kind = PST_TOML_TABLE;
        skip_blank(ps);
        if (peek(ps) == '}') {
            ps->p++;
            return true;
        }
        for (;;) {
            skip_blank(ps);
            pst_toml member = {0};
            if (!parse_key(ps, &member.key)) return false;
            skip_blank(ps);
            if (peek(ps) != '=') {
                free(member.key);
                return fail(ps, "'=' expected after key '%s'", v->n ? v->items[v->n - 1].key : "");
            }
            ps->p++;
            skip_blank(ps);
            if (!parse_value(ps, &member, depth + 1) || !add_member(ps, v, &member)) {
                free_value(&member);
                return false;
            }
            skip_blank(ps);
            if (peek(ps) == '}') {
                ps->p++;
                return true;
            }
            if (peek(ps) != ',') return fail(ps, "',' or '}' expected in an inline table");
            ps->p++;
        }
    }
    if (starts(ps, "true") || starts(ps, "false")) {
        size_t n = starts(ps, "true") ? 4 : 5;
        if (ps->p + n == ps->end || !bare_char((unsigned char)ps->p[n])) {
            v->kind = PST_TOML_BOOL;
            v->b = n == 4;
            ps->p += n;
            return true;
        }
    }
    return parse_number(ps, v);
}

static bool add_member(parser *ps, pst_toml *table, pst_toml *child)
{
    const pst_toml *dup = pst_toml_get(table, child->key);
    if (dup) return fail(ps, "duplicate key '%s' (first defined on line %d)", child->key, dup->line);
    table->items = pst_realloc(table->items, (table->n + 1) * sizeof *table->items);
    table->items[table->n++] = *child;
    return true;
}

/* [name] */
static bool parse_header(parser *ps, pst_toml *root, size_t *current)
{
    if (starts(ps, "[[")) return fail(ps, "arrays of tables are not supported");
    ps->p++;
    skip_blank(ps);
    pst_toml table = {.kind = PST_TOML_TABLE, .line = ps->line};
    if (!parse_key(ps, &table.key)) return false;
    skip_blank(ps);
    if (peek(ps) != ']' || !add_member(ps, root, &table)) {
        bool unclosed = peek(ps) != ']';
        free(table.key);
        return unclosed ? fail(ps, "']' expected after table name") : false;
    }
    ps->p++;
    *current = root->n - 1;
    return end_of_line(ps);
}

pst_toml *pst_toml_parse(const char *text, size_t len, const char *name, char *err, size_t errlen)
{
    parser ps = {.p = text, .end = text + len, .name = name, .line = 1, .err = err, .errlen = errlen};
    pst_toml *root = pst_calloc(1, sizeof *root);
    root->kind = PST_TOML_TABLE;
    size_t current = SIZE_MAX; /* index of the table being filled in root->items; SIZE_MAX = root */
    bool ok = check_text(&ps);
    while (ok && !at_end(&ps)) {
        skip_blank(&ps);
        int c = peek(&ps);
        if (c == '#' || c == '\n' || c == '\r' || c < 0) {
            ok = end_of_line(&ps);
        } else if (c == '[') {
            ok = parse_header(&ps, root, &current);
        } else {
            pst_toml kv = {0};
            ok = parse_key(&ps, &kv.key);
            if (ok) {
                skip_blank(&ps);
                ok = peek(&ps) == '=' || fail(&ps, "'=' expected after key '%s'", kv.key);
            }
            if (ok) {
                ps.p++;
                skip_blank(&ps);
                pst_toml *into = current == SIZE_MAX ? root : &root->items[current];
                ok = parse_value(&ps, &kv, 0) && add_member(&ps, into, &kv) && end_of_line(&ps);
                if (!ok && (into->n == 0 || into->items[into->n - 1].key != kv.key)) free_value(&kv);
            }
        }
    }
    if (!ok) {
        pst_toml_free(root);
        return NULL;
    }
    return root;
}

pst_toml *pst_toml_read(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)MAX_FILE_BYTES) {
        snprintf(err, errlen, "%s: %s", path, S_ISREG(st.st_mode) ? "larger than 1 MiB" : "not a regular file");
        fclose(f);
        return NULL;
    }
    char *text = pst_malloc((size_t)st.st_size + 1);
    size_t len = fread(text, 1, (size_t)st.st_size, f);
    bool read_error = ferror(f);
    fclose(f);
    pst_toml *root = read_error ? NULL : pst_toml_parse(text, len, path, err, errlen);
    if (read_error) snprintf(err, errlen, "%s: read error", path);
    free(text);
    return root;
}

const pst_toml *pst_toml_get(const pst_toml *table, const char *key)
{
    for (size_t k = 0; table && k < table->n; k++)
        if (!strcmp(table->items[k].key, key)) return &table->items[k];
    return NULL;
}

const char *pst_toml_kind_name(pst_toml_kind kind)
{
    static const char *const names[] = {"a string", "an integer", "a float", "a boolean", "a table"};
    return names[kind];
}

static void free_value(pst_toml *v)
{
    for (size_t k = 0; k < v->n; k++) free_value(&v->items[k]);
    free(v->items);
    free(v->key);
    free(v->str);
}

void pst_toml_free(pst_toml *root)
{
    if (!root) return;
    free_value(root);
    free(root);
}
