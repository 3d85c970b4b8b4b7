"""Environment (``INKCARD_*``) → one frozen ``Settings`` record.

`record` is the record (its fields, defaults and what they derive), `checks` what each
setting may hold and the refusal that names it, and `environment` reads the variables: it is
the only module that reads the process environment. Every other module receives a
``Settings``.
"""

from .checks import LOG_LEVELS, MIN_RENDER_MEMORY_MB, database_shown, refusal
from .environment import (
    MULTIPROC_DIR,
    default_home,
    export_for_workers,
    load_settings,
    metrics_dir,
    share_metrics_in,
)
from .record import FETCH_MAX_BYTES, MIB, Settings, SettingsError, variable

__all__ = [
    "FETCH_MAX_BYTES",
    "LOG_LEVELS",
    "MIB",
    "MIN_RENDER_MEMORY_MB",
    "MULTIPROC_DIR",
    "Settings",
    "SettingsError",
    "database_shown",
    "default_home",
    "export_for_workers",
    "load_settings",
    "metrics_dir",
    "refusal",
    "share_metrics_in",
    "variable",
]
