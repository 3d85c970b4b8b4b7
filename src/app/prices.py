"""Each paid operation → the credits it costs: the one price list.

Every reader takes its numbers from here: the operations (what they hold, what they commit and
the balance they ask for), the answers' ``cost`` fields, the route and MCP tool descriptions,
the request fields that name a price, the error tables, the playground and, through a test
that reads this table, the README. ``PRICES`` are the prices when no setting overrides one;
``Settings.prices`` is the list in force (``INKCARD_GENERATE_COST`` sets a card call's price;
the publishing calls' prices are fixed).
"""

from __future__ import annotations

from dataclasses import dataclass

from inkcard.app.errors import plural


@dataclass(frozen=True, slots=True)
class Prices:
    """What each paid operation costs, in credits, on success (a failed call costs nothing)."""

    generate: int = 0
    """A ``POST /api/generate`` call, however many cards it draws (``INKCARD_GENERATE_COST``)."""
    html: int = 1
    """convert-and-draft without an account: the article as inline-styled HTML."""
    draft: int = 3
    """convert-and-draft with an account: a draft in the account's draft box."""
    newspic: int = 3
    """newspic-draft: an image post's draft, priced like an article draft."""
    publish: int = 3
    """publish: a draft of the account published (``freepublish/submit``), priced like a draft."""
    draft_box: int = 0
    """Reading the draft box (a page, one draft), deleting a draft, a publish job's status and
    the stored accounts: free."""
    dry_run: int = 1
    """Either publishing call with ``dryRun``: no platform is called, charged like HTML only."""
    publishing_minimum: int = 3
    """The balance a publishing call needs at all, whichever variant: checked, never held
    (the ledger shows one debit of the real price)."""

    @property
    def cover(self) -> int:
        """A ``POST /api/generate/cover`` call costs what a generate call costs, whatever its
        ``count``."""
        return self.generate

    @property
    def xhs_note(self) -> int:
        """A ``POST /api/platform/xhs-note`` call costs what a generate call costs: its cards
        and its cover are one call."""
        return self.generate

    def article(self, *, dry_run: bool, draft: bool) -> int:
        """The price of a convert-and-draft call: a dry run, a draft (with an account) or HTML."""
        return self.dry_run if dry_run else self.draft if draft else self.html

    def image_post(self, *, dry_run: bool) -> int:
        """The price of a newspic-draft call: a dry run or a draft."""
        return self.dry_run if dry_run else self.newspic


PRICES = Prices()
"""The prices when no setting overrides one."""


def credits(count: int) -> str:
    """A price in words: ``1 credit``, ``3 credits``."""
    return plural(count, "credit")
