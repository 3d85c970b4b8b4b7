"""Markdown → WeChat article HTML: pure functions, no I/O besides reading theme files once.

``html`` runs the pipeline (markdown-it, nh3, lxml, premailer; the article path's one door
for each) and ``fixups`` holds the tree passes the editor needs; ``refs`` (links and
footnotes), ``tables``, ``alerts``, ``formulas`` (math as inline SVG), ``diagrams`` (Mermaid
as inline SVG) and ``brand`` (a primary colour and base font size on a theme's CSS) are its
parts. It imports ``layout`` and ``themes`` and nothing else of ours: the drafts and the
platform client build on it, never it on them.
"""

import os

# premailer memoises every inline style it parses in one LFU cache, 128 entries by default,
# read from the environment when premailer is first imported (by `html`, after this). One
# article theme's styles take ~40 entries, so the themes (and brand colours) in use evicted
# each other and an article re-parsed its CSS (~20 ms); 2,048 small entries hold them all.
os.environ.setdefault("PREMAILER_CACHE_MAXSIZE", "2048")
