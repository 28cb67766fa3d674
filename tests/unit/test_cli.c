/* CLI value parsers: sizes with units, lists and ranges, and their error messages; --help's
 * defaults, taken from the values the options hold. */
#include "check.h"
#include "core/cli.h"
#include "core/errors.h"
#include "../exit_trap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_sizes(void)
{
    char err[256];
    long long v;
    CHECK(pst_parse_size("64", &v, err, sizeof err) == 0 && v == 64);
    CHECK(pst_parse_size("4K", &v, err, sizeof err) == 0 && v == 4096);
    CHECK(pst_parse_size("4k", &v, err, sizeof err) == 0 && v == 4096);
    CHECK(pst_parse_size("2M", &v, err, sizeof err) == 0 && v == 2 << 20);
    CHECK(pst_parse_size("2MiB", &v, err, sizeof err) == 0 && v == 2 << 20);
    CHECK(pst_parse_size("1G", &v, err, sizeof err) == 0 && v == 1 << 30);
    CHECK(pst_parse_size("0", &v, err, sizeof err) == 0 && v == 0);
    CHECK(pst_parse_size("12B", &v, err, sizeof err) == 0 && v == 12);
    CHECK(pst_parse_size("-1", &v, err, sizeof err) == -1);
    CHECK(strstr(err, "'-1' is not a size") != NULL);
    CHECK(pst_parse_size("abc", &v, err, sizeof err) == -1);
    CHECK(pst_parse_size("4Q", &v, err, sizeof err) == -1);
    CHECK(pst_parse_size("", &v, err, sizeof err) == -1);
    CHECK(pst_parse_size("99999999999999999999", &v, err, sizeof err) == -1);
}

static void test_lists(void)
{
    char err[256];
    pst_int_list l;
    CHECK(pst_parse_list("8:64", true, &l, err, sizeof err) == 0);
    CHECK(l.n == 4 && l.v[0] == 8 && l.v[3] == 64);
    pst_int_list_free(&l);
    CHECK(pst_parse_list("1K:64K:x4,1M", true, &l, err, sizeof err) == 0);
    CHECK(l.n == 5 && l.v[0] == 1024 && l.v[1] == 4096 && l.v[2] == 16384 && l.v[3] == 65536 && l.v[4] == 1 << 20);
    pst_int_list_free(&l);
    CHECK(pst_parse_list("10:90:+10", false, &l, err, sizeof err) == 0);
    CHECK(l.n == 9 && l.v[8] == 90);
    pst_int_list_free(&l);
    CHECK(pst_parse_list("1,2,3", false, &l, err, sizeof err) == 0 && l.n == 3);
    pst_int_list_free(&l);
    CHECK(pst_parse_list("64:8", true, &l, err, sizeof err) == -1);
    CHECK(strstr(err, "empty or does not advance") != NULL);
    CHECK(pst_parse_list("8:64:x1", true, &l, err, sizeof err) == -1);
    CHECK(pst_parse_list("8:64:y2", true, &l, err, sizeof err) == -1);
    CHECK(pst_parse_list("1K", false, &l, err, sizeof err) == -1); /* plain integers: no units */
    CHECK(pst_parse_list("", true, &l, err, sizeof err) == -1);
    CHECK(pst_parse_list("1:1000000000", false, &l, err, sizeof err) == 0 && l.n == 30);
    pst_int_list_free(&l);
    CHECK(pst_parse_list("1:200000:+1", false, &l, err, sizeof err) == -1); /* runaway list refused */
    /* Empty items are mistakes, not requests for the default. */
    CHECK(pst_parse_list(",", true, &l, err, sizeof err) == -1 && strstr(err, "empty item") != NULL);
    CHECK(pst_parse_list("8,,16", true, &l, err, sizeof err) == -1);
    CHECK(pst_parse_list("8,", true, &l, err, sizeof err) == -1);
    /* Ranges that would leave 64 bits stop at the last value that fits. */
    CHECK(pst_parse_list("1:9223372036854775807:+9223372036854775807", false, &l, err, sizeof err) == 0 && l.n == 1);
    pst_int_list_free(&l);
    CHECK(pst_parse_list("1:9223372036854775807:x3", false, &l, err, sizeof err) == 0 && l.n == 40);
    CHECK(l.v[39] == 4052555153018976267LL); /* 3^39; 3^40 overflows */
    pst_int_list_free(&l);
    /* Duplicates are measured once, in first-occurrence order. */
    CHECK(pst_parse_list("64,8,64,8:16", true, &l, err, sizeof err) == 0 && l.n == 3);
    CHECK(l.v[0] == 64 && l.v[1] == 8 && l.v[2] == 16);
    pst_int_list_free(&l);
}

