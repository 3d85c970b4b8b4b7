"""The card engine's commands: `render` turns a Markdown file into card images or a PDF,
`gallery` draws a sample post in every theme. Neither touches the database or the service."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from inkcard.app.cli.cardfolder import card_name, write_cards
from inkcard.app.cli.common import CommandError, read_regular_file
from inkcard.app.cli.common import integer_type as _integer
from inkcard.app.cli.common import number_type as _number

if TYPE_CHECKING:
    from inkcard import layout, themes
    from inkcard.app.cards.request import CardRequest
    from inkcard.layout.style import BrandKit

# The engine (layout, themes) and the models are imported when a command here runs or its
# help is asked for, never by building the parser: `inkcard mcp` does not wait for them.

FLAG_OF_FIELD = {
    "theme": "--theme",
    "themeMode": "--mode",
    "splitMode": "--split",
    "width": "--width",
    "height": "--height",
    "scale": "--scale",
    "overHiddenMode": "--overflow-hidden",
    "mdxMode": "--mdx",
    "format": "--format",
    "quality": "--quality",
    "fit": "--fit",
    "aigc": "--aigc",
}
"""The API's request field → the `render` flag that sets it: the one table both the request
the command makes and its error messages are written from."""

MARKDOWN_BYTES_PER_CHAR = 4
"""The most bytes of Markdown read are this times the API's character limit (and one more,
to tell): a UTF-8 character is at most 4 bytes, so a longer input is over it for certain."""


def add_render_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    commands.add_parser(
        "render",
        help="render a Markdown file to card images or a PDF",
        description="Render a Markdown file to card images (one file a card) or one PDF, as"
        " POST /api/generate would, without the service. A YAML front matter may set theme,"
        " mode and split; options given here win.",
        fill=_render_arguments,
    )


def _render_arguments(render: argparse.ArgumentParser) -> None:
    from inkcard import layout
    from inkcard.app.schema import GenerateRequest

    default = GenerateRequest()  # the API's defaults are the command's
    render.add_argument("markdown", type=Path, help="the Markdown file ('-' for stdin)")
    # theme, mode and split: None unless given, so a front matter's values apply
    render.add_argument(
        "--theme",
        default=None,
        help=f"card theme ID or label, see `inkcard themes list` (default: {default.theme})",
    )
    render.add_argument(
        "--mode", default=None, help="theme mode, e.g. dark-mode (default: the theme's first)"
    )
    render.add_argument(
        "--split",
        default=None,
        choices=layout.SPLIT_MODES,
        help="noSplit: one card that grows; autoSplit: cards of exactly --width x --height;"
        f" hrSplit: one card per part between --- lines (default: {default.splitMode})",
    )
    render.add_argument(
        "--mdx",
        action="store_true",
        help="read MDX components (Columns, Callout, Quote, Steps, Badge) (default: off)",
    )
    low, high = layout.CARD_LIMITS["width"]
    render.add_argument(
        "--width",
        type=_number(low, high),
        default=default.width,
        help=f"card width in CSS px, {low:g}..{high:g} (default: {default.width:g})",
    )
    low, high = layout.CARD_LIMITS["height"]
    render.add_argument(
        "--height",
        type=_number(low, high),
        default=default.height,
        help=f"card height in CSS px, {low:g}..{high:g} (default: {default.height:g})",
    )
    low, high = layout.CARD_LIMITS["scale"]
    render.add_argument(
        "--scale",
        type=_integer(int(low), int(high)),
        default=default.scale,
        help=f"pixels per CSS px, {low:g}..{high:g} (default: {default.scale})",
    )
    render.add_argument(
        "--overflow-hidden",
        action="store_true",
        help="every card exactly --width x --height, text past it cut (default: off)",
    )
    render.add_argument(
        "--format",
        default=default.format,
        choices=layout.FORMATS,
        help=f"one file per card (png, jpeg, webp) or one cards.pdf (default: {default.format})",
    )
    render.add_argument(
        "--quality",
        type=_integer(1, 100),
        default=default.quality,
        help=f"jpeg and webp quality, 1..100 (default: {default.quality})",
    )
    render.add_argument(
        "--fit",
        default=default.fit,
        choices=layout.FITS,
        help="auto: also lay the post out a few steps denser and roomier and keep the cards"
        f" that score best (see --report) (default: {default.fit})",
    )
    render.add_argument(
        "--aigc",
        action="store_true",
        help="label the cards as AI-generated (GB 45438-2025): 内容由AI生成 / AI-generated"
        " in each card's footer and the standard's AIGC record in each file's metadata"
        " (default: off)",
    )
    render.add_argument(
        "--fonts",
        type=Path,
        default=layout.DEFAULT_FONTS_DIR,
        help="font folder (default: the fonts Inkcard ships)",
    )
    render.add_argument(
        "-o",
        "--out",
        type=Path,
        default=Path("out"),
        help="folder to write into (default: out); the cards an earlier render wrote there and"
        " this one does not (listed in its .inkcard-render file) are removed, no other file",
    )
    render.add_argument(
        "--brand",
        type=Path,
        help="a brand kit as a JSON file, the body PUT /api/brands/{name} takes"
        " (docs/brand-kits.md): its fonts, logo, byline, footer and watermark on the cards"
        " (default: none)",
    )
    render.add_argument(
        "--report",
        action="store_true",
        help="print each card as a JSON line, its path and the engine's quality report (the"
        " API's `quality`), instead of its path alone (default: off)",
    )
    render.set_defaults(run=run_render)


def card_request(
    args: argparse.Namespace, markdown: str, lookup: Callable[[str], layout.Theme] | None = None
) -> CardRequest:
    """The render command's arguments as the normalised request the HTTP API would make of
    the same fields: checked by the API's own parser (the Markdown's length included) and
    normalised as the API does (theme and mode checked), with the API's messages.

    Raises:
        CommandError: A field the API would refuse, an unknown theme or theme mode.
    """
    from inkcard.app.cards.request import normalise
    from inkcard.app.errors import ApiError
    from inkcard.app.schema import parse_generate

    fields = {field: getattr(args, _dest(flag)) for field, flag in FLAG_OF_FIELD.items()}
    try:
        body = parse_generate(msgspec.json.encode({"markdown": markdown, **fields}))
        return normalise(body, lookup or theme_lookup())
    except ApiError as error:
        raise CommandError(in_flags(error.message, args)) from error


def _dest(flag: str) -> str:
    """The attribute argparse keeps ``flag`` in: ``--overflow-hidden`` → ``overflow_hidden``."""
    return flag.removeprefix("--").replace("-", "_")


def in_flags(message: str, args: argparse.Namespace) -> str:
    """An API message about a request field said in the command's words: the field is its
    flag when the flag was given, else the front matter's key (where the value came from)."""
    from inkcard.app.frontmatter import ALIASES

    field, _, rest = message.partition(" ")
    flag = FLAG_OF_FIELD.get(field)
    if flag is None:
        return message
    rest = rest.removeprefix("from the front matter ")
    if getattr(args, _dest(flag)) is None:  # not given: the Markdown's front matter set it
        return f"the front matter's {ALIASES[field][0]} {rest}"
    return f"{flag} {rest}"


