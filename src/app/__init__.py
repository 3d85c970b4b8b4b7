"""Inkcard HTTP service: Litestar app, API keys and credits, storage, command line."""
