"""The theme gallery: one sample post in every card theme and mode.

`inkcard gallery` writes each as `<theme>[-<mode>].png` plus a contact sheet of them all;
`GET /api/previews/<theme>[-<mode>].png` serves the same card, small, rendered by a render
process on first request and kept in memory (a catalogue has a few dozen theme-modes, so the
cache is bounded by the catalogue, not by traffic). Neither needs a database or a web framework.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from inkcard import layout, themes
from inkcard.layout import draw as engine_draw
from inkcard.layout.draw import Tile, fit_image

# Short enough to stay on ONE card of the default size in every theme (a test holds every
# theme to it), and shows what a theme does with each role: headings, mixed Chinese/English,
# bold, a list, a quote and code.
SAMPLE_POST = """\
# 卡片笔记 Card Notes

把 **Markdown** 变成好看的知识卡片，中文与 English 混排也整齐。

## 三个小习惯

- 每天写 **300 字**
- 先列提纲, then write

> 写作是思考的显影。*Writing shows thinking.*

```python
print("Hello, 墨卡")  # one idea
```
"""

CARD_WIDTH, CARD_HEIGHT = layout.DEFAULT_CARD_SIZE  # the engine's default card: 小红书 3:4
PREVIEW_SCALE = 0.5  # API previews: half the default size in px
PREVIEWS_PATH = "/api/previews"  # where the service serves them
THUMBNAIL_WIDTH = 180  # contact-sheet tiles, CSS px = px
SHEET_COLUMNS = 6
SHEET_FILE = "contact-sheet.png"
# The sizes sheets, one per theme: the sample post's first card in each of its modes at each
# size a post is made for (CSS px), scale 1, every card shrunk to one column width (so a
# 1080-px card shows how it reads against the 440-px one), as a JPEG small enough to commit.
SIZES = ((440, 586), (500, 500), (440, 782), (595, 842), (1080, 1440), (1600, 900))
SIZES_TILE_WIDTH = 200
SIZES_MAX_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class Variant:
    """One theme in one of its modes (None for a theme without modes)."""

    theme: str
    mode: str | None

    @property
    def name(self) -> str:
        """`<theme>-<mode>`, or the theme alone when it has no modes."""
        return f"{self.theme}-{self.mode}" if self.mode else self.theme


def variants(catalogue: themes.Catalogue) -> list[Variant]:
    """Every theme-mode of the catalogue in its order, each theme's default mode first."""
    found: list[Variant] = []
    for theme in catalogue.names():
        modes: list[str | None] = [*catalogue.modes(theme)] or [None]
        found.extend(Variant(theme, mode) for mode in modes)
    return found


def options(variant: Variant, scale: float) -> layout.RenderOptions:
    """One card of the default size; a post longer than that is cut after its last whole line."""
    return layout.RenderOptions(
        width=CARD_WIDTH,
        height=CARD_HEIGHT,
        scale=scale,
        mode=variant.mode,
        overflow_hidden=True,
        max_pages=1,
    )


def render_sample(
    catalogue: themes.Catalogue,
    fonts: layout.FontBook,
    variant: Variant,
    scale: float,
    post: str = SAMPLE_POST,
) -> bytes:
    """``post`` as one card of ``variant`` at ``scale`` (the default size in CSS px)."""
    theme = catalogue.get(variant.theme)
    [png] = layout.render(post, theme, fonts, options(variant, scale))
    return png


def caption(catalogue: themes.Catalogue, variant: Variant) -> tuple[str, ...]:
    """What the contact sheet writes under a thumbnail: its file name and Chinese label."""
    label = catalogue.get(variant.theme).label
    return (variant.name, label) if label else (variant.name,)


def contact_sheet(
    catalogue: themes.Catalogue,
    fonts: layout.FontBook,
    post: str = SAMPLE_POST,
) -> bytes:
    """Every theme-mode's card of ``post`` as a captioned thumbnail, ``SHEET_COLUMNS`` a row
    (each drawn at thumbnail size, not shrunk from a big card)."""
    scale = THUMBNAIL_WIDTH / CARD_WIDTH
    tiles = [
        Tile(render_sample(catalogue, fonts, v, scale, post), caption(catalogue, v))
        for v in variants(catalogue)
    ]
    return engine_draw.contact_sheet(
        tiles,
        fonts,
        columns=SHEET_COLUMNS,
        tile_width=THUMBNAIL_WIDTH,
        title="Inkcard card themes · 卡片主题",
    )


