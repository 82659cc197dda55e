#!/usr/bin/env bash
# Checks the import layers of the core crate against scripts/layers.txt: each module imports
# only from its own layer and the layers below, and no new import cycle joins two modules.
# `scripts/layers.sh --help` for the options; the work is done by scripts/layers.py (Python 3,
# standard library only).
set -euo pipefail
if ! command -v python3 >/dev/null 2>&1; then
    echo "layers.sh: python3 not found (Debian package python3)" >&2
    exit 2
fi
exec python3 "$(dirname "$0")/layers.py" "$@"
