"""AI-content labels (GB 45438-2025): the implicit label read back from every format by readers
that are not ours (Pillow, pypdf), the visible one read by OCR in every theme and kept off
the post's text, and neither without the option."""

from __future__ import annotations

import io
import json
import pickle
import shutil
import subprocess
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from inkcard import layout, themes
from inkcard.layout.base.aigc import XMP_NAMESPACE
from inkcard.layout.base.boxes import GlyphRun, Group, Item
from inkcard.layout.draw import Aigc
from inkcard.layout.pages.cardface import content_box
from inkcard.layout.pages.marks.aigclabel import label_style, with_label_room
from inkcard.layout.style.resolver import resolve

CJK_POST = "# 春天的笔记\n\n" + "窗外的樱花开了，风一吹就落满了整条小路。" * 40
LATIN_POST = "# Spring notes\n\n" + "The cherry trees are out and the lane is white with them. " * 4
LABEL = Aigc(producer="Acme 模型", produce_id="post-42")
RECORD = {
    "Label": "1",
    "ContentProducer": "Acme 模型",
    "ProduceID": "post-42",
    "ReservedCode1": "",
    "ContentPropagator": "",
    "PropagateID": "",
    "ReservedCode2": "",
}
THEMES = sorted(path.parent.name for path in Path(themes.__file__).parent.glob("*/card.toml"))


def _render(post: str, fonts: layout.FontBook, **options: object) -> layout.Rendered:
    theme = themes.load_one("apple-notes")
    return layout.render_cards(post, theme, fonts, layout.RenderOptions(**options))  # type: ignore[arg-type]


def _xmp_record(xmp: bytes | str) -> dict[str, str]:
    """The `TC260:AIGC` property of an XMP packet, as a plain XML parser reads it."""
    text = xmp.decode() if isinstance(xmp, bytes) else xmp
    root = ET.fromstring(text[text.index("<x:xmpmeta") : text.index("</x:xmpmeta>") + 12])
    found = root.find(f".//{{{XMP_NAMESPACE}}}AIGC")
    assert found is not None and found.text
    return json.loads(found.text)


@pytest.mark.parametrize("codec", ["png", "jpeg", "webp"])
def test_raster_files_carry_the_record_pillow_reads(fonts: layout.FontBook, codec: str) -> None:
    rendered = _render(CJK_POST, fonts, format=codec, aigc=LABEL, split="autoSplit")
    assert len(rendered.files) > 1
    for data in rendered.files:
        image = Image.open(io.BytesIO(data))
        image.load()  # the pixels still decode: nothing but metadata was added
        assert image.size == (880, 1172)
        assert _xmp_record(image.info["xmp"]) == RECORD
        if codec == "png":
            assert json.loads(image.info["AIGC"]) == RECORD  # the iTXt chunk


def test_pdf_carries_the_record_pypdf_reads(fonts: layout.FontBook) -> None:
    [data] = _render(CJK_POST, fonts, format="pdf", aigc=LABEL, split="autoSplit").files
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) > 1
    assert reader.metadata is not None
    assert json.loads(reader.metadata["/AIGC"]) == RECORD
    assert reader.metadata["/Producer"] == "Inkcard"  # the information kept
    xmp = reader.xmp_metadata
    assert xmp is not None
    assert _xmp_record(xmp.stream.get_data()) == RECORD
    # the visible label is text too (NFKC: the CJK face maps 生 to its Kangxi radical twin)
    assert "内容由AI生成" in unicodedata.normalize("NFKC", reader.pages[0].extract_text())


@pytest.mark.parametrize("codec", ["png", "jpeg", "webp", "pdf"])
def test_no_label_asked_no_label_written(fonts: layout.FontBook, codec: str) -> None:
    for data in _render(CJK_POST, fonts, format=codec).files:
        assert b"AIGC" not in data and XMP_NAMESPACE.encode() not in data
    theme = themes.load_one("apple-notes")
    off = layout.layout_pages(CJK_POST, theme, fonts, layout.RenderOptions())[0]
    on = layout.layout_pages(CJK_POST, theme, fonts, layout.RenderOptions(aigc=LABEL))[0]
    assert len(on.items) == len(off.items) + 1  # the label's line, and nothing else
    assert off.items[-1] != on.items[-1] and _label_runs(on)


