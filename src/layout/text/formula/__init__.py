"""Formulas in text: LaTeX typeset to outlines (`mathtex`), TeX's spaces between math atoms
(`mathspacing`) and where an inline formula may break (`mathbreaks`)."""
