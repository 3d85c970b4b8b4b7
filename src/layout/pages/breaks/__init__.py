"""Where a post's cards end: the page breaker (`pagebreaks`), chosen over the whole post.

`column` stacks the post's rows as one column (prefix sums: a card's height is two
lookups); `breakrules` reads what each break falls inside (a paragraph, a table, a
section's end, a table's note, the post's title card) and names the rules a card's end
breaks; `breakprices` prices each break whatever card it ends; `pagebreaks` prices the
cards and finds the cheapest set; `squeeze` fits a card whose gaps or table rows give to
end it. May import: `layout.base` and `layout.errors`, nothing else of the engine's pages.
"""
