#!/usr/bin/env bash
# Boot the flashable image in QEMU's arm64 virt machine, as a Pi 4 would boot it but for
# the firmware: QEMU starts the kernel and initramfs read from the image's own boot
# partition, with its own command line, the journal forwarded to the serial console. The
# card is IMAGE (raw, uncompressed) under a copy-on-write layer of SIZE (default 4G: the
# data partition fills it on the first boot). Leaves QEMU running in the background and
# prints RUN, which holds console.log, monitor.sock and vnc.sock (docs/image.md).
#
#     scripts/image/qemu-boot.sh IMAGE RUN [SIZE]
set -euo pipefail

image=$1 run=$2 size=${3:-4G}
mkdir -p "$run"
if [[ ! -f $run/disk.qcow2 ]]; then
  qemu-img create -q -f qcow2 -F raw -b "$(readlink -f "$image")" "$run/disk.qcow2" "$size"
fi
# The boot partition starts at 4 MiB.
for file in vmlinuz initrd.img cmdline.txt; do
  mcopy -o -i "$image@@4M" "::$file" "$run/$file"
done
cmdline="$(cat "$run/cmdline.txt") console=ttyAMA0 systemd.journald.forward_to_console=1"
# shellcheck disable=SC2054 # QEMU's options are comma-separated lists
qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 \
  -kernel "$run/vmlinuz" -initrd "$run/initrd.img" -append "$cmdline" \
  -drive "file=$run/disk.qcow2,if=virtio,format=qcow2" \
  -device bochs-display,romfile= -display none -vnc "unix:$run/vnc.sock" \
  -nic none -serial "file:$run/console.log" \
  -monitor "unix:$run/monitor.sock,server=on,wait=off" \
  -pidfile "$run/qemu.pid" -daemonize
printf '%s\n' "$run"
