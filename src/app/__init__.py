"""Inkcard's HTTP service and command line, built on the `layout` engine and `themes`."""

import os

# numpy (pixels → PNG rows) never calls BLAS, but OpenBLAS starts a thread per core when
# numpy is imported: ~50 ms of CPU in every fresh `inkcard render`. One thread unless the
# operator chose otherwise.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
