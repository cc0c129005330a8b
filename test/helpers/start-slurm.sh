#!/bin/bash
# Starts a single-node Slurm on this machine for the cluster tests (test/cluster/), or
# leaves the one it started earlier running: this host is both the controller and the
# only compute node. Needs Debian's slurm-wlm and munge (.ci/run installs them) and root.
#
#   test/helpers/start-slurm.sh [STATE_DIR]          # default /tmp/fairaudit-slurm
#   test/helpers/start-slurm.sh --stop [STATE_DIR]   # stops slurmd and slurmctld (munged stays)
#
# Steps: (1) check the commands and root; (2) create /etc/munge/munge.key if absent and
# start munged as the munge user unless `munge -n | unmunge` already works; (3) write
# STATE_DIR/slurm.conf (this host as controller and node, its CPUs and memory from
# `slurmd -C`, proctrack/linuxproc and task/none so no cgroup is needed, no accounting,
# finished jobs kept an hour for `scontrol show job`); (4) start slurmctld and slurmd
# unless they answer; (5) wait until `sinfo` shows the node idle (resuming it if it is
# down or drained). Idempotent. Daemons run as root with their state, pid files and logs
# under STATE_DIR.
#
# On success the last line of stdout is SLURM_CONF=<path>: export it for sbatch, squeue,
# scontrol. Exit 0 when the node is idle; 3 when Slurm cannot run here (not installed,
# not root), with the reason on stderr; 1 when it is installed but would not start (the
# reason and the daemon logs' tails on stderr).
set -euo pipefail

if [ "${1:-}" = "--stop" ]; then
  STATE="${2:-/tmp/fairaudit-slurm}"
  for daemon in slurmd slurmctld; do
    if [ -f "$STATE/$daemon.pid" ]; then
      pid="$(cat "$STATE/$daemon.pid")"
      if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      fi
      rm -f "$STATE/$daemon.pid"
    fi
  done
  exit 0
fi

STATE="${1:-/tmp/fairaudit-slurm}"
cannot() { echo "start-slurm: $*" >&2; exit 3; }
fail() {
  echo "start-slurm: $*" >&2
  for log in "$STATE/slurmctld.log" "$STATE/slurmd.log"; do
    if [ -f "$log" ]; then echo "--- last lines of $log" >&2; tail -n 15 "$log" >&2; fi
  done
  exit 1
}

# (1) What Slurm needs here.
for command in munged munge unmunge slurmctld slurmd sinfo sbatch squeue scontrol; do
  command -v "$command" >/dev/null 2>&1 || cannot "$command is not installed (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || cannot "must run as root to start munged, slurmctld and slurmd (running as $(id -un))"

# (2) munge: a key, its folders, the daemon.
if [ ! -s /etc/munge/munge.key ]; then
  mkdir -p /etc/munge
  if command -v mungekey >/dev/null 2>&1; then mungekey --create --keyfile=/etc/munge/munge.key --force
  else dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none; fi
fi
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/lib/munge /var/log/munge
chown munge:munge /run/munge /var/lib/munge /var/log/munge
chmod 755 /run/munge
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged || fail "munged would not start (see /var/log/munge/munged.log)"
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
  munge -n | unmunge >/dev/null || fail "munged started but credentials do not round-trip"
fi

# (3) slurm.conf for this host.
HOST="$(hostname -s)"
NODE_LINE="$(slurmd -C | head -n 1)"
case "$NODE_LINE" in NodeName=*) ;; *) fail "slurmd -C printed no node line: $NODE_LINE" ;; esac
mkdir -p "$STATE/ctld" "$STATE/spool"
CONF="$STATE/slurm.conf"
cat > "$CONF.new" <<EOF
# Written by test/helpers/start-slurm.sh: a single-node cluster for fairaudit's tests.
ClusterName=fairaudit-test
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=3600
KillWait=5
$NODE_LINE State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
if [ -f "$CONF" ] && cmp -s "$CONF" "$CONF.new"; then rm "$CONF.new"; else mv "$CONF.new" "$CONF"; CHANGED=1; fi
export SLURM_CONF="$CONF"

# (4) The daemons, unless they are running with this config.
alive() { [ -f "$STATE/$1.pid" ] && kill -0 "$(cat "$STATE/$1.pid")" 2>/dev/null; }
if [ "${CHANGED:-0}" = 1 ]; then
  bash "$0" --stop "$STATE"
fi
if ! alive slurmctld; then slurmctld || fail "slurmctld would not start"; fi
for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.1; done
scontrol ping | grep -q UP || fail "slurmctld does not answer scontrol ping"
if ! alive slurmd; then slurmd || fail "slurmd would not start"; fi

# (5) Wait for the node to be idle.
for _ in $(seq 300); do
  node_state="$(sinfo -h -N -n "$HOST" -o '%T' 2>/dev/null | head -n 1)"
  case "$node_state" in
    idle|mixed|allocated) echo "SLURM_CONF=$CONF"; exit 0 ;;
    down*|drain*) scontrol update NodeName="$HOST" State=RESUME 2>/dev/null || true ;;
  esac
  sleep 0.1
done
fail "node $HOST is not idle after 30 s (sinfo says: ${node_state:-nothing})"
