# pstswm swap: every protocol at a small and an above-eager size with verified payloads,
# pairings, split volume, cache states, and bad input.
# "all" (PST_NPROTOCOLS, tests/helpers.cmake) x 2 sizes points; a summary per protocol and 2
# sensitivity rows.
pst_kind(mpi)
pst_records_test(swap.np2.all_protocols 2 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 2 * ${PST_NPROTOCOLS}"
  "len(summaries) == ${PST_NPROTOCOLS} + 2"
  "sum(s['summary'] == 'sensitivity' and s['nprotocols'] == ${PST_NPROTOCOLS} and len(s['fastest']) == 5 for s in summaries) == 2"
  "all(p['verified'] == True for p in points)"
  "sum(p['protocol'].startswith(('4,', '5,')) for p in points) == 2 * 13"
  ARGS swap --protocols all --sizes 8,4M --reps 2 --warmup 1 --timeout 120)
# The persistent forms beside their plain ones: 1 MiB as 16 and as 1 message each way, the same
# requests restarted in every exchange of every round, payloads checked each turn.
pst_records_test(swap.np2.persistent 2 CHECKS
  "len(points) == 2 * 2 * 4"
  "all(p['verified'] for p in points)"
  "{p['protocol'] for p in points} == {'1,3', '5,3', '0,4', '4,4'}"
  "all(s['slug'].endswith('.persistent') == s['protocol'].startswith(('4,', '5,')) for s in summaries if s['summary'] == 'protocol')"
  ARGS swap --protocols 1,3,5,3,0,4,unordered.rsend.persistent --sizes 64K,1M --volume 1M --reps 2 --cache 1,10 --timeout 120)
# MPI_Isendrecv (MPI-4.0): run where the library has it, refused by name where it does not.
if(PST_HAVE_MPI_ISENDRECV)
  pst_records_test(swap.np2.isendrecv 2 CHECKS
    "len(points) == 4 and all(p['verified'] for p in points)"
    "{p['protocol'] for p in points} == {'0,7', '2,7'}"
    ARGS swap --protocols 0,7,unordered.isendrecv.overlap --sizes 8,1M --reps 2 --timeout 60)
else()
  pst_bad_input_test(swap.bad.isendrecv 2 2
    "--protocols: protocol 0,7 \\(unordered.isendrecv\\) needs MPI_Isendrecv \\(MPI-4.0 §3.10\\), which this MPI library, .* does not have"
    swap --protocols 1,3,0,7 --out ${PST_TEST_OUT})
endif()
# Partitioned communication (MPI-4.0): one partition per message here (chunks become partitions in
# the algorithms: tests/mpi), the requests prepared once and restarted every exchange.
if(PST_HAVE_MPI_PARTITIONED)
  pst_records_test(swap.np2.partitioned 2 CHECKS
    "len(points) == 4 and all(p['verified'] for p in points)"
    "{p['protocol'] for p in points} == {'0,8', '2,8'}"
    ARGS swap --protocols unordered.partitioned,2,8 --sizes 8,1M --reps 2 --timeout 60)
else()
  pst_bad_input_test(swap.bad.partitioned 2 2
    "--protocols: protocol 0,8 \\(unordered.partitioned\\) needs MPI_Psend_init, MPI_Precv_init, MPI_Pready \\(MPI-4.0 chapter 4\\), which this MPI library, .* does not have"
    swap --protocols 0,8 --out ${PST_TEST_OUT})
endif()
pst_records_test(swap.np4.pairs_all 4 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 2 * ${PST_NPROTOCOLS}"
  "all(p['npairs'] == 2 for p in points)"
  "all(p['pair'] == 'all' for p in points)"
  ARGS swap --pairs all --protocols all --sizes 8,1M --reps 2 --warmup 1 --timeout 120)
pst_records_test(swap.np4.idle_ranks 4 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 6"
  "all(p['pair'] == '2,3' for p in points)"
  ARGS swap --pairs 2,3 --protocols 1,0,0,6,3,5 --sizes 8,1M --reps 2 --timeout 60)
pst_records_test(swap.np8.pairs_all 8 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 10"
  "all(p['npairs'] == 4 for p in points)"
  ARGS swap --pairs all --protocols 1,0,0,6,3,3,2,5,1,6 --sizes 64,256K --reps 2 --warmup 1 --timeout 120)
