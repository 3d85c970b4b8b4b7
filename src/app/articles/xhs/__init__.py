"""A Xiaohongshu note's text: ``text`` reads a post's block tree (the cards' own parse) as the
app's plain text and finds its hashtags; ``note`` decides the note's title, body and tags, the
warnings of the limits it exceeds, and the text to paste. Pure: no platform is called (posting
needs the app; a logged-in browser is never automated), and the cards and the cover are drawn
by the card service (``app.operations.xhsnote``, ``inkcard xhs-note``)."""
