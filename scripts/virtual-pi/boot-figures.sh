#!/usr/bin/env bash
# How a card's boot went, from its guest once systemd says the boot has finished: into
# DIR, systemd's own figures (systemd-analyze time, blame, the cabinet's critical chain
# and its two mounts' on the data partition), when the units the cabinet waits for started
# and were ready (units.txt: unit, then µs since the kernel began), the boot's journal and
# dmesg, and what was read from the card (vda's stat). bench/boot_model.py and
# bench/card_boot_figures.py read them. Used by run.sh and bench/card_boot.sh.
#
#     scripts/virtual-pi/boot-figures.sh RUN_DIR DIR
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$1 dir=$2
PYTHON=${PYTHON:-python3}
agent() { "$PYTHON" "$HERE/agent.py" "$run" "$@"; }
mkdir -p "$dir"
for _ in $(seq 60); do
  agent "systemd-analyze time" >"$dir/boot-time.txt" 2>&1 && break
  sleep 2
done
agent "systemd-analyze critical-chain spit-cabinet.service" >"$dir/critical-chain.txt" 2>&1 || true
# The chain a Pi's boot would have: the test kit, which the cabinet also waits for here,
# is not on a Pi; the cabinet's own needs are its two mounts on the data partition.
agent "systemd-analyze critical-chain 'opt-spit\\x2dcabinet.mount' 'var-lib-spit\\x2dcabinet.mount'" \
  >"$dir/critical-chain-mounts.txt" 2>&1 || true
agent "systemd-analyze blame" >"$dir/blame.txt" 2>&1 || true
# Quoted for the guest's shell, which would take the escapes' backslashes out.
units="sysinit.target basic.target local-fs.target systemd-udev-trigger.service"
units+=" 'dev-disk-by\\x2dpartuuid-53504954\\x2d03.device' spit-cabinet-data.service"
units+=" data.mount spit-cabinet-seed.service"
units+=" 'opt-spit\\x2dcabinet.mount' 'var-lib-spit\\x2dcabinet.mount' spit-cabinet.service"
units+=" systemd-networkd.service systemd-resolved.service systemd-timesyncd.service"
# shellcheck disable=SC2016 # expanded in the guest
agent "for u in $units; do echo \"\$u \$(systemctl show -p InactiveExitTimestampMonotonic --value \"\$u\") \$(systemctl show -p ActiveEnterTimestampMonotonic --value \"\$u\")\"; done" \
  >"$dir/units.txt" 2>&1 || true
agent "journalctl -b -o short-monotonic --no-pager" >"$dir/journal.txt" 2>&1 || true
agent "dmesg" >"$dir/dmesg.txt" 2>&1 || true
# What was read from the card since power on (sectors, the third field).
agent "cat /sys/block/vda/stat" >"$dir/vda-stat.txt" || true
