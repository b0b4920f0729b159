#!/bin/sh
# tests/slurm/check-slurm.sh BIN -- `make check-slurm`: a sweep submitted to
# a real Slurm through the project's own submission path, checked against
# the same sweep run locally, byte for byte.
#
# It brings up a one-node cluster on localhost from scratch: slurmctld and
# slurmd (Debian 12's Slurm 22.05; installed with apt-get when missing and
# running as root, the only target that installs them), a slurm.conf in a
# temporary directory with auth/none and cred/none (no munge key to share:
# every client is this host's root), proctrack/pgid and task/none (no
# cgroups, which containers often lack) and select/cons_tres, on two free
# ports.  The daemons run in the foreground (-D) as children of this
# script, so their PIDs are known exactly; the trap stops those two PIDs,
# after cancelling the jobs this script submitted, and removes the
# directory, on success and on failure alike.  Nothing else on the host is
# touched: no /etc/slurm, no systemd unit, no daemon this script did not
# start.
#
# Two tests, about 45 s in all:
#  1. tests/data/sweep/tiny.yaml (4 points) submitted as a 3-task array
#     starting at 1 (the array offset) through scripts/slurm/sweep.sbatch,
#     from the repository root with a relative SKEWSIM_BIN (the
#     submit-directory resolution); polled with scontrol (sacct needs
#     slurmdbd) until every task is COMPLETED with exit 0, under a timeout;
#     then `sweep --collect`; then the same spec run locally into another
#     directory; then sweep.csv, every point's files and the generated
#     traces compared with cmp.
#  3. `skewsim sweep --slurm` itself: --dry-run prints the array script
#     and submits nothing; then tests/slurm/slurm.yaml (24 points of 0.3 s)
#     with --time 1:10 --cpus 1 is sized to a 2-task array and submitted
#     with its afterok collect job; once that is COMPLETED, sweep.csv,
#     results.csv and every point's files equal a local sweep's.
#  2. tests/slurm/slow.yaml (6 points of about 2 s) as a 2-task array, sent
#     SIGTERM on its batch shells once a point is done (what
#     --signal=B:TERM@60 sends near the time limit): a task must end with
#     exit 143, no temporary file may remain, the same array resubmitted
#     must leave the finished points' files untouched and complete, and the
#     collected result must equal a fresh local sweep.
#
# SKEWSIM_SLURM_TIMEOUT (seconds, default 180) bounds each wait.
set -eu
BIN=${1:?usage: tests/slurm/check-slurm.sh BIN}
cd "$(dirname "$0")/../.."
REPO=$PWD
SPEC=tests/data/sweep/tiny.yaml
TIMEOUT=${SKEWSIM_SLURM_TIMEOUT:-180}
say() { echo "check-slurm: $*"; }
fail() { echo "check-slurm: FAIL: $*" >&2; exit 1; }
[ -x "$BIN" ] || fail "$BIN: not built"

# --- 0: sweep.sbatch's arithmetic, without Slurm ------------------------------------
# A stub binary prints its arguments; the environment is what sbatch sets.
STUBDIR=$(mktemp -d /tmp/skewsim-sbatch.XXXXXX)
printf '#!/bin/sh\necho "$@"\n' >"$STUBDIR/skewsim"
chmod +x "$STUBDIR/skewsim"
# sb "ENV..." ARGS...: run the script with that environment; prints its output.
sb() {
    e=$1
    shift
    env -i PATH="$PATH" SLURM_SUBMIT_DIR="$STUBDIR" SKEWSIM_BIN=skewsim SLURM_CPUS_PER_TASK=2 $e \
        sh scripts/slurm/sweep.sbatch "$@" 2>&1
}
expect() {
    [ "$1" = "$2" ] || { rm -rf "$STUBDIR"; fail "sweep.sbatch: expected '$2', got '$1'"; }
}
A="SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=16 SLURM_ARRAY_TASK_COUNT=16 SLURM_ARRAY_TASK_STEP=1"
expect "$(sb "SLURM_ARRAY_TASK_ID=5 $A" s.yaml out)" "sweep $STUBDIR/s.yaml -o $STUBDIR/out --shard 4/16 -j 2"
A="SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=30 SLURM_ARRAY_TASK_COUNT=16 SLURM_ARRAY_TASK_STEP=2"
expect "$(sb "SLURM_ARRAY_TASK_ID=30 $A" /abs/s.yaml /abs/out)" "sweep /abs/s.yaml -o /abs/out --shard 15/16 -j 2"
A="SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_MAX=9 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_STEP=1"
expect "$(sb "SLURM_ARRAY_TASK_ID=7 $A" s.yaml out)" \
    "sweep.sbatch: array 3..9 of 3 tasks is not a range: give SHARDS (usage: sbatch --array=0-15 scripts/slurm/sweep.sbatch SPEC OUTDIR [SHARDS])"
