#include "comm/protocol.h"
#include "core/alloc.h"
#include "core/errors.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const pst_transport pst_transport_mpi, pst_transport_rma;
#ifdef PST_HAVE_SHMEM
extern const pst_transport pst_transport_shmem;
#endif

static const pst_transport *const transports[] = {
    &pst_transport_mpi,
    &pst_transport_rma,
#ifdef PST_HAVE_SHMEM
    &pst_transport_shmem,
#endif
};
enum { NTRANSPORTS = sizeof transports / sizeof transports[0] };

#define MAX_PROTOCOLS 64

static struct catalogue {
    const pst_transport *transport;
    size_t n;
    pst_protocol p[MAX_PROTOCOLS];
} catalogues[NTRANSPORTS];

enum { CLS_OVERLAP = 2, CLS_PERSISTENT = 4, NCLASSES = 6 };

/* Which forms a recipe family has: the plain one, overlap when side A's recipe splits,
 * persistent when its nonblocking calls have _init twins and the transport prepares them. */
static bool has_form(const pst_transport *t, int cls, const pst_variant *v)
{
    if (cls >= CLS_PERSISTENT) return v->persists && t->prepare;
    return cls < CLS_OVERLAP || v->splits;
}

static void add(struct catalogue *c, int cls, int variant)
{
    int base = cls & 1;
    bool overlap = cls == CLS_OVERLAP || cls == CLS_OVERLAP + 1, persistent = cls >= CLS_PERSISTENT;
    const pst_variant *v = &c->transport->variants[base][variant];
    pst_protocol *p = &c->p[c->n++];
    *p = (pst_protocol){.cls = cls, .variant = variant, .ordered = base == 1, .overlap = overlap,
                        .persistent = persistent, .partitioned = v->requires == PST_FEAT_PARTITIONED,
                        .requires = v->requires != PST_FEAT_NONE ? v->requires : c->transport->requires,
                        .transport = c->transport};
    snprintf(p->code, sizeof p->code, "%d,%d", cls, variant);
    snprintf(p->slug, sizeof p->slug, "%s.%s%s", base ? "ordered" : "unordered", v->slug,
             overlap ? ".overlap" : persistent ? ".persistent" : "");
    snprintf(p->name, sizeof p->name, "%s%s", persistent ? "persistent " : "", v->name);
}

static const struct catalogue *catalogue(const char *transport)
{
    for (size_t t = 0; t < NTRANSPORTS; t++) {
        if (strcmp(transport, transports[t]->name) != 0) continue;
        struct catalogue *c = &catalogues[t];
        if (c->n == 0) {
            c->transport = transports[t];
            for (int cls = 0; cls < NCLASSES; cls++)
                for (int v = 0; v < c->transport->nvariants[cls & 1]; v++)
                    if (has_form(c->transport, cls, &c->transport->variants[cls & 1][v])) add(c, cls, v);
        }
        return c;
    }
    return NULL;
}

const char *pst_transport_names(void)
{
    static char names[64];
    if (!names[0])
        for (size_t t = 0; t < NTRANSPORTS; t++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", t ? ", " : "", transports[t]->name);
    return names;
}

static const pst_transport *transport_or_die(const char *transport)
{
    const struct catalogue *c = catalogue(transport);
    if (!c) pst_fatal(PST_EXIT_FAILED, "unknown transport '%s' (this build has: %s)", transport, pst_transport_names());
    return c->transport;
}

void pst_transport_setup(const char *transport, MPI_Comm comm, size_t max_bytes, size_t max_inflight)
{
    const pst_transport *t = transport_or_die(transport);
    if (t->setup) t->setup(comm, max_bytes, max_inflight, false);
}

void pst_transport_grow(const char *transport, MPI_Comm comm, size_t max_bytes, size_t max_inflight)
{
    const pst_transport *t = transport_or_die(transport);
    if (t->setup) t->setup(comm, max_bytes, max_inflight, true);
}

void pst_transport_release(const char *transport, MPI_Comm comm)
{
    const pst_transport *t = transport_or_die(transport);
    if (t->release) t->release(comm);
}

void pst_transport_before_mpi_init(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *name = !strcmp(argv[i], "--transport") && i + 1 < argc ? argv[i + 1]
                           : !strncmp(argv[i], "--transport=", 12)     ? argv[i] + 12
                                                                       : NULL;
        const struct catalogue *c = name ? catalogue(name) : NULL;
        if (c && c->transport->before_mpi_init) c->transport->before_mpi_init();
    }
}

const char *pst_transport_memory_model(const char *transport, MPI_Comm comm)
{
    const pst_transport *t = transport_or_die(transport);
    return t->memory_model ? t->memory_model(comm) : NULL;
}

