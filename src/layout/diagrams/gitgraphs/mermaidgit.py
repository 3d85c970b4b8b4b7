"""Mermaid `gitGraph` source → a `GitGraph` record: branches, and commits in time order.

We read `commit` (with `id:`, `tag:`, `type: NORMAL|REVERSE|HIGHLIGHT`, `msg:`), `branch
name` (with `order:`), `checkout`/`switch`, `merge name` (with `id:`, `tag:`, `type:`) and
`cherry-pick id: "..."` (with `tag:`, `parent:`), and the orientation after the keyword
(`gitGraph TB:`). Each statement is split by a small scanner (`str.find`, no pattern), and
the graph is held to `MAX_NODES` commits and branches. A statement git would refuse (a
checkout of a branch that does not exist, merging a branch into itself, two commits of one
id) raises `DiagramError`, as mermaid-js refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import DiagramError
from ..mermaid import MAX_NODES, clean_label

MAIN = "main"
_ORIENTATIONS = {"": "LR", ":": "LR", "LR:": "LR", "TB:": "TB", "BT:": "BT"}
_TYPES = {"NORMAL": "normal", "REVERSE": "reverse", "HIGHLIGHT": "highlight"}
_SKIPPED = ("accTitle", "accDescr", "title")
_KEYS = {
    "commit": ("id", "tag", "type", "msg"),
    "merge": ("id", "tag", "type"),
    "cherry-pick": ("id", "tag", "parent"),
    "branch": ("order",),
}


@dataclass(frozen=True, slots=True)
class Commit:
    """A commit: `parents` first-parent first; `label` is the id the author gave (auto
    ids are not shown); `kind` is normal, reverse, highlight, merge or cherry."""

    id: str
    branch: str
    parents: tuple[str, ...]
    label: str = ""
    tag: str = ""
    kind: str = "normal"


@dataclass(frozen=True, slots=True)
class Branch:
    name: str
    order: float


@dataclass(frozen=True, slots=True)
class GitGraph:
    orientation: str  # LR, TB, BT
    branches: tuple[Branch, ...]  # in lane order
    commits: tuple[Commit, ...]  # in time order

    def labels(self) -> list[str]:
        """Branch names, then each commit's id and tag (where shown)."""
        out = [b.name for b in self.branches]
        for commit in self.commits:
            out += [text for text in (commit.label, commit.tag) if text]
        return out


def parse_gitgraph(lines: list[str]) -> GitGraph:
    """The git graph of the source's statements (`mermaid.statements`), header first."""
    head = lines[0].strip()[len("gitGraph") :].replace(" ", "")
    if head not in _ORIENTATIONS:
        raise DiagramError(f"unknown gitGraph orientation {head!r}")
    repo = _Repo()
    for raw in lines[1:]:
        text = raw.strip()
        word, _, rest = text.partition(" ")
        if word in ("checkout", "switch"):
            repo.checkout(_name(rest))
        elif word == "branch":
            name, _, options = _split_name(rest)
            repo.branch(name, _attributes(options, _KEYS["branch"]))
        elif word in ("commit", "merge", "cherry-pick"):
            name, options = ("", rest) if word != "merge" else _split_name(rest)[::2]
            getattr(repo, word.replace("-", "_"))(name, _attributes(options, _KEYS[word]))
        elif not text.startswith(_SKIPPED):
            raise DiagramError(f"cannot read {text[:40]!r}")
    if not repo.commits:
        raise DiagramError("gitGraph without commits")
    order = sorted(repo.branches.items(), key=lambda item: (item[1][0], item[1][1]))
    branches = tuple(Branch(name, rank) for name, (rank, _) in order)
    return GitGraph(_ORIENTATIONS[head], branches, tuple(repo.commits))


