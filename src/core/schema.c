#include "core/schema.h"

#include <string.h>

const pst_field *pst_fields_find(const pst_fields *g, const char *key)
{
    for (size_t i = 0; i < g->n; i++)
        if (!strcmp(g->field[i].name, key)) return &g->field[i];
    return NULL;
}

const pst_field *pst_schema_field(const pst_schema *s, const char *key, size_t *part, size_t *index)
{
    for (size_t p = 0; p < PST_SCHEMA_PARTS && s->part[p]; p++) {
        const pst_field *f = pst_fields_find(s->part[p], key);
        if (f) {
            *part = p;
            *index = (size_t)(f - s->part[p]->field);
            return f;
        }
    }
    return NULL;
}

const char *pst_ftype_name(pst_ftype t)
{
    static const char *const names[] = {
        [PST_F_STR] = "string", [PST_F_INT] = "int", [PST_F_NUM] = "number", [PST_F_BOOL] = "bool",
        [PST_F_STRS] = "string[]", [PST_F_INTS] = "int[]", [PST_F_NUMS] = "number[]",
        [PST_F_OBJ] = "object", [PST_F_OBJS] = "object[]", [PST_F_MAP] = "map",
    };
    return names[t];
}

static int check_members(const pst_fields *g, const char *where, FILE *err)
{
    int bad = 0;
    for (size_t i = 0; i < g->n; i++) {
        const pst_field *f = &g->field[i];
        bool nests = f->type == PST_F_OBJ || f->type == PST_F_OBJS;
        if (nests != (f->members != NULL)) {
            fprintf(err, "%s: field %s: members %s for a %s\n", where, f->name, f->members ? "given" : "missing",
                    pst_ftype_name(f->type));
            bad++;
        }
        if (!f->doc || !f->doc[0]) { fprintf(err, "%s: field %s has no doc\n", where, f->name); bad++; }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(g->field[j].name, f->name)) {
                fprintf(err, "%s: field %s listed twice\n", where, f->name);
                bad++;
            }
        if (f->members) bad += check_members(f->members, where, err);
    }
    return bad;
}

int pst_schema_check(const pst_schema *const *s, size_t n, FILE *err)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        char where[128];
        snprintf(where, sizeof where, "%s/%s%s%s", s[i]->bench, s[i]->type, s[i]->summary ? "/" : "",
                 s[i]->summary ? s[i]->summary : "");
        for (size_t j = 0; j < i; j++)
            if (!strcmp(s[i]->bench, s[j]->bench) && !strcmp(s[i]->type, s[j]->type) &&
                !strcmp(s[i]->summary ? s[i]->summary : "", s[j]->summary ? s[j]->summary : "")) {
                fprintf(err, "%s: schema listed twice\n", where);
                bad++;
            }
        for (size_t p = 0; p < PST_SCHEMA_PARTS && s[i]->part[p]; p++) {
            const pst_fields *g = s[i]->part[p];
            if (g->n > PST_SCHEMA_PART_MAX) {
                fprintf(err, "%s: group %s has %zu fields (at most %d)\n", where, g->name, g->n, PST_SCHEMA_PART_MAX);
                bad++;
            }
            bad += check_members(g, where, err);
            /* A name in two groups of one record would be written twice. */
            for (size_t k = 0; k < g->n; k++)
                for (size_t q = 0; q < p; q++)
                    if (pst_fields_find(s[i]->part[q], g->field[k].name)) {
                        fprintf(err, "%s: field %s in groups %s and %s\n", where, g->field[k].name, s[i]->part[q]->name,
                                g->name);
                        bad++;
                    }
        }
    }
    return bad;
}
