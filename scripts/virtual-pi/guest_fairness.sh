#!/bin/sh
# The virtual Pi's fairness run, as the unit's user: runs the command after OUT and leaves
# its stdout in OUT.json, its stderr in OUT.err and, once it has ended, its exit status in
# OUT.rc (run.sh reads the three: the guest has no D-Bus, so no `systemd-run --wait --pipe`).
#
#     sh guest_fairness.sh OUT COMMAND [ARGS...]
out=$1
shift
"$@" >"$out.json" 2>"$out.err"
echo $? >"$out.rc"
