#include "runtime/locality.h"

#include "core/alloc.h"
#include "core/errors.h"
#include "runtime/simulation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The probe: this many bytes each way between two nodes, in rounds of a mebibyte. */
enum { PROBE_CHUNK_BYTES = 1 << 20, PROBE_ROUNDS = 4, PROBE_TAG = 7301, BOOT_ID_LEN = 40 };

typedef struct rank_place {
    char host[MPI_MAX_PROCESSOR_NAME];
    char boot_id[BOOT_ID_LEN]; /* one per running kernel: emulated nodes share it */
} rank_place;

static struct {
    int size, nnodes, nmachines;
    int *node_of;        /* per world rank */
    int *ranks_per_node; /* per node */
    bool probed;
    long long probe_bytes, interface_bytes; /* -1: unreadable */
} loc;

/* Bytes received and sent on this network namespace's interfaces other than lo, or -1. Read from
 * /proc/net/dev, which shows the caller's namespace (/sys/class/net shows the one sysfs was
 * mounted in, the host's for a process moved into a namespace). */
static long long interface_bytes(void)
{
    FILE *f = fopen("/proc/net/dev", "r");
    if (!f) return -1;
    char line[512];
    long long total = 0;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon) continue; /* the two heading lines */
        *colon = '\0';
        char name[64];
        unsigned long long rx, tx;
        if (sscanf(line, "%63s", name) != 1 || !strcmp(name, "lo")) continue;
        if (sscanf(colon + 1, "%llu %*u %*u %*u %*u %*u %*u %*u %llu", &rx, &tx) == 2) total += (long long)(rx + tx);
    }
    fclose(f);
    return total;
}

static void place_me(rank_place *me)
{
    memset(me, 0, sizeof *me);
    int len;
    MPI_Get_processor_name(me->host, &len);
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(me->boot_id, sizeof me->boot_id, f)) me->boot_id[0] = '\0';
        me->boot_id[strcspn(me->boot_id, "\n")] = '\0';
        fclose(f);
    }
}

/* Rank 0 and the first rank on another node exchange the probe; the smaller of their interface
 * counts goes to rank 0. */
static void probe_path(int rank)
{
    int peer = 0;
    while (peer < loc.size && loc.node_of[peer] == loc.node_of[0]) peer++;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    loc.probed = true;
    loc.probe_bytes = (long long)PROBE_CHUNK_BYTES * PROBE_ROUNDS;
    if (rank == 0 || rank == peer) {
        int other = rank == 0 ? peer : 0;
        char *out = pst_malloc(PROBE_CHUNK_BYTES), *in = pst_malloc(PROBE_CHUNK_BYTES);
        memset(out, 0x5a, PROBE_CHUNK_BYTES);
        long long before = interface_bytes();
        for (int i = 0; i < PROBE_ROUNDS; i++)
            MPI_Sendrecv(out, PROBE_CHUNK_BYTES, MPI_BYTE, other, PROBE_TAG, in, PROBE_CHUNK_BYTES, MPI_BYTE, other,
                         PROBE_TAG, comm, MPI_STATUS_IGNORE);
        long long after = interface_bytes();
        long long moved = before < 0 || after < 0 ? -1 : after - before;
        if (rank == peer) MPI_Send(&moved, 1, MPI_LONG_LONG, 0, PROBE_TAG, comm);
        else {
            long long theirs;
            MPI_Recv(&theirs, 1, MPI_LONG_LONG, peer, PROBE_TAG, comm, MPI_STATUS_IGNORE);
            loc.interface_bytes = moved < 0 || theirs < 0 ? -1 : (moved < theirs ? moved : theirs);
        }
        free(out);
        free(in);
    }
    MPI_Comm_free(&comm);
}

/* Nodes numbered in order of their first rank, as the header's hosts are; machines counted by
 * their kernels.  On rank 0, from every rank's place. */
static void number_nodes(const rank_place *all, int *node_of, int *nnodes, int *nmachines)
{
    *nnodes = *nmachines = 0;
    for (int r = 0; r < loc.size; r++) {
        int first = 0;
        while (strcmp(all[first].host, all[r].host)) first++;
        node_of[r] = first == r ? (*nnodes)++ : node_of[first];
        int kernel = 0;
        while (strcmp(all[kernel].boot_id, all[r].boot_id)) kernel++;
        *nmachines += kernel == r;
    }
}

void pst_locality_survey(void)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &loc.size);
    /* Rank 0 numbers the nodes and broadcasts the numbers (and after them the node and machine
     * counts): an allgather of every rank's names would hold P names on every rank, and cost a
     * simulation P^2 messages. */
    rank_place me, *all = rank == 0 ? pst_malloc((size_t)loc.size * sizeof *all) : NULL;
    place_me(&me);
    MPI_Gather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, 0, MPI_COMM_WORLD);
    int *numbers = pst_malloc(((size_t)loc.size + 2) * sizeof *numbers);
    if (rank == 0) number_nodes(all, numbers, &numbers[loc.size], &numbers[loc.size + 1]);
    free(all);
    MPI_Bcast(numbers, loc.size + 2, MPI_INT, 0, MPI_COMM_WORLD);
    free(loc.node_of);
    free(loc.ranks_per_node);
    loc.node_of = numbers;
    loc.nnodes = numbers[loc.size];
    loc.nmachines = numbers[loc.size + 1];
    loc.ranks_per_node = calloc((size_t)loc.nnodes, sizeof *loc.ranks_per_node);
    if (!loc.ranks_per_node) pst_fatal(PST_EXIT_FAILED, "out of memory");
    for (int r = 0; r < loc.size; r++) loc.ranks_per_node[loc.node_of[r]]++;
    loc.probed = false;
    loc.interface_bytes = -1;
    /* A simulation's nodes have no interfaces to read, and its messages no path to find out. */
    if (loc.nnodes > 1 && !PST_IS_SIMULATED) probe_path(rank);
}