def _unzoomed(page: layout.Page) -> tuple[tuple[Item, ...], float]:
    """The card's items as laid out on its virtual card, and the zoom it is drawn at (a
    card at a type step, `typesteps.fault_free`, is one Group scaled by it)."""
    zoom = page.fit.zoom if page.fit is not None else 1.0
    if zoom == 1.0:
        return page.items, 1.0
    [scaled] = page.items
    assert isinstance(scaled, Group) and scaled.scale == zoom
    return scaled.items, zoom


def _label_runs(page: layout.Page) -> list[GlyphRun]:
    """The glyph runs of the card's last item when it is the label's line (a Group)."""
    last = _unzoomed(page)[0][-1]
    if not isinstance(last, Group) or not all(isinstance(i, GlyphRun) for i in last.items):
        return []
    return [item for item in last.items if isinstance(item, GlyphRun)]


def _ocr(png: bytes, box: tuple[int, int, int, int], tmp: Path, psm: str = "7") -> str:
    crop = Image.open(io.BytesIO(png)).crop(box)
    crop = crop.resize((crop.width * 3, crop.height * 3), Image.Resampling.LANCZOS)
    path = tmp / "band.png"
    crop.save(path)
    done = subprocess.run(
        ["tesseract", str(path), "-", "-l", "chi_sim+eng", "--psm", psm],
        capture_output=True,
        text=True,
        check=True,
    )
    # a sans-serif I and l are one glyph: OCR reads either
    return "".join(done.stdout.split()).replace("Al", "AI")


@pytest.mark.parametrize("theme_id", THEMES)
def test_label_reads_by_ocr_and_keeps_off_the_text(
    fonts: layout.FontBook, theme_id: str, tmp_path: Path
) -> None:
    assert shutil.which("tesseract"), "tesseract (and its chi_sim data) is a test dependency"
    theme = themes.load_one(theme_id)
    options = layout.RenderOptions(split="autoSplit", aigc=Aigc())
    laid = layout.layout_cards(CJK_POST, theme, fonts, options)
    assert len(laid.pages) > 1
    page = laid.pages[0]
    runs = _label_runs(page)
    assert runs, "every card carries the label"
    items, zoom = _unzoomed(page)  # a set at a smaller type step is drawn zoomed
    label = items[-1]
    assert isinstance(label, Group)
    width, height = page.width / zoom, page.height / zoom  # the virtual card
    styles = resolve(theme, theme.modes[0] if theme.modes else None)
    style = label_style(styles, width)
    assert style.size * zoom * 360 / page.width >= 11  # legible on a phone 360 px wide
    line_top, line_bottom = label.dy, label.dy + style.size * 1.25
    box = content_box(with_label_room(styles, width), width, height)
    assert page.fit is not None
    for placed in page.rows:  # the post's rows end above the label (or start below it)
        top = box.y + page.fit.offset + placed.y
        bottom = top + placed.row.height * placed.scale
        assert bottom <= line_top + 0.01 or top >= line_bottom - 0.01, placed.row.text
    png = layout.draw_cards([page], laid.images, fonts, options).files[0]
    scale, left = 2 * zoom, min(min(run.xs) for run in runs)  # image px per virtual px
    right = max(max(run.xs) for run in runs) + style.size * 1.5
    band = (
        max(0, int(left * scale) - 12),
        int(line_top * scale) - 8,
        min(int(width * scale), int(right * scale) + 12),
        int(line_bottom * scale) + 8,
    )
    whole = (0, band[1], int(width * scale), band[3])
    read = [_ocr(png, crop, tmp_path) for crop in (band, whole)]
    # tesseract misreads a character of small CJK type now and then (内 as 肉): the label's
    # distinctive part, read whole in the label alone or in its band
    assert any("AI生成" in text for text in read), read


def test_latin_post_gets_the_english_label(fonts: layout.FontBook) -> None:
    page = layout.layout_pages(
        LATIN_POST, themes.load_one("minimal"), fonts, layout.RenderOptions(aigc=Aigc())
    )[0]
    [pdf] = layout.draw_cards(
        [page], {}, fonts, layout.RenderOptions(format="pdf", aigc=Aigc())
    ).files
    assert PdfReader(io.BytesIO(pdf)).pages[0].extract_text().rstrip().endswith("AI-generated")


