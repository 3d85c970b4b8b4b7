"""TeX's spacing between math atoms, written onto the MathML before ziamath lays it out.

ziamath spaces an operator by the MathML 2 operator dictionary and its place in the row,
which is not what TeX (and MathJax, which follows TeX) does: `×`, `÷` and `∘` got 2/18 em
where TeX puts a medium space (4/18 em), `·` 3/18, arrows 2/18 where TeX puts a relation's
thick space (5/18 em), a comma 6/18 after it where TeX puts 3/18, and a minus after `=` or
`(` the medium space of a binary minus where TeX sets a unary one tight ("a = − b").
Readers compare our formulas with MathJax's (issue 43 item 3: "23×31" was tight).

So each `<mo>` that is an atom of a row gets explicit `lspace`/`rspace` (ziamath reads
them over its dictionary), from TeX's rules (The TeXbook, chapter 18 and Appendix G): every
atom has a class (Ord, Op, Bin, Rel, Open, Close, Punct, Inner); a Bin with nothing, a Bin,
Op, Rel, Open or Punct before it, or a Rel, Close or Punct (or nothing) after it, is an Ord;
the space between two atoms is TeX's table of 0, thin (3/18), medium (4/18) or thick
(5/18) em, and in a script or an inline fraction's parts only the thin spaces around an Op
remain. Spaces between two atoms neither of which is an operator (a fraction's, a function
name's) are ziamath's own padding, close to TeX's. A matrix without its own column spacing
gets TeX's 1 em between columns (ziamath's default is 0.3 em).

ziamath 0.13 turns a length in em into 4/3 em (it takes an em for 10 pt and a pt for 1.333 px
while its glyphs are set in px), so `\\,`, `\\quad` and any dictionary space came out a third
wider than TeX's; every em length written here, and those of `<mspace>` and `<mtable>`, is
divided by that factor (`EM`), so that the drawn space is TeX's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the trees come from mathtex, which imports ElementTree with the math engine
    import xml.etree.ElementTree as ET

ORD, OP, BIN, REL, OPEN, CLOSE, PUNCT, INNER = range(8)
THIN, MEDIUM, THICK = 3, 4, 5  # eighteenths of an em

_BIN = set("+-−±∓×÷·⋅∗*∘∙•∩∪⊕⊖⊗⊘⊙⊚⊛∧∨∖⋆⊎⊓⊔⋄†‡⨿⊲⊳◃▹△▽≀⊻⊼⋉⋊⋋⋌⋒⋓⊞⊟⊠⊡")
_REL = set(
    "=<>≤≥≦≧≠≈≡≢∼≃≄≅≇≉≊≍≐≑≒≓≔≕≖≗≜≟∝∈∉∋∌⊂⊃⊄⊅⊆⊇⊈⊉⊊⊋≪≫⋘⋙≺≻⪯⪰≼≽≾≿≲≳≶≷⊏⊐⊑⊒"
    "⊥∣∤∥∦⊢⊣⊨⊩⊪⊫⊬⊭⊮⊯⋈⌢⌣⊴⊵≮≯≰≱⪇⪈⋦⋧:∷∶∹≎≏"
)
_OPEN = set("([{⟨⌈⌊⟦⦃⦅⟮")
_CLOSE = set(")]}⟩⌉⌋⟧⦄⦆⟯!?")
_PUNCT = set(",;")
_LARGE = set("∑∏∐∫∬∭∮∯∰∱∲∳⋀⋁⋂⋃⨀⨁⨂⨄⨆")
_INVISIBLE = {"\u2061", "\u2062", "\u2063", "\u2064", ""}
# Arrows are relations: Arrows, Supplemental Arrows-A and -B, Miscellaneous Symbols and Arrows.
_ARROWS = ((0x2190, 0x21FF), (0x27F0, 0x27FF), (0x2900, 0x297F), (0x2B00, 0x2B4F))

# TeX's spacing table (The TeXbook, p. 170), left class by right class: eighteenths of an em,
# negative where TeX puts the space only in display and text style (not in scripts).
_TABLE = (
    (0, THIN, -MEDIUM, -THICK, 0, 0, 0, -THIN),  # Ord
    (THIN, THIN, 0, -THICK, 0, 0, 0, -THIN),  # Op
    (-MEDIUM, -MEDIUM, 0, 0, -MEDIUM, 0, 0, -MEDIUM),  # Bin
    (-THICK, -THICK, 0, 0, -THICK, 0, 0, -THICK),  # Rel
    (0, 0, 0, 0, 0, 0, 0, 0),  # Open
    (0, THIN, -MEDIUM, -THICK, 0, 0, 0, -THIN),  # Close
    (-THIN, -THIN, 0, -THIN, -THIN, -THIN, -THIN, -THIN),  # Punct
    (-THIN, THIN, -MEDIUM, -THICK, -THIN, 0, -THIN, -THIN),  # Inner
)
_ROWS = {"math", "mrow", "mstyle", "mtd", "msqrt", "mpadded", "mphantom", "menclose", "merror"}
_SCRIPTED = {"msub", "msup", "msubsup", "munder", "mover", "munderover", "mmultiscripts"}
_TRANSPARENT = {"mspace", "none", "mprescripts"}
_NAMES = ("veryverythin", "verythin", "thin", "medium", "thick", "verythick", "veryverythick")
_NAMED = {f"{name}mathspace": n for n, name in enumerate(_NAMES, start=1)}
_NAMED.update({f"negative{name}mathspace": -n for n, name in enumerate(_NAMES, start=1)})
MATRIX_COLUMNS = 1.0  # em: TeX's \arraycolsep (5 pt) on each side of a column
EM = 10.00002 * 1.333 / 10  # what ziamath multiplies an em by (nodes/mnode.py, size_px)


def em(value: float) -> str:
    """`value` em as a length ziamath draws `value` em wide."""
    return f"{value / EM:.4f}em"


def tex_spacing(tree: ET.Element) -> ET.Element:
    """`tree` (MathML, namespaced or not) with TeX's spaces around its operators, in place."""
    _walk(tree, display=tree.get("display") == "block", script=False)
    return tree


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _text(element: ET.Element) -> str:
    return (element.text or "").strip()


