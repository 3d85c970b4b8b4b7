"""Markdown → WeChat articles: the article HTML, and with an account a draft or an image post.

Two operations: ``service`` (``ArticleService``: convert-and-draft, its dry run) and
``newspic`` (an image post drawn as cards). They are built on three rooms: ``convert``
(Markdown → article HTML, pure), ``drafts`` (what a draft is made of: images, cover, title,
digest, warnings) and ``wechat`` (the platform client, its token and media caches); and on
``threads`` (the bounded thread pool article work runs in), ``localimages`` (the local
images of ``inkcard mcp``) and ``warmup`` (the path run once at start). It may import
``layout``, ``themes`` and every lower row of ``app`` (the cards draw covers and image posts;
the threads share the cards' admission), never ``app.services`` or anything above it.
"""
