#!/usr/bin/env bash
# The virtual Pi's test kit for a flashed card, on a disk of its own (RUN/kit.img): the
# agent, the GPIO simulator, its module and a Pi 4B's cpuinfo taken from the virtual Pi's
# image (built for the same Debian kernel as the card's; the kit checks), the books'
# reader and the boot model's timing. boot.sh gives it to a card's guest as a second
# virtio disk (found at once; a USB stick takes half a minute under emulation), started
# from the kernel's command line, so the card itself is not changed.
#
#     scripts/virtual-pi/card-kit.sh IMAGE_DIR RUN_DIR     (IMAGE_DIR: from image.sh)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
image=$1 run=$2
kit=$run/kit
rm -rf "$kit" "$run/kit.img"
mkdir -p "$kit"
install -m 0755 "$HERE/card/kit-setup" "$kit/setup"
install -m 0755 "$HERE/guest/gpio-sim-setup" "$HERE/guest/virtual-pi-agent" "$kit/"
cp "$HERE/guest_books.py" "$REPO/bench/boot_model.py" "$REPO/bench/nbody.py" \
  "$HERE/card/wiring.toml" "$kit/"
kernel=$(sed -n 's/^kernel //p' "$image/COMPLETE")
for file in "/lib/modules/$kernel/extra/gpio-sim.ko" /etc/virtual-pi/cpuinfo; do
  debugfs -R "dump $file $kit/${file##*/}" "$image/root.img" 2>/dev/null
  if [[ ! -s $kit/${file##*/} ]]; then
    echo "card-kit: $file is not in the virtual Pi's image" >&2
    exit 1
  fi
done
mkfs.ext4 -q -L VPIKIT -d "$kit" "$run/kit.img" 32M
