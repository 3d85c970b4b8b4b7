#!/usr/bin/env bash
# Builds the Containerfile on this machine and proves the image serves cards, with no image
# registry and no `podman run` (on machines without them; docs/decisions/operations.md, "The container"):
#   1. installs podman and debootstrap with apt if they are missing;
#   2. makes a stand-in for the FROM image with debootstrap (Debian bookworm with python3,
#      slimmed like Docker's Debian images), cached in $INKCARD_BASE_CACHE, gives it this
#      machine's CA bundle and pip configuration so the build reaches PyPI, and imports it
#      under the exact name the FROM line uses;
#   3. runs `podman build --isolation=chroot` and reports the image size, its largest
#      layers and its largest Python packages (also written to $INKCARD_CHECK_REPORT, if set);
#   4. mounts the image and starts its CMD under chroot with the image's Env, WorkingDir and
#      User (a fresh /data folder, owned by that user, as the volume, INKCARD_HOST/PORT set to
#      a free loopback port), checks it does not run as root,
#      then checks /healthz, /readyz, the Swagger page's files, that the first-start key is
#      printed, and one card (POST /api/generate) and one article's HTML made with that key;
#      prints the time from start to /healthz;
#   5. runs, inside the image as its user, the clients of what scripts/prune-venv.sh thinned
#      (boto3 and the services of botocore's credential chain, faker through polyfactory,
#      pyphen's en_US, numpy);
#   6. starts the image again once per engine the environment offers, and makes a card there:
#      INKCARD_CHECK_S3=http://127.0.0.1:PORT/BUCKET (an S3 API such as moto's, bucket made),
#      INKCARD_CHECK_GCS=http://127.0.0.1:PORT/BUCKET (a GCS emulator),
#      INKCARD_CHECK_POSTGRES=postgresql://… (an empty database on loopback).
# Everything it started, mounted or made is removed at the end except the images (kept as the
# next run's cache). Run as root. Usage: scripts/container-check.sh [--build-only] [SAVE_CARD_AS.png]
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${INKCARD_BASE_CACHE:-/var/cache/inkcard-base}"
mirror="${INKCARD_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
image="${INKCARD_CHECK_IMAGE:-localhost/inkcard:check}"
# --build-only: steps 1 to 3, then stop (the test suite starts it first, so the slow part
# overlaps the other tests; its own check then finds the base and the layers cached).
build_only=""
if [ "${1:-}" = "--build-only" ]; then build_only=1; shift; fi
card_out="${1:-}"
report_file="${INKCARD_CHECK_REPORT:-}"
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
    say "built $image in $((SECONDS - started)) s"
}

# reported LINE...: says each line and keeps it for $INKCARD_CHECK_REPORT (CI prints that
# file: pytest captures this script's output).
reported() {
    local line
    for line in "$@"; do
        say "$line"
        if [ -n "$report_file" ]; then printf '%s\n' "$line" >>"$report_file"; fi
    done
}

