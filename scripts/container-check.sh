#!/usr/bin/env bash
# Builds the Containerfile on this machine and proves the image serves cards, with no image
# registry and no `podman run` (on machines without them; docs/decisions/operations.md, "The container"):
#   1. installs podman and debootstrap with apt if they are missing;
#   2. makes a stand-in for the FROM image with debootstrap (Debian bookworm with python3,
#      slimmed like Docker's Debian images), cached in $INKCARD_BASE_CACHE, gives it this
#      machine's CA bundle and pip configuration so the build reaches PyPI, and imports it
#      under the exact name the FROM line uses;
#   3. runs `podman build --isolation=chroot` and prints the image size;
#   4. mounts the image and starts its CMD under chroot with the image's Env, WorkingDir and
#      User (a fresh /data folder, owned by that user, as the volume, INKCARD_HOST/PORT set to
#      a free loopback port), checks it does not run as root,
#      then checks /healthz, that the first-start key is printed, and one card made with that
#      key through POST /api/generate; prints the time from start to /healthz.
# Everything it started, mounted or made is removed at the end except the images (kept as the
# next run's cache). Run as root. Usage: scripts/container-check.sh [SAVE_CARD_AS.png]
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${INKCARD_BASE_CACHE:-/var/cache/inkcard-base}"
mirror="${INKCARD_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
image="${INKCARD_CHECK_IMAGE:-localhost/inkcard:check}"
card_out="${1:-}"
# The stand-in is tagged exactly as the first FROM names it (Docker Hub's long form).
from="$(awk 'toupper($1) == "FROM" { print $2; exit }' Containerfile)"
case "$from" in */*/*) base="$from" ;; */*) base="docker.io/$from" ;; *) base="docker.io/library/$from" ;; esac

