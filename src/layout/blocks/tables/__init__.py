"""A GFM table: its column widths (`widths`) and its rows laid out in them (`rows`)."""
