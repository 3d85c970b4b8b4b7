#!/usr/bin/env bash
# Installs Inkcard on a Debian machine with Python 3.11: the few system libraries that
# skia-python links against (with --test also chromium, for the playground's browser tests, and postgresql),
# then the project into ./.venv (editable, so fonts/ and the theme files are used in place).
# The README's set-up commands, CI and the Containerfile all run this one script.
# Usage: scripts/install.sh [--test | --deps-only]
# --deps-only installs only the dependencies pyproject.toml lists (with the gcs, s3 and postgres
# extras), not Inkcard itself: the Containerfile caches them in a layer built before it copies
# the sources.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"

extras=""
[ "${1:-}" = "--test" ] && extras="[test]"
deps_only=""
[ "${1:-}" = "--deps-only" ] && deps_only=1

"$python" -c 'import sys; assert sys.version_info >= (3, 11), "Inkcard needs Python 3.11 or newer"'

# skia-python's wheel needs EGL/GL/X11 client libraries at import time (no display is used).
missing=()
for pair in libEGL.so.1:libegl1 libGL.so.1:libgl1 libexpat.so.1:libexpat1 libX11.so.6:libx11-6; do
    ldconfig -p | grep -q "${pair%%:*}" || missing+=("${pair##*:}")
done
"$python" -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
# The playground's browser tests drive Debian's chromium through Playwright (never a browser
# download of Playwright's own).
if [ -n "$extras" ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
# The credit and API suites also run against a real PostgreSQL that the tests start themselves
# (initdb in a temporary folder): Debian's server binaries, never a running system service.
if [ -n "$extras" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    missing+=(postgresql)
fi
# The AI-label tests read each theme's visible label by OCR (tests/layout/test_aigc.py).
if [ -n "$extras" ] && ! command -v tesseract >/dev/null; then
    missing+=(tesseract-ocr tesseract-ocr-chi-sim)
fi
if [ -n "$extras" ] && command -v tesseract >/dev/null && ! tesseract --list-langs 2>/dev/null | grep -qx chi_sim; then
    missing+=(tesseract-ocr-chi-sim)
fi
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
if [ -n "$deps_only" ]; then
    # The image serves every engine: the optional extras' clients (gcs, s3, postgres) too.
    mapfile -t deps < <(.venv/bin/python -c 'import tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = project["optional-dependencies"]
print("\n".join(project["dependencies"] + extras["gcs"] + extras["s3"] + extras["postgres"]))')
    .venv/bin/python -m pip install -q --disable-pip-version-check "${deps[@]}"
    echo "inkcard's dependencies installed in .venv"
    exit 0
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extras}"
# Byte-compile our own sources now: an environment with PYTHONDONTWRITEBYTECODE (common in
# containers) would otherwise compile them on every `inkcard render`, ~0.1 s of cold start.
.venv/bin/python -m compileall -q src
echo "inkcard installed in .venv"
