"""Inkcard: Markdown → themed card images, as an HTTP service, an MCP server and a command line.

Everything installs under this one name, so a project's own ``app`` or ``themes`` is never
shadowed. ``inkcard.layout`` is the card engine (Markdown → laid-out pages → PNG, JPEG, WebP,
PDF), ``inkcard.themes`` the built-in themes and the reader of custom ones, and ``inkcard.app``
the service, MCP server and ``inkcard`` command built on both. The public Python API is the
engine's face and the themes: ``from inkcard import layout, themes``, ``from inkcard.layout
import render_cards, FontBook, RenderOptions``. This module only passes on ``VERSION``
(written in ``inkcard.app``): importing it loads neither the engine nor Skia, so the command
line starts fast.
"""

from .app import VERSION

__all__ = ["VERSION"]
