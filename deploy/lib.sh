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
  # The path units (enabled) and their services, as root: one installs a release the
  # cabinet staged, the other ends a new version's trial once it has drawn its first frame.
  INSTALL_UNITS=(spit-cabinet-install.path spit-cabinet-install.service
    spit-cabinet-started.path spit-cabinet-started.service)
  ENV_FILE=/etc/default/spit-cabinet
  # The pip extras the cabinet runs with: mpremote to flash the light board. lgpio, for the
  # buttons, comes from Raspberry Pi OS (python3-lgpio): see ensure_lgpio.
  PACKAGE_EXTRAS="flash"
  # The updater's own files, copied into INSTALL_DIR/bin by install.sh and by each update.
  UPDATER_FILES=(update.sh lib.sh versions.sh)
  # lgpio, through which gpiozero reads the buttons' kernel timestamps. PyPI has an aarch64
  # wheel of it for Python 3.11 only, not for trixie's 3.13. Raspberry Pi OS's archive has
  # python3-lgpio for both releases: the cabinet's virtual environment sees it through
  # --system-site-packages (docs/decisions.md). Plain Debian has no such package: there
  # lgpio is built once from its source, with its bundled C library, which needs these.
  LGPIO_PACKAGE=python3-lgpio
  LGPIO_BUILD_PACKAGES=(swig build-essential python3-dev)
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

