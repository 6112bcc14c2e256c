#!/usr/bin/env bash
# A real, private SLURM on this machine for tests and benchmarks: its own
# munged (own key and socket), slurmctld and slurmd as plain background
# processes (no systemd, no cgroups), everything under one prefix directory.
#
#   ci/slurm-local.sh up   [DIR]   start; prints the SLURM_CONF to export
#   ci/slurm-local.sh down [DIR]   cancel every job, stop every daemon by PID, remove DIR
#   ci/slurm-local.sh status [DIR]
#   ci/slurm-local.sh kill-node NODE [DIR]   SIGKILL a node's slurmd and its job steps (a node dying)
#   ci/slurm-local.sh start-node NODE [DIR]  start that node's slurmd again
#
# DIR defaults to $SCALEFUZZ_BUILD_DIR/slurm-local (build/slurm-local).
# Ports: $SCALEFUZZ_SLURM_PORT (default 16817) for slurmctld, +1 and +2 for the
# two slurmd nodes sf1 and sf2; $SCALEFUZZ_SLURM_MAX_ARRAY_SIZE sets MaxArraySize
# (default 1001, SLURM's). Facts it respects: ../shared/notes/slurm-local-facts.md
# (linuxproc proctrack, cons_tres, no accounting, config_overrides, munge file modes).
# Must run as root (slurmd and SlurmUser=root).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cmd="${1:-}"
shift || true
node_arg=""
if [[ "$cmd" == kill-node || "$cmd" == start-node ]]; then
  node_arg="${1:?usage: $0 $cmd NODE [DIR]}"
  shift
fi
prefix="${1:-${SCALEFUZZ_BUILD_DIR:-$root/build}/slurm-local}"
mkdir -p "$(dirname "$prefix")"
prefix="$(cd "$(dirname "$prefix")" && pwd)/$(basename "$prefix")"
port="${SCALEFUZZ_SLURM_PORT:-16817}"
conf="$prefix/slurm.conf"
nodes=(sf1 sf2)
export SLURM_CONF="$conf"

die() { echo "slurm-local: $*" >&2; exit 1; }
log() { echo "slurm-local: $*" >&2; }

# Alive and not a zombie (daemons are reparented to a PID 1 that may not reap).
pid_alive() {
  [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null || return 1
  [[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]]
}
read_pid() { [[ -s "$1" ]] && tr -dc '0-9' <"$1" || true; }

# Waits until the process is gone; SIGKILL after $2 seconds.
stop_pid() {
  local pid="$1" grace="${2:-10}" i
  pid_alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 10; i++)); do
    pid_alive "$pid" || return 0
    sleep 0.1
  done
  log "pid $pid still alive after ${grace}s: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do pid_alive "$pid" || return 0; sleep 0.1; done
}

write_config() {
  mkdir -p "$prefix"/{munge,state,log,run}
  chmod 0755 "$prefix" "$prefix/munge" "$prefix/run" "$prefix/log" "$prefix/state"
  local n
  for n in "${nodes[@]}"; do mkdir -p "$prefix/spool/$n"; done
  if [[ ! -s "$prefix/munge/munge.key" ]]; then
    (umask 077; head -c 1024 /dev/urandom >"$prefix/munge/munge.key")
  fi
  chmod 0400 "$prefix/munge/munge.key"
  cat >"$conf" <<EOF
# Written by ci/slurm-local.sh; see ../shared/notes/slurm-local-facts.md
ClusterName=scalefuzz
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$prefix/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$prefix/state
SlurmdSpoolDir=$prefix/spool/%n
SlurmctldPidFile=$prefix/run/slurmctld.pid
SlurmdPidFile=$prefix/run/slurmd-%n.pid
SlurmctldLogFile=$prefix/log/slurmctld.log
SlurmdLogFile=$prefix/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$prefix/log/jobcomp.txt
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
EnforcePartLimits=ALL
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=3600
KillWait=5
SlurmdTimeout=10
MessageTimeout=5
MailProg=/bin/true
MpiDefault=none
JobRequeue=0
MaxArraySize=${SCALEFUZZ_SLURM_MAX_ARRAY_SIZE:-1001}
MaxJobCount=20000
EOF
  local i=1
  for n in "${nodes[@]}"; do
    echo "NodeName=$n NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + i)) CPUs=64 RealMemory=1000 State=UNKNOWN" >>"$conf"
    i=$((i + 1))
  done
  echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES" >>"$conf"
}

start_slurmd() {
  local n="$1"
  pid_alive "$(read_pid "$prefix/run/slurmd-$n.pid")" && return 0
  local i
  for ((i = 0; i < 50; i++)); do
    /usr/sbin/slurmd -N "$n" -f "$conf" || die "slurmd -N $n did not start; see $prefix/log/slurmd-$n.log"
    sleep 0.2
    pid_alive "$(read_pid "$prefix/run/slurmd-$n.pid")" && return 0
    sleep 0.2  # its port may still be held by the killed one
  done
  die "slurmd -N $n exits right after starting; see $prefix/log/slurmd-$n.log"
}

