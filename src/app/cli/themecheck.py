"""`inkcard themes list`: the card themes' IDs, labels and modes, and the article themes;
`inkcard themes check FILE`: what the service would make of one custom theme file, each
ignored declaration with its line and why, and code colours that miss their contrast."""

from __future__ import annotations

import argparse
import unicodedata
from pathlib import Path

import msgspec


def cmd_themes_check(args: argparse.Namespace) -> int:
    """What the service would make of one custom theme file; exit 1 when it is broken."""
    from inkcard import layout, themes
    from inkcard.themes.contrast import code_contrast
    from inkcard.themes.custom import read_theme_file

    try:
        found = read_theme_file(args.file)
    except layout.ThemeError as error:
        print(f"broken, would be skipped: {error}")
        return 1
    builtin = " (replaces the built-in theme)" if found.name in themes.names() else ""
    print(f"theme {found.name}{builtin}: {found.format} file {found.path}")
    modes = ", ".join(found.theme.modes) or "none"
    print(f"modes: {modes}; fingerprint {found.fingerprint[:16]}")
    for role, knobs in found.theme.roles.items():
        set_knobs = msgspec.structs.asdict(knobs)
        shown = {k: v for k, v in set_knobs.items() if v is not None}
        print(f"  {role}: {msgspec.json.encode(shown).decode()}")
    if found.theme.decorations:
        print(f"  decorations: {len(found.theme.decorations)}")
    if found.theme.colors:
        print(f"  colours: {msgspec.json.encode(found.theme.colors).decode()}")
    print(f"unsupported, ignored: {len(found.notes)}")
    for note in found.notes:
        print(f"  {note}")
    failures = code_contrast(found.theme)
    print(f"code colours under the contrast needed: {len(failures)}")
    for failure in failures:
        print(f"  {failure}")
    return 0


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _padded(text: str, columns: int) -> str:
    return text + " " * max(0, columns - _width(text))


def cmd_themes_list(_: argparse.Namespace) -> int:
    """Card themes (ID, label, modes: the first is the default) and the article themes; with
    ``INKCARD_THEMES_DIR`` set, the custom card themes too."""
    from inkcard import themes
    from inkcard.app.cli.render import theme_catalogue
    from inkcard.app.schema import ARTICLE_THEMES

    catalogue = theme_catalogue()
    rows = [("id", "label", "modes (the first is the default)")]
    for name in catalogue.names():
        modes = ", ".join(catalogue.modes(name)) or "-"
        rows.append((name, catalogue.get(name).label or name, modes))
    first, second = (max(_width(row[n]) for row in rows) + 2 for n in (0, 1))
    for theme_id, label, modes in rows:
        print(f"{_padded(theme_id, first)}{_padded(label, second)}{modes}".rstrip())
    installed = set(themes.article_names())
    articles = [name for name in ARTICLE_THEMES if name in installed]
    print(f"\narticle themes (convert-and-draft, the first is the default): {', '.join(articles)}")
    return 0


def add_themes_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    commands = sub.add_parser(
        "themes", help="list themes, check custom theme files"
    ).add_subparsers(required=True)
    p = commands.add_parser("list", help="card themes with labels and modes; article themes")
    p.set_defaults(run=cmd_themes_list)
    p = commands.add_parser("check", help="what the service would make of a theme file")
    p.add_argument("file", type=Path, help="a .toml or .css theme file")
    p.set_defaults(run=cmd_themes_check)