def test_covers_carry_both_labels(fonts: layout.FontBook) -> None:
    theme = themes.load_one("warm")
    options = layout.RenderOptions(width=440, height=586, aigc=LABEL)
    rendered = layout.render_covers("春天的笔记", (), theme, fonts, options, count=2)
    for data in rendered.files:
        image = Image.open(io.BytesIO(data))
        image.load()  # Pillow reads the chunks after IDAT with the pixels
        assert json.loads(image.info["AIGC"]) == RECORD
    [wide] = layout.render_covers("春天的笔记", (), theme, fonts, options, wechat=True).files
    image = Image.open(io.BytesIO(wide))
    image.load()
    assert json.loads(image.info["AIGC"]) == RECORD


@pytest.mark.parametrize("theme_id", ["business", "pop-art", "darktech"])
def test_a_wechat_cover_shows_the_label_right_of_its_square(
    fonts: layout.FontBook, theme_id: str, tmp_path: Path
) -> None:
    title = "春天的笔记：樱花开满小路的那一周"
    png, _ = layout.render_wechat_cover(title, (), themes.load_one(theme_id), fonts, aigc=LABEL)
    width, height = Image.open(io.BytesIO(png)).size
    square_right = (width + height) // 2  # the 1:1 crop (the title) ends here
    corner = (square_right + 20, height // 2, width, height)
    assert "AI生成" in _ocr(png, corner, tmp_path, psm="11")  # sparse text: beside shapes
    plain, _ = layout.render_wechat_cover(title, (), themes.load_one(theme_id), fonts)
    a, b = Image.open(io.BytesIO(png)), Image.open(io.BytesIO(plain))
    assert (
        a.crop((0, 0, square_right, height)).tobytes()
        == b.crop((0, 0, square_right, height)).tobytes()
    )  # nothing of the label reaches the square or left of it


def test_a_share_laid_out_apart_makes_the_same_labelled_cards(fonts: layout.FontBook) -> None:
    # a diagram taller than a card is drawn in bands as tall as the content box: the share's
    # bands must be the box the label leaves
    code = (
        "```mermaid\nflowchart TD\n"
        + "\n".join(f"  N{n} --> N{n + 1}" for n in range(40))
        + "\n```"
    )
    paragraphs = "\n\n".join(["窗外的樱花开了。" * 20] * 8)
    post = "\n\n".join([CJK_POST, paragraphs, paragraphs, code, paragraphs])
    theme, doc = themes.load_one("notebook"), layout.parse_post(post)  # its footer grows
    options = layout.RenderOptions(split="autoSplit", aigc=LABEL)
    start = layout.share_start(doc)
    assert start is not None
    parts = pickle.dumps(layout.layout_share(doc, theme, fonts, options, start))
    premade = layout.Premade(start, lambda: pickle.loads(parts))
    shared = layout.layout_cards(doc, theme, fonts, options, premade=premade).pages
    whole = layout.layout_cards(doc, theme, fonts, options).pages
    assert [page.items for page in shared] == [page.items for page in whole]


def _footer_runs(items: tuple, dy: float, below: float) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, y0, x1, y1) of the glyph runs drawn below `below` (the footer band)."""
    from inkcard.layout.base.boxes import Cached, Layer

    boxes = []
    for item in items:
        if isinstance(item, Group):
            boxes += _footer_runs(item.items, dy + item.dy, below)
        elif isinstance(item, Layer | Cached):
            boxes += _footer_runs(item.items, dy, below)
        elif isinstance(item, GlyphRun) and item.glyphs:
            y = dy + item.ys[0]
            top, bottom = y - item.size * 0.8, y + item.size * 0.2
            if top >= below and item.size < 30:  # the watermark's large word is meant to cross
                boxes.append((item.xs[0], top, item.xs[-1] + item.size * 0.6, bottom))
    return boxes


@pytest.mark.parametrize("theme", ["apple-notes", "pop-art", "watercolor", "japanese-magazine"])
def test_the_label_and_a_brand_kits_marks_share_the_footer_band_apart(
    fonts: layout.FontBook, theme: str
) -> None:
    """Both in the footer band: the kit's byline and footer line are drawn up from its
    bottom, the label's line set above them (it ran over the byline in apple-notes)."""
    from tests.brandassets import POST, engine_kit

    options = layout.RenderOptions(split="autoSplit", brand=engine_kit(), aigc=Aigc())
    page = layout.layout_pages(POST, themes.load(theme), fonts, options)[0]
    boxes = _footer_runs(page.items, 0.0, page.height * 0.7)  # the band, not the post
    assert len(boxes) >= 3  # the label, the footer line, the byline (and a page number)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)
