#!/usr/bin/env bash
# Update an installed Spit cabinet, in a way a power cut cannot break: the new version is
# installed beside the running one, and made current in one atomic rename only once it is
# complete and on the disk. The previous version is kept for --rollback; a new version that
# fails to start three times in a row goes back by itself. Settings, audits and match records
# are in the data directory, which this never touches.
#
# Before anything is installed, the running version checks the update: a signed release
# (spit-fleet release sign) is verified whole against the route's key; anything else (bare
# wheels, a checkout) is installed only while the cabinet's 'Unsigned updates' is on
# (docs/releases.md).
#
#     sudo spit-cabinet-update --from /media/usb/release   # a signed release (a stick)
#     sudo spit-cabinet-update                       # from where it was installed from
#     sudo spit-cabinet-update --rollback            # back to the version before
#
# install.sh puts this script in /opt/spit-cabinet/bin and links it as spit-cabinet-update;
# it also runs from a checkout (sudo ./deploy/update.sh). docs/install-pi.md, 'Updating'.
set -euo pipefail

# Its own folder, also when run through the spit-cabinet-update link install.sh makes.
HERE=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$HERE/lib.sh"
# shellcheck source-path=SCRIPTDIR source=versions.sh
source "$HERE/versions.sh"

usage() {
  cat <<EOF
Usage: sudo $0 [options]

Installs a new version of the cabinet beside the running one, switches to it and restarts
the cabinet. The data directory (settings, audits, match records) is left alone.

Options:
  --from SOURCE      where the new version comes from: a signed release's folder (e.g. on
                     a USB stick), or, while the cabinet's 'Unsigned updates' is on, a git
                     URL, a .whl file, a checkout or a folder of wheels
                     (default: the source it was installed from, in INSTALL_DIR/source)
  --rollback         go back to the previous version (and make the current one previous)
  --install-dir DIR  the installed cabinet (default: $DEFAULT_INSTALL_DIR)
  --data-dir DIR     the cabinet's data (its settings and its fleet's release key), read
                     to check the update (default: $DEFAULT_DATA_DIR)
  --no-pull          with a checkout as the source: install it as it is, without git pull
  --flash-firmware   also copy the light board's firmware (spit-cabinet firmware flash);
                     the board must be plugged in
  --port PORT        the board's serial port, for --flash-firmware (default: found by USB id)
  --config FILE      the board's light configuration, for --flash-firmware
  --without-lgpio    install without lgpio (a test install on a machine with no GPIO)
  --no-restart       switch, but do not restart the cabinet (it runs the new version at
                     its next start)
  --dry-run          print what would be done and change nothing (no root needed)
  -h, --help         this help

Run by the unit before each start (ExecStartPre), and by hand:
  --boot-check       make sure 'current' is complete; end a new version's trial once it has
                     drawn its first frame; roll back a new version that failed to start
                     $MAX_FAILED_STARTS times in a row
  --boot-ok          say by hand that the new version started: it is no longer on trial
  --started          end the trial of the version the started file names, once it has drawn
                     its first frame (spit-cabinet-started.service runs this)
EOF
}

