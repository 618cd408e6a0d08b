#!/usr/bin/env bash
# Validates a puzzle database as a Slurm job array on a one-node cluster on
# this machine, and checks the result against a single-process run.
#
# It installs Debian's slurm-wlm and munge if they are missing, starts
# munged, slurmctld and slurmd (unless a cluster already answers), submits
# `mateline validate --shard /N` as an array of N tasks (SLURM_ARRAY_TASK_ID
# picks each task's shard), waits for it, merges the shard outputs with
# `mateline merge`, runs the same validation in one process, and compares
# the two: the same ids, in the same order, with the same verdicts. At the
# end it stops the daemons it started (by their process ids).
#
#   scripts/slurm-local.sh [-n SHARDS] [-t TIMEOUT] [-N NODES] [-o DIR] [--no-single] [--fault] PUZZLES...
#
# -n shards (default 4), -t mateline's --timeout (default 2s), -N its
# --nodes limit instead of a time limit, -o where the outputs go (default a
# temporary folder, removed at the end). --no-single skips the
# single-process run (for a whole database, where it would take as long as
# the array).
#
# --fault kills a random task with SIGKILL once it has written a record,
# requeues it (scontrol requeue), and lets it finish with the same command
# (every task runs with --resume). The limit is then nodes (-N, default
# 300000), not time, so that the merged output can be compared with the
# single-process run field by field, but for the milliseconds.
#
#   scripts/slurm-local.sh --tables "SIG..." [-n SHARDS] [--mem SIZE] [-o DIR]
#
# --tables builds distance-to-mate tables instead: `mateline tables build
# --shard /N SIG...` as an array of N tasks on one shared cache (-o, or a
# temporary one), each task waiting on the locks of the tables another is
# building, each asking Slurm for --mem (default 15G: a six-man pawnless
# build's bound, so the one node runs one such task at a time). It prints
# each task's log and the cache's `tables list`.
set -euo pipefail
cd "$(dirname "$0")/.."
shards=4 timeout=2s nodes=0 keep="" single=1 fault=0 tables="" mem=15G
while [ $# -gt 0 ]; do
  case "$1" in
    --tables) tables=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    -n) shards=$2; shift 2 ;;
    -t) timeout=$2; shift 2 ;;
    -N) nodes=$2; shift 2 ;;
    -o) keep=$2; shift 2 ;;
    --no-single) single=0; shift ;;
    --fault) fault=1; shift ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- examples/mates.epd
if [ "$fault" = 1 ] && [ "$nodes" = 0 ]; then nodes=300000; fi
if [ "$nodes" != 0 ]; then timeout=0; fi
inputs=()
for f in "$@"; do inputs+=("$(realpath "$f")"); done

