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
#   scripts/slurm-local.sh [-n SHARDS] [-t TIMEOUT] [-o DIR] [--no-single] PUZZLES...
#
# -n shards (default 4), -t mateline's --timeout (default 2s), -o where the
# outputs go (default a temporary folder, removed at the end). --no-single
# skips the single-process run (for a whole database, where it would take
# as long as the array).
set -euo pipefail
cd "$(dirname "$0")/.."
shards=4 timeout=2s keep="" single=1
while [ $# -gt 0 ]; do
  case "$1" in
    -n) shards=$2; shift 2 ;;
    -t) timeout=$2; shift 2 ;;
    -o) keep=$2; shift 2 ;;
    --no-single) single=0; shift ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- examples/mates.epd
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
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
NodeName=$node CPUs=2 State=UNKNOWN
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
# The job reads its shard index from SLURM_ARRAY_TASK_ID: --shard /N.
cat > "$work/task.sh" <<TASK
#!/usr/bin/env bash
exec "$bin" validate --no-progress --json -j 1 --threads 1 --timeout $timeout --shard /$shards \
  -o "$out/shard-\$SLURM_ARRAY_TASK_ID.jsonl" ${inputs[@]@Q}
TASK
chmod +x "$work/task.sh"
start=$(date +%s.%N)
jobid=$(sbatch --parsable --array=0-$((shards - 1)) --cpus-per-task=1 --output="$work/task-%a.log" "$work/task.sh")
echo "submitted job array $jobid: $shards tasks"
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
  "$bin" validate --no-progress --json -j 2 --threads 1 --timeout "$timeout" -o "$out/single.jsonl" "${inputs[@]}" 2>/dev/null || true
  python3 - "$out/merged.jsonl" "$out/single.jsonl" <<'PY'
import json, sys
def rows(p):
    return [(r["id"], r.get("verdict")) for r in map(json.loads, open(p))]
a, b = rows(sys.argv[1]), rows(sys.argv[2])
if [i for i, _ in a] != [i for i, _ in b]:
    sys.exit(f"FAIL: ids or their order differ ({len(a)} merged, {len(b)} single)")
diff = [(i, x, y) for (i, x), (_, y) in zip(a, b) if x != y]
# A timeout depends on the machine's load: only decided verdicts must agree.
real = [d for d in diff if "timeout" not in (d[1], d[2])]
if real:
    sys.exit(f"FAIL: verdicts differ: {real[:10]}")
print(f"ok: {len(a)} records, same ids in the same order, same verdicts"
      + (f" ({len(diff)} differ only by a timeout)" if diff else ""))
PY
fi
if [ -n "$keep" ]; then echo "outputs in $out"; fi
