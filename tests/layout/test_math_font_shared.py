"""The math font is parsed once per process: ziamath parses the STIX Two Math it bundles
when imported, and ours is the same file, so the formulas use that parse (about 7 MB of
Python objects less in every render worker)."""

from __future__ import annotations

from inkcard.layout.text.formula.mathtex import MATH_FONT, typeset


def test_our_math_font_shares_ziamaths_parse() -> None:
    assert typeset(r"\frac{a}{b}", 17.0) is not None
    from ziamath import zmath

    ours, bundled = zmath.loadedfonts[str(MATH_FONT)], zmath.loadedfonts["default"]
    assert ours is not bundled  # its own base size and alternate fonts
    assert ours.fontfile is bundled.fontfile
    assert ours.math is bundled.math
    assert ours.basesize > 0
