"""The knobs each `.<class>.<mode>` rule sets → colour tokens: the theme's roles name a token
where a mode changes a colour, `colors["all"]` holds the theme's own value and
`colors[<mode>]` the mode's. A mode is applied whole or not at all.

A theme file's modes are palettes, so a mode can change colours only: a colour knob, and
the colours inside a paint or a shadow (the stops of a gradient, a shadow's colour) when the
rest of it (kind, angle, positions, offsets) is the theme's. A solid colour counts as a
gradient of that colour throughout, so a mode may put a gradient where the theme has a
colour, or the other way. Anything else in a mode (a padding, a gradient of another angle)
cannot be applied, nor can a declaration of its rules this subset does not read; then none
of the mode is, and the theme is offered without it, with a note for each reason: a mode's
text colour applied without the background it was written for would put, say, pale text on
a pale card.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from inkcard.layout.style import BASE_COLORS, BASE_ROLES, COLOR_KNOBS

from .knobs import RoleKnobs
from .read import Note

Colors = dict[str, dict[str, str]]  # "all" or a mode → token → colour
PAINTED_KNOBS = COLOR_KNOBS | {"effects"}  # the knobs whose colours a mode may change


@dataclass(slots=True)
class Modal:
    """What the rules of one `.<class>.<mode>` set, before it becomes colour tokens."""

    roles: RoleKnobs = field(default_factory=dict)
    inherited: RoleKnobs = field(default_factory=dict)  # the card's colour and font
    line: int = 0  # where its first rule is, for its notes
    problems: list[Note] = field(default_factory=list)  # declarations it could not use


class Mismatch(ValueError):
    """A mode's value differs from the theme's in more than its colours."""


def apply_modes(
    modes: dict[str, Modal], roles: RoleKnobs, inherited: RoleKnobs
) -> tuple[list[str], Colors, list[Note]]:
    """(the modes applied, the colour tokens, the notes): each mode's colours as tokens in
    `roles` and `inherited` (changed in place), or the mode left out whole."""
    colors: Colors = {}
    applied: list[str] = []
    notes: list[Note] = []
    for mode, modal in modes.items():
        trial = copy.deepcopy((roles, inherited, colors))
        problems = [*modal.problems]
        problems += _as_tokens(mode, modal.roles, trial[0], trial[2], modal.line)
        problems += _as_tokens(mode, modal.inherited, trial[1], trial[2], modal.line, "card_")
        if problems:
            why = f".{mode} is left out whole: part of a mode could leave text on a background"
            notes.extend([*problems, Note(modal.line, f"{why} it was not written for")])
            continue
        roles.clear()
        roles.update(trial[0])
        inherited.clear()
        inherited.update(trial[1])
        colors = trial[2]
        applied.append(mode)
    return applied, colors, notes


def _as_tokens(
    mode: str, changed: RoleKnobs, base: RoleKnobs, colors: Colors, line: int, prefix: str = ""
) -> list[Note]:
    """Sets the mode's knobs as colour tokens in `base` and `colors`; a note for each knob
    that is not a colour change."""
    notes = []
    for role, knobs in changed.items():
        for knob, value in knobs.items():
            own = base.get(role, {}).get(knob, _model_colour(role, knob))
            if value == own:
                continue  # the mode repeats the theme (a highlighter's height, say)
            if knob not in PAINTED_KNOBS:
                why = f".{mode}: {role} {knob} is not a colour; a mode changes colours only"
                notes.append(Note(line, why))
                continue
            try:
                tokens = Tokens(f"{prefix}{role}_{knob}", colors, mode)
                base.setdefault(role, {})[knob] = tokens.shared(own, value)
            except Mismatch as error:
                notes.append(Note(line, f".{mode}: {role} {knob} {error}"))
    return notes


def _model_colour(role: str, knob: str) -> Any:
    """The colour the base model gives a role's colour knob, spelled as a colour."""
    value = getattr(BASE_ROLES.get(role), knob, None)
    if value is None:
        value = "text" if knob == "color" else "#00000000"
    return BASE_COLORS.get(value, value) if isinstance(value, str) else value


@dataclass(slots=True)
class Tokens:
    """The tokens of one knob in one mode: `name` for a colour, `name_<n>` for the n-th
    colour inside a paint or an effect."""

    name: str
    colors: Colors
    mode: str
    count: int = 0

    def shared(self, own: Any, value: Any) -> Any:
        """`own` with each colour `value` changes replaced by a token set in `colors`;
        raises `Mismatch` when they differ in more than colours."""
        own, value = _alike(own, value)
        return self._walk(own, value, whole=isinstance(own, str))

    def _walk(self, own: Any, value: Any, *, whole: bool = False) -> Any:
        if isinstance(own, str) and isinstance(value, str):
            self.count += 1
            return own if own == value else self._token(own, value, whole)
        if isinstance(own, dict) and isinstance(value, dict):
            if own.keys() != value.keys() or own.get("kind") != value.get("kind"):
                raise Mismatch("is another kind of paint than the theme's")
            return {k: own[k] if k == "kind" else self._walk(own[k], value[k]) for k in own}
        if isinstance(own, list | tuple) and isinstance(value, list | tuple):
            if len(own) != len(value):
                raise Mismatch("has another number of colours or shadows than the theme's")
            return [self._walk(a, b) for a, b in zip(own, value, strict=True)]
        if own != value:
            raise Mismatch("differs from the theme's in more than its colours")
        return own

    def _token(self, own: str, value: str, whole: bool) -> str:
        """The token standing for `own` (a colour, or a token an earlier mode made), set
        to `value` in this mode."""
        shared = self.colors.setdefault("all", {})
        token = own if own in shared else (self.name if whole else f"{self.name}_{self.count}")
        shared.setdefault(token, own)
        ours = self.colors.setdefault(self.mode, {})
        if ours.get(token, value) != value:
            raise Mismatch("gives one of the theme's colours two values")
        ours[token] = value
        return token


def _alike(own: Any, value: Any) -> tuple[Any, Any]:
    """A colour facing a gradient as that gradient in the one colour throughout."""
    if isinstance(own, str) and _is_gradient(value):
        return {**value, "stops": [own] * len(value["stops"])}, value
    if isinstance(value, str) and _is_gradient(own):
        return own, {**own, "stops": [value] * len(own["stops"])}
    return own, value


def _is_gradient(paint: Any) -> bool:
    return isinstance(paint, dict) and "stops" in paint