def _themes_dir() -> str:
    """``INKCARD_THEMES_DIR``: the folder of custom card themes, or empty."""
    from inkcard.app.settings import SettingsError, load_settings

    try:
        return load_settings().themes_dir
    except SettingsError as error:
        raise CommandError(str(error)) from error


def theme_catalogue() -> themes.Catalogue:
    """The built-in card themes, and with ``INKCARD_THEMES_DIR`` set the custom ones too."""
    from inkcard import themes

    folder = _themes_dir()
    return themes.builtin().with_custom(folder) if folder else themes.builtin()


def theme_lookup() -> Callable[[str], layout.Theme]:
    """The render command's themes: the built-in ones, decoded one at a time, or with
    ``INKCARD_THEMES_DIR`` set, the service's catalogue of built-in and custom themes."""
    from inkcard import themes

    return theme_catalogue().get if _themes_dir() else themes.load_one


def run_render(args: argparse.Namespace) -> int:
    from inkcard import layout
    from inkcard.layout import draw

    draw.pack_rows_in_python()  # a few cards, then exit: Pillow's import would cost more
    text, base = read_markdown(args.markdown)
    lookup = theme_lookup()
    card = card_request(args, text, lookup)
    theme = lookup(card.theme)
    from inkcard.app.settings import Settings

    defaults = Settings()  # the service's budgets, as on its embedded defaults
    options = card.render_options(defaults.max_output_pixels, defaults.max_image_pixels)
    if args.brand is not None:
        options = msgspec.structs.replace(options, brand=brand_kit(args.brand))
    with _engine_errors():
        # the request's Markdown: the front matter taken off (its fields applied), as the API
        doc = layout.parse_post(card.markdown, card.mdx)
        fonts = layout.FontBook.load(args.fonts)
        images = read_local_images(doc.images, base)
        rendered = layout.render_cards(doc, theme, fonts, options, images)
    extension = layout.EXTENSIONS[card.format]
    named = ((card_name(n, extension), data) for n, data in enumerate(rendered.files, start=1))
    with _write_errors(args.out):
        paths = write_cards(args.out, named)
        for path, quality in zip(paths, rendered.qualities, strict=True):
            print(_reported(path, quality) if args.report else path)
    return 0


def brand_kit(path: Path) -> BrandKit:
    """The kit in the JSON file at ``path``, checked as ``PUT /api/brands/{name}`` checks it.

    Raises:
        CommandError: The file cannot be read, or the API would refuse the kit.
    """
    from inkcard.app.brands.kit import checked_kit
    from inkcard.app.errors import ApiError
    from inkcard.app.schema.brand import parse_brand_kit

    try:
        raw = path.read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from error
    try:
        return checked_kit(path.stem, parse_brand_kit(raw))[0]
    except ApiError as error:
        raise CommandError(f"--brand {path}: {error.message}") from error


