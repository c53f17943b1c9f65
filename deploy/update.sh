#!/usr/bin/env bash
# Update an installed Spit cabinet: pull the checkout, reinstall the cabinet into its virtual
# environment, optionally copy the new firmware onto the light board, and restart. Settings,
# audits and match records are in the data directory, which this never touches.
#
#     sudo ./deploy/update.sh                    # add --flash-firmware for the light board
#
# docs/install-pi.md, 'Updating', says when to flash and how to go back.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<EOF
Usage: sudo $0 [options]

Pulls the checkout (git pull --ff-only), reinstalls the cabinet into its virtual environment
and restarts it. The data directory (settings, audits, match records) is left alone.

Options:
  --install-dir DIR  the installed cabinet (default: $DEFAULT_INSTALL_DIR)
  --source DIR       the checkout to update from (default: the one this script is in)
  --no-pull          install the checkout as it is, without git pull
  --flash-firmware   also copy the light board's firmware (spit-cabinet firmware flash);
                     the board must be plugged in
  --port PORT        the board's serial port, for --flash-firmware (default: found by USB id)
  --config FILE      the board's light configuration, for --flash-firmware
                     (default: the one in the package)
  --no-restart       leave the cabinet stopped afterwards
  --dry-run          print what would be done and change nothing (no root needed)
  -h, --help         this help
EOF
}

# Pull SOURCE as the user who owns it (git refuses to work as root in someone else's
# checkout, and root-owned files there would stop that user's next pull).
pull_checkout() {
  local source=$1 before after
  if [[ ! -e $source/.git ]]; then
    warn "$source is not a git checkout: installing it as it is"
    return 0
  fi
  local -a as_owner=()
  local owner
  owner=$(stat -c %U "$source")
  if [[ $owner != root ]] && [[ $owner != "$(id -un)" ]]; then
    as_owner=(runuser -u "$owner" --)
  fi
  before=$("${as_owner[@]}" git -C "$source" rev-parse --short HEAD)
  run "${as_owner[@]}" git -C "$source" pull --ff-only
  if [[ $DRY_RUN -eq 1 ]]; then
    return 0
  fi
  after=$("${as_owner[@]}" git -C "$source" rev-parse --short HEAD)
  if [[ $before == "$after" ]]; then
    say "checkout at $after (no new commits)"
    return 0
  fi
  say "checkout updated: $before -> $after"
  if ! "${as_owner[@]}" git -C "$source" diff --quiet "$before" "$after" -- \
    deploy/spit-cabinet.service deploy/install.sh; then
    warn "the unit or install.sh changed in this update: run deploy/install.sh again with the
options you installed with (it keeps what is there and updates the rest)"
  fi
}

SERVICE_STOPPED=0

stop_service() {
  if [[ $DRY_RUN -eq 0 ]] && ! systemctl is-active --quiet "$UNIT_NAME"; then
    say "$UNIT_NAME is not running"
    return 0
  fi
  run systemctl stop "$UNIT_NAME"
  SERVICE_STOPPED=1
}

# If the update fails after the cabinet was stopped, start it again on whatever is installed,
# so a failed update never leaves a dark cabinet.
restart_after_failure() {
  local status=$?
  if [[ $status -ne 0 ]] && [[ $SERVICE_STOPPED -eq 1 ]] && [[ $DRY_RUN -eq 0 ]]; then
    warn "update failed (status $status): starting the cabinet again as it was"
    systemctl start "$UNIT_NAME" || true
  fi
}

main() {
  local install_dir=$DEFAULT_INSTALL_DIR source pull=1 flash=0 restart=1
  local -a flash_args=()
  source=$(source_dir)
  while [[ $# -gt 0 ]]; do
    case $1 in
      --install-dir | --source | --port | --config)
        [[ $# -ge 2 ]] || usage_error "$1 needs a value"
        case $1 in
          --install-dir) install_dir=$2 ;;
          --source) source=$2 ;;
          --port) flash_args+=(--port "$2") ;;
          --config) flash_args+=(--config "$2") ;;
        esac
        shift 2
        ;;
      --no-pull) pull=0 && shift ;;
      --flash-firmware) flash=1 && shift ;;
      --no-restart) restart=0 && shift ;;
      --dry-run) DRY_RUN=1 && shift ;;
      -h | --help)
        usage
        return 0
        ;;
      *) usage_error "unknown option $1" ;;
    esac
  done
  if [[ ${#flash_args[@]} -gt 0 ]] && [[ $flash -eq 0 ]]; then
    usage_error "--port and --config are for --flash-firmware"
  fi
  check_path --install-dir "$install_dir"
  require_root "$0"
  if [[ $DRY_RUN -eq 1 ]]; then
    say "Dry run: nothing is changed; this is what update.sh would do."
  fi
  refuse_overlay_root
  if [[ $DRY_RUN -eq 0 ]] && [[ ! -x $install_dir/venv/bin/python ]]; then
    die "no cabinet installed in $install_dir (no venv/bin/python): run deploy/install.sh first"
  fi
  trap restart_after_failure EXIT

  if [[ $pull -eq 1 ]]; then
    step "Pull $source"
    pull_checkout "$source"
  fi
  step "Stop the cabinet"
  stop_service
  step "Reinstall the cabinet into $install_dir/venv (the data directory is not touched)"
  install_package "$source" "$install_dir/venv"
  if [[ $flash -eq 1 ]]; then
    step "Light board firmware"
    run "$install_dir/venv/bin/spit-cabinet" firmware flash "${flash_args[@]}"
  fi
  if [[ $restart -eq 1 ]]; then
    step "Start the cabinet"
    run systemctl start "$UNIT_NAME"
    SERVICE_STOPPED=0
  else
    say "left stopped (--no-restart): sudo systemctl start $UNIT_NAME"
    SERVICE_STOPPED=0
  fi
  step "Done"
  say "Logs: journalctl -u spit-cabinet -f"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
