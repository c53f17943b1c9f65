# shellcheck shell=bash
# Versions of the cabinet side by side, and the switch between them that a power cut cannot
# break. Sourced by install.sh and update.sh after lib.sh, never run.
#
# The install directory (default /opt/spit-cabinet) holds:
#
#   versions/ID/venv       one version's virtual environment; ID is its version and the UTC
#                          time it was installed, e.g. 0.2.0-20261201T101500Z
#   versions/ID/COMPLETE   written last, once the version is installed and synced: a
#                          version without it is the leftover of an interrupted update
#   current -> versions/ID the version the unit starts (a symlink, replaced in one rename)
#   previous -> versions/ID the one before, kept for --rollback
#   wheels/                every wheel installed so far, so an update needs no network
#                          for what the cabinet already has
#   trial                  "ID N": a new version and how many starts it has failed so far
#   rollbacks.log          one line per rollback, read by the cabinet into its audits
#   bin/                   the updater itself (update.sh and the files it sources)
#
# Every change of `current` or `previous` is a new symlink renamed over the old one
# (rename(2) is atomic), after everything it points to is on the disk (sync). So whenever
# the power goes, `current` is the old complete version or the new complete one.

# How many failed starts in a row make a new version roll back by itself.
MAX_FAILED_STARTS=3
# Where the cabinet writes the version it runs once it has drawn its first frame (the
# unit's Environment= sets it for the boot check too).
STARTED_FILE=${SPIT_CABINET_STARTED_FILE:-/run/spit-cabinet/started}

# The file names above, for the install directory DIR.
versions_dir() { printf '%s/versions' "$1"; }
wheel_dir() { printf '%s/wheels' "$1"; }

# The version ID a link (current or previous) in DIR points to, or nothing.
link_id() {
  local target
  target=$(readlink "$1/$2" 2>/dev/null) || return 0
  printf '%s' "${target##*/}"
}

# True when version ID in DIR is installed completely.
is_complete() {
  [[ -n $2 ]] && [[ -f $(versions_dir "$1")/$2/COMPLETE ]]
}

# Flush everything written so far to the disk (the file system DIR is on).
flush() {
  run sync -f "$1"
}

# Point link NAME in DIR at version ID, in one rename.
point() {
  local dir=$1 name=$2 id=$3
  run ln -sfn "versions/$id" "$dir/$name.new"
  run mv -T "$dir/$name.new" "$dir/$name"
}

# Make version ID current, keeping the one that was current as previous.
switch_to() {
  local dir=$1 id=$2 old
  old=$(link_id "$dir" current)
  is_complete "$dir" "$id" || [[ $DRY_RUN -eq 1 ]] || die "version $id is not complete"
  if [[ -n $old ]] && [[ $old != "$id" ]]; then
    point "$dir" previous "$old"
  fi
  point "$dir" current "$id"
  flush "$dir"
}

# Append one line to the rollback log: when, from which version to which, and why.
log_rollback() {
  local dir=$1 from=$2 to=$3 why=$4
  say "rolled back from $from to $to: $why"
  if [[ $DRY_RUN -eq 0 ]]; then
    printf '%s %s %s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$from" "$to" "$why" \
      >>"$dir/rollbacks.log"
  fi
}

# Swap current and previous (both must be complete). WHY goes into the rollback log.
roll_back() {
  local dir=$1 why=$2 from to
  from=$(link_id "$dir" current)
  to=$(link_id "$dir" previous)
  if ! is_complete "$dir" "$to" || [[ $to == "$from" ]]; then
    die "no earlier version to go back to (previous: '${to:-none}')"
  fi
  point "$dir" current "$to"
  if [[ -n $from ]]; then
    point "$dir" previous "$from"
  fi
  run rm -f "$dir/trial"
  flush "$dir"
  log_rollback "$dir" "${from:-none}" "$to" "$why"
}

# Remove what an interrupted update left: versions without COMPLETE, half-written links and
# the temporary directory. Never the current or the previous version.
clean_leftovers() {
  local dir=$1 path id
  run rm -rf "$dir/tmp" "$dir/current.new" "$dir/previous.new"
  for path in "$(versions_dir "$dir")"/*; do
    [[ -d $path ]] || continue
    id=${path##*/}
    if ! is_complete "$dir" "$id"; then
      run rm -rf "$path"
    fi
  done
}

# Remove complete versions that are neither current nor previous.
prune_versions() {
  local dir=$1 path id keep_current keep_previous
  keep_current=$(link_id "$dir" current)
  keep_previous=$(link_id "$dir" previous)
  for path in "$(versions_dir "$dir")"/*; do
    [[ -d $path ]] || continue
    id=${path##*/}
    if [[ $id != "$keep_current" ]] && [[ $id != "$keep_previous" ]]; then
      run rm -rf "$path"
    fi
  done
}

# Before every start of the unit (ExecStartPre, as root): make sure `current` is a complete
# version, and roll back a new version that failed to start MAX_FAILED_STARTS times (a
# start that never wrote STARTED_FILE).
boot_check() {
  local dir=$1 current previous trial_id failed=0
  current=$(link_id "$dir" current)
  previous=$(link_id "$dir" previous)
  if ! is_complete "$dir" "$current"; then
    if is_complete "$dir" "$previous"; then
      point "$dir" current "$previous"
      flush "$dir"
      log_rollback "$dir" "${current:-none}" "$previous" "current was not a complete version"
      return 0
    fi
    die "no complete version of the cabinet in $dir: run install.sh again"
  fi
  [[ -f $dir/trial ]] || return 0
  read -r trial_id failed <"$dir/trial" || true
  [[ $trial_id == "$current" ]] || return 0
  if drew_first_frame "$current"; then
    run rm -f "$dir/trial"  # it drew its first frame last time: it started
    return 0
  fi
  if [[ ${failed:-0} -ge $MAX_FAILED_STARTS ]] && is_complete "$dir" "$previous"; then
    roll_back "$dir" "failed to start $MAX_FAILED_STARTS times in a row"
    return 0
  fi
  printf '%s %s\n' "$current" "$((${failed:-0} + 1))" | write_file "$dir/trial" 0644 >/dev/null
}

# True when the cabinet said version ID drew its first frame (STARTED_FILE names it).
drew_first_frame() {
  [[ -f $STARTED_FILE ]] && [[ $(<"$STARTED_FILE") == "$1" ]]
}

# The cabinet has just drawn its first frame (spit-cabinet-started.service, started as it
# writes STARTED_FILE): a version on trial that the file names has started, and its trial
# ends now, on the disk. The boot check would end it at the unit's next start, but STARTED_FILE
# is in /run: after three power cuts with no restart between them, a version that started
# every time would be rolled back.
end_trial() {
  local dir=$1
  drew_first_frame "$(link_id "$dir" current)" || return 0
  boot_ok "$dir"
  flush "$dir"
}

# The new version started (an operator says so by hand; the boot check sees it by itself
# in STARTED_FILE): it is no longer on trial.
boot_ok() {
  local dir=$1 trial_id rest
  [[ -f $dir/trial ]] || return 0
  read -r trial_id rest <"$dir/trial" || true
  if [[ $trial_id == "$(link_id "$dir" current)" ]]; then
    rm -f "$dir/trial"
  fi
}