def _walk(element: ET.Element, display: bool, script: bool) -> None:
    tag = _tag(element)
    if tag == "mstyle":
        if element.get("displaystyle") == "true":
            display, script = True, False
        elif element.get("displaystyle") == "false":
            display = False
        if element.get("scriptlevel", "0") not in ("0", "+0", "-1"):
            display, script = False, True
    if tag in _ROWS:
        _space_row(element, script)
    if tag == "mtable":
        columns = element.get("columnspacing") or f"{MATRIX_COLUMNS}em"
        element.set("columnspacing", " ".join(_true_em(length) for length in columns.split()))
    if tag == "mspace" and element.get("width"):
        element.set("width", _true_em(element.get("width", "")))
    for index, child in enumerate(element):
        child_display, child_script = display, script
        if (tag in _SCRIPTED and index > 0) or (tag == "mroot" and index == 1):
            child_display, child_script = False, True
        elif tag == "mfrac":
            child_display, child_script = False, script or not display
        elif tag == "mtable":
            child_display = element.get("displaystyle") == "true"
        _walk(child, child_display, child_script)


def _true_em(length: str) -> str:
    """A MathML length in em, or named (`thinmathspace`), rewritten for ziamath (`em`); any
    other unit as it is."""
    if length in _NAMED:
        return em(_NAMED[length] / 18)
    if not length.endswith("em"):
        return length
    try:
        return em(float(length[:-2]))
    except ValueError:
        return length


