"""Greedy lines made better, pure (no fonts): `wholewords` ends ragged CJK lines between
words; `pretty` mends a paragraph's runt and short last line and evens justified lines.
May import `layout.text`'s `linebreak`, `opportunities` and `words`, nothing else of ours.
"""
