#!/usr/bin/env bash
# Build the virtual Pi's disk image: Debian 13 arm64 with its kernel, the kernel's GPIO
# simulator built for it, the Debian packages deploy/install.sh would fetch, and the
# guest's helpers (guest/), and an lgpio wheel built for it. Cached under CACHE/image-KEY, KEY being a hash of this file and
# guest/: a change to either builds a new image. Prints the image's folder.
#
#     scripts/virtual-pi/image.sh [CACHE]     (as root; docs/virtual-pi.md)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${1:-${VIRTUAL_PI_CACHE:-/var/cache/spit-cabinet/virtual-pi}}
MIRROR=${VIRTUAL_PI_MIRROR:-http://deb.debian.org/debian}
SUITE=trixie
# What install.sh installs on plain Debian (lgpio built from its source), the kernel and
# its headers (for the module), and what a console login needs.
PACKAGES=(
  systemd-sysv login passwd udev kmod procps util-linux ca-certificates
  linux-image-arm64 linux-headers-arm64 linux-source-6.12 build-essential
  python3 python3-venv python3-dev swig git
  libdrm2 libgbm1 libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri libasound2 alsa-utils
)
IMAGE_SIZE=6G
# Commands in the chroot (groupadd, depmod) are found where Debian puts them.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH

say() { printf '== %s\n' "$*" >&2; }

key=$( (cat "${BASH_SOURCE[0]}"; find "$HERE/guest" -type f -print0 | sort -z | xargs -0 cat) |
  sha256sum | cut -c1-16)
out=$CACHE/image-$key
if [[ -f $out/COMPLETE ]]; then
  say "cached image: $out"
  printf '%s\n' "$out"
  exit 0
fi

# arm64 programs run on this host through qemu-user (binfmt_misc), for the root file system.
if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
  grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/virtual-pi.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
start=$SECONDS
if [[ -n ${VIRTUAL_PI_ROOTFS:-} ]]; then
  # Working on this script: start from a root file system made earlier (changed in place).
  root=$VIRTUAL_PI_ROOTFS
  say "root file system: $root (VIRTUAL_PI_ROOTFS)"
else
  say "root file system: Debian $SUITE arm64 (about 20 minutes under emulation)"
  IFS=,
  mmdebstrap --arch=arm64 --variant=apt --include="${PACKAGES[*]}" "$SUITE" "$root" "$MIRROR" >&2
  unset IFS
  say "root file system done in $((SECONDS - start)) s"
fi

kernel=$(basename "$(find "$root/lib/modules" -mindepth 1 -maxdepth 1 -type d | sort -V | tail -n 1)")
say "gpio-sim for $kernel"
src=$work/gpio-sim
mkdir -p "$src"
if [[ ! -f $root/usr/src/linux-source-6.12.tar.xz ]]; then
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  chroot "$root" sh -c "apt-get update -q && apt-get install --reinstall -y -q linux-source-6.12" >&2
fi
tar -C "$src" -xJf "$root"/usr/src/linux-source-6.12.tar.xz --strip-components=3 \
  --wildcards '*/drivers/gpio/gpio-sim.c' '*/kernel/irq/irq_sim.c'
# irq_to_desc() is not exported to modules: handle the interrupt by number instead.
sed -i 's/handle_simple_irq(irq_to_desc(\([^)]*\)))/generic_handle_irq(\1)/' "$src/irq_sim.c"
grep -q 'generic_handle_irq' "$src/irq_sim.c" || { say "irq_sim.c: the change did not apply"; exit 1; }
mv "$src/gpio-sim.c" "$src/gpio-sim-main.c"
cat >"$src/Makefile" <<'EOF'
obj-m := gpio-sim.o
gpio-sim-objs := gpio-sim-main.o irq_sim.o
EOF
rm -rf "$root/tmp/gpio-sim"
cp -r "$src" "$root/tmp/gpio-sim"
chroot "$root" make -s -C "/usr/src/linux-headers-$kernel" M=/tmp/gpio-sim modules >&2
install -D -m 0644 "$root/tmp/gpio-sim/gpio-sim.ko" \
  "$root/lib/modules/$kernel/extra/gpio-sim.ko"
chroot "$root" depmod "$kernel"
rm -rf "$root/tmp/gpio-sim"
chroot "$root" apt-get purge -y -q linux-source-6.12 >&2

# lgpio for Python 3.13 has no wheel: build it here, under qemu-user (faster than in the
# guest), as install.sh would on plain Debian (PYPI=1: its bundled C library).
say "lgpio wheel"
# Its source and what building it needs are fetched here, on the host (whose pip is set up
# for this network), and built in the chroot with no network.
dl=$root/tmp/lgpio-src
mkdir -p "$dl"
"${PYTHON:-python3}" -m pip download --quiet --no-deps --no-binary :all: --dest "$dl" lgpio >&2
"${PYTHON:-python3}" -m pip download --quiet --only-binary :all: --dest "$dl" setuptools wheel >&2
chroot "$root" sh -c 'python3 -m venv /tmp/lgpio-venv &&
  PYPI=1 /tmp/lgpio-venv/bin/pip wheel --quiet --no-index --find-links /tmp/lgpio-src \
    --no-deps -w /tmp/lgpio-wheel /tmp/lgpio-src/lgpio-*.tar.gz' >&2
mkdir -p "$work/wheels"
cp "$root"/tmp/lgpio-wheel/lgpio-*.whl "$work/wheels/"
rm -rf "$root/tmp/lgpio-venv" "$root/tmp/lgpio-wheel" "$dl"

say "guest helpers"
install -m 0755 "$HERE/guest/gpio-sim-setup" "$HERE/guest/virtual-pi-agent" "$root/usr/local/sbin/"
install -m 0644 "$HERE/guest/gpio-sim.service" "$HERE/guest/virtual-pi-agent.service" \
  "$root/etc/systemd/system/"
install -D -m 0644 "$HERE/guest/spit-cabinet-virtual-pi.conf" \
  "$root/etc/systemd/system/spit-cabinet.service.d/virtual-pi.conf"
install -m 0644 "$HERE/guest/99-virtual-pi-gpio.rules" "$root/etc/udev/rules.d/"
chroot "$root" sh -c 'getent group gpio >/dev/null || groupadd --system gpio'
mkdir -p "$root/etc/virtual-pi"
# A Pi 4B's revision, so that gpiozero accepts the board (it reads it from here).
printf 'Hardware\t: BCM2835\nRevision\t: c03114\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n' \
  >"$root/etc/virtual-pi/cpuinfo"
chroot "$root" systemctl enable gpio-sim.service virtual-pi-agent.service >&2
echo virtual-pi >"$root/etc/hostname"
printf '/dev/vda / ext4 rw,relatime 0 1\n' >"$root/etc/fstab"
chroot "$root" passwd -d root >/dev/null  # console login for a person looking in

say "disk image"
mkdir -p "$out"
cp "$root/boot/vmlinuz-$kernel" "$out/vmlinuz"
cp "$root/boot/initrd.img-$kernel" "$out/initrd.img"
cp -r "$work/wheels" "$out/wheels"
mkfs.ext4 -q -L root -d "$root" "$out/root.img" "$IMAGE_SIZE" >&2 # stdout: only the folder
printf 'kernel %s\nbuilt %s\n' "$kernel" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$out/COMPLETE"
# Images of older scripts are never used again: a few GB each, so they go.
find "$CACHE" -mindepth 1 -maxdepth 1 -name 'image-*' ! -path "$out" -exec rm -rf {} +
say "image done in $((SECONDS - start)) s: $out"
printf '%s\n' "$out"
