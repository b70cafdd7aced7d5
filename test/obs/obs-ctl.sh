#!/usr/bin/env bash
# Control the seeded OBS of one run, from inside the run's namespace (run-in-netns.sh exports
# OBS_CTL=<this file> and OBS_RUN_DIR; a driver calls it to kill and restart OBS).
#
#   obs-ctl.sh start            start OBS (returns at once; prints its pid)
#   obs-ctl.sh wait-ready [S]   wait until the websocket port accepts a connection (default 60 s); prints seconds waited
#   obs-ctl.sh stop             SIGTERM, then SIGKILL after 5 s (OBS 29 on Linux has no SIGTERM handler: it dies at once)
#   obs-ctl.sh kill9            SIGKILL, and wait until it is gone
#   obs-ctl.sh reseed [profile|all]   rewrite the seeded config (default: profile, i.e. basic.ini)
#   obs-ctl.sh pid | alive      print the pid / exit 0 if OBS is running
#
# OBS is started with --multi (no "OBS is already running" dialog; on OBS 30+ it also skips the
# unclean-shutdown / safe-mode check) and --disable-shutdown-check (OBS 30+; OBS 29 ignores it).
# Needs: OBS_RUN_DIR (holds config/, recordings/, logs/, obs.pid, run.env), DISPLAY.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${OBS_RUN_DIR:?obs-ctl.sh: OBS_RUN_DIR is not set (run it through run-in-netns.sh)}"
# shellcheck disable=SC1091
source "$OBS_RUN_DIR/run.env"     # OBS_PROFILE OBS_COLLECTION OBS_WS_PORT OBS_WS_PASSWORD OBS_RECORD_DIR ...
PIDFILE=$OBS_RUN_DIR/obs.pid
LOGDIR=$OBS_RUN_DIR/logs
mkdir -p "$LOGDIR"

die() { echo "obs-ctl.sh: $*" >&2; exit 1; }
pid() { [[ -s $PIDFILE ]] && cat "$PIDFILE"; }
alive() {  # a zombie is not alive
  local p; p=$(pid) || return 1
  [[ -r /proc/$p/stat ]] || return 1
  local state; state=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null) || return 1
  [[ $state != Z && $state != X ]]
}
port_open() { (exec 5<>"/dev/tcp/127.0.0.1/$OBS_WS_PORT") 2>/dev/null; }
now() { date +%s.%N; }
since() { awk -v a="$(now)" -v b="$1" 'BEGIN{printf "%.3f\n", a-b}'; }
elapsed_over() { awk -v a="$(now)" -v b="$1" -v l="$2" 'BEGIN{exit !(a-b>l)}'; }

cmd=${1:-}; shift || true
case $cmd in
start)
  [[ -n ${DISPLAY:-} ]] || die "DISPLAY is not set"
  if alive; then die "OBS is already running (pid $(pid))"; fi
  n=$(( $(ls "$LOGDIR" | grep -c '^obs-' || true) + 1 ))
  log=$LOGDIR/obs-$n.log
  mkdir -p "$OBS_RUN_DIR/xdg-runtime" && chmod 700 "$OBS_RUN_DIR/xdg-runtime"
  # A clean environment: OBS sees only the temporary HOME/XDG_CONFIG_HOME, the display and software GL.
  env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$OBS_RUN_DIR/home" XDG_CONFIG_HOME="$OBS_RUN_DIR/config" \
    XDG_RUNTIME_DIR="$OBS_RUN_DIR/xdg-runtime" DISPLAY="$DISPLAY" LANG=C.UTF-8 \
    LIBGL_ALWAYS_SOFTWARE=1 LP_NUM_THREADS="${OBS_LP_THREADS:-2}" \
    nice -n "${OBS_NICE:-0}" obs --multi --disable-shutdown-check --disable-missing-files-check \
      --profile "$OBS_PROFILE" --collection "$OBS_COLLECTION" ${OBS_EXTRA_ARGS:-} \
      </dev/null >"$log" 2>&1 &
  echo $! >"$PIDFILE"
  now >"$OBS_RUN_DIR/obs.started"
  echo $!
  ;;
wait-ready)
  limit=${1:-60}; t0=$(now)
  while ! port_open; do
    alive || die "OBS exited before its websocket came up; see the end of $(ls -t "$LOGDIR"/obs-*.log | head -1)"
    if elapsed_over "$t0" "$limit"; then die "websocket port $OBS_WS_PORT not open after ${limit}s"; fi
    sleep 0.05
  done
  since "$(cat "$OBS_RUN_DIR/obs.started")"
  ;;
stop|kill9)
  alive || exit 0
  p=$(pid)
  if [[ $cmd == stop ]]; then
    kill -TERM "$p" 2>/dev/null || true
    for _ in $(seq 50); do alive || break; sleep 0.1; done
  fi
  alive && kill -KILL "$p" 2>/dev/null || true
  for _ in $(seq 100); do alive || break; sleep 0.05; done
  alive && die "OBS (pid $p) did not die"
  wait "$p" 2>/dev/null || true
  ;;
reseed)
  what=${1:-profile}
  ( set -a; source "$OBS_RUN_DIR/run.env"; set +a; "$HERE/seed.sh" --only "$what" "$OBS_RUN_DIR/config" >/dev/null )
  echo "reseeded $what"
  ;;
pid) pid ;;
alive) alive ;;
*) sed -n '2,14p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
esac
