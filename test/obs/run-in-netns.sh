#!/usr/bin/env bash
# The real-OBS tier (issue #38.1): run a driver command against a real, seeded, headless OBS Studio, all inside a private
# network namespace (loopback only) and PID namespace.
#
#   run-in-netns.sh [--keep] [--port N] [--format mkv|mp4] [--no-obs] [--ready-timeout S] -- CMD [ARGS...]
#
# What it does:
#   1. checks the prerequisites (obs with obs-websocket, Xvfb, ffmpeg, ffprobe, unshare, ip, node)
#   2. makes a run folder (mktemp) and seeds OBS's config there (seed.sh): temporary HOME/XDG_CONFIG_HOME
#   3. re-executes itself under `unshare --net --pid --fork --kill-child --mount-proc`, where it
#      brings `lo` up, starts Xvfb (-displayfd, abstract socket only, no lock file in /tmp), starts OBS
#      (obs-ctl.sh start) and waits for its websocket, then runs CMD with:
#        OBS_WS_URL OBS_WS_PASSWORD OBS_WS_PORT OBS_RECORD_DIR OBS_RUN_DIR OBS_CTL OBS_PROFILE
#        OBS_COLLECTION OBS_REC_FORMAT OBS_READY_SECONDS DISPLAY
#   4. on exit (normal, error, Ctrl-C, SIGTERM) stops OBS and Xvfb; the PID namespace guarantees that
#      nothing it started survives (when its first process ends the kernel kills the rest);
#      removes the run folder unless --keep was given or CMD failed.
# Exit status: CMD's, or 2 (usage), 3 (missing prerequisite), 4 (OBS/Xvfb did not come up).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ME=$HERE/$(basename "${BASH_SOURCE[0]}")

log() { printf '[run-in-netns %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { local code=$1; shift; log "ERROR: $*"; exit "$code"; }

# ---------------------------------------------------------------- inner: inside the namespaces
if [[ ${1:-} == --inner ]]; then
  shift
  : "${OBS_RUN_DIR:?}"
  set -a; source "$OBS_RUN_DIR/run.env"; set +a
  XVFB_PID= CMD_PID=
  cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    if [[ -n $CMD_PID ]]; then kill -TERM "$CMD_PID" 2>/dev/null || true; wait "$CMD_PID" 2>/dev/null || true; fi
    "$HERE/obs-ctl.sh" stop >/dev/null 2>&1 || true
    if [[ -n $XVFB_PID ]]; then kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; fi
    exit "$rc"
  }
  # This shell is PID 1 of the new PID namespace: it gets only the signals it has handlers for,
  # and it runs a handler only between commands, so CMD runs in the background and we `wait`.
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP

  ip link set lo up || die 4 "cannot bring lo up in the new network namespace"
  # Xvfb: -displayfd picks a free display and writes its number when it accepts connections;
  # -nolisten unix leaves only the abstract socket, which is private to this network namespace;
  # -nolock keeps /tmp/.X*-lock out of the shared /tmp. So the display is :0 in every run.
  exec {dfd}>"$OBS_RUN_DIR/display"
  Xvfb -displayfd "$dfd" -screen 0 1024x768x24 -nolisten tcp -nolisten unix -nolock -nocursor \
    >"$OBS_RUN_DIR/logs/xvfb.log" 2>&1 &
  XVFB_PID=$!
  exec {dfd}>&-
  for _ in $(seq 100); do [[ -s $OBS_RUN_DIR/display ]] && break; kill -0 "$XVFB_PID" 2>/dev/null || break; sleep 0.05; done
  [[ -s $OBS_RUN_DIR/display ]] || die 4 "Xvfb did not start: $(tail -5 "$OBS_RUN_DIR/logs/xvfb.log")"
  export DISPLAY=:$(head -1 "$OBS_RUN_DIR/display")
  log "Xvfb up on $DISPLAY"

  if [[ $NO_OBS != 1 ]]; then
    "$HERE/obs-ctl.sh" start >/dev/null
    if ! ready=$("$HERE/obs-ctl.sh" wait-ready "$READY_TIMEOUT"); then
      log "last lines of the OBS log:"; tail -20 "$OBS_RUN_DIR"/logs/obs-1.log >&2 || true
      die 4 "OBS did not come up"
    fi
    export OBS_READY_SECONDS=$ready
    log "OBS websocket up on port $OBS_WS_PORT after ${ready}s"
  fi
  export OBS_WS_URL=ws://127.0.0.1:$OBS_WS_PORT OBS_CTL=$HERE/obs-ctl.sh
  "$@" <&0 &
  CMD_PID=$!
  set +e
  wait "$CMD_PID"
  rc=$?
  set -e
  CMD_PID=
  exit "$rc"