bool pst_transport_known(const char *transport) { return catalogue(transport) != NULL; }

void pst_transport_require(const char *transport)
{
    if (!pst_transport_known(transport))
        pst_usage_error("--transport: unknown transport '%s' (allowed: %s)", transport, pst_transport_names());
    char why[512];
    if (pst_mpi_feature_missing(catalogue(transport)->transport->requires, why, sizeof why))
        pst_usage_error("--transport %s: %s", transport, why);
}

size_t pst_protocol_count(const char *transport)
{
    const struct catalogue *c = catalogue(transport);
    return c ? c->n : 0;
}

const pst_protocol *pst_protocol_at(const char *transport, size_t i)
{
    const struct catalogue *c = catalogue(transport);
    return c && i < c->n ? &c->p[i] : NULL;
}

const pst_protocol *pst_protocol_find(const char *transport, const char *spec)
{
    const struct catalogue *c = catalogue(transport);
    if (!c) return NULL;
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->p[i].code, spec) || !strcmp(c->p[i].slug, spec)) return &c->p[i];
    return NULL;
}

static const char *const groups[] = {"all", "unordered", "ordered", "overlap", "no-overlap", "persistent"};

static bool in_group(const pst_protocol *p, const char *group)
{
    return !strcmp(group, "all") || (!strcmp(group, "unordered") && !p->ordered) ||
           (!strcmp(group, "ordered") && p->ordered) || (!strcmp(group, "overlap") && p->overlap) ||
           (!strcmp(group, "no-overlap") && !p->overlap) || (!strcmp(group, "persistent") && p->persistent);
}

static bool is_group(const char *spec)
{
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        if (!strcmp(spec, groups[g])) return true;
    return false;
}

static bool is_int(const char *s) { return *s && strspn(s, "0123456789") == strlen(s); }

static void push_unique(const pst_protocol ***list, size_t *n, const pst_protocol *p)
{
    for (size_t i = 0; i < *n; i++)
        if ((*list)[i] == p) return;
    *list = pst_realloc(*list, (*n + 1) * sizeof **list);
    (*list)[(*n)++] = p;
}

int pst_protocol_parse_list(const char *transport, const char *list, const pst_protocol ***out,
                            size_t *n, char *err, size_t errlen)
{
    const struct catalogue *c = catalogue(transport);
    if (!c) { snprintf(err, errlen, "unknown transport '%s'", transport); return -1; }
    const pst_protocol **res = NULL;
    size_t count = 0;
    char *copy = pst_strdup(list), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        char spec[64];
        if (is_int(tok)) {
            /* Codes are integer pairs, so "1,3,0,6" reads as 1,3 and 0,6. */
            char *second = strtok_r(NULL, ",", &save);
            if (!second || !is_int(second)) {
                snprintf(err, errlen, "protocol code '%s' needs two numbers, like 1,3", tok);
                rc = -1;
                break;
            }
            snprintf(spec, sizeof spec, "%s,%s", tok, second);
        } else {
            snprintf(spec, sizeof spec, "%s", tok);
        }
        if (is_group(spec)) {
            for (size_t i = 0; i < c->n; i++)
                if (in_group(&c->p[i], spec) && !pst_protocol_unavailable(&c->p[i]))
                    push_unique(&res, &count, &c->p[i]);
            continue;
        }
        const pst_protocol *p = pst_protocol_find(transport, spec);
        if (!p) {
            snprintf(err, errlen, "unknown protocol '%s' (codes 0,0-0,%d, 1,0-1,%d, 2,x/3,x for overlap%s; "
                     "slugs like ordered.%s; groups all, ordered, unordered, overlap, no-overlap, persistent)", spec,
                     c->transport->nvariants[0] - 1, c->transport->nvariants[1] - 1,
                     c->transport->prepare ? ", 4,x/5,x persistent" : "", c->transport->variants[1][0].slug);
            rc = -1;
            break;
        }
        if (pst_protocol_unavailable(p)) {
            snprintf(err, errlen, "protocol %s (%s) %s", p->code, p->slug, pst_protocol_unavailable(p));
            rc = -1;
            break;
        }
        push_unique(&res, &count, p);
    }
    free(copy);
    if (!rc && count == 0) { snprintf(err, errlen, "empty protocol list"); rc = -1; }
    if (rc) { free(res); return -1; }
    *out = res;
    *n = count;
    return 0;
}

/* MPI counts are ints: a larger transfer is a failure to report, never one to shorten. */
static int count_of(size_t bytes)
{
    if (bytes > INT_MAX)
        pst_fatal(PST_EXIT_FAILED, "a transfer of %zu bytes exceeds MPI's int count (%d)", bytes, INT_MAX);
    return (int)bytes;
}