pst_records_test(swap.np16.pairs_all 16 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 4"
  "all(p['npairs'] == 8 for p in points)"
  ARGS swap --pairs all --protocols 0,6,1,4 --sizes 64,64K --reps 2 --warmup 1 --timeout 120)
# Worley 2000's study in miniature: 64 KiB as 1...16 messages, three cache states.
# 3 caches x 2 protocols x 5 sizes = 30 points; summaries 3 x (2 + 5) = 21.
pst_records_test(swap.np2.volume_caches 2 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 30"
  "len(summaries) == 21"
  "all(p['volume'] == 65536 for p in points)"
  ARGS swap --volume 64K --sizes 4K:64K --protocols 1,3,3,3 --cache cold,1,10 --reps 2 --timeout 120)
pst_records_test(swap.np2.samples 2 CHECKS
  "all(r['bench'] == 'swap' for r in recs)"
  "len(points) == 1"
  ARGS swap --protocols ordered.sync --sizes 100 --reps 3 --samples --timeout 60)

# Bad input: one message, exit 2, nothing written, no hang.
pst_bad_input_test(swap.bad.unknown_protocol 2 2 "--protocols: unknown protocol '9,9'"
  swap --protocols 9,9 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.half_code 2 2 "--protocols: protocol code '1' needs two numbers"
  swap --protocols 1 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.size_zero 2 2 "--sizes: 0 is out of range \\(allowed: 1 ... 1073741824\\)"
  swap --sizes 0 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.size_negative 2 2 "--sizes: '-8' is not a size in bytes"
  swap --sizes -8 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.size_garbage 2 2 "--sizes: '12Q' is not a size in bytes"
  swap --sizes 12Q --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.pairs_all_odd 3 2 "--pairs all pairs rank i with i\\+P/2 and needs an even rank count \\(running on 3\\)"
  swap --pairs all --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.pair_out_of_range 2 2 "--pairs: ranks 0,5 must be distinct and in 0...1"
  swap --pairs 0,5 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.one_rank 1 2 "swap needs at least 2 ranks \\(running on 1\\)"
  swap --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.unwritable_out 2 2 "--out: cannot write '/nonexistent/dir/x.jsonl'"
  swap --sizes 8 --out /nonexistent/dir/x.jsonl)
pst_bad_input_test(swap.bad.unknown_option 2 2 "unknown option '--bogus' \\(see 'pstswm swap --help'\\)"
  swap --bogus --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.missing_value 2 2 "--sizes needs a value"
  swap --out ${PST_TEST_OUT} --sizes)
pst_bad_input_test(swap.bad.cache 2 2 "--cache: unknown value 'warm' \\(allowed: cold, 1, 10\\)"
  swap --cache warm --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.volume_split 2 2 "--sizes: 3 does not divide --volume 1000"
  swap --volume 1000 --sizes 3 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.transport 2 2 "--transport: unknown transport 'carrier-pigeon'"
  swap --transport carrier-pigeon --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.reps 2 2 "--reps: 0 is out of range"
  swap --reps 0 --out ${PST_TEST_OUT})
pst_bad_input_test(pstswm.bad.subcommand 2 2 "unknown subcommand 'bogus'" bogus)
# The watchdog names the experiment that overran and ends the job with exit 4.
pst_bad_input_test(swap.watchdog 2 4 "timeout: experiment 'swap bytes 4194304 x 1 msgs cache 1 \\(1 protocols in rounds\\)"
  swap --protocols 1,0 --sizes 4M --reps 10000000 --timeout 1)

# Verdicts: protocols of one size in interleaved rounds, medians with intervals, best sets.
pst_records_test(swap.np2.verdict 2 CHECKS
  "header['schedule'] == 'rounds' and header['seed'] == 7 and header['margin'] == 0.02 and header['confidence'] == 0.95"
  "len(points) == 6 and all(p['rounds'] == 12 and p['stat'] == 't_med' and p['ci_low'] is not None for p in points)"
  "len([s for s in summaries if s['summary'] == 'sensitivity']) == 2"
  "all(s['nalternatives'] == 3 and set(s['best_set']) <= {'1,0', '0,6', '0,3'} and s['stat'] == 't_med' and s['level'] in ('low', 'moderate', 'high', 'undetermined') and len(s['median_rel_ci']) == 2 and isinstance(s['verdict_ok'], bool) for s in summaries if s['summary'] == 'sensitivity')"
  ARGS swap --protocols 1,0,0,6,0,3 --sizes 8,64K --reps 12 --seed 7 --timeout 60)