# Print a command, shell-quoted, then run it unless this is a dry run. SPIT_DEPLOY_STEP_HOOK,
# when set, is run with the line just before the command: the power-cut test uses it to
# kill an update at an exact step.
run() {
  local word line="+"
  for word in "$@"; do
    line+=" $(shell_word "$word")"
  done
  say "$line"
  if [[ -n ${SPIT_DEPLOY_STEP_HOOK:-} ]]; then
    "$SPIT_DEPLOY_STEP_HOOK" "$line"
  fi
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

# Root is needed for a real run, except by an updater whose install directory OWNED (given)
# belongs to the user running it (a test install, or one kept in a home directory).
require_root() {
  if [[ $DRY_RUN -eq 0 ]] && [[ $(id -u) -ne 0 ]]; then
    if [[ -n ${2:-} ]] && [[ -O $2 ]]; then
      return 0
    fi
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

# The type of the file system DIR is on (its nearest existing folder's).
dir_fstype() {
  local dir=$1
  while [[ ! -e $dir && $dir != / ]]; do dir=$(dirname "$dir"); done
  findmnt --noheadings --output FSTYPE --target "$dir" 2>/dev/null || echo unknown
}

# Refuse to go on under the read-only root, where what is written would vanish. With DIR
# (the updater's install folder): only if DIR itself is on the overlay; on the flashed
# card the versions live on the data partition, under the read-only root (docs/image.md).
refuse_overlay_root() {
  local dir=${1:-}
  if overlay_root_active && { [[ -z $dir ]] || [[ $(dir_fstype "$dir") == overlay ]]; }; then
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

# What kind of source SOURCE is: git (a URL git can clone), wheel (a .whl file), checkout (a
# folder with pyproject.toml), wheels (a folder of wheels, e.g. on a USB stick), or nothing.
source_kind() {
  local source=$1
  if [[ $source == https://*/releases ]] || [[ $source == https://*/releases/ ]]; then
    printf release # the fleet server's (spit-fleet release serve)
  elif [[ $source == *://* ]] || [[ $source == git@*:* ]]; then
    printf git
  elif [[ -f $source/metadata/timestamp.json ]]; then
    printf release
  elif [[ -f $source ]] && [[ $source == *.whl ]]; then
    printf wheel
  elif [[ -f $source/pyproject.toml ]]; then
    printf checkout
  elif [[ -d $source ]] && compgen -G "$source/spit_cabinet-*.whl" >/dev/null; then
    printf wheels
  fi
}

# Build the cabinet's wheel from the checkout SOURCE with VENV's pip into OUT. The checkout
# is copied first, so the build never leaves root-owned files in it.
build_wheel() {
  local source=$1 venv=$2 out=$3 tmp=$4
  run mkdir -p "$tmp/src"
  say "+ copy $source (without .git, .venv, node_modules) to $tmp/src"
  if [[ $DRY_RUN -eq 0 ]]; then
    tar -C "$source" --exclude=./.git --exclude=./.venv --exclude=./node_modules \
      --exclude=./build --exclude=./dist --exclude='*.egg-info' -cf - . | tar -C "$tmp/src" -xf -
  fi
  run "$venv/bin/pip" wheel --quiet --no-deps --wheel-dir "$out" "$tmp/src"
}

# Put the cabinet's wheel from SOURCE, and every wheel it needs, into the wheelhouse WHEELS,
# using VENV's pip; TMP is a scratch directory on the same file system (files are moved into
# the wheelhouse whole, in one rename each). Dependencies come from the wheelhouse and the
# source first and from the package index only for what is missing. Prints nothing; sets
# FETCHED_WHEEL to the cabinet's wheel in the wheelhouse.
fetch_wheels() {
  local source=$1 venv=$2 wheels=$3 tmp=$4 kind out
  kind=$(source_kind "$source")
  out=$tmp/out
  run mkdir -p "$out" "$wheels"
  case $kind in
    git)
      run git clone --quiet --depth 1 "$source" "$tmp/clone"
      build_wheel "$tmp/clone" "$venv" "$out" "$tmp"
      ;;
    checkout) build_wheel "$source" "$venv" "$out" "$tmp" ;;
    wheel) run cp "$source" "$out/" ;;
    wheels) run cp "$source"/*.whl "$out/" ;;
    release)
      # Only checked wheels are installed: update.sh verifies a release into a folder of
      # wheels first (a dry run does not).
      [[ $DRY_RUN -eq 1 ]] || die "a signed release is installed by spit-cabinet-update, once verified"
      say "(dry run: the release's wheels, once verified)"
      ;;
    *) die "the source must be a git URL, a .whl file, a checkout or a folder of wheels: '$source'" ;;
  esac
  FETCHED_WHEEL=$wheels/spit_cabinet-VERSION-py3-none-any.whl
  if [[ $DRY_RUN -eq 0 ]]; then
    local built
    built=$(find "$out" -name 'spit_cabinet-*.whl' -print | sort -V | tail -n 1)
    [[ -n $built ]] || die "no spit_cabinet wheel in $source"
    FETCHED_WHEEL=$wheels/${built##*/}
  fi
  # The wheels it needs: offline first (the wheelhouse and the source), then the index.
  local want="$out/${FETCHED_WHEEL##*/}[$PACKAGE_EXTRAS]"
  local -a download=("$venv/bin/pip" download --quiet --only-binary=:all:
    --dest "$tmp/deps" --find-links "$wheels" --find-links "$out")
  if ! run "${download[@]}" --no-index "$want"; then
    say "not all of it is here: fetching the rest from the package index"
    run "${download[@]}" "$want" || die "could not get the wheels the cabinet needs"
  fi
  say "+ move the new wheels into $wheels"
  if [[ $DRY_RUN -eq 0 ]]; then
    # On the disk before they get their names there: a wheel kept under its name is
    # taken as it is by every later update, so a power cut must not leave one empty.
    flush "$tmp"
    local wheel
    for wheel in "$out"/*.whl "$tmp/deps"/*.whl; do
      [[ -f $wheel ]] && mv -f "$wheel" "$wheels/"
    done
  fi
}

# True when the package archive offers Debian package NAME.
apt_has() {
  [[ -n $(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ && $2 != "(none)" {print $2}') ]]
}

# Make sure VENV can import lgpio: Raspberry Pi OS's python3-lgpio is seen through the
# system site packages; elsewhere (plain Debian, no package) it is built once from its
# source with its bundled C library (PYPI=1), and the wheel kept in WHEELS.
ensure_lgpio() {
  local venv=$1 wheels=$2 tmp=$3
  if [[ $DRY_RUN -eq 1 ]]; then
    if apt_has "$LGPIO_PACKAGE"; then
      say "+ use lgpio from $LGPIO_PACKAGE (the system site packages)"
      return 0
    fi
  elif "$venv/bin/python" -c 'import lgpio' 2>/dev/null; then
    say "lgpio: $("$venv/bin/python" -c 'import lgpio; print(lgpio.__file__)')"
    return 0
  fi
  if [[ $DRY_RUN -eq 1 ]] ||
    ! run "$venv/bin/pip" install --quiet --no-index --find-links "$wheels" lgpio; then
    say "building lgpio from its source (a few minutes; needs swig, a compiler, python3-dev)"
    run env PYPI=1 "$venv/bin/pip" wheel --quiet --no-deps --no-binary lgpio \
      --wheel-dir "$tmp/lgpio" lgpio || die "could not build lgpio: see pip's messages above"
    say "+ move the lgpio wheel into $wheels"
    if [[ $DRY_RUN -eq 0 ]]; then
      mv -f "$tmp/lgpio"/lgpio-*.whl "$wheels/"
    fi
    run "$venv/bin/pip" install --quiet --no-index --find-links "$wheels" lgpio
  fi
}

# Install a new version of the cabinet from SOURCE into the install directory DIR (a new
# versions/ID, marked COMPLETE last). WITH_LGPIO is 1 on a cabinet, 0 on a desktop test
# install. Sets INSTALLED_ID. Changes neither `current` nor `previous`.
install_version() {
  local dir=$1 source=$2 with_lgpio=$3 id venv wheels tmp stamp
  wheels=$(wheel_dir "$dir")
  tmp=$dir/tmp
  # A build that must give the same bytes each time (the flashable image) sets
  # SOURCE_DATE_EPOCH: the version is named for that moment, not for now.
  stamp=$(date -u ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"} +%Y%m%dT%H%M%SZ)
  id=$stamp
  if [[ -e $(versions_dir "$dir")/$id ]]; then
    id=$stamp-$$
  fi
  venv=$(versions_dir "$dir")/$id/venv
  export PIP_DISABLE_PIP_VERSION_CHECK=1
  step "New version from $source"
  run mkdir -p "$(versions_dir "$dir")" "$tmp"
  run python3 -m venv --system-site-packages "$venv"
  fetch_wheels "$source" "$venv" "$wheels" "$tmp"
  run "$venv/bin/pip" install --quiet --no-index --find-links "$wheels" \
    "${FETCHED_WHEEL}[$PACKAGE_EXTRAS]"
  local modules=pygame,serial,gpiozero
  if [[ $with_lgpio -eq 1 ]]; then
    ensure_lgpio "$venv" "$wheels" "$tmp"
    modules=lgpio,$modules
  fi
  run "$venv/bin/python" -c "import $modules" ||
    die "the new version cannot import $modules: see pip's messages above"
  local version=${FETCHED_WHEEL##*/spit_cabinet-}
  version=${version%%-*}
  flush "$dir"
  printf 'version %s\nsource %s\ninstalled %s\n' "$version" "$source" "$stamp" |
    write_file "$(versions_dir "$dir")/$id/COMPLETE" 0644
  flush "$dir"
  # shellcheck disable=SC2034 # read by the scripts that source this file
  INSTALLED_ID=$id
}