fi

# ---------------------------------------------------------------- outer
usage() { sed -n '2,20p' "$ME" >&2; exit 2; }
KEEP=0 PORT=${OBS_WS_PORT:-4455} FORMAT=${OBS_REC_FORMAT:-mkv} NO_OBS=0 READY_TIMEOUT=60
while [[ $# -gt 0 ]]; do
  case $1 in
    --keep) KEEP=1 ;;
    --port) PORT=$2; shift ;;
    --format) FORMAT=$2; shift ;;
    --no-obs) NO_OBS=1 ;;
    --ready-timeout) READY_TIMEOUT=$2; shift ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) break ;;
  esac
  shift
done
[[ $# -gt 0 ]] || usage

missing=()
for c in obs Xvfb ffmpeg ffprobe unshare ip node awk; do command -v "$c" >/dev/null || missing+=("$c"); done
if (( ${#missing[@]} )); then
  die 3 "missing: ${missing[*]} (Debian: apt-get install obs-studio xvfb ffmpeg util-linux iproute2; Node 20)"
fi
find /usr/lib* /usr/local/lib* -path '*obs-plugins*' -name 'obs-websocket.so' -print -quit 2>/dev/null | grep -q . ||
  die 3 "OBS has no obs-websocket plugin (OBS >= 28 bundles it; Debian: obs-plugins)"
unshare --net --pid --fork --mount-proc true 2>/dev/null ||
  die 3 "cannot create network+PID namespaces (needs root or CAP_SYS_ADMIN; try 'unshare -rn true' to test user namespaces)"
[[ $FORMAT =~ ^(mkv|mp4|mov|flv|ts)$ ]] || die 2 "--format: mkv, mp4, mov, flv or ts"

RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/obs-tier.XXXXXX")
mkdir -p "$RUN_DIR/logs" "$RUN_DIR/home"
cat >"$RUN_DIR/run.env" <<EOF
OBS_RUN_DIR=$RUN_DIR
OBS_PROFILE=${OBS_PROFILE:-Tier}
OBS_COLLECTION=${OBS_COLLECTION:-Tier}
OBS_WS_PORT=$PORT
OBS_WS_PASSWORD=${OBS_WS_PASSWORD:-tier-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')}
OBS_RECORD_DIR=$RUN_DIR/recordings
OBS_REC_FORMAT=$FORMAT
OBS_TONE_FILE=$RUN_DIR/media/tone.wav
NO_OBS=$NO_OBS
READY_TIMEOUT=$READY_TIMEOUT
EOF
( set -a; source "$RUN_DIR/run.env"; set +a; "$HERE/seed.sh" "$RUN_DIR/config" ) >&2 || die 3 "seeding failed"
log "run folder $RUN_DIR"

# unshare --fork ignores SIGINT/SIGTERM while it waits; on a signal we pass SIGTERM to the inner shell
# (the namespace's PID 1, which stops CMD, OBS and Xvfb), and after 5 s SIGKILL unshare: with
# --kill-child its child then dies, and with it every process of the PID namespace.
UNSHARE_PID=
on_signal() {
  local sig=$1
  log "got SIG$sig, stopping the run"
  if [[ -n $UNSHARE_PID ]]; then
    local inner; inner=$(cat "/proc/$UNSHARE_PID/task/$UNSHARE_PID/children" 2>/dev/null || true)
    for p in $inner; do kill -TERM "$p" 2>/dev/null || true; done
    for _ in $(seq 50); do kill -0 "$UNSHARE_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$UNSHARE_PID" 2>/dev/null || true
  fi
}
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP
set +e
OBS_RUN_DIR=$RUN_DIR unshare --net --pid --fork --kill-child --mount-proc -- "$ME" --inner "$@" <&0 &
UNSHARE_PID=$!
wait "$UNSHARE_PID"; rc=$?
# `wait` returns early when a trapped signal arrives: wait again until unshare is really gone
while kill -0 "$UNSHARE_PID" 2>/dev/null; do wait "$UNSHARE_PID"; rc=$?; done
trap - INT TERM HUP
set -e
if [[ $KEEP == 1 || $rc != 0 ]]; then
  log "kept $RUN_DIR (logs/, recordings/, config/)"
else
  rm -rf "$RUN_DIR"
fi
log "exit $rc"
exit "$rc"