say() { printf 'container-check: %s\n' "$*"; }
die() { say "FAILED: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, chroot and mount need it)"

install_tools() {
    local missing=()
    command -v podman >/dev/null || missing+=(podman)
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    [ ${#missing[@]} -eq 0 ] && return
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    local apt=(apt-get -o DPkg::Lock::Timeout=600 -y -qq)
    "${apt[@]}" install --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
        "${apt[@]}" update && "${apt[@]}" install --no-install-recommends "${missing[@]}" >/dev/null
    }
}

# Docker's Debian images keep no docs, man pages, translations or downloaded .debs; the
# stand-in does the same so the image we measure weighs what it would on the real base.
slim_like_docker_debian() {
    local root="$1"
    cat >"$root/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
EOF
    cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Acquire::Languages "none";
EOF
    rm -f "$root/etc/apt/sources.list"
    cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    rm -rf "$root"/usr/share/{man,groff,info,lintian,locale}/* \
        "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin "$root"/var/lib/apt/lists/*
}

make_rootfs() {
    [ -f "$cache/rootfs.ok" ] && return
    say "debootstrap bookworm into $cache/rootfs (once; later runs reuse it)"
    rm -rf "$cache/rootfs" "$cache/rootfs.new"
    debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates,netbase,tzdata \
        bookworm "$cache/rootfs.new" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
        die "debootstrap failed; see $cache/debootstrap.log"
    slim_like_docker_debian "$cache/rootfs.new"
    mv "$cache/rootfs.new" "$cache/rootfs"
    date -u +%FT%TZ >"$cache/rootfs.ok"
}

# This machine's package clients: the CA bundle its certificate variables name (a proxy may
# sign PyPI's certificates) and pip's system-wide configuration. apt needs neither (http).
give_client_setup() {
    local root="$1" bundle=""
    for bundle in "${PIP_CERT:-}" "${REQUESTS_CA_BUNDLE:-}" "${SSL_CERT_FILE:-}" \
        "${CURL_CA_BUNDLE:-}" /etc/ssl/certs/ca-certificates.crt; do
        [ -f "$bundle" ] && break
    done
    if [ -f "$bundle" ]; then
        cp "$bundle" "$root/etc/ssl/certs/ca-certificates.crt"
        mkdir -p "$root/$(dirname "$bundle")" && cp "$bundle" "$root/$bundle"
    fi
    rm -rf "$root/etc/pip.conf" "$root/etc/xdg/pip"
    [ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/pip.conf"
    [ -d /etc/xdg/pip ] && mkdir -p "$root/etc/xdg" && cp -r /etc/xdg/pip "$root/etc/xdg/pip"
    return 0
}

import_base() {
    local label
    label="$(podman image inspect --format '{{index .Labels "inkcard.stand-in"}}' "$base" 2>/dev/null)" ||
        label="absent"
    if [ "$label" != "absent" ] && [ -z "$label" ]; then
        say "using the real $base found in local storage"
        return
    fi
    give_client_setup "$cache/rootfs"
    local stamp
    stamp="$( (cat "$cache/rootfs.ok"; cat "$cache/rootfs/etc/ssl/certs/ca-certificates.crt";
        cat "$cache/rootfs/etc/pip.conf" "$cache"/rootfs/etc/xdg/pip/* 2>/dev/null) | sha256sum | cut -c1-16)"
    [ "$label" = "$stamp" ] && return
    say "importing the stand-in base as $base"
    tar -C "$cache/rootfs" -c . | podman import --quiet \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV LANG=C.UTF-8' --change 'CMD ["python3"]' \
        --change "LABEL inkcard.stand-in=$stamp" - "$base" >/dev/null
}

# The build stage is tagged too, so the layers of this build stay as the next one's cache
# while those of the build before are removed rather than piled up.
build_image() {
    local started=$SECONDS tag target old=() size
    for tag in "$image-build" "$image"; do
        old+=("$(podman image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)")
    done
    say "podman build --isolation=chroot"
    for target in build ""; do
        podman build --isolation=chroot --pull=never --force-rm -f Containerfile \
            ${target:+--target "$target"} -t "$image${target:+-$target}" . >"$work/build.log" 2>&1 ||
            { tail -40 "$work/build.log" >&2; die "podman build failed"; }
    done
    local current=" $(podman image inspect --format '{{.Id}}' "$image-build" "$image" | tr '\n' ' ')"
    for id in "${old[@]}"; do
        if [ -n "$id" ] && [[ "$current" != *" $id "* ]]; then podman rmi "$id" >/dev/null 2>&1 || true; fi
    done
    size="$(podman image inspect --format '{{.Size}}' "$image")"
    say "built $image in $((SECONDS - started)) s"
    say "image size: $size bytes"
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Undoes start_server's mounts; also run at start, for a check that was killed outright.
release_root() {
    local root="$1" dir
    for dir in tmp dev proc data; do
        if mountpoint -q "$root/$dir"; then umount -R -l "$root/$dir"; fi
    done
    podman image unmount "$image" >/dev/null 2>&1 || true
    rm -f "$cache/mounted"
}

cleanup() {
    local code=$?
    if [ -n "${server:-}" ] && kill -0 "$server" 2>/dev/null; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    if [ -f "$cache/mounted" ]; then release_root "$(cat "$cache/mounted")"; fi
    rm -rf "${work:?}"
    exit "$code"
}

# One field of the image's config: a list as NUL-separated items, a string as itself.
image_config() {
    podman image inspect "$image" | python3 -c '
import json, sys
value = json.load(sys.stdin)[0]["Config"].get(sys.argv[1]) or ""
sys.stdout.write("".join(f"{item}\0" for item in value) if isinstance(value, list) else value)
' "$1"
}

# The image's CMD under chroot: what `podman run -p PORT:PORT -v DATA:/data` would start.
start_server() {
    local port="$1" env_lines cmd workdir
    local root
    root="$(podman image mount "$image")"
    echo "$root" >"$cache/mounted"
    mkdir -p "$work/data"
    mount --bind "$work/data" "$root/data"
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs tmpfs "$root/tmp"
    mapfile -d '' env_lines < <(image_config Env)
    mapfile -d '' cmd < <(image_config Cmd)
    workdir="$(image_config WorkingDir)"
    # The image's USER, as `podman run` would use it; the volume is given to that user as a
    # fresh named volume would be.
    local user userspec=()
    user="$(image_config User)"
    if [ -n "$user" ]; then
        chown "$user" "$work/data"
        userspec=(--userspec="$user")
    fi
    say "starting ${cmd[*]} in $workdir as user ${user:-root} under chroot on 127.0.0.1:$port"
    # --pdeathsig: the server stops with this script even if the script is killed outright.
    env -i "${env_lines[@]}" INKCARD_HOST=127.0.0.1 INKCARD_PORT="$port" \
        setpriv --pdeathsig TERM chroot "${userspec[@]}" "$root" /bin/sh -c 'cd "$0" && exec "$@"' "${workdir:-/}" "${cmd[@]}" \
        >"$work/server.log" 2>&1 &
    server=$!
}

# /healthz, the first-start key in the output, and one card made with it (a real PNG).
probe_server() {
    python3 - "$1" "$work/server.log" "$server" "$card_out" <<'EOF'
import json, os, re, sys, time, urllib.request

port, log_path, pid, card_out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
base = f"http://127.0.0.1:{port}"
started = time.monotonic()

def fail(why):
    sys.stdout.write(open(log_path, errors="replace").read()[-4000:])
    sys.exit(f"container-check: FAILED: {why}")

while True:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=5) as answer:
            if answer.status == 200:
                break
    except OSError:
        pass
    if not os.path.exists(f"/proc/{pid}"):
        fail("the server exited before /healthz answered")
    if time.monotonic() - started > 120:
        fail("/healthz did not answer within 120 s")
    time.sleep(0.05)
print(f"container-check: /healthz answered {time.monotonic() - started:.2f} s after start")
uid = next(
    line.split()[1] for line in open(f"/proc/{pid}/status") if line.startswith("Uid:")
)
if uid == "0":
    fail("the server runs as root")
print(f"container-check: the server runs as uid {uid}")

printed = open(log_path, errors="replace").read()
found = re.search(r"Created the first API key.*?\n\s*\n\s+(\S+)\n", printed)
if not found:
    fail("the first-start key is not in the server's output")
key = found.group(1)
body = json.dumps({"markdown": "# Hello from the container\n\nOne card, drawn inside the image."})
request = urllib.request.Request(
    f"{base}/api/generate", data=body.encode(), method="POST",
    headers={"x-api-key": key, "Content-Type": "application/json"},
)
try:
    with urllib.request.urlopen(request, timeout=60) as answer:
        images = json.load(answer)["images"]
    with urllib.request.urlopen(images[0]["url"], timeout=30) as answer:
        png = answer.read()
except OSError as exc:
    fail(f"a card through POST /api/generate with the printed key: {exc}")
if not png.startswith(b"\x89PNG\r\n\x1a\n"):
    fail(f"{images[0]['url']} is not a PNG")
if card_out:
    with open(card_out, "wb") as out:
        out.write(png)
print(f"container-check: card {images[0]['fileName']}: {len(png)} bytes of PNG, made with the printed key")
EOF
}

# One check at a time per machine: two would share the cached base and the image tags.
mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9
if [ -f "$cache/mounted" ]; then release_root "$(cat "$cache/mounted")"; fi
work="$(mktemp -d /tmp/inkcard-container-check.XXXXXX)"
trap cleanup EXIT
trap 'exit 143' TERM INT HUP
install_tools
make_rootfs
import_base
build_image
port="$(free_port)"
start_server "$port"
probe_server "$port"
say "OK"
