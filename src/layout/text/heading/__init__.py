"""A wrapping heading's line breaks, ranked as a reader parses it (`ranks`)."""

from .ranks import heading_breaks, phrase_ends

__all__ = ["heading_breaks", "phrase_ends"]
