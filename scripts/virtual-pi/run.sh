#!/usr/bin/env bash
# The virtual Pi, end to end: build (or reuse) the image, put the cabinet's wheel and the
# wheels it needs on a virtual USB stick, boot the guest with the light board's firmware
# simulator on its USB serial adapter, install with the real deploy/install.sh from the
# stick as an operator would, start the unit (kmsdrm, the gpio backend on the simulated
# chip), and check it reaches attract mode and the screen is not black.
#
#     sudo scripts/virtual-pi/run.sh [RUN_DIR]          (docs/virtual-pi.md)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
RUN=${1:-$(mktemp -d "${TMPDIR:-/tmp}/virtual-pi-run.XXXXXX")}
PYTHON=${PYTHON:-python3}
mkdir -p "$RUN"
say() { printf '== %s\n' "$*" >&2; }
fail() {
  printf 'virtual-pi: %s\n' "$*" >&2
  exit 1
}

# VIRTUAL_PI_IMAGE: an image folder made earlier by image.sh (working on these scripts).
image=${VIRTUAL_PI_IMAGE:-$("$HERE/image.sh")}

say "USB stick: the cabinet's wheel, the wheels it needs for Python 3.13 on aarch64, deploy/"
stick=$RUN/stick
rm -rf "$stick"
mkdir -p "$stick/wheels"
"$PYTHON" -m pip wheel --quiet --no-deps --wheel-dir "$stick/wheels" "$REPO"
platforms=(--platform manylinux2014_aarch64)
for v in $(seq 17 36); do platforms+=(--platform "manylinux_2_${v}_aarch64"); done
# What the cabinet needs, read from its own wheel's metadata (with the flash extra).
cabinet_wheel=$(find "$stick/wheels" -name 'spit_cabinet-*.whl' -print -quit)
"$PYTHON" -m pip download --quiet --only-binary=:all: "${platforms[@]}" --python-version 3.13 \
  --dest "$stick/wheels" "${cabinet_wheel}[flash]"
cp "$image"/wheels/*.whl "$stick/wheels/"
cp -r "$REPO/deploy" "$stick/deploy"
rm -f "$RUN/stick.img"
mkfs.ext4 -q -L STICK -d "$stick" "$RUN/stick.img" 512M

say "the light board: the firmware simulator on a pty"
"$PYTHON" -m firmware_bridge.sim --link "$RUN/led" >"$RUN/led.log" 2>&1 &
echo $! >"$RUN/led.pid"
for _ in $(seq 100); do [[ -e $RUN/led ]] && break; sleep 0.1; done
[[ -e $RUN/led ]] || fail "the firmware simulator did not start: $(cat "$RUN/led.log")"

say "boot"
start=$SECONDS
"$HERE/boot.sh" "$image" "$RUN" "$(readlink -f "$RUN/led")" "$RUN/stick.img" >/dev/null
agent() { "$PYTHON" "$HERE/agent.py" "$RUN" "$@"; }
agent "uname -r" || fail "the guest did not come up (console: $RUN/console.log)"
say "guest up in $((SECONDS - start)) s"
agent "cat /run/virtual-pi.env && ls /dev/ttyUSB0 /dev/dri/card0" || fail "gpio-sim, ttyUSB0 or the GPU missing"

say "install with deploy/install.sh from the stick"
agent "mkdir -p /media/usb && mount /dev/disk/by-label/STICK /media/usb" || fail "no stick"
agent "/media/usb/deploy/install.sh --skip-apt --from /media/usb/wheels" --timeout 1800 ||
  fail "install.sh failed"
agent "systemctl start spit-cabinet" --timeout 300 || fail "the unit did not start"
agent "journalctl -u spit-cabinet --no-pager | tail -n 20"

say "attract mode on kmsdrm, buttons on the simulated chip"
for _ in $(seq 120); do
  if agent "journalctl -u spit-cabinet --no-pager | grep -q 'running: input gpio'"; then
    break
  fi
done
agent "journalctl -u spit-cabinet --no-pager | grep 'running: input gpio'" ||
  fail "the cabinet did not start on the gpio backend: $(agent 'journalctl -u spit-cabinet --no-pager | tail -n 30')"
agent "systemctl is-active spit-cabinet" || fail "the unit is not active"

say "screenshot"
printf 'screendump %s\n' "$RUN/screen.ppm" | socat - "UNIX-CONNECT:$RUN/monitor.sock" >/dev/null
for _ in $(seq 50); do [[ -s $RUN/screen.ppm ]] && break; sleep 0.1; done
"$PYTHON" - "$RUN/screen.ppm" <<'PY' || fail "the screen is black: $RUN/screen.ppm"
import sys
data = open(sys.argv[1], "rb").read()
# P6 header: magic, width, height, maxval, each separated by whitespace.
fields = data.split(maxsplit=4)
width, height = int(fields[1]), int(fields[2])
pixels = fields[4]
lit = sum(1 for i in range(0, len(pixels), 3 * 97) if any(pixels[i : i + 3]))
print(f"screen {width}x{height}: {lit} of {len(pixels) // (3 * 97)} sampled pixels lit")
sys.exit(0 if lit > 0 else 1)
PY
say "the virtual Pi runs the cabinet: $RUN (stop it: echo quit | socat - UNIX-CONNECT:$RUN/monitor.sock)"
