#include "runtime/emit.h"

void pst_rec_begin(pst_rec *r, const pst_ctx *c, const pst_schema *s)
{
    pst_rec_open_schema(r, s);
    pst_rec_str(r, "bench", s->bench);
    pst_rec_str(r, "type", s->type);
    pst_rec_str(r, "run_id", c->run_id);
    pst_rec_int(r, "ranks", c->size);
    pst_rec_str(r, "transport", c->transport);
    if (s->summary) pst_rec_str(r, "summary", s->summary);
}

void pst_rec_emit(pst_rec *r, pst_ctx *c) { pst_rec_write(r, c->rank == 0); }
