"""Body text is legible in every theme and mode: WCAG contrast ≥ 4.5:1, measured on pixels.

A short paragraph is drawn at scale 1 and its first line found from the layout (the row's
box and its glyph runs' extent). Over that strip the background is the median pixel (the
glyphs cover well under half of a line box), and the text is the pixel nearest to the
body colour the theme resolves (composited over that background when it is translucent):
the test checks that such a pixel exists, so the text really is drawn in that colour, and
measures the contrast between the two pixels. So a background that is not what the style
says (a panel or decoration under the text, a gradient) is measured as drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import layout
import themes
from layout.boxes import GlyphRun, Group, Item, Layer
from layout.compose import content_box
from layout.style import resolve
from tests import pngcodec

MIN_CONTRAST = 4.5  # WCAG 2 AA for body text
SAMPLE = (
    "正文对比度测试：这一段文字用来测量正文颜色与它身后的背景之间的对比度，"
    "Body text sits on its background here."
)
TEXT_MATCH = 40  # max channel difference between the body colour and its nearest pixel


def relative_luminance(rgb: np.ndarray) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0..255 channels)."""
    c = np.asarray(rgb, dtype=np.float64)[:3] / 255
    linear = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(linear @ np.array([0.2126, 0.7152, 0.0722]))


def contrast_ratio(a: np.ndarray, b: np.ndarray) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def argb_over(argb: int, under: np.ndarray) -> np.ndarray:
    """An ARGB colour composited over an RGB pixel."""
    alpha = ((argb >> 24) & 0xFF) / 255
    rgb = np.array([(argb >> 16) & 0xFF, (argb >> 8) & 0xFF, argb & 0xFF], dtype=np.float64)
    return rgb * alpha + under[:3].astype(np.float64) * (1 - alpha)


def glyph_runs(items: tuple[Item, ...]) -> list[GlyphRun]:
    runs: list[GlyphRun] = []
    for item in items:
        if isinstance(item, GlyphRun):
            runs.append(item)
        elif isinstance(item, Group | Layer):
            runs.extend(glyph_runs(item.items))
    return runs


@dataclass(frozen=True)
class Measure:
    text: np.ndarray  # the pixel nearest to the body colour
    background: np.ndarray  # the median pixel of the line's strip
    expected: np.ndarray  # the body colour over that background
    ratio: float

    @property
    def text_offset(self) -> int:
        return int(np.abs(self.text[:3].astype(np.int16) - self.expected.round()).max())


def measure(theme: layout.Theme, mode: str | None, fonts: layout.FontBook) -> Measure:
    """Draws the sample paragraph and measures its first line's contrast on the pixels."""
    options = layout.RenderOptions(scale=1, mode=mode, split="autoSplit")
    [page] = layout.layout_pages(SAMPLE, theme, fonts, options)
    [png] = layout.render(SAMPLE, theme, fonts, options)
    pixels = pngcodec.decode(png)
    styles = resolve(theme, mode)
    box = content_box(styles, page.width, page.height)
    placed = next(p for p in page.rows if p.row.text)
    runs = glyph_runs(placed.row.items)
    left = min(min(run.xs) for run in runs)
    right = max(max(run.xs) + run.size for run in runs)
    top = box.y + placed.y
    bottom = top + placed.row.height * placed.scale
    strip = pixels[round(top) : round(bottom), round(left) : round(right), :3].reshape(-1, 3)
    background = np.median(strip, axis=0)
    expected = argb_over(styles["body"].color, background)
    distance = np.abs(strip.astype(np.float64) - expected).max(axis=1)
    text = strip[int(distance.argmin())]
    return Measure(text, background, expected, contrast_ratio(text, background))


def theme_modes() -> list[tuple[str, str | None]]:
    return [(name, mode) for name in themes.names() for mode in themes.modes(name) or [None]]


@pytest.mark.parametrize(
    ("name", "mode"), theme_modes(), ids=[f"{n}-{m}" if m else n for n, m in theme_modes()]
)
def test_body_text_contrast_is_at_least_4_5(fonts, name: str, mode: str | None) -> None:
    found = measure(themes.load(name), mode, fonts)
    assert found.text_offset <= TEXT_MATCH, (
        f"no pixel of the line is the body colour {found.expected.round()}: "
        f"nearest {found.text}, so the text is not drawn as the style says"
    )
    assert found.ratio >= MIN_CONTRAST, (
        f"{name} {mode or ''}: body text {found.text} on {found.background} "
        f"is {found.ratio:.2f}:1, under {MIN_CONTRAST}:1"
    )


PALE_TEXT = """
name = "pale"
[colors.all]
text = "#aaaaaa"
background = "#ffffff"
"""

# The style says white text on near-black, but a white panel lies under the text.
HIDDEN_PANEL = """
name = "hidden-panel"
[colors.all]
text = "#ffffff"
background = "#1c1c1e"
[[decorations]]
kind = "rect"
frame = "content"
inset = [-4, -4, -4, -4]
fill = "#f4f4f4"
"""

# A sheet drawn over the text: no pixel of the line is the body colour any more.
COVERED_TEXT = """
name = "covered"
[[decorations]]
kind = "rect"
frame = "content"
inset = [-4, -4, -4, -4]
fill = "#fafafa"
layer = "over"
"""

SOLID_PAIRS = [("#24292e", "#ffffff"), ("#ffffff", "#1c1c1e"), ("#767676", "#ffffff")]


def test_a_pale_theme_fails(fonts) -> None:
    found = measure(layout.decode_theme(PALE_TEXT), None, fonts)
    assert found.text_offset <= TEXT_MATCH
    assert found.ratio < MIN_CONTRAST
    assert found.ratio == pytest.approx(2.32, abs=0.15)  # #aaa on white


def test_a_panel_under_the_text_is_measured_not_the_style_background(fonts) -> None:
    found = measure(layout.decode_theme(HIDDEN_PANEL), None, fonts)
    assert found.background.tolist() == [244, 244, 244]
    assert found.ratio < 1.2  # white on #f4f4f4, where the style's colours say 17:1


def test_text_not_drawn_in_the_body_colour_is_noticed(fonts) -> None:
    found = measure(layout.decode_theme(COVERED_TEXT), None, fonts)
    assert found.text_offset > TEXT_MATCH


@pytest.mark.parametrize(("text", "background"), SOLID_PAIRS)
def test_measure_matches_the_colours_on_a_plain_background(fonts, text, background) -> None:
    theme = layout.decode_theme(
        f'name = "solid"\n[colors.all]\ntext = "{text}"\nbackground = "{background}"\n'
    )
    found = measure(theme, None, fonts)
    rgb = [np.array([int(c[i : i + 2], 16) for i in (1, 3, 5)]) for c in (text, background)]
    assert found.background.tolist() == rgb[1].tolist()
    assert found.ratio == pytest.approx(contrast_ratio(*rgb), rel=0.03)


def test_the_wcag_formula() -> None:
    black, white = np.array([0, 0, 0]), np.array([255, 255, 255])
    assert contrast_ratio(black, white) == pytest.approx(21.0)
    assert contrast_ratio(white, white) == pytest.approx(1.0)
    assert contrast_ratio(np.array([0x76] * 3), white) == pytest.approx(4.54, abs=0.01)
