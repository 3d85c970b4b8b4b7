"""A theme's decorations on a card: `decorate` builds each spec's items (one builder per
kind, wrapped for rotation, opacity and effects); `clearance` measures where those items
draw and keeps an `avoid_text` ornament off the card's text rows."""