def atom_class(element: ET.Element) -> int | None:
    """The TeX class of a MathML element as an atom of its row; None for spaces and
    invisible operators, which TeX's spacing looks through."""
    tag = _tag(element)
    if tag in _TRANSPARENT:
        return None
    if tag == "mo":
        return _operator_class(_text(element))
    if tag in ("mi", "mn", "mtext", "ms"):
        return OP if tag == "mi" and len(_text(element)) > 1 else ORD
    if tag in _SCRIPTED:  # the class of its base: `\sum_{i=1}^n` is an Op, `x^2` an Ord
        base = element[0] if len(element) else None
        is_op = base is not None and _tag(base) == "mo" and _operator_class(_text(base)) == OP
        return OP if is_op else ORD
    if tag in ("mfrac", "mfenced"):
        return INNER
    parts = list(element)
    fenced = len(parts) >= 2 and parts[0].get("fence") == parts[-1].get("fence") == "true"
    if tag == "mrow" and fenced:  # \left( … \right)
        return INNER
    if tag in ("mrow", "mstyle", "mpadded", "mphantom", "menclose"):
        atoms = [(part, kind) for part in parts if (kind := atom_class(part)) is not None]
        if len(atoms) == 1 and _tag(atoms[0][0]) != "mo":  # `{x}` and the parser's own rows
            return atoms[0][1]
    return ORD


def _operator_class(text: str) -> int | None:
    if text in _INVISIBLE:
        return None
    if len(text) > 1:
        return REL if all(_is_relation(c) for c in text) else OP  # `:=`, or `lim`, `foo`
    if text in _BIN:
        return BIN
    if _is_relation(text):
        return REL
    if text in _OPEN:
        return OPEN
    if text in _CLOSE:
        return CLOSE
    if text in _PUNCT:
        return PUNCT
    if text in _LARGE:
        return OP
    return ORD


def _is_relation(char: str) -> bool:
    return char in _REL or any(low <= ord(char) <= high for low, high in _ARROWS)


def _limits_op(element: ET.Element, kind: int) -> bool:
    """Whether the atom is a large operator with scripts or limits (`\\sum_{i=1}^n`)."""
    return kind == OP and _tag(element) in _SCRIPTED


def _space_row(row: ET.Element, script: bool) -> None:
    """TeX's spaces between the row's atoms, put on the operators among them, or in an
    `<mspace>` beside a large operator with limits (`\\int_0^1 x`), which ziamath does not pad."""
    children = list(row)
    atoms = [(child, kind) for child in children if (kind := atom_class(child)) is not None]
    classes = [kind for _, kind in atoms]
    for i, kind in enumerate(classes):  # a Bin where TeX would not see one is an Ord
        if kind == BIN and (i == 0 or classes[i - 1] in (BIN, OP, REL, OPEN, PUNCT)):
            classes[i] = ORD
    for i in range(len(classes) - 1, -1, -1):
        after = classes[i + 1] if i + 1 < len(classes) else None
        if classes[i] == BIN and after in (REL, CLOSE, PUNCT, None):
            classes[i] = ORD
    for child in children:
        if _tag(child) == "mo":
            child.set("lspace", "0em")
            child.set("rspace", "0em")
    for i in range(len(atoms) - 1):
        space = _TABLE[classes[i]][classes[i + 1]]
        if space < 0:
            space = 0 if script else -space
        if not space:
            continue
        left, right = atoms[i][0], atoms[i + 1][0]
        if _tag(left) == "mo":
            left.set("rspace", em(space / 18))
        elif _tag(right) == "mo":
            right.set("lspace", em(space / 18))
        elif _limits_op(left, classes[i]) or _limits_op(right, classes[i + 1]):
            # in TeX's em: the walk goes on into the row and rewrites the mspace for ziamath
            mspace = left.tag[: -len(_tag(left))] + "mspace"
            gap = left.makeelement(mspace, {"width": f"{space / 18:.4f}em"})
            row.insert(list(row).index(left) + 1, gap)
