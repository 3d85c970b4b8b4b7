#!/usr/bin/env bash
# An installed virtualenv → the same virtualenv without the files no Inkcard path reads:
# the Containerfile runs it on the image's .venv after scripts/install.sh (the README's
# set-up and CI keep everything). One line per removal, each saying why it is safe; it
# prints what each line freed. A line that finds nothing (a dependency moved its files)
# is reported, not fatal: tests/test_container.py's size ceiling notices a prune that
# stopped working. docs/decisions/operations.md, "The container", has the measurements.
# Usage: scripts/prune-venv.sh [VENV]   (default: .venv)
set -euo pipefail
shopt -s nullglob

venv="$(cd "${1:-.venv}" && pwd)"
sites=("$venv"/lib/python3.*/site-packages)
[ ${#sites[@]} -eq 1 ] || { echo "prune-venv: no single site-packages under $venv" >&2; exit 1; }
cd "${sites[0]}"
freed_total=0

# prune WHY PATH...: removes the files and folders named (those that exist), and says how
# much that freed.
prune() {
    local why="$1" bytes=0 path present=()
    shift
    for path in "$@"; do if [ -e "$path" ]; then present+=("$path"); fi; done
    if [ ${#present[@]} -gt 0 ]; then
        bytes="$(du -scb "${present[@]}" | tail -1 | cut -f1)"
        rm -rf -- "${present[@]}"
    fi
    freed_total=$((freed_total + bytes))
    printf 'prune-venv: %6.1f MB  %s\n' "$(echo "$bytes" | awk '{print $1 / 1e6}')" "$why"
}

# folders_but DIR KEEP... / files_but DIR KEEP...: the folders (files) right in DIR except
# those named KEEP (and __pycache__, __init__.py, which keep DIR a package).
folders_but() { entries_but -d "$@"; }
files_but() { entries_but -f "$@"; }
entries_but() {
    local test="$1" dir="$2" entry name keep
    shift 2
    for entry in "$dir"/*; do
        name="${entry##*/}"
        case "$name" in __init__.py | __pycache__) continue ;; esac
        [ "$test" "$entry" ] || continue
        for keep in "$@"; do [ "$name" = "$keep" ] && continue 2; done
        printf '%s\0' "$entry"
    done
}

# found PATTERN...: regular files under site-packages whose names match any PATTERN.
found() {
    local args=() pattern
    for pattern in "$@"; do args+=(${args[@]:+-o} -name "$pattern"); done
    find . -type f \( "${args[@]}" \) -print0
}

# The editable install of Inkcard is one .pth line: nothing installs at run time.
before="$(du -sb "$venv/lib" 2>/dev/null | cut -f1 || true)"
if "$venv/bin/python" -c 'import pip' 2>/dev/null; then
    "$venv/bin/python" -m pip uninstall -q -y setuptools pip
    echo "prune-venv: pip and setuptools uninstalled"
fi

# Test suites that wheels ship (numpy's, ~19 MB): pytest is not in the image to run them.
mapfile -d '' paths < <(find . -type d -name tests -prune -print0)
prune "test suites that wheels ship" "${paths[@]}"

# boto3 creates, for the s3 engine, one s3 client (app/storage/s3.py); botocore's credential
# chain creates sts (assume-role, web identity), sso and sso-oidc (SSO profiles) and signin
# (`aws login` profiles) clients. Every other AWS service's model is never loaded.
# The files beside these folders (endpoints.json, partitions.json, _retry.json,
# sdk-default-configuration.json) are read by every client and stay.
mapfile -d '' paths < <(folders_but botocore/data s3 sts sso sso-oidc signin)
prune "botocore models of AWS services other than s3, sts, sso, sso-oidc, signin" "${paths[@]}"
# boto3's resource definitions: the s3 engine uses a client, never a resource.
mapfile -d '' paths < <(folders_but boto3/data s3)
prune "boto3 resource models other than s3" "${paths[@]}"

# faker comes with polyfactory, litestar's example generator, which Inkcard leaves off
# (OpenAPIConfig.create_examples). polyfactory's Faker() loads the default locale en_US from
# each provider, the `en` ones they build on, and a provider's own default_locale where it
# has no en_US (bank: en_GB). The other locales are only loaded when asked for by name.
mapfile -d '' paths < <(for init in faker/providers/*/__init__.py; do
    own="$(sed -n 's/^default_locale = "\([A-Za-z_]*\)"$/\1/p' "$init")"
    folders_but "${init%/__init__.py}" en en_US ${own:+"$own"}
done | grep -zE '/[a-z]{2,3}(_[A-Z]{2})?$')  # locale folders only, not modules like sbn/rules.py
prune "faker locales other than en, en_US and the providers' defaults" "${paths[@]}"
# faker.sphinx documents the providers when Sphinx builds faker's docs.
prune "faker's Sphinx extension" faker/sphinx

# layout/text/words.py asks pyphen for en_US only; pyphen lists the folder at import and
# opens a dictionary when asked for its language.
mapfile -d '' paths < <(files_but pyphen/dictionaries hyph_en_US.dic README_hyph_en_US.txt)
prune "pyphen dictionaries other than en_US" "${paths[@]}"

# app/server/factory.py serves three files of Swagger UI (_SWAGGER_FILES: the bundle, the
# standalone preset, the CSS). Source maps are fetched only by an open browser's developer
# tools (which then show the minified code), the ES-module and plain builds never.
prune "Swagger UI's source maps and the builds /schema does not serve" \
    swagger_ui_bundle/vendor/swagger-ui-*/*.map \
    swagger_ui_bundle/vendor/swagger-ui-*/swagger-ui-es-bundle*.js \
    swagger_ui_bundle/vendor/swagger-ui-*/swagger-ui.js

# Cython's generated C beside the compiled modules (fontTools' cu2qu, qu2cu, bezierTools,
# iup, momentsPen, feaLib's lexer): Python imports the .so, or the .py as a fallback.
mapfile -d '' paths < <(find fontTools -type f -name '*.c' -print0 2>/dev/null)
prune "fontTools' Cython-generated C sources" "${paths[@]}"

# numpy's build tools: f2py wraps Fortran, distutils builds extensions, the headers,
# static libraries and Cython examples are for compiling against numpy. `import numpy`
# loads none of them (f2py only on `numpy.f2py`, never called).
prune "numpy's f2py, distutils, headers, static libraries and Cython examples" \
    numpy/f2py numpy/distutils numpy/_core/include numpy/_core/lib numpy/random/lib \
    numpy/random/_examples numpy/_pyinstaller
# pybind11 is a build-time library skia-python names as a requirement: its headers and
# CMake files are read by a C++ compiler, and the image has none.
prune "pybind11's C++ headers and CMake files" pybind11/include pybind11/share

# Pillow packs a card's PNG rows (layout/draw/png.py: `Image.frombuffer`, `tobytes` with the
# raw codec), which `PIL._imaging` does alone. Its other extension modules open AVIF, WebP
# and colour profiles, set text with FreeType, do image arithmetic and morphology and talk to
# Tk; none is imported by what Inkcard calls, and `_imaging` links none of their libraries
# (ldd: libtiff, libjpeg, libopenjp2, libxcb, libXau, libzstd, liblzma stay).
mapfile -d '' paths < <(found '_avif.*.so' '_imagingcms.*.so' '_imagingft.*.so' '_imagingtk.*.so' \
    '_imagingmath.*.so' '_imagingmorph.*.so' '_webp.*.so')
prune "Pillow's modules for AVIF, WebP, colour profiles, FreeType, Tk, image arithmetic" \
    "${paths[@]}" pillow.libs/libavif-* pillow.libs/libfreetype-* pillow.libs/libharfbuzz-* \
    pillow.libs/libwebp*-* pillow.libs/libsharpyuv-* pillow.libs/liblcms2-* \
    pillow.libs/libbrotli*-* pillow.libs/libpng16-*

# Type stubs are read by type checkers; Cython declarations and C headers by compilers.
# The import system loads .py, .pyc and .so files only.
mapfile -d '' paths < <(found '*.pyi')
prune "type stubs (*.pyi)" "${paths[@]}"
mapfile -d '' paths < <(found '*.pxd' '*.pyx' '*.pxi' '*.h' '*.hpp')
prune "Cython declarations and sources, C headers" "${paths[@]}"

# Debug information (DWARF sections) in compiled extension modules: read by
# debuggers, never by the import system or a traceback. `strip --strip-debug` removes only
# those sections; the code and its symbols stay. marisa-trie's module (layout/text/segment)
# is 5.3 MB of which 0.6 MB is code; fontTools', brotli's, PyYAML's and regex's carry theirs.
if command -v strip >/dev/null; then
    bytes=0
    while IFS= read -r -d '' path; do
        # only files with debug sections: strip rewrites the whole file, which breaks the
        # libraries auditwheel's patchelf laid out (numpy's OpenBLAS: "not page-aligned").
        # The sections are read whole before they are matched: `readelf | grep -q` under
        # pipefail failed whenever grep quit before readelf had written all (SIGPIPE), so
        # a module kept its debug sections by chance (fontTools 13.4 or 23.5 MB by build).
        sections="$(readelf -S "$path" 2>/dev/null || true)"
        [[ $sections == *.debug_info* ]] || continue
        size="$(stat -c %s "$path")"
        strip --strip-debug "$path"
        bytes=$((bytes + size - $(stat -c %s "$path")))
    done < <(find . -type f -name '*.so' -not -path '*.libs/*' -print0)
    freed_total=$((freed_total + bytes))
    printf 'prune-venv: %6.1f MB  %s\n' "$(echo "$bytes" | awk '{print $1 / 1e6}')" \
        "debug sections of compiled modules"
else
    echo "prune-venv: no strip (binutils): compiled modules keep their debug sections"
fi

after="$(du -sb "$venv/lib" | cut -f1)"
printf 'prune-venv: %.1f MB freed by the list above; %s: %.1f MB -> %.1f MB\n' \
    "$(echo "$freed_total" | awk '{print $1 / 1e6}')" "$venv/lib" \
    "$(echo "${before:-0}" | awk '{print $1 / 1e6}')" "$(echo "$after" | awk '{print $1 / 1e6}')"
