"""Which bare text becomes a link, for cards and articles alike: an address, `http(s)://…`
or `www.…`. To linkify-it `README.md` and `bench.py` are domains (`.md` and `.py` are
country domains) and `ftp:` or `mailto:` are schemes; to a writer the first are file names
and the others rarely meant as links on a card or in a WeChat article.
"""

from __future__ import annotations

from typing import Any

from linkify_it import LinkifyIt  # type: ignore[import-untyped]  # no type hints

_SCHEMES = ("http:", "https:")


class _AddressesOnly(LinkifyIt):  # type: ignore[misc]
    def match(self, text: str) -> list[Any] | None:
        links = [link for link in super().match(text) or () if _is_address(link)]
        return links or None

    def match_at_start(self, text: str) -> Any | None:
        link = super().match_at_start(text)
        return link if link is not None and _is_address(link) else None


def _is_address(link: Any) -> bool:
    schema = str(link.schema).lower()
    return schema in _SCHEMES or (not schema and str(link.raw).lower().startswith("www."))


def address_linkify() -> Any:
    """A linkify-it for markdown-it's `linkify` that finds addresses only."""
    return _AddressesOnly()