static void test_grids(void)
{
    char err[160];
    int px, py;
    CHECK(pst_parse_grid("4x2", &px, &py, err, sizeof err) == 0 && px == 4 && py == 2);
    CHECK(pst_parse_grid("2147483647x1", &px, &py, err, sizeof err) == 0 && px == 2147483647);
    CHECK(pst_parse_grid("4294967297x1", &px, &py, err, sizeof err) == -1);   /* past int: not wrapped to 1 */
    CHECK(pst_parse_grid("65536x65536", &px, &py, err, sizeof err) == -1);    /* product past int */
    CHECK(pst_parse_grid("0x2", &px, &py, err, sizeof err) == -1);
    CHECK(pst_parse_grid("-1x2", &px, &py, err, sizeof err) == -1);
    CHECK(pst_parse_grid("2x2x", &px, &py, err, sizeof err) == -1);
    CHECK(pst_parse_grid("+2x2", &px, &py, err, sizeof err) == -1);
    CHECK(pst_parse_grid("99999999999999999999x1", &px, &py, err, sizeof err) == -1);
}

static void test_strings_and_format(void)
{
    char err[64], buf[32];
    pst_str_list s;
    CHECK(pst_parse_strings("cold,1,10", &s, err, sizeof err) == 0 && s.n == 3);
    CHECK(pst_str_list_has(&s, "10") && !pst_str_list_has(&s, "2"));
    pst_str_list_free(&s);
    CHECK(pst_parse_strings("uni,uni,bi", &s, err, sizeof err) == 0 && s.n == 2 && !strcmp(s.v[1], "bi"));
    pst_str_list_free(&s);
    CHECK(pst_parse_strings("uni,", &s, err, sizeof err) == -1 && strstr(err, "empty item") != NULL);
    CHECK(!strcmp(pst_format_bytes(8, buf, sizeof buf), "8"));
    CHECK(!strcmp(pst_format_bytes(4 << 20, buf, sizeof buf), "4M"));
    CHECK(!strcmp(pst_format_bytes(1000, buf, sizeof buf), "1000"));
    long long back;
    CHECK(pst_parse_size(pst_format_bytes(3LL << 30, buf, sizeof buf), &back, err, sizeof err) == 0 &&
          back == 3LL << 30);
}

/* The line of option `name` in text (NULL-safe for CHECK). */
static const char *option_line(const char *text, const char *name, char *line, size_t len)
{
    const char *at = strstr(text, name);
    if (!at) return "";
    size_t n = strcspn(at, "\n");
    snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1), at);
    return line;
}

