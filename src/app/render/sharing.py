"""A worker's pipe to the pool → the worker's side of a split request shared with another.

While a ``may_share`` render runs, the worker asks the pool for the parts of the blocks another
worker laid out (``WantShare``), then offers its laid-out cards (``Offer``) and hands over the
ones it does not draw (``Share``). The pool's side is ``app.render.spread``.
"""

from __future__ import annotations

import pickle
from multiprocessing.connection import Connection
from typing import Protocol

from inkcard import layout
from inkcard.app.render.messages import Offer, Share, WantShare


class Sharing(Protocol):
    """What ``render_cards`` asks of the pool when it shares its work (``PoolLink``)."""

    def premade(self, doc: layout.Doc) -> layout.Premade | None: ...

    def hand_off(self, pages: list[layout.Page]) -> int: ...


class PoolLink:
    """A ``may_share`` render's talk with the pool over ``conn``: the parts of the blocks
    another worker laid out (``WantShare``), then its cards (``Offer``, ``Share``)."""

    def __init__(self, conn: Connection, shared: bool):
        self._conn = conn
        self._shared = shared

    def premade(self, doc: layout.Doc) -> layout.Premade | None:
        """Where the parts of the second share come from, if another worker lays it out."""
        start = layout.share_start(doc) if self._shared else None
        return None if start is None else layout.Premade(start, self._parts)

    def _parts(self) -> list[layout.Part | None] | None:
        self._conn.send(WantShare())
        pickled = self._conn.recv()
        return pickle.loads(pickled) if pickled else None

    def hand_off(self, pages: list[layout.Page]) -> int:
        """How many of the laid-out cards (the first ones) this worker draws: a post of one
        card is not offered; else ``Offer``, the pool's answer, and the ``Share`` it did
        not keep, for another worker."""
        if len(pages) < 2:
            return len(pages)
        offer = Offer(len(pages))
        self._conn.send(offer)
        half = offer.first_half
        # A worker that laid out a share was helped a moment ago: the pool will most likely
        # take that worker again, so the half it would draw is pickled while the pool answers.
        likely = pickled(pages[half:]) if self._shared else None
        keep = int(self._conn.recv())
        if keep < len(pages):
            self._conn.send(Share(likely if likely and keep == half else pickled(pages[keep:])))
        return keep


def pickled(laid_out: list[layout.Page] | list[layout.Part | None]) -> bytes:
    """Laid-out cards or parts as they cross to another worker."""
    return pickle.dumps(laid_out, protocol=pickle.HIGHEST_PROTOCOL)
