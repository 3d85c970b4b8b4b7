"""The account's draft box, publishing and the key's stored accounts → their HTTP routes.

``drafts``: ``GET /api/platform/drafts``, ``GET``/``DELETE /api/platform/drafts/{mediaId}``,
``POST /api/platform/publish`` and ``GET /api/platform/publish/{publishId}``; ``accounts``:
``PUT``/``DELETE /api/platform/accounts/{name}`` and ``GET /api/platform/accounts``. Thin
handlers over ``app.operations``, each answering in the publishing calls' error envelope
(``{"success": false, "error", "message", "cost": 0}``).
"""

from litestar.handlers import HTTPRouteHandler

from inkcard.app.prices import Prices
from inkcard.app.server.platform.accounts import account_routes
from inkcard.app.server.platform.drafts import draft_box_routes


def platform_routes(prices: Prices) -> list[HTTPRouteHandler]:
    """Every route of the draft box, publishing and the stored accounts."""
    return [*draft_box_routes(prices), *account_routes()]


__all__ = ["platform_routes"]
