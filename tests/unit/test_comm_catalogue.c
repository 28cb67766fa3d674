/* Protocol catalogue: codes, slugs, groups, list parsing; shift sides; payload checks;
 * JSON escaping. */
#include "check.h"
#include "comm/protocol.h"
#include "core/record.h"
#include "runtime/mpi_features.h"
#include "runtime/payload.h"

#include <stdlib.h>
#include <string.h>

static void test_catalogue(void)
{
    /* 9 unordered + 11 ordered + 7 unordered-overlap + 8 ordered-overlap + 5 unordered-persistent +
     * 8 ordered-persistent */
    CHECK(pst_protocol_count("mpi") == 48);
    CHECK(pst_protocol_count("nope") == 0);
    const pst_protocol *p = pst_protocol_find("mpi", "1,3");
    CHECK(p && !strcmp(p->slug, "ordered.isend-irecv") && p->ordered && !p->overlap);
    CHECK(pst_protocol_find("mpi", "ordered.isend-irecv") == p);
    const pst_protocol *o = pst_protocol_find("mpi", "3,3");
    CHECK(o && o->overlap && o->ordered && !strcmp(o->slug, "ordered.isend-irecv.overlap"));
    CHECK(pst_protocol_find("mpi", "unordered.sendrecv") == pst_protocol_find("mpi", "0,6"));
    CHECK(pst_protocol_find("mpi", "2,6") == NULL);  /* no overlap form of sendrecv */
    CHECK(pst_protocol_find("mpi", "3,0") == NULL);  /* nor of the blocking simple swap */
    CHECK(pst_protocol_find("mpi", "3,6") == NULL);
    CHECK(pst_protocol_find("mpi", "1,11") == NULL);
    /* Persistent forms: the split recipes only, named and slugged after them. */
    const pst_protocol *q5 = pst_protocol_find("mpi", "5,3");
    CHECK(q5 && q5->persistent && q5->ordered && !q5->overlap && !strcmp(q5->slug, "ordered.isend-irecv.persistent"));
    CHECK(q5 && !strcmp(q5->name, "persistent ordered swap using nonblocking send and receive"));
    CHECK(pst_protocol_find("mpi", "unordered.irsend.persistent") == pst_protocol_find("mpi", "4,5"));
    CHECK(pst_protocol_find("mpi", "4,0") == NULL);  /* buffered send: nothing to make persistent */
    CHECK(pst_protocol_find("mpi", "4,6") == NULL);  /* sendrecv */
    CHECK(pst_protocol_find("mpi", "4,7") == NULL);  /* MPI_Isendrecv has no _init twin */
    CHECK(pst_protocol_find("mpi", "5,6") == NULL && pst_protocol_find("mpi", "5,10") == NULL);
    CHECK(pst_protocol_find("mpi", "6,1") == NULL);
    /* MPI_Isendrecv: in the catalogue on every build, available where the library has it. */
    const pst_protocol *isr = pst_protocol_find("mpi", "0,7");
    CHECK(isr && !strcmp(isr->slug, "unordered.isendrecv") && isr->requires == PST_FEAT_ISENDRECV);
    CHECK(pst_protocol_find("mpi", "2,7") != NULL);
    CHECK((pst_protocol_unavailable(isr) == NULL) == pst_mpi_feature_available(PST_FEAT_ISENDRECV));
    CHECK(pst_protocol_unavailable(q5) == NULL);
    /* Partitioned communication: 0,8 and its overlap form (chunks as partitions), no persistent form. */
    const pst_protocol *part = pst_protocol_find("mpi", "unordered.partitioned");
    CHECK(part && !strcmp(part->code, "0,8") && part->partitioned && !part->persistent &&
          part->requires == PST_FEAT_PARTITIONED);
    CHECK(pst_protocol_find("mpi", "2,8") && pst_protocol_find("mpi", "2,8")->partitioned &&
          pst_protocol_find("mpi", "4,8") == NULL);
    CHECK((pst_protocol_unavailable(part) == NULL) == pst_mpi_feature_available(PST_FEAT_PARTITIONED));
    CHECK(!pst_protocol_find("mpi", "0,6")->partitioned);
    CHECK(pst_protocol_count("rma") > 0);
    for (size_t i = 0; i < pst_protocol_count("rma"); i++) CHECK(!pst_protocol_at("rma", i)->persistent);
    /* Every code and slug is unique and round-trips. */
    for (size_t i = 0; i < 48; i++) {
        const pst_protocol *q = pst_protocol_at("mpi", i);
        CHECK(pst_protocol_find("mpi", q->code) == q);
        CHECK(pst_protocol_find("mpi", q->slug) == q);
    }
}