def render_size(
    catalogue: themes.Catalogue,
    fonts: layout.FontBook,
    variant: Variant,
    size: tuple[int, int],
    post: str = SAMPLE_POST,
) -> bytes:
    """The first card of ``post`` at ``size`` (autoSplit, as a post is made), drawn
    ``SIZES_TILE_WIDTH`` px wide: the card at scale 1, shrunk."""
    width, height = size
    options = layout.RenderOptions(
        width=width,
        height=height,
        scale=SIZES_TILE_WIDTH / width,
        mode=variant.mode,
        split="autoSplit",
    )
    return layout.render(post, catalogue.get(variant.theme), fonts, options)[0]


def sizes_sheet(
    catalogue: themes.Catalogue, fonts: layout.FontBook, theme: str, post: str = SAMPLE_POST
) -> bytes:
    """Each mode of ``theme`` (a row) at every size of ``SIZES`` (a column), as a JPEG."""
    tiles = [
        Tile(
            render_size(catalogue, fonts, variant, size, post),
            (variant.name, f"{size[0]}×{size[1]}"),
        )
        for variant in variants(catalogue)
        if variant.theme == theme
        for size in SIZES
    ]
    label = catalogue.get(theme).label
    png = engine_draw.contact_sheet(
        tiles,
        fonts,
        columns=len(SIZES),
        tile_width=SIZES_TILE_WIDTH,
        title=f"{theme} · {label}" if label else theme,
    )
    return fit_image(png, SIZES_MAX_BYTES).data


def write_sizes(
    out: Path, catalogue: themes.Catalogue, fonts: layout.FontBook, post: str = SAMPLE_POST
) -> list[Path]:
    """Writes one sizes sheet per theme of ``post`` into ``out``; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for theme in catalogue.names():
        path = out / f"{theme}.jpg"
        path.write_bytes(sizes_sheet(catalogue, fonts, theme, post))
        written.append(path)
    return written


def write_gallery(
    out: Path,
    catalogue: themes.Catalogue,
    fonts: layout.FontBook,
    scale: float,
    post: str = SAMPLE_POST,
    *,
    cards: bool = True,
) -> list[Path]:
    """Writes every theme-mode's card of ``post`` at ``scale`` (unless not ``cards``), then
    the contact sheet, into ``out``; returns the paths in that order."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for variant in variants(catalogue) if cards else []:
        path = out / f"{variant.name}.png"
        path.write_bytes(render_sample(catalogue, fonts, variant, scale, post))
        written.append(path)
    sheet = out / SHEET_FILE
    sheet.write_bytes(contact_sheet(catalogue, fonts, post))
    written.append(sheet)
    return written


@dataclass(frozen=True, slots=True)
class Preview:
    png: bytes
    etag: str  # changes with the engine, the theme file, the fonts and the sample post


class Previews:
    """Small sample cards by file name, rendered once each and kept for the process.

    A name is a `Variant.name` plus `.png`; should two theme-modes spell the same name (a
    theme `a-b` beside a theme `a` with a mode `b`), the later one gets `-2`, `-3`, ….
    """

    def __init__(self, catalogue: themes.Catalogue, scale: float = PREVIEW_SCALE):
        self.catalogue = catalogue
        self.scale = scale
        self.variants: dict[str, Variant] = {}
        for variant in variants(catalogue):
            name, n = f"{variant.name}.png", 1
            while name in self.variants:
                n += 1
                name = f"{variant.name}-{n}.png"
            self.variants[name] = variant
        self._names = {v: n for n, v in self.variants.items()}
        self._done: dict[str, Preview] = {}

    def name(self, theme: str, mode: str | None) -> str:
        """The file name of a theme-mode's preview; raises ``KeyError`` for no such pair."""
        return self._names[Variant(theme, mode)]

    def etag(self, name: str, fonts_fingerprint: str) -> str:
        """A strong ETag from everything the preview's pixels depend on.

        Raises:
            KeyError: No preview has this name.
        """
        variant = self.variants[name]
        h = hashlib.sha256(f"inkcard-preview\n{layout.ENGINE_VERSION}\n{self.scale}\n".encode())
        h.update(f"{variant.theme}\n{variant.mode}\n{fonts_fingerprint}\n".encode())
        h.update(self.catalogue.fingerprint(variant.theme).encode())
        h.update(SAMPLE_POST.encode())
        return f'"{h.hexdigest()[:32]}"'

    def cached(self, name: str) -> Preview | None:
        """The preview if it was already rendered."""
        return self._done.get(name)

    def sample(self, name: str) -> tuple[layout.Theme, layout.RenderOptions]:
        """The theme and options the preview ``name`` is drawn with (of ``SAMPLE_POST``).

        Raises:
            KeyError: No preview has this name.
        """
        variant = self.variants[name]
        return self.catalogue.get(variant.theme), options(variant, self.scale)

    def keep(self, name: str, png: bytes, fonts_fingerprint: str) -> Preview:
        """Remember the rendered preview ``name`` for the process; the first one kept wins."""
        return self._done.setdefault(name, Preview(png, self.etag(name, fonts_fingerprint)))
