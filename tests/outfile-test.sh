#!/usr/bin/env bash
# --out is atomic: FILE.partial while running, renamed on success; a failed run keeps an existing
# FILE untouched and its own records in FILE.partial; exit 2 leaves nothing; a write failure is
# exit 3 naming the file; devices and pipes are written directly; a symlink stays a symlink.
#   outfile-test.sh DIR -- launcher... pstswm
set -uo pipefail
dir=$1
shift 2
run=("$@")
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fails=0
# On a failure: the exit code and stderr of the run it checks.
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1 (exit ${rc:-?}; stderr:)"; sed 's/^/  | /' err 2>/dev/null; fails=$((fails + 1)); fi; }
quick=(swap --protocols 0,6 --sizes 8 --reps 10 --noise-probe 0)

"${run[@]}" "${quick[@]}" --out ok.jsonl >/dev/null 2>err
check "success: FILE, no FILE.partial" '[[ $? == 0 && -s ok.jsonl && ! -e ok.jsonl.partial ]] && grep -q "\"type\":\"footer\"" ok.jsonl'

"${run[@]}" "${quick[@]}" --out /dev/full >/dev/null 2>err
rc=$?
check "/dev/full: exit 3 naming the file" '[[ $rc == 3 ]] && grep -q -- "--out /dev/full: write failed: No space left on device" err'

echo "earlier results" >keep.jsonl
"${run[@]}" model --case 2 --trunc 42 --levels 4 --steps 1000000 --timeout 1 --noise-probe 0 --out keep.jsonl >/dev/null 2>err
rc=$?
check "failed run (exit 4): FILE untouched" '[[ $rc == 4 && $(cat keep.jsonl) == "earlier results" ]]'
check "failed run: its records in FILE.partial, named" 'head -1 keep.jsonl.partial | grep -q "\"type\":\"header\"" && grep -q "records so far kept in keep.jsonl.partial" err'

"${run[@]}" swap --reps 3 --adaptive --out keep.jsonl >/dev/null 2>err
rc=$?
check "usage error (exit 2): FILE untouched, no new partial" '[[ $rc == 2 && $(cat keep.jsonl) == "earlier results" ]]'

rm -f keep.jsonl.partial
ln -s keep.jsonl link.jsonl
"${run[@]}" "${quick[@]}" --out link.jsonl >/dev/null 2>err
check "symlink: stays a link, its target replaced" '[[ -L link.jsonl && ! -e keep.jsonl.partial ]] && grep -q "\"type\":\"footer\"" keep.jsonl'

"${run[@]}" "${quick[@]}" --out /dev/stdout 2>err | head -1 >stdout.txt
check "/dev/stdout: written directly" 'grep -q "\"type\":\"header\"" stdout.txt && ! ls /dev/stdout.partial 2>/dev/null'

mkfifo fifo
(cat fifo >fifo.txt &)
"${run[@]}" "${quick[@]}" --out fifo >/dev/null 2>err
check "FIFO: written directly, still a FIFO" '[[ -p fifo && ! -e fifo.partial ]] && sleep 0.2 && grep -q "\"type\":\"footer\"" fifo.txt'

((fails == 0)) || { echo "--- last stderr ---"; cat err; }
exit $((fails > 0))