# Constructed verdicts with a structural gap, so the rule must decide and must exclude: at 4 MB the
# ordered ssend protocol (1,10) moves the two directions one after the other, the unordered
# sendrecv (0,6) both at once (median 1.35-2.6x slower over 8 runs with both MPIs on a loaded
# 2-core host).  Host stalls still land on a quarter of the rounds there, so the tests take 60
# rounds (the sign test then tolerates 20 stalled ones) and run alone.  The subset checks above
# pass on any best set; these do not.
pst_records_test(swap.np2.verdict.decided 2 CHECKS
  "len([s for s in summaries if s['summary'] == 'sensitivity']) == 1"
  "all(s['best_set'] == ['0,6'] and s['decided'] is True for s in summaries if s['summary'] == 'sensitivity')"
  ARGS swap --protocols 0,6,1,10 --sizes 4M --reps 60 --timeout 120)
pst_records_test(swap.np2.verdict.excludes 2 CHECKS
  "len([s for s in summaries if s['summary'] == 'sensitivity']) == 1"
  "all('1,10' not in s['best_set'] and s['nalternatives'] == 3 for s in summaries if s['summary'] == 'sensitivity')"
  ARGS swap --protocols 0,6,0,3,1,10 --sizes 4M --reps 60 --timeout 120)
set_tests_properties(swap.np2.verdict.decided swap.np2.verdict.excludes PROPERTIES RUN_SERIAL TRUE)
# Buffered sends split over many messages, in rounds with other protocols: the space drains
# between turns and before a send that would not fit, never by retrying a failed send.
pst_records_test(swap.np2.bsend_volume_rounds 2 CHECKS
  "len(points) == 3 * 11 and all(p['verified'] and p['rounds'] == 30 for p in points)"
  ARGS swap --protocols 0,0,0,6,1,0 --volume 256K --reps 30 --seed 5 --noise-probe 0 --timeout 120)
pst_records_test(swap.np2.sequential 2 CHECKS
  "header['schedule'] == 'sequential' and not header['adaptive']"
  "len(points) == 2 and all(p['rounds'] == 10 for p in points)"
  ARGS swap --protocols 1,0,0,6 --sizes 1K --reps 10 --schedule sequential --timeout 60)
# Adaptive with a loose precision: a quiet host reaches it at the minimum 10 rounds; a stall
# among those rounds widens the interval, and then the run must have added rounds.
pst_records_test(swap.np2.adaptive 2 CHECKS
  "header['adaptive'] and header['precision'] == 0.9 and header['budget_s'] == 5"
  "len(points) == 2 and all(p['rounds'] >= 10 and (p['precision_reached'] or p['rounds'] > 10) for p in points)"
  ARGS swap --protocols 1,0,0,6 --sizes 1K --reps 10 --adaptive --precision 0.9 --budget 5 --timeout 60)
pst_bad_input_test(swap.bad.schedule 2 2 "--schedule: unknown value 'random' \\(allowed: rounds, sequential\\)"
  swap --schedule random --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.adaptive_reps 2 2 "--adaptive needs --reps 10 or more \\(got 5\\)"
  swap --adaptive --reps 5 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.adaptive_sequential 2 2 "--adaptive needs --schedule rounds"
  swap --adaptive --schedule sequential --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.budget_alone 2 2 "--budget limits the adaptive rounds: add --adaptive"
  swap --budget 10 --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.margin 2 2 "--margin: 2 is out of range"
  swap --margin 2 --out ${PST_TEST_OUT})

# The MPI thread level: single by default (plain MPI_Init), others on request, recorded.
pst_records_test(swap.np2.thread_single 2 CHECKS
  "header['thread_level'] == 'single' and header['thread_level_provided'] in ('single', 'funneled', 'serialized', 'multiple')"
  ARGS swap --protocols 0,6 --sizes 8 --reps 2)
