#!/usr/bin/env bash
# Install the Spit cabinet on Raspberry Pi OS Lite, 64-bit (Debian 13 "trixie" or Debian 12
# "bookworm"), Pi 4 or Pi 5, so that the Pi boots straight into attract mode. Run it as root
# from a checkout:
#
#     sudo ./deploy/install.sh            # add --dry-run to only print what it would do
#     sudo ./deploy/install.sh --from /media/usb/spit_cabinet-0.2.0-py3-none-any.whl
#
# It is safe to run again: every step checks what is already there. The steps, and why each
# is needed, are in docs/install-pi.md.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=versions.sh
source "$(dirname "${BASH_SOURCE[0]}")/versions.sh"

# The service user's groups, for the devices the cabinet opens.
CABINET_GROUPS=(
  gpio    # /dev/gpiochip*: the buttons (lgpio)
  video   # /dev/dri/card*: the display (SDL's kmsdrm driver)
  render  # /dev/dri/renderD*: the GPU for drawing (EGL/GLES)
  input   # /dev/input/event*: a service keyboard
  audio   # /dev/snd/*: sound (ALSA)
  dialout # /dev/ttyACM*: the light board over USB serial
)

# Debian packages, each for a reason. Not needed: SDL itself (pygame-ce's aarch64 wheel
# bundles SDL 2, with kmsdrm).
APT_PACKAGES=(
  python3 python3-venv # the virtual environment the cabinet runs from
  git                  # updates from a git repository
  libdrm2 libgbm1      # loaded at run time by SDL's kmsdrm driver: mode setting, buffers
  libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri # EGL/GLES and the Pi's Mesa GPU drivers
  libasound2 alsa-utils # ALSA, loaded at run time by SDL; aplay/speaker-test to check sound
)

# lgpio's Debian packages: LGPIO_PACKAGE and LGPIO_BUILD_PACKAGES, in lib.sh.

# The file that names the OS release (a variable, so tests can give another).
OS_RELEASE=${OS_RELEASE:-/etc/os-release}

# Kernel command line options for a clean screen (--quiet-boot): no console blanking, no
# Raspberry Pi logos, no boot messages, no blinking cursor.
QUIET_BOOT_OPTIONS=(consoleblank=0 logo.nologo quiet loglevel=3 vt.global_cursor_default=0)
DEFAULT_CMDLINE=/boot/firmware/cmdline.txt
SHORTCUT=/usr/local/bin/spit-cabinet
UPDATER=/usr/local/sbin/spit-cabinet-update

usage() {
  cat <<EOF
Usage: sudo $0 [options]

Installs the Spit cabinet: Debian packages, a service user, the cabinet's first version
(a virtual environment in INSTALL_DIR/versions, made current), the updater, the data
directory and a systemd unit that starts the cabinet at boot.

Options:
  --from SOURCE      what to install: a git URL, a .whl file, a checkout, or a folder of
                     wheels (default: the checkout this script is in); updates come from
                     the same place unless told otherwise
  --install-dir DIR  where the versions go (default: $DEFAULT_INSTALL_DIR)
  --data-dir DIR     settings, audits and match records (default: $DEFAULT_DATA_DIR)
  --user NAME        the service user the cabinet runs as (default: $DEFAULT_USER)
  --skip-apt         do not install Debian packages (they are installed already)
  --without-lgpio    no lgpio (a test install on a machine with no GPIO)
  --quiet-boot       also edit the kernel command line for a clean screen at boot:
                     ${QUIET_BOOT_OPTIONS[*]}
                     (keeps a copy of the file first; see docs/install-pi.md)
  --cmdline FILE     the kernel command line file for --quiet-boot
                     (default: $DEFAULT_CMDLINE)
  --dry-run          print what would be done and change nothing (no root needed)
  -h, --help         this help
EOF
}

