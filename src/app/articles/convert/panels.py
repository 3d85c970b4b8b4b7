"""A writer's `<details>` becomes an open, titled panel: WeChat runs no script and its
editor drops `<details>` and `<summary>`, which left the summary as bare text among the
paragraphs. The panel is two sections the theme styles (`section.details`,
`section.details-title`; shared rules in themes/shared/article-common.css): the summary is
its title, everything else its body, always shown.
"""

from __future__ import annotations

from lxml import html as lxml_html
from lxml.etree import _Element as Element

from inkcard.app.articles.convert.fixups import remove_keeping_tail

PANEL_CLASS = "details"
TITLE_CLASS = "details-title"


def details_to_panels(root: Element, default_title: str) -> int:
    """Each `<details>` a `section.details` whose first child is its title (the first
    `<summary>`, else `default_title`, as a browser shows it); a further `<summary>` becomes
    a paragraph, one outside any `<details>` plain words. Returns how many panels were
    made."""
    made = 0
    for details in list(root.iter("details")):
        summaries = [child for child in details if child.tag == "summary"]
        if summaries:
            title = summaries[0]
            if details.index(title) == 0:
                title.tail = (details.text or "") + (title.tail or "") or None
                details.text = None
            else:
                remove_keeping_tail(title, title.tail)
                details.insert(0, title)
                title.tail, details.text = details.text, None
        else:
            title = lxml_html.Element("summary")
            title.text = default_title
            title.tail, details.text = details.text, None
            details.insert(0, title)
        for extra in summaries[1:]:
            extra.tag = "p"
        title.tag = "section"
        title.attrib.clear()
        title.set("class", TITLE_CLASS)
        details.tag = "section"
        details.attrib.clear()
        details.set("class", PANEL_CLASS)
        made += 1
    for stray in list(root.iter("summary")):  # outside any details: its words, unmarked
        stray.tag = "span"
        stray.attrib.clear()
    return made
