"""Prices are written once (``app.prices``): the code reads the table, and the documents that
quote a price say what the table says.

The README and the operations guide are prose, not generated: each price they quote is listed
here as the phrase the table makes, and no other price-like number may be left in them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from inkcard.app.prices import PRICES, Prices, credits
from inkcard.app.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
SRC_APP = ROOT / "src" / "app"
P = PRICES

# A number of credits, a cost field with a number, a minimum balance with a number.
PRICE_LIKE = re.compile(r"\b\d+ credits?\b|\"cost\":\s*[1-9]|balance (?:under|≥) \d|_COST = \d")


def _flat(text: str) -> str:
    """``text`` with every run of whitespace one space (prose wraps anywhere)."""
    return " ".join(text.split())


QUOTED: dict[str, list[str]] = {
    "README.md": [
        f"holding {Settings().bootstrap_credits} credits",  # a grant, not a price
        f"phone width ({credits(P.html)} a conversion)",
        f"# HTML only ({credits(P.html)})",
        f'"cost":{P.html},"warnings"',
        f"# A draft in the account's draft box ({credits(P.draft)})",
        f'"wordCount":4,"cost":{P.draft},',
        f"answer what would be sent; {credits(P.dry_run)}.",  # the dryRun field's row
        f"Under {credits(P.publishing_minimum)} is refused before any work;"
        f" {P.html} (HTML, dry run) or {P.draft} (draft) are charged only on success",
        f"| balance under {P.publishing_minimum} |",
        f"`cost` ({P.newspic}); `dryRun` needs no headers ({credits(P.dry_run)})",
        f"| {P.html} (HTML) or {P.draft} (draft); balance ≥ {P.publishing_minimum} |",
        f"| {P.newspic}; balance ≥ {P.publishing_minimum} |",
    ],
    "docs/operations.md": [
        f'"cost":{P.newspic}}}}}',
        f"needs no platform headers, costs {credits(P.dry_run)}, and answers what would be sent",
        f',"cost":{P.dry_run}}},',
    ],
}


@pytest.mark.parametrize("document", sorted(QUOTED))
def test_documents_quote_the_price_list(document: str) -> None:
    text = _flat((ROOT / document).read_text("utf-8"))
    for phrase in QUOTED[document]:
        assert phrase in text, f"{document} should say: {phrase}"
        text = text.replace(phrase, "")
    assert PRICE_LIKE.findall(text) == [], f"{document} quotes a price the table does not make"


def test_the_readme_groups_prices_that_are_equal() -> None:
    # "1 (HTML, dry run)": one number for both, which the README may say only while it is so.
    assert P.dry_run == P.html


def test_no_price_is_written_outside_the_table() -> None:
    found = [
        f"{path.relative_to(SRC_APP)}: {match}"
        for path in sorted(SRC_APP.rglob("*"))
        if path.suffix in (".py", ".html", ".js") and path.name != "prices.py"
        for match in PRICE_LIKE.findall(path.read_text("utf-8"))
    ]
    assert found == []


def test_settings_override_the_card_price_only() -> None:
    assert load_settings({}).prices == PRICES
    prices = load_settings({"INKCARD_GENERATE_COST": "4"}).prices
    assert prices == Prices(generate=4) and prices.cover == 4
    assert prices.article(dry_run=False, draft=True) == PRICES.draft
    assert prices.article(dry_run=True, draft=True) == PRICES.dry_run
    assert prices.article(dry_run=False, draft=False) == PRICES.html
    assert prices.image_post(dry_run=False) == PRICES.newspic
    assert prices.image_post(dry_run=True) == PRICES.dry_run
