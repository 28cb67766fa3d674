/* The rma transport on one rank: its catalogue (codes, slugs, groups, messages), the
 * transport list, and every protocol exchanging with itself on MPI_COMM_SELF through window
 * set-ups that grow, re-cut and shrink, with enough transfers to wrap the slot rings. */
#include "check.h"
#include "comm/protocol.h"
#include "runtime/payload.h"

#include <stdlib.h>
#include <string.h>

static void test_catalogue(void)
{
    /* 4 unordered + 4 ordered, each with an overlap form */
    CHECK(pst_protocol_count("rma") == 16);
    CHECK(pst_transport_known("rma") && pst_transport_known("mpi") && !pst_transport_known("RMA"));
    CHECK(!strncmp(pst_transport_names(), "mpi, rma", 8));
    const pst_protocol *p = pst_protocol_find("rma", "1,2");
    CHECK(p && p->ordered && !p->overlap && !strcmp(p->slug, "ordered.get") && !strcmp(p->transport->name, "rma"));
    CHECK(pst_protocol_find("rma", "unordered.put") == pst_protocol_at("rma", 0));
    CHECK(pst_protocol_find("rma", "3,3") == pst_protocol_find("rma", "ordered.get-nb.overlap"));
    CHECK(pst_protocol_find("rma", "0,4") == NULL && pst_protocol_find("rma", "0,6") == NULL);
    CHECK(pst_protocol_find("rma", "ordered.simple") == NULL); /* mpi slugs are not rma's */
    CHECK(pst_protocol_find("mpi", "unordered.put") == NULL);
    for (size_t i = 0; i < 16; i++) {
        const pst_protocol *q = pst_protocol_at("rma", i);
        CHECK(pst_protocol_find("rma", q->code) == q && pst_protocol_find("rma", q->slug) == q);
    }
    /* The mpi catalogue is unchanged by the second transport. */
    CHECK(pst_protocol_count("mpi") == 48 && pst_protocol_find("mpi", "1,3") != pst_protocol_find("rma", "1,3"));
}

static void test_list_parsing(void)
{
    char err[512];
    const pst_protocol **l;
    size_t n;
    CHECK(pst_protocol_parse_list("rma", "all", &l, &n, err, sizeof err) == 0 && n == 16);
    free(l);
    CHECK(pst_protocol_parse_list("rma", "overlap", &l, &n, err, sizeof err) == 0 && n == 8);
    free(l);
    CHECK(pst_protocol_parse_list("rma", "0,1,ordered.get,0,1", &l, &n, err, sizeof err) == 0);
    CHECK(n == 2 && !strcmp(l[0]->slug, "unordered.put-nb") && !strcmp(l[1]->code, "1,2"));
    free(l);
    CHECK(pst_protocol_parse_list("rma", "1,10", &l, &n, err, sizeof err) == -1);
    CHECK(strstr(err, "unknown protocol '1,10' (codes 0,0-0,3, 1,0-1,3, 2,x/3,x for overlap; slugs like ordered.put") !=
          NULL);
    CHECK(pst_protocol_parse_list("mpi", "9,9", &l, &n, err, sizeof err) == -1);
    CHECK(
        strstr(err, "(codes 0,0-0,8, 1,0-1,10, 2,x/3,x for overlap, 4,x/5,x persistent; slugs like ordered.simple;") !=
        NULL);
    CHECK(pst_protocol_parse_list("pigeon", "all", &l, &n, err, sizeof err) == -1);
    CHECK(strstr(err, "unknown transport 'pigeon'") != NULL);
}

/* nmsg transfers with ourselves, `rounds` times; returns the corrupted words. */
static size_t self_exchange(const pst_protocol *p, size_t bytes, int nmsg, int rounds)
{
    unsigned char *sendbuf = malloc(bytes * nmsg + 1), *recvbuf = malloc(bytes * nmsg + 1);
    pst_xfer *x = malloc(nmsg * sizeof *x);
    size_t bad = 0, first;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < nmsg; i++) {
            pst_payload_fill(sendbuf + i * bytes, bytes, pst_payload_seed(r, i, (long long)bytes));
            pst_xfer_init(&x[i], p, MPI_COMM_SELF, 0, 0, PST_SIDE_A, sendbuf + i * bytes, recvbuf + i * bytes, bytes,
                          0);
        }
        pst_payload_poison(recvbuf, bytes * nmsg);
        pst_xfer_reserve(&x[0], (size_t)nmsg);
        pst_xfer_run(x, (size_t)nmsg);
        for (int i = 0; i < nmsg; i++)
            bad += pst_payload_check(recvbuf + i * bytes, bytes, pst_payload_seed(r, i, (long long)bytes), &first);
    }
    free(x);
    free(sendbuf);
    free(recvbuf);
    return bad;
}

static void test_self_transfers(void)
{
    /* Grow (8 B x 3 -> 100 KB x 2), re-cut the same window (1 KB x 3), grow the ring (x 5). */
    static const struct { size_t bytes; int nmsg; } steps[] = {{8, 3}, {100000, 2}, {1000, 3}, {24, 5}};
    for (size_t si = 0; si < sizeof steps / sizeof steps[0]; si++) {
        pst_transport_setup("rma", MPI_COMM_SELF, steps[si].bytes, (size_t)steps[si].nmsg);
        const char *model = pst_transport_memory_model("rma", MPI_COMM_SELF);
        CHECK(model && (!strcmp(model, "unified") || !strcmp(model, "separate")));
        for (size_t i = 0; i < pst_protocol_count("rma"); i++) {
            const pst_protocol *p = pst_protocol_at("rma", i);
            /* 7 rounds of up to 5 messages go round every ring several times. */
            size_t bad = self_exchange(p, steps[si].bytes, steps[si].nmsg, 7);
            if (bad) fprintf(stderr, "protocol %s, %zu bytes: %zu bad words\n", p->code, steps[si].bytes, bad);
            CHECK(bad == 0);
        }
    }
    pst_transport_release("rma", MPI_COMM_SELF);
    CHECK(pst_transport_memory_model("rma", MPI_COMM_SELF) == NULL);
    CHECK(pst_transport_memory_model("mpi", MPI_COMM_SELF) == NULL);
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    test_catalogue();
    test_list_parsing();
    test_self_transfers();
    CHECK_MAIN_END();
}
