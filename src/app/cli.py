"""The `inkcard` command: `render` turns a Markdown file into card PNGs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import layout
import themes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="inkcard", description="Markdown to cards.")
    commands = parser.add_subparsers(dest="command", required=True)
    add_render_command(commands)
    args = parser.parse_args(argv)
    return int(args.run(args))


def add_render_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    render = commands.add_parser("render", help="render a Markdown file to PNG cards")
    render.add_argument("markdown", type=Path, help="the Markdown file ('-' for stdin)")
    render.add_argument("--theme", default="apple-notes")
    render.add_argument("--mode", default=None, help="theme mode, e.g. dark-mode")
    render.add_argument("--split", default="noSplit", choices=layout.SPLIT_MODES)
    render.add_argument("--width", type=float, default=440)
    render.add_argument("--height", type=float, default=586)
    render.add_argument("--scale", type=float, default=2)
    render.add_argument("--overflow-hidden", action="store_true")
    render.add_argument("--fonts", type=Path, default=layout.DEFAULT_FONTS_DIR)
    render.add_argument("-o", "--out", type=Path, default=Path("out"))
    render.set_defaults(run=run_render)


def run_render(args: argparse.Namespace) -> int:
    if str(args.markdown) == "-":
        text, base = sys.stdin.read(), Path.cwd()
    else:
        text, base = args.markdown.read_text("utf-8"), args.markdown.parent
    try:
        theme = themes.load(args.theme)
    except themes.UnknownTheme as error:
        print(f"inkcard: {error}", file=sys.stderr)
        return 2
    if args.mode is not None and theme.modes and args.mode not in theme.modes:
        print(f"inkcard: theme {args.theme} has modes {', '.join(theme.modes)}",
              file=sys.stderr)
        return 2
    options = layout.RenderOptions(width=args.width, height=args.height, scale=args.scale,
                                   split=args.split, overflow_hidden=args.overflow_hidden,
                                   mode=args.mode)
    fonts = layout.FontBook.load(args.fonts)
    pngs = layout.render(text, theme, fonts, options, read_local_images(text, base))
    args.out.mkdir(parents=True, exist_ok=True)
    for number, png in enumerate(pngs, start=1):
        path = args.out / f"{number}.png"
        path.write_bytes(png)
        print(path)
    return 0


def read_local_images(markdown: str, base: Path) -> dict[str, bytes]:
    """The CLI may read image files next to the Markdown (the HTTP API never does)."""
    found: dict[str, bytes] = {}
    for src in layout.image_sources(markdown):
        if "://" in src or src.startswith("data:"):
            continue
        path = (base / src).resolve()
        if path.is_file():
            found[src] = path.read_bytes()
    return found


if __name__ == "__main__":
    sys.exit(main())
