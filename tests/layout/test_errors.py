"""The engine's error tree: one base for every error it raises on purpose."""

from __future__ import annotations

import inspect

import pytest

from inkcard import layout
from inkcard.layout import errors
from inkcard.layout.base import svgpath
from inkcard.layout.draw import imagecodec
from inkcard.layout.parse import mdx
from inkcard.layout.style import theme as style


def _public_errors() -> list[type[BaseException]]:
    found = {
        value
        for module in (layout, errors, imagecodec, mdx, style, svgpath)
        for name, value in vars(module).items()
        if not name.startswith("_")
        and inspect.isclass(value)
        and issubclass(value, BaseException)
        and value.__module__.startswith("inkcard.layout")
    }
    return sorted(found, key=lambda kind: kind.__name__)


def test_the_tree_is_not_empty() -> None:
    assert len(_public_errors()) >= 12


@pytest.mark.parametrize("kind", _public_errors(), ids=lambda kind: kind.__name__)
def test_every_public_error_is_an_engine_error(kind: type[BaseException]) -> None:
    assert issubclass(kind, layout.EngineError)
    assert kind.__module__ == "inkcard.layout.errors"


@pytest.mark.parametrize(
    "kind",
    [
        layout.ThemeError,
        layout.FontError,
        layout.PathError,
        layout.ImageRejected,
        layout.SheetError,
    ],
)
def test_value_errors_stay_value_errors(kind: type[BaseException]) -> None:
    """Callers that catch ValueError (theme loading, image probing) still catch these."""
    assert issubclass(kind, ValueError)


@pytest.mark.parametrize(
    "kind", [layout.MdxError, layout.TooManyPages, layout.CardTooLarge, layout.TooManyPixels]
)
def test_render_refusals_are_render_errors(kind: type[BaseException]) -> None:
    assert issubclass(kind, layout.RenderError)


def test_the_old_homes_name_the_same_classes() -> None:
    assert imagecodec.ImageRejected is layout.ImageRejected
    assert style.ThemeError is layout.ThemeError
    assert mdx.MdxError is layout.MdxError
    assert svgpath.PathError is layout.PathError