int pst_locality_node(int world_rank) { return loc.node_of[world_rank]; }

static const char *locality_of(bool intra, bool inter)
{
    return intra && inter ? PST_MIXED_NODE : intra ? PST_INTRA_NODE : inter ? PST_INTER_NODE : NULL;
}

const char *pst_locality_of_pairs(const int *a, const int *b, int n)
{
    bool intra = false, inter = false;
    for (int k = 0; k < n; k++) {
        bool same = loc.node_of[a[k]] == loc.node_of[b[k]];
        intra |= same;
        inter |= !same;
    }
    return locality_of(intra, inter);
}

const char *pst_locality_of_comms(MPI_Comm comm)
{
    int seen = 0; /* bit 0: a pair inside a node, bit 1: a pair across nodes */
    if (comm != MPI_COMM_NULL) {
        int n;
        MPI_Comm_size(comm, &n);
        int *local = pst_malloc((size_t)n * sizeof *local), *world = pst_malloc((size_t)n * sizeof *world);
        for (int i = 0; i < n; i++) local[i] = i;
        MPI_Group group, world_group;
        MPI_Comm_group(comm, &group);
        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        MPI_Group_translate_ranks(group, n, local, world_group, world);
        MPI_Group_free(&group);
        MPI_Group_free(&world_group);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) seen |= loc.node_of[world[i]] == loc.node_of[world[j]] ? 1 : 2;
        free(local);
        free(world);
    }
    MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    return locality_of(seen & 1, seen & 2);
}

/* The first of the variables that is set, or NULL. */
static const char *first_env(const char *const *names)
{
    for (; *names; names++)
        if (getenv(*names) && *getenv(*names)) return getenv(*names);
    return NULL;
}

static bool seen_on_interfaces(void) { return loc.interface_bytes >= loc.probe_bytes; }

void pst_rec_locality(pst_rec *r)
{
    static const char *const distribution[] = {"SLURM_DISTRIBUTION", "OMPI_MCA_rmaps_base_mapping_policy", NULL};
    static const char *const cpu_bind[] = {"SLURM_CPU_BIND", "OMPI_MCA_hwloc_base_binding_policy", NULL};
    long long *v = pst_malloc((size_t)loc.size * sizeof *v);
    pst_rec_obj_begin(r, "locality");
    for (int i = 0; i < loc.size; i++) v[i] = loc.node_of[i];
    pst_rec_ints(r, "node_of_rank", v, (size_t)loc.size);
    for (int i = 0; i < loc.nnodes; i++) v[i] = loc.ranks_per_node[i];
    pst_rec_ints(r, "ranks_per_node", v, (size_t)loc.nnodes);
    free(v);
    pst_rec_int(r, "machines", loc.nmachines);
    pst_rec_str(r, "distribution", first_env(distribution));
    pst_rec_str(r, "cpu_bind", first_env(cpu_bind));
    pst_rec_obj_begin(r, "path");
    char library[256];
    snprintf(library, sizeof library, "pml=%s btl=%s UCX_TLS=%s",
             getenv("OMPI_MCA_pml") ? getenv("OMPI_MCA_pml") : "default",
             getenv("OMPI_MCA_btl") ? getenv("OMPI_MCA_btl") : "default",
             getenv("UCX_TLS") ? getenv("UCX_TLS") : "default");
    pst_rec_str(r, "library_asked", library);
    if (loc.probed) {
        pst_rec_int(r, "probe_bytes", loc.probe_bytes);
        if (loc.interface_bytes >= 0) pst_rec_int(r, "interface_bytes", loc.interface_bytes);
        else pst_rec_null(r, "interface_bytes");
        pst_rec_bool(r, "seen_on_interfaces", seen_on_interfaces());
        pst_rec_bool(r, "shared_memory", !seen_on_interfaces() && loc.nmachines == 1);
    } else {
        pst_rec_null(r, "probe_bytes");
        pst_rec_null(r, "interface_bytes");
        pst_rec_null(r, "seen_on_interfaces");
        pst_rec_null(r, "shared_memory");
    }
    pst_rec_obj_end(r);
    pst_rec_obj_end(r);
}

void pst_locality_print(void)
{
    if (loc.nnodes < 2) return;
    printf("# locality: %d nodes on %d machine%s; ranks per node:", loc.nnodes, loc.nmachines,
           loc.nmachines == 1 ? "" : "s");
    for (int i = 0; i < loc.nnodes; i++) printf(" %d", loc.ranks_per_node[i]);
    if (!loc.probed) {
        printf("; no probe between nodes (simulated)\n");
        return;
    }
    printf("; a %lld-byte probe between nodes moved %lld bytes on their interfaces\n", loc.probe_bytes,
           loc.interface_bytes);
    if (!seen_on_interfaces() && loc.nmachines == 1)
        fprintf(stderr,
                "%s: warning: the nodes share one machine and the probe between them did not cross their network "
                "interfaces: inter-node pairs went through shared memory, not a network (for MPICH over UCX: "
                "UCX_TLS=tcp,self)\n",
                pst_progname());
}