# Print the unit from TEMPLATE with the install directory, the data directory and the user
# put in; comments are left as they are.
render_unit() {
  local template=$1 install_dir=$2 data_dir=$3 user=$4 line
  while IFS= read -r line || [[ -n $line ]]; do
    if [[ $line != \#* ]]; then
      line=${line//"$DEFAULT_INSTALL_DIR"/"$install_dir"}
      line=${line//"$DEFAULT_DATA_DIR"/"$data_dir"}
      case $line in
        User=*) line="User=$user" ;;
        Group=*) line="Group=$user" ;;
      esac
    fi
    printf '%s\n' "$line"
  done <"$template"
}

# Print the kernel command line LINE with OPTIONS added; an option of the form key=value
# replaces any value the line already had for that key. Other options keep their order.
cmdline_with() {
  local line=$1
  shift
  local -a words=() kept=()
  local word option key
  read -r -a words <<<"$line"
  for word in "${words[@]}"; do
    for option in "$@"; do
      key=${option%%=*}
      if [[ $word == "$option" ]] || [[ $option == *=* && $word == "$key="* ]]; then
        continue 2
      fi
    done
    kept+=("$word")
  done
  printf '%s\n' "${kept[*]} $*"
}

# Add the quiet-boot options to the kernel command line FILE (one line, as the firmware
# reads it), keeping a copy of the original once.
quiet_boot() {
  local file=$1 line new
  [[ -f $file ]] || die "no kernel command line at $file: give its path with --cmdline"
  [[ $(wc -l <"$file") -le 1 ]] ||
    die "$file has more than one line; the firmware reads only the first: fix it by hand"
  line=$(head -n 1 "$file")
  [[ -n $line ]] || die "$file is empty: refusing to write a command line without root="
  new=$(cmdline_with "$line" "${QUIET_BOOT_OPTIONS[@]}")
  if [[ $new == "$line" ]]; then
    say "unchanged: $file"
    return 0
  fi
  say "kernel command line, before: $line"
  say "kernel command line, after:  $new"
  if [[ ! -e $file.spit-cabinet.orig ]]; then
    run cp -p "$file" "$file.spit-cabinet.orig"
  fi
  printf '%s\n' "$new" | write_file "$file" ""
}

check_platform() {
  local arch codename=unknown
  arch=$(uname -m)
  if [[ -r $OS_RELEASE ]]; then
    # shellcheck disable=SC1090 # the OS's own file, or a test's
    codename=$(. "$OS_RELEASE" && printf '%s' "${VERSION_CODENAME:-unknown}")
  fi
  [[ $arch == aarch64 ]] ||
    warn "this is $arch, not aarch64: the cabinet is made for 64-bit Raspberry Pi OS"
  case $codename in
    trixie | bookworm) say "OS release: $codename" ;;
    *) warn "this is '$codename', not Debian trixie or bookworm: package names may differ" ;;
  esac
}

# The Debian packages that bring lgpio: Raspberry Pi OS's own, or what building it needs.
lgpio_packages() {
  if apt_has "$LGPIO_PACKAGE"; then
    printf '%s\n' "$LGPIO_PACKAGE"
  else
    printf '%s\n' "${LGPIO_BUILD_PACKAGES[@]}"
  fi
}

install_apt_packages() {
  step "Debian packages"
  run env DEBIAN_FRONTEND=noninteractive apt-get update -q
  local -a for_lgpio=()
  mapfile -t for_lgpio < <(lgpio_packages)
  if [[ ${for_lgpio[0]} == "$LGPIO_PACKAGE" ]]; then
    say "lgpio: $LGPIO_PACKAGE from the archive (seen through --system-site-packages)"
  else
    say "lgpio: no $LGPIO_PACKAGE in this archive: it is built from its source, which needs ${for_lgpio[*]}"
  fi
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${APT_PACKAGES[@]}" "${for_lgpio[@]}"
}

check_python() {
  if [[ $DRY_RUN -eq 1 ]]; then
    say "+ check that python3 is 3.11 or newer"
    return 0
  fi
  python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    die "the cabinet needs Python 3.11 or newer; python3 here is $(python3 -V 2>&1)"
}

