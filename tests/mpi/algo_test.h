/* Shared by the algorithm MPI tests: every protocol runs the main checks; a subset that covers
 * each recipe shape (buffered, native sendrecv, the deferred-send ordered ones 1,1 / 1,7,
 * ready sends, synchronous, overlap codes, persistent forms with and without handshakes,
 * MPI_Isendrecv) also runs the larger and extra cases, which keeps oversubscribed MPICH within
 * the suite's time budget.  Protocols the library lacks are never selected (their refusal is
 * tested in tests/unit/test_comm_catalogue.c and by swap.bad.isendrecv). */
#ifndef PST_ALGO_TEST_H
#define PST_ALGO_TEST_H

#include "comm/protocol.h"

#include <stdbool.h>
#include <string.h>

static inline bool in_subset(const pst_protocol *p)
{
    static const char *const codes[] = {"0,0", "0,6", "0,7", "0,8", "2,8", "1,1", "1,4", "1,6", "1,7", "2,3", "3,1", "3,7", "3,9", "4,4", "5,1"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (!strcmp(p->code, codes[i])) return true;
    return false;
}

/* argv[1] == "subset": only the subset's protocols and only the main checks (MPICH at 8
 * oversubscribed ranks, where every message step costs ~10 ms; Open MPI runs everything). */
static bool subset_mode;
static inline void parse_mode(int argc, char **argv) { subset_mode = argc > 1 && !strcmp(argv[1], "subset"); }
static inline bool protocol_selected(const pst_protocol *p)
{
    return !pst_protocol_unavailable(p) && (!subset_mode || in_subset(p));
}
/* Also run the larger and extra cases with p. */
static inline bool extra_protocol(const pst_protocol *p) { return !subset_mode && in_subset(p); }

#endif
