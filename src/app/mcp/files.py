"""``markdownFile``: the Markdown of a tool call read from a file on this machine (stdio only).

The tools that take Markdown (``MARKDOWN_TOOLS``) accept, over stdio, ``markdownFile`` in
place of ``markdown``: an absolute path (or ``~/…``) under the allowed roots. The file is read
here and its text becomes the call's ``markdown``; the call then runs with a reader whose
relative paths start in the file's folder, so ``![x](./pic.png)`` next to the file works.
Over HTTP there is no reader and ``markdownFile`` is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inkcard.app.errors import InvalidField
from inkcard.app.localfiles import LocalFileRefused, LocalReader
from inkcard.app.schema import MAX_MARKDOWN_CHARS, field_label

MARKDOWN_FILE = "markdownFile"
MARKDOWN_TOOLS = frozenset(
    {"generate_cards", "convert_article", "create_newspic_draft", "create_xhs_note"}
)
MAX_MARKDOWN_FILE_BYTES = 4 * MAX_MARKDOWN_CHARS  # a UTF-8 character is at most 4 bytes
DESCRIPTION = (
    "Path of a Markdown file on this machine, read in place of markdown (send one of the two):"
    " absolute, or starting with ~. Images it names by a local path are read from disk too:"
    " ![x](/abs/pic.png), ![x](./pic.png) (from the file's folder) and file:// URLs. Only"
    " files in the folders of INKCARD_LOCAL_ROOTS (default: the user's home) are read, each"
    " image up to the size of a downloaded one."
)


def with_markdown_file(schema: dict[str, Any]) -> dict[str, Any]:
    """A Markdown tool's input schema with ``markdownFile`` beside ``markdown``."""
    properties = {
        **schema["properties"],
        MARKDOWN_FILE: {"type": "string", "description": DESCRIPTION},
    }
    required = [name for name in schema.get("required", []) if name != "markdown"]
    shaped = {**schema, "properties": properties}
    if required:
        shaped["required"] = required
    else:
        shaped.pop("required", None)
    return shaped


def _refused(message: str) -> InvalidField:
    return InvalidField(message, label=field_label(MARKDOWN_FILE))


def read_markdown_file(
    tool: str, arguments: dict[str, Any], reader: LocalReader | None
) -> tuple[dict[str, Any], LocalReader | None]:
    """The call's arguments with ``markdownFile`` read into ``markdown``, and the reader its
    local images are read with (relative paths from the file's folder; None over HTTP).

    Raises:
        InvalidField: ``markdownFile`` over HTTP, beside ``markdown``, not a string, not
            absolute, outside the roots, missing, too big or not UTF-8 text.
    """
    if MARKDOWN_FILE not in arguments or tool not in MARKDOWN_TOOLS:
        return arguments, reader
    arguments = dict(arguments)
    name = arguments.pop(MARKDOWN_FILE)
    if reader is None:
        raise _refused(
            "markdownFile is read only by `inkcard mcp` over stdio, on the agent's own"
            " machine; over HTTP send the Markdown itself as markdown"
        )
    if not isinstance(name, str) or not name.strip():
        raise _refused("markdownFile must be the path of a Markdown file (a string)")
    if "markdown" in arguments:
        raise _refused("send markdown or markdownFile, not both")
    path = Path(name).expanduser()
    if not path.is_absolute():
        raise _refused(f"markdownFile {name!r} must be an absolute path (or start with ~)")
    try:
        resolved = reader.checked(path)
        data = reader.read(str(resolved), MAX_MARKDOWN_FILE_BYTES)
    except LocalFileRefused as exc:
        raise _refused(f"markdownFile {name!r} {exc.reason}") from None
    try:
        arguments["markdown"] = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _refused(f"markdownFile {name!r} is not UTF-8 text") from None
    return arguments, reader.with_base(resolved.parent)
