#!/usr/bin/env bash
# Boot the virtual Pi from an image made by image.sh, on a copy-on-write layer of its own,
# and leave it running in the background. Prints the run folder, which holds:
#
#   agent.sock    the guest agent (one shell command a line; see guest/virtual-pi-agent)
#   monitor.sock  QEMU's monitor (screendump for a screenshot, system_reset, quit)
#   vnc.sock      the screen, for a VNC viewer
#   console.log   the guest's serial console
#
# The guest's USB serial adapter (/dev/ttyUSB0 inside) is wired to LED_TTY on the host: the
# light board's firmware simulator's pty (python -m firmware_bridge.sim prints it).
#
#     scripts/virtual-pi/boot.sh IMAGE_DIR RUN_DIR LED_TTY [USB_STICK_IMAGE]
set -euo pipefail

image=$1 run=$2 led=$3 stick=${4:-}
mkdir -p "$run"
if [[ ! -f $run/disk.qcow2 ]]; then
  qemu-img create -q -f qcow2 -F raw -b "$image/root.img" "$run/disk.qcow2"
fi
# shellcheck disable=SC2054 # QEMU's options are comma-separated lists
args=(
  -M virt -cpu cortex-a72 -smp 2 -m 2048
  -kernel "$image/vmlinuz" -initrd "$image/initrd.img"
  -append "root=/dev/vda rw console=ttyAMA0 loglevel=4"
  -drive "file=$run/disk.qcow2,if=virtio,format=qcow2"
  # The screen: a plain KMS display (bochs-display, /dev/dri/card0 in the guest, no 3D: the
  # guest's Mesa renders GLES in software), whose memory screendump reads. A VNC server on
  # a socket lets a person look (docs/virtual-pi.md) and gives QEMU a display to refresh.
  -device bochs-display,romfile= -display none -vnc "unix:$run/vnc.sock"
  # USB: the light board's serial adapter (host pty) and, when given, a stick.
  -device qemu-xhci -device usb-serial,chardev=led -chardev "serial,id=led,path=$led"
  # The agent's channel. No network: everything the guest installs comes on the stick.
  -device virtio-serial-pci -device virtserialport,chardev=agent,name=agent
  -chardev "socket,id=agent,path=$run/agent.sock,server=on,wait=off"
  -nic none
  -serial "file:$run/console.log"
  -monitor "unix:$run/monitor.sock,server=on,wait=off"
  -pidfile "$run/qemu.pid" -daemonize
)
if [[ -n $stick ]]; then
  # shellcheck disable=SC2054
  args+=(-drive "file=$stick,if=none,id=stick,format=raw" -device usb-storage,drive=stick)
fi
qemu-system-aarch64 "${args[@]}"
printf '%s\n' "$run"
