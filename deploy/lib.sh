# shellcheck shell=bash
# Helpers shared by install.sh and update.sh: messages, the dry-run switch, option checks and
# installing the cabinet's package into its virtual environment. Sourced, never run.

# 1 while a script only prints what it would do (--dry-run).
DRY_RUN=0

# The defaults; each script's options change them. Used by the scripts that source this file,
# which shellcheck cannot see from here.
# shellcheck disable=SC2034
{
  DEFAULT_INSTALL_DIR=/opt/spit-cabinet
  DEFAULT_DATA_DIR=/var/lib/spit-cabinet
  DEFAULT_USER=spit
  UNIT_NAME=spit-cabinet.service
  UNIT_PATH=/etc/systemd/system/$UNIT_NAME
  ENV_FILE=/etc/default/spit-cabinet
  # The pip extras the cabinet runs with on a Pi: lgpio for the buttons, mpremote to flash
  # the light board.
  PACKAGE_EXTRAS="pi,flash"
}

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() {
  printf 'error: %s\n' "$*" >&2
  exit 1
}
# A mistake on the command line: the usage, the reason, exit status 2.
usage_error() {
  usage >&2
  printf 'error: %s\n' "$*" >&2
  exit 2
}

# One word as a shell would need it typed: bare when that is safe, else in single quotes.
shell_word() {
  if [[ $1 =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then
    printf '%s' "$1"
  else
    printf "'%s'" "${1//\'/\'\\\'\'}"
  fi
}

# Print a command, shell-quoted, then run it unless this is a dry run.
run() {
  local word line="+"
  for word in "$@"; do
    line+=" $(shell_word "$word")"
  done
  say "$line"
  if [[ $DRY_RUN -eq 0 ]]; then
    "$@"
  fi
}

# Write standard input to FILE with MODE (owned by root; an empty MODE leaves the mode to the
# filesystem, as on the FAT boot partition), saying what happens; in a dry run, print what
# would be written instead. The new file replaces the old one in a single rename.
write_file() {
  local file=$1 mode=$2 content
  content=$(cat)
  if [[ -f $file ]] && [[ "$(cat "$file")" == "$content" ]]; then
    say "unchanged: $file"
    return 0
  fi
  if [[ $DRY_RUN -eq 1 ]]; then
    say "would write $file${mode:+ (mode $mode)}:"
    printf '%s\n' "$content" | sed 's/^/    | /'
    return 0
  fi
  say "writing $file"
  local tmp
  tmp=$(mktemp "$file.XXXXXX")
  printf '%s\n' "$content" >"$tmp"
  if [[ -n $mode ]]; then
    chmod "$mode" "$tmp"
  fi
  mv -f "$tmp" "$file"
}

require_root() {
  if [[ $DRY_RUN -eq 0 ]] && [[ $(id -u) -ne 0 ]]; then
    die "$1 must be run as root: sudo $1 ... (or add --dry-run to see what it would do)"
  fi
}

# An option's path must be absolute, with no whitespace or '%' (systemd would read a '%' as a
# specifier and split a path at whitespace).
check_path() {
  local option=$1 path=$2
  [[ $path == /* ]] || die "$option must be an absolute path, got '$path'"
  [[ $path != *[[:space:]%\\]* ]] || die "$option must not contain spaces, '%' or '\\': '$path'"
  [[ $path != / ]] || die "$option must not be the root directory"
}

check_user_name() {
  local name=$1
  [[ $name =~ ^[a-z_][a-z0-9_-]{0,31}$ ]] ||
    die "--user must be a lower-case system user name such as 'spit', got '$name'"
}

# The kernel command line the running system booted with.
PROC_CMDLINE=/proc/cmdline

# The root filesystem's type: 'overlay' under the read-only root (and in containers).
root_fstype() {
  findmnt --noheadings --output FSTYPE / 2>/dev/null || echo unknown
}

# True when Raspberry Pi OS's read-only root is on: root is an overlay that the boot asked
# for (overlayroot=tmpfs..., or boot=overlay from older raspi-config). A container's overlay
# root is not one: nothing asked for it on the kernel command line.
overlay_root_active() {
  [[ $(root_fstype) == overlay ]] || return 1
  local word
  local -a words=()
  read -r -a words <"$PROC_CMDLINE" || true
  for word in "${words[@]}"; do
    case $word in
      overlayroot=disabled) ;;
      overlayroot=* | boot=overlay) return 0 ;;
    esac
  done
  return 1
}

refuse_overlay_root() {
  if overlay_root_active; then
    die "the root filesystem is a read-only overlay: anything installed now would vanish at
the next reboot. Turn the overlay off (sudo raspi-config nonint disable_overlayfs), reboot,
run this again, then turn it back on (docs/install-pi.md, 'A read-only root')."
  fi
}

# The checkout this script belongs to (the folder above deploy/).
source_dir() {
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  dirname "$here"
}

# Build the cabinet's wheel from the checkout SOURCE and install it, with the extras, into the
# virtual environment VENV. The checkout is copied first, so the build never leaves root-owned
# files in it; the package is always reinstalled (same version, new code), its dependencies
# only when they no longer match.
install_package() (
  local source=$1 venv=$2
  [[ -f $source/pyproject.toml ]] || die "no pyproject.toml in $source: is it the cabinet's checkout?"
  if [[ $DRY_RUN -eq 1 ]]; then
    say "+ copy $source (without .git, .venv, node_modules) to a temporary build directory BUILD"
    say "+ $venv/bin/pip wheel --no-deps --wheel-dir BUILD/wheel BUILD/src"
    say "+ $venv/bin/pip install --force-reinstall --no-deps BUILD/wheel/spit_cabinet-*.whl"
    say "+ $venv/bin/pip install BUILD/wheel/spit_cabinet-*.whl[$PACKAGE_EXTRAS]"
    say "+ $venv/bin/python -c 'import lgpio, pygame, serial'"
    return 0
  fi
  local build wheel
  build=$(mktemp -d)
  # This function runs in a subshell: the build directory goes when it ends, however it ends.
  trap 'rm -rf "$build"' EXIT
  mkdir -p "$build/src" "$build/wheel"
  tar -C "$source" --exclude=.git --exclude=.venv --exclude=node_modules \
    --exclude=build --exclude=dist --exclude='*.egg-info' -cf - . | tar -C "$build/src" -xf -
  export PIP_DISABLE_PIP_VERSION_CHECK=1
  run "$venv/bin/pip" wheel --quiet --no-deps --wheel-dir "$build/wheel" "$build/src"
  wheel=$(find "$build/wheel" -name 'spit_cabinet-*.whl' -print -quit)
  [[ -n $wheel ]] || die "pip built no spit_cabinet wheel from $source"
  run "$venv/bin/pip" install --quiet --force-reinstall --no-deps "$wheel"
  run "$venv/bin/pip" install --quiet "${wheel}[$PACKAGE_EXTRAS]"
  run "$venv/bin/python" -c 'import lgpio, pygame, serial' ||
    die "the virtual environment cannot import lgpio, pygame or serial: see pip's messages above"
)
