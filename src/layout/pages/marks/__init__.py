"""What a card carries besides the post, drawn in the theme's own places: the page number
(`chrome`), an AI-content label (`aigclabel`), a brand kit's marks (`brandmarks`) and the
wash that keeps text legible over a kit's background (`brandwash`); and the language the
page number and labels are set in, the post's (`language`)."""
