"""Markdown → WeChat articles: conversion, checks, drafts and the article thread pool."""

import os

# premailer memoises every inline style it parses in one LFU cache, 128 entries by default,
# read from the environment when premailer is first imported (by `html`, after this). One
# article theme's styles take ~40 entries, so the themes (and brand colours) in use evicted
# each other and an article re-parsed its CSS (~20 ms); 2,048 small entries hold them all.
os.environ.setdefault("PREMAILER_CACHE_MAXSIZE", "2048")