@dataclass
class _Repo:
    commits: list[Commit] = field(default_factory=list)
    branches: dict[str, tuple[float, int]] = field(default_factory=lambda: {MAIN: (0.0, 0)})
    heads: dict[str, str] = field(default_factory=lambda: {MAIN: ""})
    current: str = MAIN
    ids: set[str] = field(default_factory=set)

    def checkout(self, name: str) -> None:
        if name not in self.branches:
            raise DiagramError(f"checkout of a branch that does not exist: {name!r}")
        self.current = name

    def branch(self, name: str, options: dict[str, str]) -> None:
        if name in self.branches:
            raise DiagramError(f"branch {name!r} exists already")
        if len(self.branches) >= MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} branches")
        order = _number(options["order"]) if "order" in options else float(len(self.branches))
        self.branches[name] = (order, len(self.branches))
        self.heads[name] = self.heads[self.current]
        self.current = name

    def commit(self, _: str, options: dict[str, str]) -> None:
        head = self.heads[self.current]
        self._add(options, (head,) if head else (), _kind(options.get("type", "NORMAL")))

    def merge(self, name: str, options: dict[str, str]) -> None:
        if name not in self.branches:
            raise DiagramError(f"merge of a branch that does not exist: {name!r}")
        if name == self.current:
            raise DiagramError(f"cannot merge branch {name!r} into itself")
        mine, theirs = self.heads[self.current], self.heads[name]
        if not theirs or theirs == mine:
            raise DiagramError(f"nothing to merge from {name!r}")
        kind = _kind(options["type"]) if "type" in options else "merge"
        self._add(options, (mine, theirs) if mine else (theirs,), kind)

    def cherry_pick(self, _: str, options: dict[str, str]) -> None:
        picked = options.get("id", "")
        source = next((c for c in self.commits if c.id == picked), None)
        if source is None:
            raise DiagramError(f"cherry-pick of a commit that does not exist: {picked!r}")
        if source.branch == self.current:
            raise DiagramError("cannot cherry-pick a commit of the same branch")
        head = self.heads[self.current]
        options = {"tag": f"cherry-pick: {picked}", **options, "id": ""}
        self._add(options, (head, picked) if head else (picked,), "cherry")

    def _add(self, options: dict[str, str], parents: tuple[str, ...], kind: str) -> None:
        if len(self.commits) >= MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} commits")
        label = clean_label(options.get("id", ""))
        ident = label or f"\0{len(self.commits)}"
        if ident in self.ids:
            raise DiagramError(f"two commits of id {label!r}")
        self.ids.add(ident)
        tag = clean_label(options.get("tag", ""))
        self.commits.append(Commit(ident, self.current, parents, label, tag, kind))
        self.heads[self.current] = ident


def _kind(word: str) -> str:
    if word.strip() not in _TYPES:
        raise DiagramError(f"unknown commit type {word.strip()!r}")
    return _TYPES[word.strip()]


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise DiagramError(f"not a number: {text[:20]!r}") from None


def _name(text: str) -> str:
    name = clean_label(text)
    if not name or any(c.isspace() for c in name):
        raise DiagramError(f"cannot read branch name {text[:40]!r}")
    return name


def _split_name(text: str) -> tuple[str, str, str]:
    """A branch name (quoted, or up to the first space) and the options after it."""
    text = text.strip()
    if text.startswith('"'):
        end = text.find('"', 1)
        if end < 0:
            raise DiagramError(f"unclosed quote in {text[:40]!r}")
        return _name(text[: end + 1]), " ", text[end + 1 :]
    name, space, options = text.partition(" ")
    return _name(name), space, options


def _attributes(text: str, keys: tuple[str, ...]) -> dict[str, str]:
    """`key: "value" key: word ...` → a dict; a key the statement does not take raises."""
    out: dict[str, str] = {}
    pos, size = 0, len(text)
    while True:
        while pos < size and text[pos].isspace():
            pos += 1
        if pos >= size:
            return out
        colon = text.find(":", pos)
        key = text[pos:colon].strip() if colon >= 0 else text[pos:].strip()
        if colon < 0 or key not in keys:
            raise DiagramError(f"cannot read {text[pos : pos + 30]!r}")
        pos = colon + 1
        while pos < size and text[pos].isspace():
            pos += 1
        if pos < size and text[pos] == '"':
            end = text.find('"', pos + 1)
            if end < 0:
                raise DiagramError(f"unclosed quote in {text[pos : pos + 30]!r}")
            out[key], pos = text[pos + 1 : end], end + 1
        else:
            end = pos
            while end < size and not text[end].isspace():
                end += 1
            out[key], pos = text[pos:end], end
