#!/usr/bin/env bash
# Set-up for benchmarks/bench_browser.py only (the service never needs any of this):
# Debian's Chromium and Node, Playwright's Python package in .venv (it drives the system
# Chromium through executable_path: no browser download), and Satori + resvg from npm into
# benchmarks/node/node_modules at the versions of its lockfile.
# Usage: scripts/install.sh && benchmarks/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/node ] || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[bench]"
(cd benchmarks/node && npm ci --no-audit --no-fund --loglevel=error)
echo "benchmark tools installed: chromium, playwright, satori, resvg"
