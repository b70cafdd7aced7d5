#!/usr/bin/env bash
# Seed an OBS Studio config tree for a headless run.
#
#   seed.sh [--only profile|all] CONFIG_HOME
#
# CONFIG_HOME is what OBS gets as XDG_CONFIG_HOME; this writes CONFIG_HOME/obs-studio/:
#   global.ini                                  first-run/wizard keys, window/tray keys, [OBSWebSocket] (OBS <= 29)
#   basic/profiles/$OBS_PROFILE/basic.ini       640x360@30, Simple output, x264 ultrafast, record folder
#   basic/scenes/$OBS_COLLECTION.json           scene "Main": Background (black colour), Tone (media source), Mark (white, hidden)
#   plugin_config/obs-websocket/config.json     obs-websocket >= 5.3 (OBS 30+) settings
# --only profile rewrites basic.ini alone (what a "reseed after a crash" does).
#
# Settings (environment, with defaults):
#   OBS_PROFILE=Tier OBS_COLLECTION=Tier OBS_WS_PORT=4455 OBS_WS_PASSWORD=tier-password
#   OBS_RECORD_DIR=CONFIG_HOME/../recordings OBS_REC_FORMAT=mkv OBS_NO_SPACE=false
#   OBS_FILENAME_FORMAT='%CCYY-%MM-%DD %hh-%mm-%ss'  OBS_TONE_FILE=CONFIG_HOME/../media/tone.wav (made with ffmpeg if absent)
#   OBS_LAST_VERSION (General/LastVersion; default: computed from `obs --version`)
set -euo pipefail
shopt -u patsub_replacement 2>/dev/null || true   # bash 5.2: keep '&' literal in ${x//pat/rep}

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SEED_DIR=${OBS_SEED_DIR:-$HERE/seed}
only=all
if [[ ${1:-} == --only ]]; then only=$2; shift 2; fi
[[ $# -eq 1 ]] || { echo "usage: seed.sh [--only profile|all] CONFIG_HOME" >&2; exit 2; }
mkdir -p "$1"
CONFIG_HOME=$(cd "$1" && pwd)
BASE=$(dirname "$CONFIG_HOME")

: "${OBS_PROFILE:=Tier}" "${OBS_COLLECTION:=Tier}" "${OBS_WS_PORT:=4455}" "${OBS_WS_PASSWORD:=tier-password}"
: "${OBS_RECORD_DIR:=$BASE/recordings}" "${OBS_REC_FORMAT:=mkv}" "${OBS_NO_SPACE:=false}"
: "${OBS_FILENAME_FORMAT:=%CCYY-%MM-%DD %hh-%mm-%ss}" "${OBS_TONE_FILE:=$BASE/media/tone.wav}"

die() { echo "seed.sh: $*" >&2; exit 1; }
for v in OBS_PROFILE OBS_COLLECTION OBS_WS_PASSWORD OBS_RECORD_DIR OBS_TONE_FILE OBS_FILENAME_FORMAT; do
  [[ ${!v} != *[\"\\$'\n']* ]] || die "$v must not contain a quote, a backslash or a newline"
done
[[ $OBS_WS_PORT =~ ^[0-9]+$ ]] || die "OBS_WS_PORT must be a number"
[[ $OBS_PROFILE =~ ^[A-Za-z0-9._-]+$ && $OBS_COLLECTION =~ ^[A-Za-z0-9._-]+$ ]] || die "profile/collection: use [A-Za-z0-9._-]"

if [[ -z ${OBS_LAST_VERSION:-} ]]; then
  # "OBS Studio - 29.0.2.1-1+b1 (linux)" -> (29<<24)|(0<<16)|2, the form OBS keeps in General/LastVersion
  ver=$(obs --version 2>/dev/null | sed -n 's/.* - \([0-9]*\)\.\([0-9]*\)\.\([0-9]*\).*/\1 \2 \3/p' | head -1)
  [[ -n $ver ]] || die "cannot read the OBS version from 'obs --version' (set OBS_LAST_VERSION)"
  read -r ma mi pa <<<"$ver"
  OBS_LAST_VERSION=$(( (ma << 24) | (mi << 16) | pa ))
fi

render() {  # render TEMPLATE OUT
  local t; t=$(<"$SEED_DIR/$1")
  local k
  for k in OBS_PROFILE OBS_COLLECTION OBS_WS_PORT OBS_WS_PASSWORD OBS_RECORD_DIR OBS_REC_FORMAT \
           OBS_NO_SPACE OBS_FILENAME_FORMAT OBS_TONE_FILE OBS_LAST_VERSION; do
    t=${t//@@$k@@/${!k}}
  done
  [[ $t != *@@*@@* ]] || die "unfilled placeholder in $1"
  mkdir -p "$(dirname "$2")"
  printf '%s\n' "$t" >"$2.tmp" && mv "$2.tmp" "$2"
}

obs_dir=$CONFIG_HOME/obs-studio
render basic.ini.tmpl "$obs_dir/basic/profiles/$OBS_PROFILE/basic.ini"
mkdir -p "$OBS_RECORD_DIR"
if [[ $only == all ]]; then
  render global.ini.tmpl "$obs_dir/global.ini"
  render scenes.json.tmpl "$obs_dir/basic/scenes/$OBS_COLLECTION.json"
  render obs-websocket-config.json.tmpl "$obs_dir/plugin_config/obs-websocket/config.json"
  if [[ ! -s $OBS_TONE_FILE ]]; then
    mkdir -p "$(dirname "$OBS_TONE_FILE")"
    # 10 s of 440 Hz (lavfi sine: amplitude 1/8, about -18 dBFS peak), 48 kHz stereo; the media source loops it.
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=10" \
      -ac 2 -c:a pcm_s16le "$OBS_TONE_FILE" || die "ffmpeg could not make $OBS_TONE_FILE"
  fi
elif [[ $only != profile ]]; then
  die "--only takes profile or all"
fi
echo "seeded $obs_dir (profile $OBS_PROFILE, collection $OBS_COLLECTION, port $OBS_WS_PORT, records to $OBS_RECORD_DIR)"
