"""Card requests → stored card images: ``request`` normalises a request once, ``images``
fetches its remote images, the render processes of ``app.render`` draw it, ``service`` finds
or stores the set; ``covers`` does the same for cover cards, and ``gallery`` draws the sample
post in every theme.
It may import ``app.render``, ``app.ledger`` and every row below them, never ``app.articles`` or
above."""
