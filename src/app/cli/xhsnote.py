"""`inkcard xhs-note FILE`: a Xiaohongshu note from a Markdown file, without the service.

The same note ``POST /api/platform/xhs-note`` answers for the same fields: the flags are
`inkcard render`'s (the API's card fields) plus ``--title`` and ``--tags``, read by the
API's own parser; the cards are drawn as `render` draws them, the cover as the cover
operation draws it, and the text by ``app.articles.xhs.note``. Written into the output
folder: the cards (``1.png``, ``2.png``, …), ``cover.png``, ``note.txt`` (the text to
paste) and ``note.json`` (``note``, ``copy`` and ``warnings``, the API's fields). Each
warning is also said on stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

import msgspec

from inkcard.app.cli.cardfolder import card_name, write_cards
from inkcard.app.cli.common import CommandError
from inkcard.app.cli.render import (
    FLAG_OF_FIELD,
    _dest,
    _engine_errors,
    _render_arguments,
    _reported,
    _write_errors,
    brand_kit,
    in_flags,
    read_local_images,
    read_markdown,
    theme_lookup,
)

if TYPE_CHECKING:
    from inkcard.app.schema import XhsNoteRequest

COVER_NAME = "cover.png"
TEXT_NAME = "note.txt"
JSON_NAME = "note.json"


class NoteFile(msgspec.Struct, frozen=True):
    """``note.json``: the API answer's text fields."""

    note: msgspec.Raw
    copy: str
    warnings: msgspec.Raw


def add_xhs_note_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    commands.add_parser(
        "xhs-note",
        help="a Xiaohongshu note from a Markdown file: cards, cover, text to paste",
        description="Draw a Markdown file as a Xiaohongshu note, as POST /api/platform/xhs-note"
        " would, without the service: the cards (autoSplit unless --split or the front matter"
        " says otherwise), cover.png, note.txt (title, body, tags ready to paste) and"
        " note.json, with a warning for each Xiaohongshu limit exceeded.",
        fill=_note_arguments,
    )


def _note_arguments(parser: argparse.ArgumentParser) -> None:
    from inkcard.app.schema.xhs import NOTE_FORMATS

    _render_arguments(parser)  # the card flags, as `render` has them; a note's own defaults:
    for action in parser._actions:
        if action.dest == "split" and action.help:
            action.help = action.help.replace("(default: noSplit)", "(default: autoSplit)")
        if action.dest == "format":
            action.choices = NOTE_FORMATS
            action.help = "one file per card (default: png)"
    parser.add_argument(
        "--title",
        default=None,
        help="the note's title (default: the front matter's title, else the first heading)",
    )
    parser.add_argument(
        "--tags",
        default=None,
        help="the note's tags, apart by commas or spaces (default: the front matter's tags,"
        " else the post's #话题 hashtags)",
    )
    parser.set_defaults(run=run_xhs_note)


def note_request(args: argparse.Namespace, markdown: str) -> XhsNoteRequest:
    """The command's arguments as the API's xhs-note body, parsed by the API's parser.

    Raises:
        CommandError: A field the API would refuse (said in the command's flags).
    """
    from inkcard.app.errors import ApiError
    from inkcard.app.schema import parse_xhs_note

    fields = {field: getattr(args, _dest(flag)) for field, flag in FLAG_OF_FIELD.items()}
    fields["title"] = args.title
    if args.tags is not None:
        words = args.tags
        for separator in ",，、":
            words = words.replace(separator, " ")
        fields["tags"] = words.split()
    try:
        return parse_xhs_note(msgspec.json.encode({"markdown": markdown, **fields}))
    except ApiError as error:
        raise CommandError(in_flags(error.message, args)) from error


def run_xhs_note(args: argparse.Namespace) -> int:
    from inkcard import layout
    from inkcard.app.articles.xhs.note import copy_text, cover_request, note_of, warnings_of
    from inkcard.app.cards.coverrequest import normalise_cover, without_chrome
    from inkcard.app.cards.request import normalise
    from inkcard.app.errors import ApiError
    from inkcard.app.settings import Settings

    markdown, base = read_markdown(args.markdown)
    body = note_request(args, markdown)
    lookup = theme_lookup()
    defaults = Settings()  # the service's budgets, as on its embedded defaults
    try:
        card = normalise(body.cards(), lookup)
    except ApiError as error:
        raise CommandError(in_flags(error.message, args)) from error
    with _engine_errors():
        doc = layout.parse_post(card.markdown, card.mdx)
        text = note_of(body, doc)
        spec = normalise_cover(cover_request(body, text), lookup)
        fonts = layout.FontBook.load(args.fonts)
        options = card.render_options(defaults.max_output_pixels, defaults.max_image_pixels)
        cover_options = spec.options(defaults.max_output_pixels)
        if args.brand is not None:  # the kit on the cards and the cover, as the API draws it
            kit = brand_kit(args.brand)
            options = msgspec.structs.replace(options, brand=kit)
            cover_options = msgspec.structs.replace(cover_options, brand=kit)
        images = read_local_images(doc.images, base)
        cards = layout.render_cards(doc, lookup(card.theme), fonts, options, images)
        theme = lookup(spec.theme)
        cover = layout.render_covers(
            spec.title,
            spec.keywords,
            theme if spec.chrome else without_chrome(theme),
            fonts,
            cover_options,
        )
    warnings = warnings_of(text.note, len(cards.files) + 1)
    copy = copy_text(text.note)
    record = NoteFile(
        note=msgspec.Raw(msgspec.json.encode(text.note)),
        copy=copy,
        warnings=msgspec.Raw(msgspec.json.encode(warnings)),
    )
    extension = layout.EXTENSIONS[card.format]
    files = [
        *((card_name(n, extension), data) for n, data in enumerate(cards.files, start=1)),
        (COVER_NAME, cover.files[0]),
        (TEXT_NAME, (copy + "\n").encode()),
        (JSON_NAME, msgspec.json.format(msgspec.json.encode(record), indent=2) + b"\n"),
    ]
    with _write_errors(args.out):
        paths = write_cards(args.out, files)
    for path, quality in zip(paths, cards.qualities, strict=False):
        print(_reported(path, quality) if args.report else path)
    for path in paths[len(cards.files) :]:
        print(path)
    for warning in warnings:
        print(f"inkcard: warning: {warning.code}: {warning.message}", file=sys.stderr)
    return 0
