"""The container image's build, started when a run that includes tests/test_container.py
begins, so its slow part (apt, debootstrap, every wheel downloaded: minutes of waiting on the
network) overlaps the other tests instead of following them; and the container test itself
placed in the run's middle (`place`), not at its end.

``scripts/container-check.sh --build-only`` takes the check's machine-wide lock; the test's
own full check waits on that lock and then finds the base and the image's layers cached. The
test stays the judge: a failed build here is built again, and its failure reported, there.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CONTAINER_TEST = REPO / "tests" / "test_container.py"
LOG = REPO / "tests" / "_output" / "container-prebuild.log"
BUILD = pytest.StashKey[subprocess.Popen[bytes]]()


def selects_the_container_test(config: pytest.Config) -> bool:
    """Whether this run will run tests/test_container.py: it is under the paths asked for,
    and no ``-k`` or ``-m`` (``-m "not slow"`` leaves it out) narrows the run."""
    if config.option.keyword or config.option.markexpr:
        return False
    paths = [Path(arg.split("::")[0]).resolve() for arg in config.args] or [REPO / "tests"]
    return any(path == CONTAINER_TEST or path in CONTAINER_TEST.parents for path in paths)


def start(config: pytest.Config) -> None:
    """Start the build in the background, in the process that runs the session (not in each
    pytest-xdist worker), as root only (the check needs it)."""
    if hasattr(config, "workerinput") or os.geteuid() != 0:
        return
    if not selects_the_container_test(config):
        return
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with LOG.open("wb") as log:
        config.stash[BUILD] = subprocess.Popen(
            [str(REPO / "scripts" / "container-check.sh"), "--build-only"],
            cwd=REPO,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(config: pytest.Config) -> None:
    """A build still running when the session ends (the run was cut short) is stopped."""
    build = config.stash.get(BUILD, None)
    if build is not None and build.poll() is None:
        build.terminate()  # the script's trap removes what it made
        build.wait(timeout=60)


# Where the container test goes in the run's order: late enough for the prebuild (about a
# third of a run) to have finished, early enough that its image starts (about 1.5 minutes)
# overlap the other tests rather than end the run alone.
PLACE = 0.4


def place(items: list[pytest.Item]) -> None:
    """The run's order for pytest-xdist's file-at-a-time scheduling: the test files with the
        most tests first (what xdist's own reordering does, turned off in pyproject's addopts
        because it would put the one-test container file last), the container test after `PLACE`
    of the tests.
        The order within a file is kept."""
    files: dict[Path, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(Path(str(item.path)), []).append(item)
    container = files.pop(CONTAINER_TEST, [])
    ordered = sorted(files.values(), key=len, reverse=True)  # stable: ties keep their order
    if container:
        before, count, limit = 0, 0, PLACE * sum(len(group) for group in ordered)
        while before < len(ordered) and count + len(ordered[before]) <= limit:
            count += len(ordered[before])
            before += 1
        ordered.insert(before, container)
    items[:] = [item for group in ordered for item in group]