static void test_list_parsing(void)
{
    char err[512];
    const pst_protocol **l;
    size_t n;
    CHECK(pst_protocol_parse_list("mpi", "1,3,0,6", &l, &n, err, sizeof err) == 0);
    CHECK(n == 2 && !strcmp(l[0]->code, "1,3") && !strcmp(l[1]->code, "0,6"));
    free(l);
    /* Groups leave out what the library lacks: 0,7 and 2,7 without MPI_Isendrecv, 0,8 and 2,8
     * without partitioned communication. */
    size_t missing = (pst_mpi_feature_available(PST_FEAT_ISENDRECV) ? 0 : 1) +
                     (pst_mpi_feature_available(PST_FEAT_PARTITIONED) ? 0 : 1);
    CHECK(pst_protocol_parse_list("mpi", "ordered.simple,1,0,all", &l, &n, err, sizeof err) == 0);
    CHECK(n == 48 - 2 * missing && !strcmp(l[0]->code, "1,0")); /* duplicates dropped, order kept */
    free(l);
    CHECK(pst_protocol_parse_list("mpi", "overlap", &l, &n, err, sizeof err) == 0 && n == 15 - missing);
    free(l);
    CHECK(pst_protocol_parse_list("mpi", "persistent", &l, &n, err, sizeof err) == 0 && n == 13);
    for (size_t i = 0; i < n; i++) CHECK(l[i]->persistent && l[i]->cls >= 4);
    free(l);
    /* ordered: 11 plain + 8 overlap + 8 persistent; no-overlap adds the 8 unordered and 5 unordered persistent */
    CHECK(pst_protocol_parse_list("mpi", "ordered,no-overlap", &l, &n, err, sizeof err) == 0 && n == 27 + 14 - missing);
    free(l);
    /* Naming what the library lacks is refused, saying what it needs. */
    int rc = pst_protocol_parse_list("mpi", "1,3,unordered.isendrecv", &l, &n, err, sizeof err);
    if (!pst_mpi_feature_available(PST_FEAT_ISENDRECV)) {
        CHECK(rc == -1 && strstr(err, "protocol 0,7 (unordered.isendrecv) needs MPI_Isendrecv (MPI-4.0") != NULL);
    } else {
        CHECK(rc == 0 && n == 2);
        free(l);
    }
    rc = pst_protocol_parse_list("mpi", "2,8", &l, &n, err, sizeof err);
    if (!pst_mpi_feature_available(PST_FEAT_PARTITIONED)) {
        CHECK(rc == -1 && strstr(err, "protocol 2,8 (unordered.partitioned.overlap) needs MPI_Psend_init") != NULL);
    } else {
        CHECK(rc == 0 && n == 1);
        free(l);
    }
    CHECK(pst_protocol_parse_list("mpi", "1", &l, &n, err, sizeof err) == -1);
    CHECK(strstr(err, "needs two numbers") != NULL);
    CHECK(pst_protocol_parse_list("mpi", "9,9", &l, &n, err, sizeof err) == -1);
    CHECK(strstr(err, "unknown protocol '9,9'") != NULL);
    CHECK(pst_protocol_parse_list("mpi", "ordered.bogus", &l, &n, err, sizeof err) == -1);
}