void pst_xfer_init_v(pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side,
                     const void *sendbuf, size_t send_bytes, void *recvbuf, size_t recv_bytes, int tag)
{
    bool swap = dest == src;
    *x = (pst_xfer){.proto = p, .comm = comm, .dest = dest, .src = src, .side = side, .tag = tag,
                    .sendbuf = sendbuf, .recvbuf = recvbuf, .bytes = count_of(send_bytes),
                    .recv_bytes = count_of(recv_bytes)};
    for (int i = 0; i < 4; i++) x->req[i] = MPI_REQUEST_NULL;
    x->slot = -1;
    x->send_parts = x->recv_parts = 1;
    /* In an ordered SWAP, A's data reaching B already proves A's receive is posted (A posts
     * before sending), so only B announces readiness; everywhere else both sides do. */
    x->sends_handshake = !(swap && p->ordered && side == PST_SIDE_A);
    x->waits_handshake = !(swap && p->ordered && side == PST_SIDE_B);
}

void pst_xfer_init(pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side,
                   const void *sendbuf, void *recvbuf, size_t bytes, int tag)
{
    pst_xfer_init_v(x, p, comm, dest, src, side, sendbuf, bytes, recvbuf, bytes, tag);
}

/* Protocols whose transfers hold requests from one run to the next. */
static bool prepares(const pst_protocol *p) { return p->persistent || p->partitioned; }

void pst_xfer_prepare(pst_xfer *x)
{
    if (prepares(x->proto)) x->proto->transport->prepare(x);
}

void pst_xfer_free(pst_xfer *x)
{
    if (prepares(x->proto)) x->proto->transport->unprepare(x);
}

void pst_xfer_send_part(pst_xfer *x, int part) { x->proto->transport->send_part(x, part); }
void pst_xfer_wait_part(pst_xfer *x, int part) { x->proto->transport->wait_part(x, part); }

/* ---- a plan's persistent transfers ---- */

enum { BINDINGS = 4 }; /* buffers one (tag, peers, side) keeps prepared: a batch of a few, and in and out of place */

typedef struct slot {
    const pst_protocol *proto;
    MPI_Comm comm;
    int dest, src, side, tag;
    pst_xfer bound[BINDINGS]; /* prepared transfers; proto NULL when empty */
    unsigned long long used[BINDINGS];
} slot;

struct pst_xfer_set {
    slot *v;
    size_t n, cap; /* open addressing, cap a power of two */
    unsigned long long clock;
};

pst_xfer_set *pst_xfer_set_new(void) { return pst_calloc(1, sizeof(pst_xfer_set)); }

/* Communicator handles are not portably hashable (an int in MPICH, a pointer in Open MPI): the
 * ints carry the spread, slot_is tells communicators apart. */
static size_t slot_hash(int dest, int src, int side, int tag)
{
    size_t h = (size_t)tag * 0x9E3779B97F4A7C15ull ^ (size_t)dest * 0xC2B2AE3D27D4EB4Full ^
               (size_t)src * 0x165667B19E3779F9ull ^ (size_t)side;
    return h ^ (h >> 29);
}

static bool slot_is(const slot *e, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side, int tag)
{
    return e->proto == p && e->comm == comm && e->dest == dest && e->src == src && e->side == side && e->tag == tag;
}

static slot *slot_find(pst_xfer_set *s, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side, int tag)
{
    if (2 * (s->n + 1) > s->cap) { /* keep the table at most half full */
        slot *old = s->v;
        size_t oldcap = s->cap;
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = pst_calloc(s->cap, sizeof *s->v);
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].proto) {
                size_t j = slot_hash(old[i].dest, old[i].src, old[i].side, old[i].tag) & (s->cap - 1);
                while (s->v[j].proto) j = (j + 1) & (s->cap - 1);
                s->v[j] = old[i];
            }
        free(old);
    }
    size_t j = slot_hash(dest, src, side, tag) & (s->cap - 1);
    while (s->v[j].proto && !slot_is(&s->v[j], p, comm, dest, src, side, tag)) j = (j + 1) & (s->cap - 1);
    slot *e = &s->v[j];
    if (!e->proto) {
        *e = (slot){.proto = p, .comm = comm, .dest = dest, .src = src, .side = side, .tag = tag};
        s->n++;
    }
    return e;
}

void pst_xfer_set_init(pst_xfer_set *s, pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side,
                       const void *sendbuf, size_t send_bytes, void *recvbuf, size_t recv_bytes, int tag)
{
    pst_xfer_set_init_parts(s, x, p, comm, dest, src, side, sendbuf, send_bytes, 1, recvbuf, recv_bytes, 1, tag);
}

