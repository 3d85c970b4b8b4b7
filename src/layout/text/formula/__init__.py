"""Formulas in text: LaTeX typeset to outlines (`mathtex`), TeX's spaces between math atoms
(`mathspacing`), where an inline formula may break (`mathbreaks`) and the steps a formula's
layout will take, counted before it runs (`mathcost`)."""
