#!/usr/bin/env bash
# Reboot the virtual Pi cleanly and wait until it is back (a new boot id), for up to
# about five minutes. Used by run.sh and bench/card_boot.sh.
#
#     scripts/virtual-pi/reboot.sh RUN_DIR
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$1
PYTHON=${PYTHON:-python3}
agent() { "$PYTHON" "$HERE/agent.py" "$run" "$@"; }
boot_id=$(agent "cat /proc/sys/kernel/random/boot_id")
# Its answer may never come: the agent is stopped with everything else.
agent "systemctl reboot --no-block 2>/dev/null" --timeout 15 || true
sleep 10
now_id=$boot_id
for _ in $(seq 120); do
  now_id=$(agent "cat /proc/sys/kernel/random/boot_id" --timeout 20 2>/dev/null || true)
  [[ -n $now_id && $now_id != "$boot_id" ]] && break
  sleep 2
done
if [[ -z $now_id || $now_id == "$boot_id" ]]; then
  echo "reboot: the guest did not reboot" >&2
  exit 1
fi