pst_records_test(swap.np2.thread_multiple 2 CHECKS
  "header['thread_level'] == 'multiple' and header['thread_level_provided'] in ('single', 'funneled', 'serialized', 'multiple')"
  ARGS swap --protocols 0,6 --sizes 8 --reps 2 --thread-level multiple)
pst_bad_input_test(swap.bad.thread_level 2 2 "--thread-level: unknown value 'many' \\(allowed: single, funneled, serialized, multiple\\)"
  swap --thread-level many --out ${PST_TEST_OUT})
# List options: an empty item is an error; a range end must be inside the option's bounds.
pst_bad_input_test(swap.bad.empty_list_item 2 2 "--sizes: empty item in list ','"
  swap --sizes , --out ${PST_TEST_OUT})
pst_bad_input_test(swap.bad.trailing_comma 2 2 "--cache: empty item in list .1,."
  swap --cache 1, --out ${PST_TEST_OUT})
# A long argument of quotes: the command line recorded in the header is quoted in a buffer
# sized for it (it overflowed, and the job hung in the crash handler).
string(REPEAT "'" 2000 quotes)
pst_bad_input_test(swap.bad.quotes_argument 2 2 "unexpected argument" swap ${quotes})
string(REPEAT "'" 100000 long_name)
pst_bad_input_test(swap.bad.quotes_out 2 2 "--out: cannot write" swap --sizes 8 --protocols 0,6 --out ${long_name})
# More messages per exchange than transfer state can hold is refused before any allocation
# (it tried ~8 GiB per rank and dereferenced NULL).
pst_bad_input_test(swap.bad.volume_messages 2 2 "--volume 67108864 as messages of 1 bytes is 67108864 messages per exchange"
  swap --volume 64M --sizes 1 --out ${PST_TEST_OUT})

# The run header says what the numbers came from, and a footer closes a complete run.
foreach(np 1 2 4)
  pst_records_test(header.np${np}.machine ${np} CHECKS
    "{'noise', 'env', 'binding', 'oversubscribed', 'allocator', 'cpu_governor', 'transparent_hugepages', 'kernel_release', 'ld_preload', 'compile_flags', 'thread_level'} <= set(header)"
    "len(header['binding']) == ${np} and all(set(b) == {'rank', 'host', 'cpus', 'numa_node', 'threads', 'thread_cpus'} for b in header['binding'])"
    "header['noise']['probe_s'] == 0.1 and 0 <= header['noise']['before']['lost_frac_median'] <= header['noise']['before']['lost_frac_max'] <= 1"
    "header['oversubscribed'] == (${np} > header['cpus_online']) and header['noise']['measures_ranks'] == header['oversubscribed']"
    "header['allocator']['alloc_state'] == 'default' and header['allocator']['probe_bytes'] == 1048576"
    "recs[-1]['type'] == 'footer' and set(recs[-1]['noise']['after']) == {'lost_frac_max', 'lost_frac_median', 'max_gap_s', 'gaps'} and recs[-1]['elapsed_s'] >= 0"
    ARGS model --trunc 5 --levels 1 --steps 2 --grid ${np}x1 --noise-probe 0.1)
endforeach()
pst_records_test(header.noise_off 2 CHECKS
  "header['noise'] is None and recs[-1]['type'] == 'footer' and recs[-1]['noise'] is None"
  ARGS swap --protocols 0,6 --sizes 8 --reps 2 --noise-probe 0)
pst_bad_input_test(header.bad.noise_probe 2 2 "--noise-probe: -1 is out of range \\(allowed: 0 ... 60\\)"
  swap --noise-probe -1 --out ${PST_TEST_OUT})
pst_bad_input_test(header.bad.noise_probe_text 2 2 "--noise-probe: 'abc' is not a finite number"
  swap --noise-probe abc --out ${PST_TEST_OUT})
# The sensitivity table prints a tie set of every protocol (2 rounds exclude none) as 4 members,
# then the count of the rest: no lone winner, no 44-member line.
pst_output_test(swap.table.tie_set_inline 2 "^ +8 +1 .* [^ ]+ ≈ [^ ]+ ≈ [^ ]+ ≈ [^ ]+ \\+[0-9]+ more$"
  $<TARGET_FILE:pstswm> swap --protocols all --sizes 8 --reps 2 --noise-probe 0)
