#!/usr/bin/env bash
# Build the cabinet's flashable image for a Raspberry Pi 4 (arm64): a card that boots
# straight into attract mode, with a read-only root and the cabinet's data on a partition
# of its own (docs/image.md). Writes, into OUT:
#
#   spit-cabinet-VERSION-pi4-arm64.img.xz          the image, for Raspberry Pi Imager or dd
#   spit-cabinet-VERSION-pi4-arm64.img.xz.sha256   its checksum
#   os_list.json                                   an entry for Raspberry Pi Imager
#   packages.txt                                   every Debian package in it, with its version
#
# The same inputs give the same bytes: the root file system's tarball (scripts/image/
# rootfs.sh, cached), the wheels, this checkout and SOURCE_DATE_EPOCH (default: the time of
# the checkout's last commit), which stamps every file and names the cabinet's version.
#
#     sudo scripts/image/build.sh [OUT]      (default OUT: dist/image)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=${1:-$REPO/dist/image}
PYTHON=${PYTHON:-$REPO/.venv/bin/python}
[[ -x $PYTHON ]] || PYTHON=python3
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$REPO" log -1 --format=%ct)}
export SOURCE_DATE_EPOCH TZ=UTC LC_ALL=C.UTF-8
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH
# The card's MBR disk id ("SPIT"): partition N is PARTUUID=53504954-0N.
DISK_ID=53504954
BOOT_START_MIB=4
BOOT_MIB=256
# "rw": the squashfs is read-only whatever the option says; it is the overlay in memory over
# it that must be writable (with "ro", systemd leaves the overlay read-only too).
# fsck.repair=yes: a check that finds damage repairs it, never asks (nobody would answer).
# A device waited for up to 10 minutes, not systemd's 90 s: under emulation udev once came
# up after 106 s, and a device given up on is a cabinet that does not start.
CMDLINE="console=tty3 root=PARTUUID=$DISK_ID-02 rootfstype=squashfs rw rootwait overlayroot=tmpfs:recurse=0 fsck.repair=yes systemd.default_device_timeout_sec=600 quiet loglevel=3 consoleblank=0 logo.nologo vt.global_cursor_default=0 systemd.show_status=0 cma=128M"

say() { printf '== [%4d s] %s\n' "$SECONDS" "$*" >&2; }
fail() {
  printf 'image: %s\n' "$*" >&2
  exit 1
}
[[ $(id -u) -eq 0 ]] || fail "run as root (the root file system's owners, chroot)"
for tool in mmdebstrap mksquashfs mkfs.vfat mcopy sfdisk xz; do
  command -v "$tool" >/dev/null || fail "$tool is missing: docs/image.md says what to install"
done

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$REPO/pyproject.toml")
name=spit-cabinet-$version-pi4-arm64
start=$SECONDS
rootfs=$("$HERE/rootfs.sh")