# Pull the checkout SOURCE as the user who owns it (git refuses to work as root in someone
# else's checkout, and root-owned files there would stop that user's next pull).
pull_checkout() {
  local source=$1 before after owner
  if [[ ! -e $source/.git ]]; then
    say "$source is not a git checkout: installing it as it is"
    return 0
  fi
  local -a as_owner=()
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

# Copy this updater (and what it sources) from the checkout SOURCE into DIR/bin, each file in
# one rename, so the next update runs the new one.
refresh_updater() {
  local source=$1 dir=$2 file
  [[ -f $source/deploy/update.sh ]] || return 0
  run install -d -m 0755 "$dir/bin"
  for file in "${UPDATER_FILES[@]}"; do
    run install -m 0755 "$source/deploy/$file" "$dir/bin/.$file.new"
    run mv -f "$dir/bin/.$file.new" "$dir/bin/$file"
  done
}

# Check the update SOURCE with the version installed in DIR (its data in DATA) before
# anything is installed: a signed release is verified into DIR/tmp/release, the folder
# to install from; bare wheels and checkouts pass only with 'Unsigned updates' on. Sets
# CHECKED_SOURCE, or stops with the cabinet's one line saying why.
check_update() {
  local dir=$1 source=$2 data=$3 cabinet
  cabinet=$dir/current/venv/bin/spit-cabinet
  CHECKED_SOURCE=$source
  if [[ ! -x $cabinet ]]; then
    [[ $(source_kind "$source") != release ]] ||
      die "no version installed here to verify the signed release with: run install.sh first"
    warn "no version installed to check the update with: it is installed as a first install"
    return 0
  fi
  if [[ $DRY_RUN -eq 1 ]]; then
    say "+ $cabinet release verify $source --out $dir/tmp/release --data-dir $data --pin $dir/release-root.json --trusted $dir/release-trusted"
    return 0
  fi
  # The route's root and the metadata last trusted are kept in the install directory,
  # root's: the cabinet's own user, who can write its database, cannot change what root
  # trusts (docs/releases.md).
  CHECKED_SOURCE=$("$cabinet" release verify "$source" --out "$dir/tmp/release" \
    --data-dir "$data" --pin "$dir/release-root.json" --trusted "$dir/release-trusted") ||
    die "the update is refused (the line above says why): nothing installed"
}

# Hold DIR/.lock for the rest of the script: one update at a time.
take_lock() {
  local dir=$1
  [[ $DRY_RUN -eq 1 ]] && return 0
  exec 9>>"$dir/.lock"
  flock --nonblock 9 || die "another update is running on $dir"
}

restart_cabinet() {
  local dir=$1 flash=$2
  shift 2
  if [[ $flash -eq 1 ]]; then
    step "Light board firmware"
    run systemctl stop "$UNIT_NAME"
    run "$dir/current/venv/bin/spit-cabinet" firmware flash "$@" ||
      warn "flashing failed: the cabinet starts with the board as it was"
    run systemctl start "$UNIT_NAME"
  else
    step "Restart the cabinet"
    run systemctl restart "$UNIT_NAME"
  fi
}

main() {
  local install_dir=$DEFAULT_INSTALL_DIR data_dir=$DEFAULT_DATA_DIR source="" pull=1 flash=0
  local restart=1 lgpio=1
  local action=update
  local -a flash_args=()
  while [[ $# -gt 0 ]]; do
    case $1 in
      --install-dir | --data-dir | --from | --port | --config)
        [[ $# -ge 2 ]] || usage_error "$1 needs a value"
        case $1 in
          --install-dir) install_dir=$2 ;;
          --data-dir) data_dir=$2 ;;
          --from) source=$2 ;;
          --port) flash_args+=(--port "$2") ;;
          --config) flash_args+=(--config "$2") ;;
        esac
        shift 2
        ;;
      --rollback) action=rollback && shift ;;
      --boot-check) action=boot-check && shift ;;
      --boot-ok) action=boot-ok && shift ;;
      --started) action=started && shift ;;
      --no-pull) pull=0 && shift ;;
      --flash-firmware) flash=1 && shift ;;
      --without-lgpio) lgpio=0 && shift ;;
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
  check_path --data-dir "$data_dir"
  case $action in
    boot-check)
      boot_check "$install_dir"
      return 0
      ;;
    boot-ok)
      boot_ok "$install_dir"
      return 0
      ;;
    started)
      end_trial "$install_dir"
      return 0
      ;;
  esac
  require_root "$0" "$install_dir"
  if [[ $DRY_RUN -eq 1 ]]; then
    say "Dry run: nothing is changed; this is what update.sh would do."
  fi
  refuse_overlay_root "$install_dir"
  if [[ $DRY_RUN -eq 0 ]] && [[ ! -d $install_dir/versions ]]; then
    die "no cabinet installed in $install_dir (no versions/): run deploy/install.sh first"
  fi
  take_lock "$install_dir"
  if [[ $action == rollback ]]; then
    step "Roll back"
    roll_back "$install_dir" "asked for (--rollback)"
    [[ $restart -eq 1 ]] && restart_cabinet "$install_dir" 0
    return 0
  fi

  if [[ -z $source ]]; then
    [[ -f $install_dir/source ]] ||
      usage_error "no --from given and $install_dir/source does not say where from"
    source=$(<"$install_dir/source")
  fi
  step "Clean up after any interrupted update"
  clean_leftovers "$install_dir"
  step "Check the update"
  check_update "$install_dir" "$source" "$data_dir"
  if [[ $(source_kind "$source") == checkout ]] && [[ $pull -eq 1 ]]; then
    step "Pull $source"
    pull_checkout "$source"
  fi
  install_version "$install_dir" "$CHECKED_SOURCE" "$lgpio"
  step "Switch to $INSTALLED_ID (the data directory is not touched)"
  switch_to "$install_dir" "$INSTALLED_ID"
  printf '%s 0\n' "$INSTALLED_ID" | write_file "$install_dir/trial" 0644
  if [[ $(source_kind "$source") == checkout ]]; then
    refresh_updater "$source" "$install_dir"
  fi
  if [[ $restart -eq 1 ]]; then
    restart_cabinet "$install_dir" "$flash" "${flash_args[@]}"
  else
    say "not restarted (--no-restart): the new version runs from the next start"
  fi
  step "Remove versions older than the previous one"
  prune_versions "$install_dir"
  run rm -rf "$install_dir/tmp"
  step "Done"
  say "Logs: journalctl -u spit-cabinet -f    Back to the version before: spit-cabinet-update --rollback"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
