"""Render jobs → answers from worker processes: the workers (``worker``, ``jobs``), the pool
that starts, admits, times and replaces them (``pool``, ``lifecycle``, ``process``,
``admission``), a split request spread over two workers (``spread``, ``sharing``), the
in-process pool of ``inkcard mcp`` (``inline``), and the records they send each other
(``messages``). Cards, covers and the articles' math all render here; this room imports only
the engine, ``app.errors`` and ``app.metrics``, never ``app.cards`` or ``app.articles``, which
both stand on it. A job carries plain data (Markdown, the decoded theme, options): the card
service's normalised request (``app.cards.request.CardRequest``) stays with the cards, which
decide what a request means, and hands the worker only its Markdown and options
(``refusals.parse_post`` takes the Markdown and its mdxMode, not the request). This file
imports nothing, so the forkserver that preloads ``worker`` holds no more than the workers use.
"""
