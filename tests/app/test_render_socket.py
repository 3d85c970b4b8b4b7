"""The render processes start under any TMPDIR: their forkserver's Unix socket lives in a
folder of multiprocessing's, whose path Linux caps at 107 bytes. Under a longer TMPDIR (a
pytest-xdist tmp_path is one) the workers used to never start, and /readyz answered 503."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
START_ONE = """
import multiprocessing.process, os, sys
from inkcard.app.render.process import forkserver_context
context = forkserver_context()
child = context.Process(target=os.getpid)
child.start()
child.join(120)
print(child.exitcode, multiprocessing.process.current_process()._config["tempdir"])
"""


def test_a_worker_starts_under_a_tmpdir_too_long_for_a_socket(tmp_path: Path) -> None:
    long_temp = tmp_path / ("t" * 110)
    long_temp.mkdir()
    env = {**os.environ, "TMPDIR": str(long_temp), "PYTHONPATH": str(REPO / ".dev")}
    done = subprocess.run(
        [sys.executable, "-c", START_ONE],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,  # only keeps a hang from hanging the suite
        check=False,
    )
    assert done.returncode == 0, done.stderr
    exitcode, folder = done.stdout.split()
    assert exitcode == "0", done.stderr
    assert len(folder) + len("/listener-XXXXXXXX") <= 107
    assert not Path(folder).exists()  # removed when the service ended
    assert list(long_temp.iterdir()) == []
