/* The record schema's checks: a record that strays from its schema ends the run (exit 3) with a
 * message naming the record and the field, and the schema's self-check finds inconsistent tables. */
#include "../exit_trap.h"
#include "check.h"
#include "core/errors.h"
#include "core/schema.h"
#include "runtime/context.h"
#include "runtime/emit.h"
#include "runtime/run_schema.h"
#include "stats/stats.h"
#include "stats/stats_schema.h"

#include <stdlib.h>
#include <string.h>


static const pst_field inner[] = {
    {"a", PST_F_INT, NULL, "an int", false, NULL},
};
static const pst_fields inner_fields = PST_FIELDS("inner", inner);
static const pst_field own[] = {
    {"x", PST_F_NUM, "s", "a number", false, NULL},
    {"name", PST_F_STR, NULL, "a string", false, NULL},
    {"list", PST_F_OBJS, NULL, "objects", false, &inner_fields},
    {"env", PST_F_MAP, NULL, "free keys", false, NULL},
    {"extra", PST_F_NUMS, NULL, "sometimes", true, NULL},
};
static const pst_fields own_fields = PST_FIELDS("own", own);
static const pst_schema test_schema = {
    "test", "point", NULL, "a record for the test", {&pst_fields_common, &own_fields, &pst_fields_times}};

static pst_ctx ctx;

/* The fields every test record writes correctly, up to the one the case gets wrong. */
static void good_prefix(pst_rec *r)
{
    pst_rec_begin(r, &ctx, &test_schema);
    pst_rec_num(r, "x", 1.5);
    pst_rec_str(r, "name", NULL); /* null fits any field */
    pst_rec_list_begin(r, "list");
    pst_rec_obj_begin(r, NULL);
    pst_rec_int(r, "a", 1);
    pst_rec_obj_end(r);
    pst_rec_list_end(r);
    pst_rec_obj_begin(r, "env");
    pst_rec_str(r, "ANY_NAME", "v");
    pst_rec_obj_end(r);
}

static void good_rest(pst_rec *r)
{
    pst_summary s = pst_summarize((double[]){1, 2, 3}, 3);
    pst_rec_times(r, &s);
}

typedef enum { GOOD, UNKNOWN, WRONG_TYPE, TWICE, MISSING, NESTED_UNKNOWN, INT_AS_NUM } record_case;

/* Returns the exit code the record ended with (0: emitted). */
static int write_case(record_case c)
{
    pst_rec r = {0};
    trap_code = 0;
    trap_message[0] = '\0';
    if (setjmp(trap_env)) {
        free(r.buf);
        return trap_code;
    }
    good_prefix(&r);
    switch (c) {
    case GOOD: break;
    case UNKNOWN: pst_rec_num(&r, "bogus", 1); break;
    case WRONG_TYPE: pst_rec_str(&r, "t_min", "fast"); break;
    case TWICE: pst_rec_num(&r, "x", 2); break;
    case MISSING: pst_rec_emit(&r, &ctx); return 0;
    case NESTED_UNKNOWN:
        pst_rec_list_begin(&r, "extra_list");
        break;
    case INT_AS_NUM: pst_rec_ints(&r, "extra", (long long[]){1, 2}, 2); break;
    }
    good_rest(&r);
    pst_rec_emit(&r, &ctx);
    return 0;
}

static void test_records(void)
{
    pst_set_exit_trap(exit_trap);
    CHECK(write_case(GOOD) == 0);
    CHECK(write_case(INT_AS_NUM) == 0); /* integers are JSON numbers */
    CHECK(write_case(UNKNOWN) == PST_EXIT_FAILED);
    CHECK(strstr(trap_message, "record test/point writes field 'bogus', which is not in its schema"));
    CHECK(write_case(WRONG_TYPE) == PST_EXIT_FAILED);
    CHECK(strstr(trap_message, "field 't_min' as string; its schema says number"));
    CHECK(write_case(TWICE) == PST_EXIT_FAILED);
    CHECK(strstr(trap_message, "writes field 'x' twice"));
    CHECK(write_case(MISSING) == PST_EXIT_FAILED);
    CHECK(strstr(trap_message, "record test/point lacks its field 't_min'"));
    CHECK(write_case(NESTED_UNKNOWN) == PST_EXIT_FAILED);
    CHECK(strstr(trap_message, "'extra_list'"));

    /* A member of a nested object is checked against the members' group. */
    pst_rec r = {0};
    if (!setjmp(trap_env)) {
        pst_rec_begin(&r, &ctx, &test_schema);
        pst_rec_list_begin(&r, "list");
        pst_rec_obj_begin(&r, NULL);
        pst_rec_int(&r, "b", 1);
        CHECK(0); /* not reached */
    }
    free(r.buf);
    CHECK(strstr(trap_message, "writes field 'list.b'"));
    pst_set_exit_trap(NULL);

    /* A summary record's kind is written by pst_rec_begin. */
    static const pst_schema kind = {"test", "summary", "fit", "a summary", {&pst_fields_common}};
    r = (pst_rec){0};
    pst_rec_begin(&r, &ctx, &kind);
    CHECK(strstr(r.buf, "\"type\":\"summary\"") && strstr(r.buf, "\"summary\":\"fit\""));
    free(r.buf);
}

static void test_self_check(void)
{
    FILE *devnull = fopen("/dev/null", "w");
    const pst_schema *ok[] = {&test_schema};
    CHECK(pst_schema_check(ok, 1, devnull) == 0);

    /* The same field in two groups of one record, one schema twice, an object without members, a
     * field without a doc. */
    static const pst_field clash[] = {{"t_min", PST_F_NUM, "s", "again", false, NULL}};
    static const pst_fields clash_fields = PST_FIELDS("clash", clash);
    static const pst_schema twice = {"test", "point", NULL, "", {&pst_fields_common, &pst_fields_times, &clash_fields}};
    const pst_schema *bad1[] = {&test_schema, &twice};
    CHECK(pst_schema_check(bad1, 2, devnull) == 2);
    static const pst_field broken[] = {{"o", PST_F_OBJ, NULL, "no members", false, NULL},
                                       {"d", PST_F_INT, NULL, "", false, NULL}};
    static const pst_fields broken_fields = PST_FIELDS("broken", broken);
    static const pst_schema bad = {"test", "diag", NULL, "", {&pst_fields_common, &broken_fields}};
    const pst_schema *bad2[] = {&bad};
    CHECK(pst_schema_check(bad2, 1, devnull) == 2);
    fclose(devnull);
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    ctx = (pst_ctx){.run_id = "test", .size = 1, .transport = "mpi"};
    test_records();
    test_self_check();
    CHECK_MAIN_END();
}
