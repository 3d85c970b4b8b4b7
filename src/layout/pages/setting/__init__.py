"""Where and how large a card's rows are set, once the page breaker has cut them.

`short` composes a post that fits one card with room to spare (larger type, its optical
centre) and reads a title card; `covered` sets that title card as the post's cover, a
roomy first card's title over its section, a panel alone on a later card larger;
`continued` sets a deck's panel alone before its last slide under its section's title again;
`centring` reads which later cards are set in their middle (a close, a plate, figures
alone, a deck's section statements) and where any card's rows start; `verse` centres a
poem's lines; `spread` spaces a short slide's free gaps. May import the engine's base,
style, text, flow and parse layers and `pages.breaks` and `pages.quality`, nothing else of
`pages`.
"""
