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
#
# With VIRTUAL_PI_CARD=CARD.img (a flashable image, uncompressed) the guest boots that card
# instead, as a Pi would but for the firmware: its own kernel, initramfs and cmdline.txt
# from its boot partition, the card under a copy-on-write layer of 4 GB (the first boot
# makes the data partition in the rest). The test kit (card/: the agent, the GPIO
# simulator) comes from RUN/kit.img, a second disk, started by a unit given on the kernel's
# command line, so the card itself is not changed (docs/virtual-pi.md, "The card").
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
image=$1 run=$2 led=$3 stick=${4:-}
card=${VIRTUAL_PI_CARD:-}
mkdir -p "$run"
if [[ -z $card ]]; then
  if [[ ! -f $run/disk.qcow2 ]]; then
    qemu-img create -q -f qcow2 -F raw -b "$image/root.img" "$run/disk.qcow2"
  fi
  kernel=$image/vmlinuz initrd=$image/initrd.img
  cmdline="root=/dev/vda rw console=ttyAMA0 loglevel=4"
else
  if [[ ! -f $run/disk.qcow2 ]]; then
    qemu-img create -q -f qcow2 -F raw -b "$(readlink -f "$card")" "$run/disk.qcow2" 4G
  fi
  # The boot partition starts at 4 MiB.
  for file in vmlinuz initrd.img cmdline.txt; do
    mcopy -o -i "$card@@4M" "::$file" "$run/card-$file"
  done
  kernel=$run/card-vmlinuz initrd=$run/card-initrd.img
  credential() { # name file: a systemd credential on the kernel's command line (no comments)
    printf 'systemd.set_credential_binary=%s:%s' "$1" "$(sed '/^#/d' "$2" | base64 -w0)"
  }
  cmdline="$(cat "$run/card-cmdline.txt") console=ttyAMA0 systemd.journald.forward_to_console=1"
  cmdline+=" $(credential systemd.extra-unit.gpio-sim.service "$HERE/card/gpio-sim.service")"
  cmdline+=" $(credential systemd.unit-dropin.spit-cabinet.service~virtual-pi \
    "$HERE/guest/spit-cabinet-virtual-pi.conf")"
  cmdline+=" $(credential systemd.unit-dropin.spit-cabinet.service~virtual-pi-wiring \
    "$HERE/card/spit-cabinet-wiring.conf")"
  cmdline+=" systemd.wants=gpio-sim.service"
  [[ -f $run/kit.img ]] || { echo "boot.sh: no test kit: $run/kit.img (run.sh makes it)" >&2; exit 1; }
  # The kernel takes 2048 bytes of command line on arm64, and cuts the rest off unsaid.
  if ((${#cmdline} >= 2048)); then
    echo "boot.sh: the kernel command line is ${#cmdline} bytes, over arm64's 2047" >&2
    exit 1
  fi
fi
# shellcheck disable=SC2054 # QEMU's options are comma-separated lists
args=(
  -M virt -cpu cortex-a72 -smp 2 -m 2048
  -kernel "$kernel" -initrd "$initrd" -append "$cmdline"
  -drive "file=$run/disk.qcow2,if=virtio,format=qcow2"
  # The screen: a plain KMS display (bochs-display, /dev/dri/card0 in the guest, no 3D: the
  # guest's Mesa renders GLES in software), whose memory screendump reads. A VNC server on
  # a socket lets a person look (docs/virtual-pi.md) and gives QEMU a display to refresh.
  -device bochs-display,romfile= -display none -vnc "unix:$run/vnc.sock"
  # USB: the light board's serial adapter (host pty) and, when given, a stick.
  -device qemu-xhci -device usb-serial,chardev=led -chardev "serial,id=led,path=$led"
  # The agent's channel.
  -device virtio-serial-pci -device virtserialport,chardev=agent,name=agent
  -chardev "socket,id=agent,path=$run/agent.sock,server=on,wait=off"
  -serial "file:$run/console.log"
  -monitor "unix:$run/monitor.sock,server=on,wait=off"
  -pidfile "$run/qemu.pid" -daemonize
)
if [[ -n $card ]]; then
  # shellcheck disable=SC2054
  args+=(-drive "file=$run/kit.img,if=virtio,format=raw,readonly=on")
fi
# The network: none, but for a route on the host (route.py writes RUN/route/ports: the
# fleet's address in the guest, its broker's and its release server's ports). The guest
# then has an Ethernet port (DHCP from QEMU) that reaches those two ports of the host's
# loopback (each connection through a socat of its own) and nothing else (restrict=on).
if [[ -f $run/route/ports ]]; then
  read -r fleet_host broker_port release_port <"$run/route/ports"
  nic=user,model=virtio-net-pci,restrict=on
  for port in "$broker_port" "$release_port"; do
    nic+=",guestfwd=tcp:$fleet_host:$port-cmd:socat - TCP:127.0.0.1:$port"
  done
  args+=(-nic "$nic")
else
  args+=(-nic none)
fi
if [[ -n $stick ]]; then
  # shellcheck disable=SC2054
  args+=(-drive "file=$stick,if=none,id=stick,format=raw" -device usb-storage,drive=stick)
fi
qemu-system-aarch64 "${args[@]}"
printf '%s\n' "$run"