cmd_up() {
  [[ $(id -u) -eq 0 ]] || die "must run as root (slurmd, SlurmUser=root)"
  command -v slurmctld >/dev/null || die "slurmctld not installed (ci/setup.sh installs slurm-wlm munge)"
  if pid_alive "$(read_pid "$prefix/run/slurmctld.pid")"; then
    log "already up in $prefix"
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  write_config
  /usr/sbin/munged --key-file="$prefix/munge/munge.key" --socket="$prefix/munge/munge.socket" \
    --pid-file="$prefix/run/munged.pid" --log-file="$prefix/log/munged.log" \
    --seed-file="$prefix/munge/munged.seed" || die "munged did not start; see $prefix/log/munged.log"
  /usr/sbin/slurmctld -f "$conf" || die "slurmctld did not start; see $prefix/log/slurmctld.log"
  local n
  for n in "${nodes[@]}"; do start_slurmd "$n"; done
  # Ready when every node is idle (and none is drained: a failing launch drains the node).
  local i state
  for ((i = 0; i < 300; i++)); do
    state="$(sinfo -h -N -o '%N %t' 2>/dev/null | sort -u | tr '\n' ' ')"
    if [[ "$state" == "sf1 idle sf2 idle " ]]; then
      log "up in $prefix: nodes $state"
      echo "export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.1
  done
  log "nodes not idle after 30 s: $state"
  sinfo -R >&2 || true
  cmd_down
  exit 1
}

cmd_down() {
  [[ -f "$conf" ]] || { log "nothing to stop in $prefix"; rm -rf "$prefix"; return 0; }
  local ctld
  ctld="$(read_pid "$prefix/run/slurmctld.pid")"
  if pid_alive "$ctld"; then
    # scontrol shutdown leaves running jobs alone: cancel, wait, kill leftovers.
    scancel --full --quiet --signal=KILL --state=RUNNING 2>/dev/null || true
    local jobs i
    jobs="$(squeue -h -o %A 2>/dev/null | tr '\n' ' ')"
    [[ -n "${jobs// /}" ]] && scancel --quiet $jobs 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
      [[ -z "$(squeue -h -t PENDING,RUNNING,COMPLETING,SUSPENDED -o %A 2>/dev/null)" ]] && break
      sleep 0.1
    done
    local p
    for p in $(scontrol listpids 2>/dev/null | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1 }'); do
      kill -KILL "$p" 2>/dev/null || true
    done
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  local n
  for n in "${nodes[@]}"; do stop_pid "$(read_pid "$prefix/run/slurmd-$n.pid")" 10; done
  # Any slurmstepd of ours still around (it keeps its node's slurmd log open).
  for p in $(pgrep -x slurmstepd || true); do
    if ls -l "/proc/$p/fd" 2>/dev/null | grep -qF "$prefix/log/"; then kill -KILL "$p" $(descendants "$p") 2>/dev/null || true; fi
  done
  stop_pid "$ctld" 15
  stop_pid "$(read_pid "$prefix/run/munged.pid")" 5
  rm -rf "$prefix"
  log "down; $prefix removed"
}

cmd_status() {
  [[ -f "$conf" ]] || { echo "not up ($prefix)"; return 1; }
  local what pid
  for what in munged slurmctld "${nodes[@]/#/slurmd-}"; do
    pid="$(read_pid "$prefix/run/$what.pid")"
    if pid_alive "$pid"; then echo "$what pid $pid"; else echo "$what not running"; fi
  done
  sinfo -N || true
  echo "export SLURM_CONF=$conf"
}

descendants() {
  local c
  for c in $(pgrep -P "$1" || true); do echo "$c"; descendants "$c"; done
}

# A node dying: its slurmd and every job step it started are SIGKILLed.
cmd_kill_node() {
  local n="$node_arg" pid p
  pid="$(read_pid "$prefix/run/slurmd-$n.pid")"
  pid_alive "$pid" || die "slurmd of node $n is not running"
  kill -KILL "$pid"
  for p in $(pgrep -x slurmstepd || true); do
    # A node's slurmstepd keeps that node's slurmd log open.
    if ls -l "/proc/$p/fd" 2>/dev/null | grep -qF "$prefix/log/slurmd-$n.log"; then
      kill -KILL "$p" $(descendants "$p") 2>/dev/null || true
    fi
  done
  log "node $n killed (slurmd pid $pid)"
}

case "$cmd" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  kill-node) cmd_kill_node ;;
  start-node) start_slurmd "$node_arg" ;;
  *) echo "usage: $0 up|down|status [DIR] | kill-node|start-node NODE [DIR]" >&2; exit 2 ;;
esac
