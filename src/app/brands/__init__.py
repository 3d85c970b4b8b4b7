"""Brand kits stored per API key: a creator's fonts, logo, byline, footer, watermark and
page-number style, checked once when saved (``kit``) and kept in the service database
(``store``), then named by ``brand`` on every card request and drawn by the engine
(``layout.style.BrandKit``)."""