expect "$(sb "SLURM_ARRAY_TASK_ID=7 $A" s.yaml out 16)" "sweep $STUBDIR/s.yaml -o $STUBDIR/out --shard 7/16 -j 2"
expect "$(sb "SLURM_ARRAY_TASK_ID=16 $A" s.yaml out 16)" "sweep.sbatch: array index 16: expected 0..15 with SHARDS 16"
expect "$(sb "" s.yaml out)" "sweep.sbatch: not an array job: usage: sbatch --array=0-15 scripts/slurm/sweep.sbatch SPEC OUTDIR [SHARDS]"
expect "$(sb "SKEWSIM_BIN=nope SLURM_ARRAY_TASK_ID=1 $A" s.yaml out)" \
    "sweep.sbatch: $STUBDIR/nope: not an executable (set SKEWSIM_BIN, or submit from the repository root after make)"
rm -rf "$STUBDIR"
say "ok: sweep.sbatch maps array offsets, steps and SHARDS onto --shard K/N"
# docs/hpc.md's study is the size it says.
n=$("$BIN" sweep configs/sweeps/hpc-10k.yaml --list | wc -l)
[ "$n" = 10000 ] || fail "configs/sweeps/hpc-10k.yaml: expected 10000 points (docs/hpc.md), got $n"

# --- Slurm itself -----------------------------------------------------------
PKGS="slurmctld slurmd slurm-client"
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 ||
   ! command -v sbatch >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing $PKGS with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq --no-install-recommends $PKGS >/dev/null ||
            fail "apt-get install failed; run: apt-get install $PKGS"
    else
        fail "Slurm is missing: run (as root) apt-get install $PKGS"
    fi
fi
# Jobs run as the submitting user and slurmd must start job steps as any
# user, so a one-host cluster without munge needs root.
[ "$(id -u)" = 0 ] || fail "must run as root (slurmd starts the job steps; auth/none trusts only root here)"