work=$(mktemp -d /tmp/mateline-slurm.XXXXXX)
out=${keep:-$work/out}
mkdir -p "$out"
out=$(realpath "$out")
started=()
cleanup() {
  for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${started[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  rm -rf "$work"
}
trap cleanup EXIT

need() { command -v "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null; }; }
need slurmctld
need munged

if ! sinfo -h >/dev/null 2>&1; then
  echo "starting a one-node Slurm cluster in $work"
  node=$(hostname -s)
  mkdir -p "$work/state" "$work/spool" "$work/log" /run/munge
  cat > "$work/slurm.conf" <<CONF
ClusterName=mateline
SlurmctldHost=$node
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
DefMemPerCPU=1024
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
NodeName=$node CPUs=2 RealMemory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512)) State=UNKNOWN
PartitionName=main Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$work/slurm.conf
  if ! pgrep -x munged >/dev/null; then
    chown munge:munge /run/munge
    su -s /bin/sh munge -c "munged" || munged --force
    started+=("$(pgrep -xn munged)")
  fi
  slurmctld -f "$SLURM_CONF"
  for _ in $(seq 50); do [ -s "$work/slurmctld.pid" ] && break; sleep 0.1; done
  started+=("$(cat "$work/slurmctld.pid")")
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 50); do [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
  started+=("$(cat "$work/slurmd.pid")")
  for _ in $(seq 100); do
    sinfo -h -o '%t' 2>/dev/null | grep -qE '^idle' && break
    sleep 0.2
  done
  sinfo
else
  echo "a Slurm cluster answers: using it"
  sinfo
fi

go build -o "$work/mateline" ./cmd/mateline
bin=$work/mateline

if [ -n "$tables" ]; then
  # shellcheck disable=SC2086 # the signatures are words
  cat > "$work/task.sh" <<TASK
#!/usr/bin/env bash
exec /usr/bin/time -v "$bin" tables build --dtm "$out" --shard /$shards $tables
TASK
  chmod +x "$work/task.sh"
  start=$(date +%s.%N)
  jobid=$(sbatch --parsable --array=0-$((shards - 1)) --cpus-per-task=2 --mem="$mem" --output="$work/task-%a.log" "$work/task.sh")
  echo "submitted job array $jobid: $shards tasks over $tables, $mem each"
  while squeue -h -j "$jobid" 2>/dev/null | grep -q .; do sleep 5; done
  printf 'job array wall time: %.1f s\n' "$(echo "$(date +%s.%N) - $start" | bc)"
  for i in $(seq 0 $((shards - 1))); do
    echo "--- task $i: $(sacct -n -X -j "${jobid}_$i" -o State,Elapsed,Start,End 2>/dev/null | head -1 || true)"
    tr '\r' '\n' < "$work/task-$i.log" | grep -E 'to build|built|ready|waiting|Elapsed|Maximum resident|Exit status' || true
  done
  "$bin" tables list --dtm "$out" $tables
  exit 0
fi
# The job reads its shard index from SLURM_ARRAY_TASK_ID: --shard /N. A
# task started again after a kill continues its output: --resume.
# The single-process run gives each of its two workers the same table as a
# task has (results under a node limit depend on the table's size).
limits=(--timeout "$timeout" --nodes "$nodes")
hash=64
cat > "$work/task.sh" <<TASK
#!/usr/bin/env bash
exec "$bin" validate --no-progress --json -j 1 --threads 1 --hash $hash ${limits[@]@Q} --shard /$shards --resume \
  -o "$out/shard-\$SLURM_ARRAY_TASK_ID.jsonl" ${inputs[@]@Q}
TASK
chmod +x "$work/task.sh"
start=$(date +%s.%N)
jobid=$(sbatch --parsable --requeue --array=0-$((shards - 1)) --cpus-per-task=1 --output="$work/task-%a.log" --open-mode=append "$work/task.sh")
echo "submitted job array $jobid: $shards tasks"
if [ "$fault" = 1 ]; then
  victim=$((RANDOM % shards))
  partial="$out/shard-$victim.jsonl.partial"
  # Once the task has written a record (the shard marker is its first line),
  # kill it as the OOM killer would: SIGKILL, no grace.
  for _ in $(seq 6000); do
    [ "$({ wc -l < "$partial"; } 2>/dev/null || echo 0)" -ge 2 ] && break
    sleep 0.05
  done
  pid=$(pgrep -f -- "-o $out/shard-$victim.jsonl" | head -1 || true)
  if [ -z "$pid" ]; then
    echo "FAIL: task $victim finished before it could be killed; use a larger input or -N" >&2
    exit 1
  fi
  kill -KILL "$pid"
  echo "killed task $victim (process $pid) with SIGKILL after $(($(wc -l < "$partial") - 1)) record(s)"
  for _ in $(seq 100); do
    squeue -h -j "${jobid}_$victim" -t RUNNING,COMPLETING 2>/dev/null | grep -q . || break
    sleep 0.2
  done
  scontrol requeue "${jobid}_$victim"
  echo "task $victim requeued: it starts again with the same command"
fi
while squeue -h -j "$jobid" 2>/dev/null | grep -q .; do sleep 1; done
wall=$(echo "$(date +%s.%N) - $start" | bc)
failed=0
for i in $(seq 0 $((shards - 1))); do
  state=$(sacct -n -X -j "${jobid}_$i" -o State 2>/dev/null | tr -d ' ' | head -1 || true)
  if [ ! -s "$out/shard-$i.jsonl" ]; then
    echo "task $i left no output (${state:-state unknown}):"; cat "$work/task-$i.log" || true
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
merge_inputs=()
for f in "${inputs[@]}"; do merge_inputs+=(--input "$f"); done
"$bin" merge "${merge_inputs[@]}" -o "$out/merged.jsonl" "$out"/shard-*.jsonl
printf 'job array wall time: %.1f s\n' "$wall"
python3 - "$out/merged.jsonl" <<'PY'
import json, sys, collections
c = collections.Counter(json.loads(l).get("verdict") for l in open(sys.argv[1]))
print("verdicts:", ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
PY

if [ "$single" = 1 ]; then
  "$bin" validate --no-progress --json -j 2 --threads 1 --hash $((2 * hash)) "${limits[@]}" -o "$out/single.jsonl" "${inputs[@]}" 2>/dev/null || true
  python3 - "$out/merged.jsonl" "$out/single.jsonl" "$nodes" <<'PY'
import json, sys
def rows(p):
    out = []
    for r in map(json.loads, open(p)):
        r.pop("ms", None)
        out.append(r)
    return out
a, b, exact = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3] != "0"
if [r["id"] for r in a] != [r["id"] for r in b]:
    sys.exit(f"FAIL: ids or their order differ ({len(a)} merged, {len(b)} single)")
if exact:
    # A node limit decides the same everywhere: every field but the
    # milliseconds must agree.
    diff = [(x["id"], x, y) for x, y in zip(a, b) if x != y]
    if diff:
        sys.exit(f"FAIL: {len(diff)} records differ, first {diff[0]}")
    print(f"ok: {len(a)} records, identical to the single-process run but for the milliseconds")
else:
    diff = [(x["id"], x.get("verdict"), y.get("verdict")) for x, y in zip(a, b) if x.get("verdict") != y.get("verdict")]
    # A timeout depends on the machine's load: only decided verdicts must agree.
    real = [d for d in diff if "timeout" not in (d[1], d[2])]
    if real:
        sys.exit(f"FAIL: verdicts differ: {real[:10]}")
    print(f"ok: {len(a)} records, same ids in the same order, same verdicts"
          + (f" ({len(diff)} differ only by a timeout)" if diff else ""))
PY
fi
if [ -n "$keep" ]; then echo "outputs in $out"; fi
