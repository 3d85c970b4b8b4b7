"""Card requests → stored card images: ``request`` normalises a request once, ``images``
fetches its remote images, ``pool`` and ``worker`` render it in separate processes,
``service`` finds or stores the set; ``gallery`` draws the sample post in every theme.
It may import ``app.ledger`` and every row below it, never ``app.articles`` or above."""
