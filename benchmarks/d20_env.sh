#!/usr/bin/env bash
# Create benchmarks/.d20-venv holding d20 1.1.2, the reference roller.
#
# d20 needs lark-parser ~=0.9, which installs a top-level `lark` module that
# clashes with the modern `lark` package fudgedice uses, so d20 lives in its
# own venv. Safe to run again: it does nothing when the venv already works.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.d20-venv"
py="$venv/bin/python"

# Exact pins: d20's own pins plus the versions pip resolved when this was
# written, so every machine gets the same reference.
pins=(d20==1.1.2 lark-parser==0.9.0 cachetools==8.0.1)

if [[ -x "$py" ]] && "$py" - <<'EOF' 2>/dev/null; then
from importlib.metadata import version

import d20

assert version("d20") == "1.1.2"
assert d20.roll("1d1").total == 1
EOF
    echo "d20 venv ready: $venv"
    exit 0
fi

python3 -m venv "$venv"
"$py" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
"$py" -c 'import d20; print("d20 venv ready:", d20.roll("4d6kh3+2"))'
