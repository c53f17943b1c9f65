#!/usr/bin/env bash
# The cabinet's wheel, built from this checkout, and every wheel it needs (with the flash
# extra) for CPython 3.13 on aarch64, the Pi's Debian 13, downloaded: into DEST. Used by
# the virtual Pi's stick and by the flashable image.
#
#     scripts/wheels.sh DEST          (PYTHON: the Python whose pip is used)
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=$1
PYTHON=${PYTHON:-python3}
mkdir -p "$dest"
"$PYTHON" -m pip wheel --quiet --no-deps --wheel-dir "$dest" "$REPO"
platforms=(--platform manylinux2014_aarch64)
for v in $(seq 17 36); do platforms+=(--platform "manylinux_2_${v}_aarch64"); done
# What the cabinet needs, read from its own wheel's metadata.
cabinet_wheel=$(find "$dest" -name 'spit_cabinet-*.whl' -print -quit)
"$PYTHON" -m pip download --quiet --only-binary=:all: "${platforms[@]}" --python-version 3.13 \
  --dest "$dest" "${cabinet_wheel}[flash]"
