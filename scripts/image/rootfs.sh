#!/usr/bin/env bash
# The flashable image's root file system, before the cabinet: Debian 13 arm64 with the
# Raspberry Pi 4's firmware, the kernel, the read-only root's overlay and what the cabinet
# needs from Debian, as a tarball made by mmdebstrap under qemu-user. Cached under
# CACHE/rootfs-KEY.tar, KEY a hash of this file: the same tarball is the same input to
# every image built from it (its package list beside it, as KEY.packages). Prints its path.
#
#     scripts/image/rootfs.sh [CACHE]     (as root; docs/image.md)
set -euo pipefail

CACHE=${1:-${IMAGE_CACHE:-/var/cache/spit-cabinet/image}}
MIRROR=${IMAGE_MIRROR:-http://deb.debian.org/debian}
SUITE=trixie
# The tarball's own time: every file newer than this is stamped with it. A constant, not the
# commit's time, so the cabinet's changes reuse the cached tarball.
ROOTFS_EPOCH=1764979200 # 2025-12-06T00:00:00Z
# The network a fleet's cabinet reports over: systemd-networkd (in systemd) takes an address
# on the wired port by DHCP (build.sh), systemd-resolved the names (a join file's host),
# systemd-timesyncd the time (a Pi 4 has no clock; a signed release's expiry is checked).
# zstd: initramfs-tools compresses the initramfs with it (initramfs.conf's COMPRESS), and
# falls back to gzip, three times slower for the kernel to unpack, where it is missing.
PACKAGES=(
  systemd-sysv udev kmod util-linux fdisk e2fsprogs procps ca-certificates passwd
  linux-image-arm64 initramfs-tools busybox raspi-firmware overlayroot zstd
  systemd-resolved systemd-timesyncd
  python3 python3-venv
  libdrm2 libgbm1 libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri libasound2 alsa-utils
)
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH

say() { printf '== %s\n' "$*" >&2; }

key=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)
out=$CACHE/rootfs-$key.tar
if [[ -f $out ]]; then
  say "cached root file system: $out"
  printf '%s\n' "$out"
  exit 0
fi
mkdir -p "$CACHE"
if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
  grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register
fi
say "root file system: Debian $SUITE arm64 (about 20 minutes under emulation)"
start=$SECONDS
IFS=,
# The hooks run in mmdebstrap's shell, with the root's path as $1.
# shellcheck disable=SC2016
SOURCE_DATE_EPOCH=$ROOTFS_EPOCH mmdebstrap --arch=arm64 --variant=apt --include="${PACKAGES[*]}" \
  --components=main,non-free-firmware --format=tar \
  --customize-hook='rm -f "$1/etc/resolv.conf" "$1/etc/hostname"' \
  --customize-hook='chroot "$1" dpkg-query -W -f "\${Package} \${Version}\n" >"$1/tmp/packages"' \
  --customize-hook='copy-out /tmp/packages '"$CACHE/" \
  --customize-hook='rm -f "$1/tmp/packages"' \
  "$SUITE" "$out.part" "$MIRROR" >&2
unset IFS
mv "$CACHE/packages" "$CACHE/rootfs-$key.packages"
mv "$out.part" "$out"
# Tarballs of older scripts are never used again.
find "$CACHE" -maxdepth 1 -name 'rootfs-*' ! -name "rootfs-$key.*" -delete
say "root file system done in $((SECONDS - start)) s: $out"
printf '%s\n' "$out"