# The image's size and its largest layers, in the sizes `podman history` gives (what a
# registry stores, uncompressed); the base image's layers are summed as one line.
report_size() {
    local lines
    mapfile -t lines < <(python3 - "$(podman image inspect --format '{{.Size}}' "$image")" \
        "$(podman history --no-trunc --format json "$image")" \
        "$(podman history --no-trunc --format json "$base")" <<'EOF'
import json, re, sys

size, layers, base_layers = int(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
ours = layers[: len(layers) - len(base_layers)]  # newest first: the base's layers come last
base = sum(layer["size"] for layer in base_layers)
print(f"image size: {size} bytes ({size / 1e6:.1f} MB: {base / 1e6:.1f} MB base image,"
      f" {(size - base) / 1e6:.1f} MB ours)")
print("largest layers:")
for layer in sorted(ours, key=lambda layer: -layer["size"])[:5]:
    if layer["size"] >= 100_000:
        step = re.sub(r"\s+", " ", layer["CreatedBy"].replace("/bin/sh -c #(nop) ", ""))
        step = re.sub(r" (dir|file):[0-9a-f]{64}", "", step).strip()
        print(f"  {layer['size'] / 1e6:7.1f} MB  {step[:88]}")
print(f"  {base / 1e6:7.1f} MB  the base image, {len(base_layers)} layer(s)")
EOF
    )
    reported "${lines[@]}"
}

# The largest entries of the image's site-packages (apparent sizes), to tell what grew.
report_packages() {
    local site line
    site="$(echo "$root"/app/.venv/lib/python3.*/site-packages)"
    # awk reads to the end (no `head`): an early close would fail the pipe (SIGPIPE).
    line="$(du -sb "$site"/* | sort -rn |
        awk 'NR <= 8 { n = split($2, part, "/"); printf "%s%s %.1f", sep, part[n], $1 / 1e6; sep = ", " }')"
    reported "largest in site-packages (MB): $line"
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Undoes mount_root's mounts; also run at start, for a check that was killed outright.
release_root() {
    local root="$1" dir
    for dir in tmp dev proc data; do
        if mountpoint -q "$root/$dir"; then umount -R -l "$root/$dir"; fi
    done
    podman image unmount "$image" >/dev/null 2>&1 || true
    rm -f "$cache/mounted"
}

stop_server() {
    if [ -n "${server:-}" ] && kill -0 "$server" 2>/dev/null; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    server=""
}

cleanup() {
    local code=$?
    stop_server
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

# The image as `podman run -v DATA:/data` would see it: mounted (read-only, so the service
# must write only /data and /tmp), a fresh folder on /data owned by the image's USER,
# /proc, /dev and a tmpfs /tmp. Sets root, env_lines, cmd, workdir and userspec.
mount_root() {
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
    user="$(image_config User)"
    userspec=()
    if [ -n "$user" ]; then
        chown "$user" "$work/data"
        userspec=(--userspec="$user")
    fi
}

# in_image VAR=VALUE... -- ARGV...: becomes ARGV run in the image as its user, in its
# WorkingDir, with exactly its Env plus the assignments given. It execs, so call it in a
# subshell: `in_image ... &` (then $! is ARGV's process) or `(in_image ...)`. The lock
# (fd 9) is closed: a stray server must not hold up the next check.
in_image() {
    local extra=()
    while [ "$1" != "--" ]; do extra+=("$1"); shift; done
    shift
    exec 9>&- env -i "${env_lines[@]}" "${extra[@]}" \
        setpriv --pdeathsig TERM chroot "${userspec[@]}" "$root" \
        /bin/sh -c 'cd "$0" && exec "$@"' "${workdir:-/}" "$@"
}

# The image's CMD under chroot on 127.0.0.1:PORT, with the assignments given added to its Env.
# --pdeathsig: the server stops with this script even if the script is killed outright.
start_server() {
    local port="$1"
    shift
    # The added settings are not shown: a database URL may hold a password.
    say "starting ${cmd[*]} in $workdir as user ${user:-root} under chroot on 127.0.0.1:$port"
    in_image INKCARD_HOST=127.0.0.1 INKCARD_PORT="$port" "$@" -- "${cmd[@]}" >"$work/server.log" 2>&1 &
    server=$!
}

# /healthz, /readyz, the Swagger page's files, the first-start key in the output, and one
# card made with it (a real PNG, fetched from where the answer says it is stored).
probe_server() {
    python3 - "$1" "$work/server.log" "$server" "$2" <<'EOF'
import json, os, re, sys, time, urllib.request

port, log_path, pid, card_out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
base = f"http://127.0.0.1:{port}"
started = time.monotonic()

def fail(why):
    print(open(log_path, errors="replace").read()[-4000:])
    print(f"container-check: FAILED: {why}", flush=True)
    sys.exit(1)

def wait_for(path, pause):
    while True:
        try:
            with urllib.request.urlopen(f"{base}{path}", timeout=5) as answer:
                if answer.status == 200:
                    return time.monotonic() - started
        except OSError:
            pass
        if not os.path.exists(f"/proc/{pid}"):
            fail(f"the server exited before {path} answered")
        if time.monotonic() - started > 120:
            fail(f"{path} did not answer 200 within 120 s")
        time.sleep(pause)

print(f"container-check: /healthz answered {wait_for('/healthz', 0.05):.2f} s after start")
# Readiness waits for the render processes to warm: polled less often (each poll is logged).
print(f"container-check: /readyz answered 200 {wait_for('/readyz', 0.5):.2f} s after start")
uid = next(
    line.split()[1] for line in open(f"/proc/{pid}/status") if line.startswith("Uid:")
)
if uid == "0":
    fail("the server runs as root")
print(f"container-check: the server runs as uid {uid}")

page = urllib.request.urlopen(f"{base}/schema", timeout=30).read().decode()
assets = re.findall(r"/schema/assets/[\w.-]+", page)
if len(assets) != 3:
    fail(f"the Swagger page at /schema names {assets}, not its three files")
for asset in assets:
    with urllib.request.urlopen(f"{base}{asset}", timeout=30) as answer:
        if len(answer.read()) < 1000:
            fail(f"{asset} is nearly empty")
print(f"container-check: /schema and its {len(assets)} files are served")

printed = open(log_path, errors="replace").read()
found = re.search(r"Created the first API key.*?\n\s*\n\s+(\S+)\n", printed)
if not found:
    fail("the first-start key is not in the server's output")
key = found.group(1)
# Each part needs its own libraries: a Chinese heading (marisa-trie), a Japanese one
# (budoux), code (pygments), math
# (ziamath), a flowchart (grandalf), emoji, long English words (pyphen).
markdown = """# Hello from the container

## 容器里画出的第一张卡片标题长得要在词与词之间换行才能放下

## コンテナの中で描いた最初のカードは見出しが長いので言葉の切れ目で折り返す

One card, drawn inside the image, with $E = mc^2$ and internationalization.

```python
print("hello")
```

```mermaid
flowchart LR
  A[Markdown] --> B[Card]
```

Done 🎉
"""

def post(path, fields):
    request = urllib.request.Request(
        f"{base}{path}", data=json.dumps(fields).encode(), method="POST",
        headers={"x-api-key": key, "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)

try:
    images = post("/api/generate", {"markdown": markdown})["images"]
    with urllib.request.urlopen(images[0]["url"], timeout=30) as answer:
        png = answer.read()
except OSError as exc:
    fail(f"a card through POST /api/generate with the printed key: {exc}")
try:  # the article path: premailer, cssutils, lxml, nh3
    article = post("/api/platform/convert-and-draft", {"markdown": markdown})
except OSError as exc:
    fail(f"an article through POST /api/platform/convert-and-draft: {exc}")
if not article.get("success") or "<svg" not in article.get("html", ""):
    fail(f"the article's HTML has no drawn math or diagram: {str(article)[:300]}")
if not png.startswith(b"\x89PNG\r\n\x1a\n"):
    fail(f"{images[0]['url']} is not a PNG")
if card_out:
    with open(card_out, "wb") as out:
        out.write(png)
print(f"container-check: card {images[0]['url']}: {len(png)} bytes of PNG, made with the printed key;"
      f" an article of {len(article['html'])} bytes of HTML")
EOF
}

# What scripts/prune-venv.sh thinned, used inside the image as its user: boto3's s3 client
# (the s3 engine's, built by app.storage.s3) and the clients botocore's credential chain
# makes, a request signed for each; polyfactory's examples (faker, en_US); pyphen's en_US
# hyphenation; numpy. No network: the storage engines' traffic is the engine runs' job.
check_pruned() {
    (in_image AWS_ACCESS_KEY_ID=inkcard-check AWS_SECRET_ACCESS_KEY=inkcard-check-secret \
        AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent \
        AWS_EC2_METADATA_DISABLED=true -- /app/.venv/bin/python -) <<'EOF' || die "a pruned package failed in the image"
import dataclasses

import boto3
import numpy
import pyphen
from polyfactory.factories import DataclassFactory

from inkcard.app.storage.s3 import S3Storage

storage = S3Storage("inkcard-check", "", region="us-east-1")
url = storage._client.generate_presigned_url(
    "get_object", Params={"Bucket": "inkcard-check", "Key": "screenshots/a.png"}
)
assert url.startswith("https://inkcard-check.s3.amazonaws.com/screenshots/a.png?"), url
for service in ("sts", "sso", "sso-oidc", "signin"):  # botocore's credential chain
    client = boto3.session.Session().client(service, region_name="us-east-1")
    assert client.meta.service_model.operation_names, service
print("container-check: in the image: s3 client signs, sts/sso/sso-oidc/signin clients build")


@dataclasses.dataclass
class Example:
    name: str
    count: int


built = DataclassFactory.create_factory(Example).build()
assert isinstance(built.name, str) and isinstance(built.count, int)
points = pyphen.Pyphen(lang="en_US").positions("hyphenation")
assert points, points
assert float(numpy.linalg.norm(numpy.array([3.0, 4.0]))) == 5.0
print("container-check: in the image: polyfactory/faker examples, pyphen en_US, numpy work")
EOF
}

# One more start with an engine's settings; fresh SQLite file unless the run names a database.
engine_run() {
    local what="$1"
    shift
    stop_server
    local port
    port="$(free_port)"
    say "engine run: $what"
    start_server "$port" "$@"
    probe_server "$port" ""
    stop_server
}

# The engines the environment offers (see the header), each in a start of its own.
engine_runs() {
    local endpoint bucket throwaway_aws=(AWS_ACCESS_KEY_ID=inkcard-check
        AWS_SECRET_ACCESS_KEY=inkcard-check-secret AWS_CONFIG_FILE=/nonexistent
        AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_EC2_METADATA_DISABLED=true)
    if [ -n "${INKCARD_CHECK_S3:-}" ]; then
        endpoint="${INKCARD_CHECK_S3%/*}" bucket="${INKCARD_CHECK_S3##*/}"
        engine_run "s3 storage at $endpoint, bucket $bucket" INKCARD_DATABASE=/data/s3.db \
            INKCARD_STORAGE=s3 INKCARD_S3_ENDPOINT="$endpoint" INKCARD_S3_BUCKET="$bucket" \
            INKCARD_S3_REGION=us-east-1 INKCARD_S3_ADDRESSING=path "${throwaway_aws[@]}"
    fi
    if [ -n "${INKCARD_CHECK_GCS:-}" ]; then
        endpoint="${INKCARD_CHECK_GCS%/*}" bucket="${INKCARD_CHECK_GCS##*/}"
        engine_run "gcs storage at $endpoint, bucket $bucket" INKCARD_DATABASE=/data/gcs.db \
            INKCARD_STORAGE=gcs INKCARD_GCS_BUCKET="$bucket" INKCARD_GCS_PROJECT=inkcard-check \
            STORAGE_EMULATOR_HOST="$endpoint" INKCARD_PUBLIC_URL="$INKCARD_CHECK_GCS"
    fi
    if [ -n "${INKCARD_CHECK_POSTGRES:-}" ]; then
        engine_run "PostgreSQL" INKCARD_DATABASE="$INKCARD_CHECK_POSTGRES" \
            INKCARD_STORAGE_DIR=/data/postgres-files
    fi
}

# One check at a time per machine: two would share the cached base and the image tags.
mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9
if [ -f "$cache/mounted" ]; then release_root "$(cat "$cache/mounted")"; fi
work="$(mktemp -d /tmp/inkcard-container-check.XXXXXX)"
trap cleanup EXIT
trap 'exit 143' TERM INT HUP
if [ -n "$report_file" ]; then : >"$report_file"; fi
install_tools
make_rootfs
import_base
build_image
if [ -n "$build_only" ]; then say "built (--build-only)"; exit 0; fi
report_size
mount_root
report_packages
port="$(free_port)"
start_server "$port"
probe_server "$port" "$card_out" | tee "$work/probe.log"
grep -h "/healthz answered" "$work/probe.log" | sed 's/^container-check: //' >>"${report_file:-/dev/null}"
check_pruned
engine_runs
say "OK"