static void test_shift_sides(void)
{
    /* Along every cycle of "send to r+shift", sides alternate starting with A; an odd cycle
     * has exactly one A→A edge and never an all-A cycle. */
    for (int size = 2; size <= 9; size++)
        for (int shift = 1; shift < size; shift++) {
            int nA = 0, aa = 0;
            for (int r = 0; r < size; r++) {
                int s = pst_shift_side(r, size, shift), next = pst_shift_side((r + shift) % size, size, shift);
                nA += s == PST_SIDE_A;
                aa += s == PST_SIDE_A && next == PST_SIDE_A;
            }
            CHECK(nA < size);
            CHECK(aa < nA || nA == 0);
        }
    CHECK(pst_shift_side(0, 4, 1) == PST_SIDE_A && pst_shift_side(1, 4, 1) == PST_SIDE_B);
    CHECK(pst_shift_side(3, 4, 1) == PST_SIDE_B);
}

static void test_payload(void)
{
    enum { BYTES = 1003 };
    unsigned char buf[BYTES], other[BYTES];
    size_t first;
    uint64_t seed = pst_payload_seed(1, 2, 3);
    CHECK(seed != pst_payload_seed(2, 2, 3) && seed != pst_payload_seed(1, 3, 3) && seed != pst_payload_seed(1, 2, 4));
    pst_payload_fill(buf, BYTES, seed);
    CHECK(pst_payload_check(buf, BYTES, seed, &first) == 0);
    buf[517] ^= 1; /* one flipped bit */
    CHECK(pst_payload_check(buf, BYTES, seed, &first) == 1 && first == 512);
    pst_payload_fill(buf, BYTES, seed);
    buf[BYTES - 1] ^= 0x80; /* the tail that is not a whole word */
    CHECK(pst_payload_check(buf, BYTES, seed, &first) == 1 && first == 1000);
    pst_payload_fill(buf, BYTES, seed);
    memmove(buf + 64, buf, 64); /* a block delivered to the wrong place */
    CHECK(pst_payload_check(buf, BYTES, seed, &first) == 8 && first == 64);
    pst_payload_fill(other, BYTES, pst_payload_seed(1, 2, 2)); /* last repetition's data */
    CHECK(pst_payload_check(other, BYTES, seed, &first) > 100);
    pst_payload_poison(buf, BYTES); /* nothing arrived */
    CHECK(pst_payload_check(buf, BYTES, seed, &first) == BYTES / 8 + 1);
}

static void test_json_escape(void)
{
    pst_rec r = {.empty = true};
    pst_json_escape(&r, "a\"b\\c\nd\x01");
    CHECK(!strcmp(r.buf, "\"a\\\"b\\\\c\\nd\\u0001\""));
    free(r.buf);
    /* Valid UTF-8 passes through; bytes that start no valid sequence become U+FFFD: Latin-1,
     * a lone continuation byte, an overlong form, a UTF-16 surrogate, a sequence cut short. */
    static const struct { const char *in, *out; } utf8[] = {
        {"caf\xc3\xa9 \xf0\x9f\x99\x82", "\"caf\xc3\xa9 \xf0\x9f\x99\x82\""},
        {"caf\xe9", "\"caf\\ufffd\""},
        {"\x80x", "\"\\ufffdx\""},
        {"\xc0\xaf", "\"\\ufffd\\ufffd\""},
        {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},
        {"\xe2\x82", "\"\\ufffd\\ufffd\""},
    };
    for (size_t i = 0; i < sizeof utf8 / sizeof utf8[0]; i++) {
        r = (pst_rec){.empty = true};
        pst_json_escape(&r, utf8[i].in);
        CHECK(!strcmp(r.buf, utf8[i].out));
        free(r.buf);
    }
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    test_catalogue();
    test_list_parsing();
    test_shift_sides();
    test_payload();
    test_json_escape();
    CHECK_MAIN_END();
}