create_user() {
  local user=$1 group
  step "Service user '$user' and its groups: ${CABINET_GROUPS[*]}"
  if id -u "$user" >/dev/null 2>&1; then
    say "user $user exists"
  else
    run useradd --system --user-group --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin --comment "Spit arcade cabinet" "$user"
  fi
  local -a present=()
  for group in "${CABINET_GROUPS[@]}"; do
    if getent group "$group" >/dev/null; then
      present+=("$group")
    else
      warn "group '$group' does not exist here (Raspberry Pi OS has it): $user cannot join it"
    fi
  done
  if [[ ${#present[@]} -gt 0 ]]; then
    run usermod --append --groups "$(
      IFS=,
      printf '%s' "${present[*]}"
    )" "$user"
  fi
}

# The first version, the updater and the shortcuts. Run again, it keeps the version there is
# (spit-cabinet-update installs new ones).
install_cabinet() {
  local install_dir=$1 source=$2 lgpio=$3 here current
  here=$(source_dir)
  step "The cabinet in $install_dir (versions side by side, 'current' the one that runs)"
  run install -d -m 0755 "$install_dir" "$install_dir/bin"
  say "$source" | write_file "$install_dir/source" 0644
  local file
  for file in "${UPDATER_FILES[@]}"; do
    run install -m 0755 "$here/deploy/$file" "$install_dir/bin/$file"
  done
  current=$(link_id "$install_dir" current)
  if is_complete "$install_dir" "$current"; then
    say "version $current is installed: new versions come with spit-cabinet-update"
  else
    clean_leftovers "$install_dir"
    install_version "$install_dir" "$source" "$lgpio"
    switch_to "$install_dir" "$INSTALLED_ID"
    run rm -rf "$install_dir/tmp"
  fi
  run ln -sfn "$install_dir/current/venv/bin/spit-cabinet" "$SHORTCUT"
  run ln -sfn "$install_dir/bin/update.sh" "$UPDATER"
}

create_data_dir() {
  local data_dir=$1 user=$2
  step "Data directory $data_dir (settings, audits, match records), owned by $user"
  run install -d -m 0750 -o "$user" -g "$user" "$data_dir"
}

write_env_file() {
  step "Operator overrides in $ENV_FILE"
  if [[ -e $ENV_FILE ]]; then
    say "$ENV_FILE exists: kept as it is"
    return 0
  fi
  write_file "$ENV_FILE" 0644 <<'EOF'
# Environment for the Spit cabinet (spit-cabinet.service). Updates never overwrite this file.
# After a change: sudo systemctl restart spit-cabinet
#
# The sound device, when the default is not the one with the speakers (list: aplay -L):
#AUDIODEV=hdmi:CARD=vc4hdmi0,DEV=0
#AUDIODEV=plughw:CARD=Device,DEV=0
#
# The DRM card SDL draws on, when it picks the wrong one (0, 1, ...):
#SDL_KMSDRM_DEVICE_INDEX=1
EOF
}

install_unit() {
  local install_dir=$1 data_dir=$2 user=$3 template
  template="$(dirname "${BASH_SOURCE[0]}")/$UNIT_NAME"
  step "systemd unit $UNIT_PATH, started at boot (multi-user.target)"
  render_unit "$template" "$install_dir" "$data_dir" "$user" | write_file "$UNIT_PATH" 0644
  if [[ -d /run/systemd/system ]]; then
    run systemctl daemon-reload
  else
    say "systemd is not running here: skipping daemon-reload"
  fi
  # The cabinet owns tty1; a login prompt there would fight it for the console at boot.
  run systemctl disable getty@tty1.service
  run systemctl enable "$UNIT_NAME"
  # A release the fleet rolled out, installed as root when the cabinet asks (releases.md),
  # and a new version's trial ended as soon as it drew its first frame.
  local unit
  for unit in "${INSTALL_UNITS[@]}"; do
    render_unit "$(dirname "${BASH_SOURCE[0]}")/$unit" "$install_dir" "$data_dir" "$user" |
      write_file "/etc/systemd/system/$unit" 0644
    [[ $unit != *.path ]] || run systemctl enable "$unit"
  done
}

main() {
  local install_dir=$DEFAULT_INSTALL_DIR data_dir=$DEFAULT_DATA_DIR user=$DEFAULT_USER
  local source skip_apt=0 quiet=0 cmdline=$DEFAULT_CMDLINE lgpio=1
  source=$(source_dir)
  while [[ $# -gt 0 ]]; do
    case $1 in
      --install-dir | --data-dir | --user | --from | --cmdline)
        [[ $# -ge 2 ]] || usage_error "$1 needs a value"
        case $1 in
          --install-dir) install_dir=$2 ;;
          --data-dir) data_dir=$2 ;;
          --user) user=$2 ;;
          --from) source=$2 ;;
          --cmdline) cmdline=$2 ;;
        esac
        shift 2
        ;;
      --skip-apt) skip_apt=1 && shift ;;
      --without-lgpio) lgpio=0 && shift ;;
      --quiet-boot) quiet=1 && shift ;;
      --dry-run) DRY_RUN=1 && shift ;;
      -h | --help)
        usage
        return 0
        ;;
      *) usage_error "unknown option $1" ;;
    esac
  done
  check_path --install-dir "$install_dir"
  check_path --data-dir "$data_dir"
  check_user_name "$user"
  require_root "$0"
  [[ -n $(source_kind "$source") ]] ||
    die "--from must be a git URL, a .whl file, a checkout or a folder of wheels: '$source'"
  if [[ $DRY_RUN -eq 1 ]]; then
    say "Dry run: nothing is changed; this is what install.sh would do."
  fi
  refuse_overlay_root
  check_platform

  if [[ $skip_apt -eq 0 ]]; then
    install_apt_packages
  fi
  check_python
  create_user "$user"
  install_cabinet "$install_dir" "$source" "$lgpio"
  create_data_dir "$data_dir" "$user"
  write_env_file
  install_unit "$install_dir" "$data_dir" "$user"
  if [[ $quiet -eq 1 ]]; then
    step "Quiet boot: $cmdline"
    quiet_boot "$cmdline"
  fi

  step "Done"
  say "Reboot (sudo reboot) and the Pi starts straight into attract mode."
  say "Logs: journalctl -u spit-cabinet -f    Stop: sudo systemctl stop spit-cabinet"
  say "Check the buttons and lights: docs/install-pi.md, 'Check the cabinet'."
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