def _reported(path: Path, quality: layout.Quality | None) -> str:
    """One card's line under ``--report``: its path and the API's ``quality`` record."""
    from inkcard.app.schema import card_quality

    line = {"file": str(path), "quality": card_quality(quality)}
    return msgspec.json.encode(line).decode()


@contextmanager
def _engine_errors() -> Iterator[None]:
    """A refusal of the engine (a font, a limit, the Markdown) or running out of memory as
    one line."""
    from inkcard import layout

    try:
        yield
    except layout.EngineError as error:
        raise CommandError(str(error)) from error
    except MemoryError:
        raise CommandError(
            "out of memory drawing the cards; use a smaller --scale, smaller cards or "
            "--split autoSplit",
            code=1,
        ) from None


@contextmanager
def _write_errors(out: Path) -> Iterator[None]:
    """A failure to write into ``out`` as one line."""
    try:
        yield
    except OSError as error:
        raise CommandError(f"cannot write {out}: {error.strerror or error}") from error


def read_markdown(source: Path) -> tuple[str, Path]:
    """The Markdown text and the folder its images are read from ('-' is stdin).

    At most ``MARKDOWN_BYTES_PER_CHAR`` bytes for each character of the limit, and one more,
    are read, so an endless or huge input is refused without being read whole; a path that
    is not a regular file (a pipe, a device, a folder) is refused before any read.
    """
    from inkcard.app.schema import MAX_MARKDOWN_CHARS

    limit = MARKDOWN_BYTES_PER_CHAR * MAX_MARKDOWN_CHARS
    if str(source) == "-":
        data, base = sys.stdin.buffer.read(limit + 1), Path.cwd()
    else:
        data, base = read_regular_file(source, limit + 1), source.parent
    if len(data) > limit:
        raise CommandError(
            f"markdown must be at most {MAX_MARKDOWN_CHARS:,} characters "
            f"({source} is longer than {limit:,} bytes)"
        )
    try:
        return data.decode("utf-8"), base
    except UnicodeDecodeError as error:
        raise CommandError(f"{source} is not UTF-8 text ({error.reason})") from error


def read_local_images(sources: Iterable[str], base: Path) -> dict[str, bytes]:
    """The CLI may read image files next to the Markdown (the HTTP API never does).

    A file is read only when it is no larger than the largest image the service downloads;
    a larger one, like a missing one, is drawn as the placeholder (said on stderr).
    """
    from inkcard.app.settings import FETCH_MAX_BYTES

    found: dict[str, bytes] = {}
    for src in sources:
        if "://" in src or src.startswith("data:"):
            continue
        try:
            path = (base / src).resolve()
            if not path.is_file():
                continue
        except (OSError, ValueError):  # a name too long for a path, say: no such file
            continue
        try:
            with path.open("rb") as file:
                data = file.read(FETCH_MAX_BYTES + 1)
        except OSError as error:
            print(f"inkcard: image {src}: cannot read: {error.strerror or error}", file=sys.stderr)
            continue
        if len(data) > FETCH_MAX_BYTES:
            print(
                f"inkcard: image {src} is larger than {FETCH_MAX_BYTES:,} bytes; drawn as a"
                " placeholder",
                file=sys.stderr,
            )
            continue
        found[src] = data
    return found


def add_gallery_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    commands.add_parser(
        "gallery",
        help="render a sample post in every theme and mode, plus a contact sheet",
        fill=_gallery_arguments,
    )


def _gallery_arguments(gallery: argparse.ArgumentParser) -> None:
    from inkcard import layout

    gallery.add_argument("-o", "--out", type=Path, required=True, help="folder to write into")
    gallery.add_argument("--post", type=Path, help="a Markdown file instead of the sample post")
    gallery.add_argument("--scale", type=_number(0.25, 4), default=2, help="default 2")
    gallery.add_argument(
        "--sheet-only", action="store_true", help="write only contact-sheet.png (for docs/gallery)"
    )
    gallery.add_argument(
        "--sizes",
        action="store_true",
        help="write only <theme>.jpg: its modes at six card sizes (for docs/gallery/sizes)",
    )
    gallery.add_argument("--fonts", type=Path, default=layout.DEFAULT_FONTS_DIR)
    gallery.set_defaults(run=run_gallery)


def run_gallery(args: argparse.Namespace) -> int:
    """`<theme>[-<mode>].png` for every theme-mode and `contact-sheet.png`, one path a line."""
    from inkcard import layout, themes
    from inkcard.app.cards import gallery

    post = read_markdown(args.post)[0] if args.post else gallery.SAMPLE_POST
    with _write_errors(args.out), _engine_errors():
        fonts = layout.FontBook.load(args.fonts)
        if args.sizes:
            paths = gallery.write_sizes(args.out, themes.builtin(), fonts, post)
        else:
            paths = gallery.write_gallery(
                args.out, themes.builtin(), fonts, args.scale, post, cards=not args.sheet_only
            )
    for path in paths:
        print(path)
    return 0


# ---------------------------------------------------------------------------------------------