void pst_xfer_set_init_parts(pst_xfer_set *s, pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src,
                             int side, const void *sendbuf, size_t send_bytes, int send_parts, void *recvbuf,
                             size_t recv_bytes, int recv_parts, int tag)
{
    pst_xfer_init_v(x, p, comm, dest, src, side, sendbuf, send_bytes, recvbuf, recv_bytes, tag);
    if (send_parts < 1 || recv_parts < 1 || send_bytes % (size_t)send_parts || recv_bytes % (size_t)recv_parts ||
        ((send_parts > 1 || recv_parts > 1) && !p->partitioned))
        pst_fatal(PST_EXIT_FAILED, "protocol %s: %zu / %zu bytes cannot go as %d / %d equal partitions", p->code,
                  send_bytes, recv_bytes, send_parts, recv_parts);
    x->send_parts = send_parts;
    x->recv_parts = recv_parts;
    if (!prepares(p)) return;
    slot *e = slot_find(s, p, comm, dest, src, side, tag);
    int oldest = 0;
    for (int b = 0; b < BINDINGS; b++) {
        const pst_xfer *k = &e->bound[b];
        if (k->proto && k->sendbuf == x->sendbuf && k->recvbuf == x->recvbuf && k->bytes == x->bytes &&
            k->recv_bytes == x->recv_bytes && k->send_parts == x->send_parts && k->recv_parts == x->recv_parts) {
            e->used[b] = ++s->clock;
            *x = *k; /* the same requests: persistent handles stay valid from start to start */
            return;
        }
        if (e->used[b] < e->used[oldest]) oldest = b;
    }
    /* A new binding takes the least recently used place (inactive: nothing of this plan is in flight
     * between its exchanges, and a batch uses a (tag, peers, side) at most BINDINGS times). */
    if (e->bound[oldest].proto) pst_xfer_free(&e->bound[oldest]);
    pst_xfer_prepare(x);
    e->bound[oldest] = *x;
    e->used[oldest] = ++s->clock;
}

void pst_xfer_set_free(pst_xfer_set *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->cap; i++)
        for (int b = 0; b < BINDINGS; b++)
            if (s->v[i].proto && s->v[i].bound[b].proto) pst_xfer_free(&s->v[i].bound[b]);
    free(s->v);
    free(s);
}

void pst_xfer_reserve(const pst_xfer *x, size_t n)
{
    if (x->proto->transport->reserve) x->proto->transport->reserve(x, n);
}

void pst_xfer_hold(const pst_xfer *x, long n)
{
    if (x->proto->transport->hold) x->proto->transport->hold(x, n);
}
void pst_xfer_post(pst_xfer *x) { x->proto->transport->post(x); }
void pst_xfer_send(pst_xfer *x) { x->proto->transport->send(x); }
void pst_xfer_wait(pst_xfer *x) { x->proto->transport->wait(x); }
/* A transport without the hook never blocks a send on the partner's wait phase. */
bool pst_xfer_send_early(const pst_xfer *x)
{
    const pst_transport *t = x->proto->transport;
    return !t->send_early || t->send_early(x);
}

void pst_xfer_run(pst_xfer *x, size_t n)
{
    if (n == 0) return;
    const pst_transport *t = x[0].proto->transport;
    if (x[0].proto->overlap) {
        for (size_t i = 0; i < n; i++) t->post(&x[i]);
        for (size_t i = 0; i < n; i++)
            if (pst_xfer_send_early(&x[i])) t->send(&x[i]);
        for (size_t i = 0; i < n; i++) {
            if (!pst_xfer_send_early(&x[i])) t->send(&x[i]);
            t->wait(&x[i]);
        }
    } else {
        for (size_t i = 0; i < n; i++) { t->post(&x[i]); t->send(&x[i]); t->wait(&x[i]); }
    }
}

static int gcd(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }

int pst_shift_side(int rank, int size, int shift)
{
    shift = ((shift % size) + size) % size;
    if (shift == 0) return PST_SIDE_A;
    int g = gcd(size, shift), len = size / g;
    /* Walk back along the cycle rank, rank-shift, ... to its smallest member: position j. */
    int j = 0, r = rank, start = rank;
    for (int k = 1; k < len; k++) {
        r = ((r - shift) % size + size) % size;
        if (r < start) { start = r; }
    }
    for (r = start; r != rank; r = (r + shift) % size) j++;
    return (j % 2 == 0) ? PST_SIDE_A : PST_SIDE_B;
}
