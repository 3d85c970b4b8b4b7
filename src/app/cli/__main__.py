"""``python -m inkcard.app.cli``: the ``inkcard`` command."""

import sys

from inkcard.app.cli import main

sys.exit(main())