static void test_help_defaults(void)
{
    long long reps = 42, bytes = 2 << 20, out_of_bounds = 0;
    double ratio = 0.25, unset = NAN;
    bool off = false, on = true;
    const char *plan = "measure", *nothing = NULL;
    long long sizes[] = {8, 1024};
    pst_int_list list = {0}, empty = {0}, derived = {0};
    pst_int_list_set(&list, 2, sizes);
    const pst_opt opts[] = {
        {"reps", PST_OPT_INT, &reps, "N", "repetitions", 1, 100, NULL, NULL},
        {"bytes", PST_OPT_SIZE, &bytes, "B", "message size", 0, 1e9, NULL, NULL},
        {"ratio", PST_OPT_DOUBLE, &ratio, "X", "a ratio", 0, 1, NULL, NULL},
        {"unset", PST_OPT_DOUBLE, &unset, "X", "derived from the others", 0, 1, NULL, NULL},
        {"off", PST_OPT_FLAG, &off, NULL, "a switch", 0, 0, NULL, NULL},
        {"on", PST_OPT_FLAG, &on, NULL, "a switch that starts on", 0, 0, NULL, NULL},
        {"plan", PST_OPT_STRING, &plan, "MODE", "planner", 0, 0, NULL, NULL},
        {"nothing", PST_OPT_STRING, &nothing, "FILE", "an optional file", 0, 0, NULL, NULL},
        {"sizes", PST_OPT_SIZES, &list, "LIST", "sizes", 1, 1e9, NULL, NULL},
        {"empty", PST_OPT_INTS, &empty, "LIST", "counts", 1, 1e9, NULL, "1,2"},
        {"derived", PST_OPT_INTS, &derived, "LIST", "counts; without it, one per rank", 1, 1e9, NULL, NULL},
        {"out-of-bounds", PST_OPT_INT, &out_of_bounds, "N", "derived; 0 is not allowed", 1, 10, NULL, NULL},
        {NULL, 0, NULL, NULL, NULL, 0, 0, NULL, NULL},
    };
    const pst_command cmd = {"demo", "a demo", NULL, NULL, opts};
    char *text = NULL, line[256];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    pst_cli_print_help(&cmd, f);
    fclose(f);
    CHECK(strstr(option_line(text, "--reps", line, sizeof line), "repetitions (default 42)") != NULL);
    /* A default is written as the option takes it back. */
    CHECK(strstr(option_line(text, "--bytes", line, sizeof line), "(default 2M)") != NULL);
    CHECK(strstr(option_line(text, "--ratio", line, sizeof line), "(default 0.25)") != NULL);
    CHECK(strstr(option_line(text, "--unset", line, sizeof line), "default") == NULL);
    CHECK(strstr(option_line(text, "--off", line, sizeof line), "default") == NULL);
    CHECK(strstr(option_line(text, "--on ", line, sizeof line), "(default on)") != NULL);
    CHECK(strstr(option_line(text, "--plan", line, sizeof line), "(default measure)") != NULL);
    CHECK(strstr(option_line(text, "--nothing", line, sizeof line), "default") == NULL);
    CHECK(strstr(option_line(text, "--sizes", line, sizeof line), "(default 8,1K)") != NULL);
    CHECK(strstr(option_line(text, "--empty", line, sizeof line), "counts (default 1,2)") != NULL);
    CHECK(strstr(option_line(text, "--derived", line, sizeof line), "default") == NULL);
    /* A number outside the option's bounds stands in for a derived value, not a default. */
    CHECK(strstr(option_line(text, "--out-of-bounds", line, sizeof line), "default") == NULL);
    free(text);
    pst_int_list_free(&list);
}

/* default_text beside a value the option holds would leave two defaults to drift apart. */
static void test_help_refuses_two_defaults(void)
{
    long long reps = 42;
    const pst_opt opts[] = {
        {"reps", PST_OPT_INT, &reps, "N", "repetitions", 1, 100, NULL, "20"},
        {NULL, 0, NULL, NULL, NULL, 0, 0, NULL, NULL},
    };
    const pst_command cmd = {"demo", "a demo", NULL, NULL, opts};
    pst_set_exit_trap(exit_trap);
    trap_code = -1;
    FILE *f = fopen("/dev/null", "w");
    if (!setjmp(trap_env)) pst_cli_print_help(&cmd, f);
    fclose(f);
    pst_set_exit_trap(NULL);
    CHECK(trap_code == PST_EXIT_FAILED);
    CHECK(strstr(trap_message, "--reps: default_text '20' beside the value it holds, 42") != NULL);
}

/* What the options hold after parsing, as an in-process test compares runs by. */
static void test_print_values(void)
{
    long long reps = 42;
    pst_int_list sizes = {0};
    const char *plan = NULL;
    const pst_opt opts[] = {
        {"reps", PST_OPT_INT, &reps, "N", "repetitions", 1, 100, NULL, NULL},
        {"sizes", PST_OPT_SIZES, &sizes, "LIST", "sizes", 1, 1e9, NULL, "8"},
        {"plan", PST_OPT_STRING, &plan, "MODE", "planner", 0, 0, NULL, NULL},
        {NULL, 0, NULL, NULL, NULL, 0, 0, NULL, NULL},
    };
    const pst_command cmd = {"demo", "a demo", NULL, NULL, opts};
    char *argv[] = {"demo", "--sizes", "1K:4K", NULL};
    pst_cli_parse(&cmd, 3, argv);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    pst_cli_print_values(f);
    fclose(f);
    CHECK(!strcmp(text, "--reps 42\n--sizes 1K,2K,4K\n--plan \n"));
    free(text);
    pst_int_list_free(&sizes);
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    test_sizes();
    test_lists();
    test_grids();
    test_strings_and_format();
    test_help_defaults();
    test_help_refuses_two_defaults();
    test_print_values();
    CHECK_MAIN_END();
}
