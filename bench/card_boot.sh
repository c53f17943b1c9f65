#!/usr/bin/env bash
# The flashed card's boot in the virtual Pi, alone (issue 33): boots a card (.img or
# .img.xz from scripts/image/build.sh) with no settings and no fleet, lets its first boot
# make the data partition, then reboots it BOOTS times (default 3) and times each boot:
# systemd's kernel and userspace, the moments the cabinet waited for (sysinit.target,
# basic.target, the data partition's mounts, the unit's start) and kernel -> first attract
# frame (the unit's READY=1). Prints one JSON object, and leaves in RUN the files
# bench/boot_model.py reads (for the last boot), with each boot's journal and dmesg.
#
#     sudo bench/card_boot.sh CARD [RUN_DIR] [BOOTS]
#
# As root (the virtual Pi's image and QEMU, as scripts/virtual-pi/run.sh). About 3 minutes
# for the first boot and 2 for each reboot on a 2-core host; the guest is emulated (TCG),
# so compare two cards by alternating them in one session (bench/README.md).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
VPI=$REPO/scripts/virtual-pi
card=${1:?give a card image (.img or .img.xz)}
RUN=${2:-$(mktemp -d "${TMPDIR:-/tmp}/card-boot.XXXXXX")}
BOOTS=${3:-3}
PYTHON=${PYTHON:-$REPO/.venv/bin/python}
[[ -x $PYTHON ]] || PYTHON=python3
export PYTHON
mkdir -p "$RUN"
say() { printf '== %s\n' "$*" >&2; }
fail() {
  printf 'card-boot: %s\n' "$*" >&2
  exit 1
}
stop_all() {
  if [[ -S $RUN/monitor.sock ]]; then
    printf 'quit\n' | socat - "UNIX-CONNECT:$RUN/monitor.sock" >/dev/null 2>&1 || true
  fi
  if [[ -f $RUN/led.pid ]]; then
    kill "$(cat "$RUN/led.pid")" 2>/dev/null || true
  fi
}
trap stop_all EXIT
agent() { "$PYTHON" "$VPI/agent.py" "$RUN" "$@"; }

image=$("$VPI/image.sh")
"$VPI/card-kit.sh" "$image" "$RUN" || fail "no test kit"
case $card in
  *.xz) xz -dc "$card" >"$RUN/card.img" ;;
  *) cp --sparse=always "$card" "$RUN/card.img" ;;
esac
export VIRTUAL_PI_CARD=$RUN/card.img # boot.sh boots this card, not the virtual Pi's image
rm -f "$RUN/led" "$RUN/disk.qcow2" "$RUN/boots.jsonl"
"$PYTHON" -m firmware_bridge.sim --link "$RUN/led" >"$RUN/led.log" 2>&1 &
echo $! >"$RUN/led.pid"
for _ in $(seq 100); do [[ -e $RUN/led ]] && break; sleep 0.1; done
[[ -e $RUN/led ]] || fail "the firmware simulator did not start: $(cat "$RUN/led.log")"

# Attract, drawn: the unit said READY=1 (after its first frame) and is still running.
ready() {
  agent "[ \"\$(systemctl show -p ActiveEnterTimestampMonotonic --value spit-cabinet)\" != 0 ] && systemctl is-active -q spit-cabinet" --timeout 30
}
wait_ready() {
  for _ in $(seq 150); do ready && return 0; sleep 2; done
  fail "the cabinet did not reach attract: $(agent 'journalctl -b -u spit-cabinet --no-pager | tail -n 20')"
}
# One boot's figures, once systemd says the boot has finished.
measure() { # N
  "$VPI/boot-figures.sh" "$RUN" "$RUN/boot-$1"
  "$PYTHON" "$HERE/card_boot_figures.py" "$RUN/boot-$1" "$1" >>"$RUN/boots.jsonl"
}

say "first boot: the data partition made, then attract"
start=$SECONDS
"$VPI/boot.sh" "$image" "$RUN" "$(readlink -f "$RUN/led")" >/dev/null
wait_ready
say "first boot: attract after $((SECONDS - start)) s"
measure 0
for n in $(seq "$BOOTS"); do
  say "reboot $n of $BOOTS"
  "$VPI/reboot.sh" "$RUN" || fail "the guest did not reboot"
  wait_ready
  measure "$n"
done
# What bench/boot_model.py reads, from the last boot.
last=$RUN/boot-$BOOTS
cp "$last"/{boot-time.txt,critical-chain.txt,critical-chain-mounts.txt,blame.txt,vda-stat.txt} "$RUN/"
"$PYTHON" -c 'import json,sys; print("kernel_to_first_frame", json.loads(sys.stdin.readlines()[-1])["kernel_to_first_frame_s"])' \
  <"$RUN/boots.jsonl" >"$RUN/timings.txt"
agent "/opt/spit-cabinet/current/venv/bin/python /media/kit/boot_model.py --guest" >"$RUN/guest-loop.json" || true
"$PYTHON" "$HERE/card_boot_figures.py" --summary "$RUN/boots.jsonl" "$card"
