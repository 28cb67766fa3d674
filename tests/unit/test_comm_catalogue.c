/* Protocol catalogue: codes, slugs, groups, list parsing; shift sides; payload checks;
 * JSON escaping. */
#include "check.h"
#include "comm/protocol.h"
#include "core/payload.h"
#include "core/record.h"

#include <stdlib.h>
#include <string.h>

static void test_catalogue(void)
{
    /* 7 unordered + 11 ordered + 5 unordered-overlap + 8 ordered-overlap */
    CHECK(pst_protocol_count("mpi") == 31);
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
    /* Every code and slug is unique and round-trips. */
    for (size_t i = 0; i < 31; i++) {
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
    CHECK(pst_protocol_parse_list("mpi", "ordered.simple,1,0,all", &l, &n, err, sizeof err) == 0);
    CHECK(n == 31 && !strcmp(l[0]->code, "1,0")); /* duplicates dropped, order kept */
    free(l);
    CHECK(pst_protocol_parse_list("mpi", "overlap", &l, &n, err, sizeof err) == 0 && n == 13);
    free(l);
    CHECK(pst_protocol_parse_list("mpi", "ordered,no-overlap", &l, &n, err, sizeof err) == 0 && n == 19 + 7);
    free(l);
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