work=$(mktemp -d "${TMPDIR:-/var/tmp}/spit-image.XXXXXX")
root=$work/root
cleanup() {
  for mount in "$root/proc" "$root/sys" "$root/dev"; do
    mountpoint -q "$mount" && umount -l "$mount"
  done
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

say "wheels: the cabinet's, and what it needs for Python 3.13 on aarch64"
wheels=$work/wheels
PYTHON=$PYTHON "$REPO/scripts/wheels.sh" "$wheels"
# lgpio has no wheel for Python 3.13: the virtual Pi's image build makes one (cached).
cp "$("$REPO/scripts/virtual-pi/image.sh")"/wheels/lgpio-*.whl "$wheels/"

say "root file system from $rootfs"
mkdir -p "$root"
tar -C "$root" --numeric-owner -xf "$rootfs"
mount --bind /dev "$root/dev"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"

say "the cabinet, installed by deploy/install.sh as on a Pi"
# Debian has no gpio group (Raspberry Pi OS does): the GPIO chips get one, for the cabinet.
chroot "$root" groupadd --system gpio
install -m 0644 "$HERE/files/60-spit-cabinet-gpio.rules" "$root/etc/udev/rules.d/"
cp -r "$REPO/deploy" "$root/tmp/deploy"
cp -r "$wheels" "$root/tmp/wheels"
chroot "$root" env SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH" PIP_NO_CACHE_DIR=1 \
  /tmp/deploy/install.sh --skip-apt --from /tmp/wheels >"$work/install.log" 2>&1 ||
  fail "install.sh failed: $(tail -n 30 "$work/install.log")"
rm -rf "$root/tmp/deploy" "$root/tmp/wheels"
# The versions move to the read-only root as the factory version; /opt/spit-cabinet and
# /var/lib/spit-cabinet become mount points for folders on the data partition.
mkdir -p "$root/usr/lib/spit-cabinet" "$root/data"
mv "$root/opt/spit-cabinet" "$root/usr/lib/spit-cabinet/factory"
mkdir -p "$root/opt/spit-cabinet"
rm -rf "${root:?}/var/lib/spit-cabinet" && mkdir -p "$root/var/lib/spit-cabinet"

say "the card's own units: data partition, first-boot files, fstab"
files=$HERE/files
install -m 0755 "$files/spit-cabinet-data" "$files/spit-cabinet-seed" \
  "$files/spit-cabinet-firstboot" "$files/spit-cabinet-nodata" "$root/usr/local/sbin/"
install -m 0644 "$files/spit-cabinet-data.service" "$files/spit-cabinet-seed.service" \
  "$files/spit-cabinet-firstboot.service" "$files/spit-cabinet-nodata.service" \
  "$files/spit-cabinet-network.service" "$root/etc/systemd/system/"
install -D -m 0644 "$files/spit-cabinet-card.conf" \
  "$root/etc/systemd/system/spit-cabinet.service.d/card.conf"
install -m 0644 "$files/fstab" "$root/etc/fstab"
install -D -m 0644 "$files/journald.conf" "$root/etc/systemd/journald.conf.d/spit-cabinet.conf"
# The network (a fleet's link, its releases): the wired port by DHCP, names through
# systemd-resolved's stub (the root file system's build left no resolv.conf), the time by NTP.
install -m 0644 "$files/20-wired.network" "$root/etc/systemd/network/"
ln -sf ../run/systemd/resolve/stub-resolv.conf "$root/etc/resolv.conf"
chroot "$root" systemctl enable spit-cabinet-firstboot.service spit-cabinet-nodata.service \
  systemd-networkd.service spit-cabinet-network.service >/dev/null 2>&1
# The network and the login manager start after the cabinet's first frame: networkd and
# logind ordered after it, resolved and timesyncd (ordered before sysinit.target, which
# the cabinet comes after) not enabled, but started by spit-cabinet-network.service.
chroot "$root" systemctl disable systemd-resolved.service systemd-timesyncd.service >/dev/null 2>&1
for unit in systemd-networkd.service systemd-logind.service; do
  install -D -m 0644 "$files/after-the-cabinet.conf" \
    "$root/etc/systemd/system/$unit.d/after-the-cabinet.conf"
done
# systemd runs its generators before it starts anything; those for what a cabinet has not
# (GPT auto-discovery on an MBR card, hibernation, TPMs, SysV and rc.local scripts,
# offline updates, SSH over vsock) are turned off. fstab, getty, debug (the kernel
# command line's systemd.mask= and credentials) and run stay.
mkdir -p "$root/etc/systemd/system-generators"
for generator in gpt-auto hibernate-resume rc-local ssh system-update sysv tpm2; do
  ln -sfn /dev/null "$root/etc/systemd/system-generators/systemd-$generator-generator"
done
# Not needed on a cabinet, or not on a read-only root: masked so they never start.
# getty-static: logins on tty2-tty6 when there is no logind (there is none): a cabinet has
# no console logins. binfmt: python3.13 registers .pyc files as programs, and systemd
# loads binfmt_misc and mounts it for that before sysinit.target, on the cabinet's path
# (docs/image.md, "Boot"); the kernel's debug, tracing, FUSE and huge page file systems
# serve nobody here. (configfs stays: gpio-sim, the virtual Pi's buttons, is made there.)
# systemd-network-generator makes network units from an ip= on the kernel's command line,
# which the card has not, and udevd waited for it; a Pi has no EFI, so no efi_pstore.
chroot "$root" systemctl mask getty@tty1.service getty-static.service e2scrub_all.timer e2scrub_reap.service \
  fstrim.timer apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer \
  systemd-networkd-wait-online.service \
  systemd-binfmt.service proc-sys-fs-binfmt_misc.automount proc-sys-fs-binfmt_misc.mount \
  sys-kernel-debug.mount sys-kernel-tracing.mount sys-fs-fuse-connections.mount \
  dev-hugepages.mount systemd-network-generator.service modprobe@efi_pstore.service \
  >/dev/null 2>&1
echo spit-cabinet >"$root/etc/hostname"
: >"$root/etc/machine-id"

say "initramfs: squashfs and the overlay"
printf 'squashfs\noverlay\n' >>"$root/etc/initramfs-tools/modules"
install -m 0755 "$files/initramfs-card" "$root/etc/initramfs-tools/hooks/spit-cabinet"
chroot "$root" update-initramfs -u -k all >"$work/initramfs.log" 2>&1 ||
  fail "update-initramfs failed: $(tail -n 20 "$work/initramfs.log")"

say "boot partition: the Pi's firmware, the kernel, config.txt, cmdline.txt"
bootfiles=$work/boot
mkdir -p "$bootfiles"
kernel=$(basename "$(find "$root/lib/modules" -mindepth 1 -maxdepth 1 -type d | sort -V | tail -n 1)")
cp "$root"/usr/lib/raspi-firmware/{start4.elf,fixup4.dat} "$bootfiles/"
cp "$root"/usr/lib/linux-image-"$kernel"/broadcom/bcm2711-*.dtb "$bootfiles/"
cp "$root/boot/vmlinuz-$kernel" "$bootfiles/vmlinuz"
cp "$root/boot/initrd.img-$kernel" "$bootfiles/initrd.img"
install -m 0644 "$files/config.txt" "$bootfiles/config.txt"
printf '%s\n' "$CMDLINE" >"$bootfiles/cmdline.txt"
mkdir -p "$bootfiles/spit-cabinet"
install -m 0644 "$files/README.txt" "$bootfiles/spit-cabinet/README.txt"
# lgpio's notification pipes, left where install.sh imported it.
rm -rf "${root:?}"/boot/firmware/* "$root/var/log/"*.log "$root/var/cache/ldconfig/aux-cache" \
  "$root"/.lgd-nfy*
# shellcheck disable=SC2016 # dpkg-query's own fields
chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' >"$work/packages.txt"

# systemd runs ldconfig and its other "the OS was updated" units when /etc/.updated and
# /var/.updated are older than /usr: on a root that forgets every write they would run at
# every boot. Stamped as systemd-update-done would, at the build's time.
for dir in etc var; do
  printf 'TIMESTAMP_NSEC=%s000000000\n' "$SOURCE_DATE_EPOCH" >"$root/$dir/.updated"
done
umount -l "$root/proc" "$root/sys" "$root/dev"
# The .pyc files loaded without reading their sources: on this read-only root a source
# never changes (scripts/image/pyc_unchecked.py says why).
say "the root's .pyc files unchecked: $("$PYTHON" "$HERE/pyc_unchecked.py" "$root")"
# Every file made here is stamped with SOURCE_DATE_EPOCH (the tarball's were already).
find "$root" "$bootfiles" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

say "root partition: squashfs"
# mksquashfs 4.5 would set every file's time to SOURCE_DATE_EPOCH, which would make every
# timestamp-checked .pyc of Debian's Python stale: the files keep their (clamped) times, the
# file system's own time is given instead.
env -u SOURCE_DATE_EPOCH mksquashfs "$root" "$work/root.sqfs" -comp zstd -Xcompression-level 19 \
  -noappend -quiet -no-progress -mkfs-time "$SOURCE_DATE_EPOCH" -processors 2 >&2

say "boot partition: FAT32"
rm -f "$work/boot.vfat"
truncate -s "${BOOT_MIB}M" "$work/boot.vfat"
# --invariant: no time in the label's entry (mtools stamps the rest with SOURCE_DATE_EPOCH);
# -i after it: the card's own volume id.
mkfs.vfat --invariant -F 32 -n SPITBOOT -i "$DISK_ID" "$work/boot.vfat" >/dev/null
(
  cd "$bootfiles"
  find . -mindepth 1 -type d | sed 's|^\./||' | sort | while read -r dir; do
    mmd -i "$work/boot.vfat" "::$dir"
  done
  find . -type f | sed 's|^\./||' | sort | while read -r file; do
    mcopy -m -i "$work/boot.vfat" "$file" "::$file"
  done
)

say "the card: MBR, boot, root (the data partition is made on the first boot)"
sector=512
boot_start=$((BOOT_START_MIB * 1024 * 1024 / sector))
boot_size=$((BOOT_MIB * 1024 * 1024 / sector))
root_start=$((boot_start + boot_size))
root_size=$((($(stat -c %s "$work/root.sqfs") + 4194303) / 4194304 * 4194304 / sector))
image=$work/$name.img
truncate -s $(((root_start + root_size) * sector)) "$image"
sfdisk --quiet --no-reread --no-tell-kernel "$image" <<EOF
label: dos
label-id: 0x$DISK_ID
unit: sectors
start=$boot_start, size=$boot_size, type=c, bootable
start=$root_start, size=$root_size, type=83
EOF
dd if="$work/boot.vfat" of="$image" bs=$sector seek="$boot_start" conv=notrunc,sparse status=none
dd if="$work/root.sqfs" of="$image" bs=$sector seek="$root_start" conv=notrunc,sparse status=none

say "compressing"
mkdir -p "$OUT"
image_size=$(stat -c %s "$image")
image_sha=$(sha256sum "$image" | cut -d' ' -f1)
xz -6 -T2 --block-size=64MiB --no-adjust -c "$image" >"$OUT/$name.img.xz"
(cd "$OUT" && sha256sum "$name.img.xz" >"$name.img.xz.sha256")
cp "$work/packages.txt" "$OUT/packages.txt"
"$PYTHON" "$HERE/os_list.py" --image "$OUT/$name.img.xz" --extract-size "$image_size" \
  --extract-sha256 "$image_sha" --version "$version" --icon "$OUT/spit-cabinet.png" \
  >"$OUT/os_list.json"
say "done in $((SECONDS - start)) s: $OUT/$name.img.xz ($(stat -c %s "$OUT/$name.img.xz") bytes)"
printf '%s\n' "$OUT/$name.img.xz"
