"""``python -m app.cli``: the ``inkcard`` command."""

import sys

from app.cli import main

sys.exit(main())