# Nothing from an enclosing job or the user's environment may steer sbatch.
for v in $(env | sed -n 's/^\(SBATCH_[A-Za-z0-9_]*\)=.*/\1/p; s/^\(SLURM_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$v"
done

TMP=$(mktemp -d /tmp/skewsim-slurm.XXXXXX)
CTLD_PID=
SLURMD_PID=
JOBIDS=
cleanup() {
    rc=$?
    trap - EXIT INT TERM
    if [ -n "$JOBIDS" ] && [ -n "$CTLD_PID" ]; then
        for j in $JOBIDS; do scancel "$j" 2>/dev/null || :; done
        # Let slurmd reap the cancelled steps before it goes.
        n=0
        while [ $n -lt 20 ] && [ -n "$(squeue -h -j "$(echo $JOBIDS | tr ' ' ,)" -o %i -t PD,R,CG,S,CF 2>/dev/null)" ]; do
            sleep 0.5; n=$((n + 1))
        done
    fi
    for p in $SLURMD_PID $CTLD_PID; do kill -TERM "$p" 2>/dev/null || :; done
    for p in $SLURMD_PID $CTLD_PID; do
        n=0
        while kill -0 "$p" 2>/dev/null && [ $n -lt 40 ]; do sleep 0.25; n=$((n + 1)); done
        kill -KILL "$p" 2>/dev/null || :
        wait "$p" 2>/dev/null || :
    done
    if [ "$rc" != 0 ]; then
        for f in "$TMP"/slurmctld.log "$TMP"/slurmd.log "$TMP"/task-*.out "$TMP"/sl/slurm/*.out; do
            [ -f "$f" ] || continue
            echo "---- $f (last 30 lines)" >&2
            tail -n 30 "$f" >&2
        done
    fi
    rm -rf "$TMP"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Two free TCP ports: none of /proc/net/tcp{,6}'s sockets holds them.
port_used() {
    hex=$(printf '%04X' "$1")
    cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
        awk -v h="$hex" 'NR > 1 { split($2, a, ":"); if (a[2] == h) f = 1 } END { exit !f }'
}
pick_port() {
    i=0
    while [ $i -lt 200 ]; do
        p=$(awk -v s="$$$i" 'BEGIN { srand(s); print 20000 + int(rand() * 40000) }')
        [ "$p" != "${1:-}" ] && ! port_used "$p" && { echo "$p"; return 0; }
        i=$((i + 1))
    done
    fail "no free TCP port found"
}
CTLD_PORT=$(pick_port)
SLURMD_PORT=$(pick_port "$CTLD_PORT")

# The node as slurmd itself sees it (CPUs, sockets, cores, RealMemory), named
# localhost: a conf that claims more than the host has drains the node.
NODE=$(slurmd -C | sed -n '1s/^NodeName=[^ ]*//p')
[ -n "$NODE" ] || fail "slurmd -C printed no node line"
mkdir -p "$TMP/state" "$TMP/spool"
export SLURM_CONF="$TMP/slurm.conf"
cat >"$SLURM_CONF" <<EOF
# Written by tests/slurm/check-slurm.sh: a one-node cluster on localhost.
ClusterName=skewsimcheck
SlurmctldHost=localhost
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
# Completed jobs stay visible to scontrol long enough to be checked.
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1$NODE State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

say "starting slurmctld and slurmd on ports $CTLD_PORT, $SLURMD_PORT ($TMP)"
slurmctld -D -i -f "$SLURM_CONF" >"$TMP/slurmctld.out" 2>&1 &
CTLD_PID=$!
slurmd -D -N localhost -f "$SLURM_CONF" >"$TMP/slurmd.out" 2>&1 &
SLURMD_PID=$!

# wait_for SECONDS WHAT COMMAND...: until COMMAND succeeds, both daemons alive.
wait_for() {
    limit=$1 what=$2
    shift 2
    t0=$(date +%s)
    until "$@"; do
        kill -0 "$CTLD_PID" 2>/dev/null || fail "slurmctld (pid $CTLD_PID) died: $(tail -n 3 "$TMP/slurmctld.out")"
        kill -0 "$SLURMD_PID" 2>/dev/null || fail "slurmd (pid $SLURMD_PID) died: $(tail -n 3 "$TMP/slurmd.out")"
        [ $(($(date +%s) - t0)) -lt "$limit" ] || fail "timed out after ${limit}s waiting for $what"
        sleep 0.5
    done
}
node_idle() { [ "$(sinfo -h -n localhost -o %T 2>/dev/null)" = idle ]; }
wait_for 60 "node localhost to be idle" node_idle
say "node localhost idle after $(($(date +%s) - t0))s"

# --- helpers --------------------------------------------------------------------
# submit ARRAY SPEC DIR: one sweep.sbatch array job, from the repository root
# with the relative SKEWSIM_BIN as given; sets JOB (not in a subshell, so
# that JOBIDS reaches the trap).
submit() {
    j=$(SKEWSIM_BIN=$BIN sbatch --parsable --array="$1" --cpus-per-task=1 --time=5 \
            --chdir="$REPO" --output="$TMP/task-%A_%a.out" \
            scripts/slurm/sweep.sbatch "$2" "$3") || fail "sbatch refused the job"
    j=${j%%;*}
    JOBIDS="$JOBIDS $j"
    JOB=$j
}
# Every task of job $1 has ended (one scontrol -o line per task once split).
array_done() {
    out=$(scontrol -o show job "$1" 2>/dev/null) || return 1
    ! echo "$out" | grep -Eq 'JobState=(PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|REQUEUED|RESIZING|SIGNALING|STAGE_OUT)'
}
# Some task of job $1 is running.
array_running() { scontrol -o show job "$1" 2>/dev/null | grep -q 'JobState=RUNNING'; }
# "TASK STATE EXIT" per task of job $1, sorted.
states() {
    scontrol -o show job "$1" |
        sed -n 's/.*ArrayTaskId=\([^ ]*\) .*JobState=\([^ ]*\) .* ExitCode=\([^ ]*\) .*/\1 \2 \3/p' | sort
}
# same A B: sweep.csv and every file of every point (and every gen: trace)
# of sweep directory B are byte for byte those of A; prints the file count.
same() {
    cmp "$1/sweep.csv" "$2/sweep.csv" >&2 || fail "sweep.csv differs"
    (cd "$1" && find points traces -type f | sort) >"$TMP/a.files"
    (cd "$2" && find points traces -type f | sort) >"$TMP/b.files"
    cmp -s "$TMP/a.files" "$TMP/b.files" ||
        fail "$2 does not hold the files of $1: $(diff "$TMP/a.files" "$TMP/b.files" | head -n 5 | tr '\n' ' ')"
    nsum=0
    while read -r f; do
        cmp "$1/$f" "$2/$f" >&2 || fail "$f differs"
        case $f in */summary.json) nsum=$((nsum + 1)) ;; esac
    done <"$TMP/a.files"
    echo "$nsum"
}
elapsed() { echo "$(($(date +%s) - T_START))s"; }

# --- 1: a 3-task array from index 1, collected, against the local sweep ---------
T_START=$(date +%s)
submit 1-3 "$SPEC" "$TMP/cluster"
say "submitted array job $JOB: $SPEC, tasks 1-3"
wait_for "$TIMEOUT" "array job $JOB" array_done "$JOB"
ST=$(states "$JOB")
say "tasks after $(elapsed): $(echo "$ST" | tr '\n' ';')"
[ "$(echo "$ST" | grep -c ' COMPLETED 0:0$')" = 3 ] || fail "expected 3 tasks COMPLETED with exit 0:0, got: $ST"
"$BIN" sweep "$SPEC" -o "$TMP/cluster" --collect >"$TMP/collect.out" ||
    fail "sweep --collect: exit $? ($(tail -n 1 "$TMP/collect.out"))"
"$BIN" sweep "$SPEC" -o "$TMP/local" -j 2 --quiet >/dev/null || fail "local sweep: exit $?"
n=$(same "$TMP/local" "$TMP/cluster")
[ "$n" = 4 ] || fail "expected 4 points' summary.json, found $n"
say "ok: sweep.csv and the files of all $n points identical to the local sweep"

# --- 2: SIGTERM to the batch shells mid-sweep, resubmit, compare -----------------
# scancel --batch --signal=TERM delivers exactly what --signal=B:TERM@60
# delivers at the time limit: SIGTERM to the batch shell, which exec'd skewsim.
SLOW=tests/slurm/slow.yaml
T_START=$(date +%s)
submit 0-1 "$SLOW" "$TMP/slow"
say "submitted array job $JOB: $SLOW, tasks 0-1"
one_done() { array_running "$JOB" && ls "$TMP"/slow/points/*/point.json >/dev/null 2>&1; }
wait_for "$TIMEOUT" "a finished point of job $JOB" one_done
scancel --batch --signal=TERM "$JOB" || fail "scancel --batch --signal=TERM $JOB failed"
wait_for "$TIMEOUT" "array job $JOB to stop" array_done "$JOB"
ST=$(states "$JOB")
say "tasks after SIGTERM, $(elapsed): $(echo "$ST" | tr '\n' ';')"
echo "$ST" | grep -q ' FAILED 143:0$' || fail "no task stopped with exit 143 on SIGTERM: $ST"
[ -z "$(echo "$ST" | grep -Ev ' (FAILED 143:0|COMPLETED 0:0)$')" ] || fail "unexpected task states: $ST"
[ -z "$(find "$TMP/slow" -name '*.tmp*')" ] || fail "temporary files left after SIGTERM: $(find "$TMP/slow" -name '*.tmp*' | head -n 3)"
# The points finished before the signal must be kept, not run again.
KEPT=$(cd "$TMP/slow" && grep -l '"status": "ok"' points/*/point.json | sed 's#/point.json##')
nkept=$(echo "$KEPT" | grep -c .)
[ "$nkept" -ge 1 ] && [ "$nkept" -lt 6 ] || fail "expected 1..5 points done when stopped, found $nkept"
for d in $KEPT; do stat -c '%n %Y %s' "$TMP/slow/$d/summary.json"; done >"$TMP/kept.before"
submit 0-1 "$SLOW" "$TMP/slow"
wait_for "$TIMEOUT" "resubmitted array job $JOB" array_done "$JOB"
ST=$(states "$JOB")
say "resubmitted job $JOB after $(elapsed): $(echo "$ST" | tr '\n' ';')"
[ "$(echo "$ST" | grep -c ' COMPLETED 0:0$')" = 2 ] || fail "expected 2 tasks COMPLETED with exit 0:0, got: $ST"
for d in $KEPT; do stat -c '%n %Y %s' "$TMP/slow/$d/summary.json"; done >"$TMP/kept.after"
cmp -s "$TMP/kept.before" "$TMP/kept.after" || fail "points done before the signal were run again"
"$BIN" sweep "$SLOW" -o "$TMP/slow" --collect >"$TMP/collect.out" ||
    fail "sweep --collect: exit $? ($(tail -n 1 "$TMP/collect.out"))"
"$BIN" sweep "$SLOW" -o "$TMP/slow-local" -j 2 --quiet >/dev/null || fail "local sweep: exit $?"
n=$(same "$TMP/slow-local" "$TMP/slow")
[ "$n" = 6 ] || fail "expected 6 points' summary.json, found $n"
say "ok: stopped with $nkept of 6 points done, resumed, identical to a fresh local sweep"

# --- 3: skewsim sweep --slurm: sized array, afterok collect job ----------------------
SL=tests/slurm/slurm.yaml
T_START=$(date +%s)
DRY=$("$BIN" sweep "$SL" -o "$TMP/sl" --slurm --time 1:10 --cpus 1 --dry-run) || fail "sweep --slurm --dry-run: exit $?"
echo "$DRY" | grep -q '^#SBATCH --array=0-1$' || fail "--dry-run: expected a 2-task array: $(echo "$DRY" | grep array)"
[ ! -e "$TMP/sl/slurm" ] || fail "--dry-run wrote $TMP/sl/slurm"
[ -z "$(squeue -h -t PD,R 2>/dev/null)" ] || fail "--dry-run submitted a job"
SUB=$("$BIN" sweep "$SL" -o "$TMP/sl" --slurm --time 1:10 --cpus 1) || fail "sweep --slurm: exit $?"
say "$SUB"
A=$(echo "$SUB" | sed -n 's/^sweep: submitted array job \([0-9]*\): .* in \([0-9]*\) tasks .*collect job \([0-9]*\) .*/\1/p')
NT=$(echo "$SUB" | sed -n 's/^sweep: submitted array job \([0-9]*\): .* in \([0-9]*\) tasks .*collect job \([0-9]*\) .*/\2/p')
C=$(echo "$SUB" | sed -n 's/^sweep: submitted array job \([0-9]*\): .* in \([0-9]*\) tasks .*collect job \([0-9]*\) .*/\3/p')
[ -n "$A" ] && [ -n "$C" ] || fail "sweep --slurm printed no job ids: $SUB"
JOBIDS="$JOBIDS $A $C"
[ "$NT" = 2 ] || fail "expected --time 1:10 --cpus 1 to size 24 points of 0.31 s to 2 tasks, got $NT"
wait_for "$TIMEOUT" "collect job $C" array_done "$C"
ST=$(states "$A")
CS=$(scontrol -o show job "$C" | sed -n 's/.*JobState=\([^ ]*\) .* ExitCode=\([^ ]*\) .*/\1 \2/p')
say "array $A and collect $C after $(elapsed): $(echo "$ST" | tr '\n' ';') collect: $CS"
[ "$(echo "$ST" | grep -c ' COMPLETED 0:0$')" = 2 ] || fail "expected 2 tasks COMPLETED with exit 0:0, got: $ST"
[ "$CS" = "COMPLETED 0:0" ] || fail "collect job $C: $CS"
"$BIN" sweep "$SL" -o "$TMP/sl-local" -j 2 --quiet >/dev/null || fail "local sweep: exit $?"
n=$(same "$TMP/sl-local" "$TMP/sl")
cmp "$TMP/sl-local/results.csv" "$TMP/sl/results.csv" || fail "results.csv differs"
[ "$n" = 24 ] || fail "expected 24 points' summary.json, found $n"
say "ok: sweep --slurm sized 2 tasks, its collect job ran after them, all identical to a local sweep"
