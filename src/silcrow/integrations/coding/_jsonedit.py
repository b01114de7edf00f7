"""Edits of a JSON document's text that change only the bytes they must.

A client's config file is the user's: its key order, indentation, blank lines and (in
JSON with comments) comments must survive silcrow adding its entry, and taking the entry
out again must give back the very bytes that were there before. Loading the file and
dumping it again would do neither, so this module scans the text for the spans of its
objects, arrays and members and splices text in and out: an insertion goes after the last
member, indented like it, and a removal deletes exactly what such an insertion added.

JSON with ``//`` and ``/* */`` comments and trailing commas is read too (Cursor and VS
Code write it); anything else that is not JSON raises :class:`ValueError` with the line, and
so does nesting deeper than :data:`MAX_DEPTH` (the scan is recursive; no client config comes
near it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Node", "TooDeep", "find", "insert", "parse", "remove", "replace", "value_of"]

_WS = " \t\r\n"
#: Objects and arrays nested deeper than this are refused (Python's recursion would end first).
MAX_DEPTH = 200


class TooDeep(ValueError):
    """The document nests objects and arrays deeper than :data:`MAX_DEPTH`."""


@dataclass
class Member:
    """A member of an object (``key`` set) or an element of an array."""

    key: str | None
    start: int  # where the member's text starts (its key, or the element's value)
    value: Node


@dataclass
class Node:
    """A JSON value's span ``[start, end)`` in the text; containers have their members."""

    kind: str  # "object", "array" or "scalar"
    start: int
    end: int
    members: list[Member] = field(default_factory=list)

    def get(self, key: str) -> Member | None:
        return next((m for m in self.members if m.key == key), None)


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0

    def fail(self, what: str) -> ValueError:
        line = self.text.count("\n", 0, self.pos) + 1
        column = self.pos - (self.text.rfind("\n", 0, self.pos) + 1) + 1
        return ValueError(f"{what} at line {line} column {column}")

    def skip(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n:
            if text[self.pos] in _WS:
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end + 1
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("unclosed /* comment")
                self.pos = end + 2
            else:
                return

    def value(self) -> Node:
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("expected a value, found the end of the file")
        char = self.text[self.pos]
        if char in "{[":
            return self.container("object" if char == "{" else "array")
        start = self.pos
        if char == '"':
            self.string()
        else:
            while self.pos < len(self.text) and self.text[self.pos] not in _WS + ",]}/":
                self.pos += 1
            try:
                json.loads(self.text[start:self.pos])
            except json.JSONDecodeError:
                self.pos = start
                raise self.fail("expected a value") from None
        return Node("scalar", start, self.pos)

    def string(self) -> str:
        start = self.pos
        self.pos += 1
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char == "\\":
                self.pos += 2
                continue
            self.pos += 1
            if char == '"':
                try:
                    return str(json.loads(text[start:self.pos]))
                except json.JSONDecodeError:
                    self.pos = start
                    raise self.fail("bad string") from None
        self.pos = start
        raise self.fail("unterminated string")

    def container(self, kind: str) -> Node:
        if self.depth >= MAX_DEPTH:
            raise TooDeep(str(self.fail(f"objects and arrays nested more than {MAX_DEPTH} levels deep")))
        self.depth += 1
        try:
            return self._members(kind)
        finally:
            self.depth -= 1

    def _members(self, kind: str) -> Node:
        node = Node(kind, self.pos, -1)
        close = "}" if kind == "object" else "]"
        self.pos += 1
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise self.fail(f"missing {close!r}")
            if self.text[self.pos] == close:
                self.pos += 1
                node.end = self.pos
                return node
            start = self.pos
            key = None
            if kind == "object":
                if self.text[self.pos] != '"':
                    raise self.fail("expected a quoted key")
                key = self.string()
                self.skip()
                if self.pos >= len(self.text) or self.text[self.pos] != ":":
                    raise self.fail("expected ':'")
                self.pos += 1
            node.members.append(Member(key, start, self.value()))
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos] == ",":
                self.pos += 1
            elif self.pos < len(self.text) and self.text[self.pos] != close:
                raise self.fail(f"expected ',' or {close!r}")


def parse(text: str) -> Node:
    """The spans of the JSON document ``text`` (one value, comments and whitespace around it)."""
    scanner = _Scanner(text)
    root = scanner.value()
    scanner.skip()
    if scanner.pos != len(text):
        raise scanner.fail("unexpected text after the document")
    return root


def value_of(text: str, node: Node) -> Any:
    """The Python value of ``node`` (comments left out)."""
    if node.kind == "object":
        return {m.key: value_of(text, m.value) for m in node.members}
    if node.kind == "array":
        return [value_of(text, m.value) for m in node.members]
    return json.loads(text[node.start:node.end])


def find(text: str, path: list[str]) -> Node | None:
    """The node at ``path`` (object keys from the top), or None where a key is missing."""
    node: Node | None = parse(text)
    for key in path:
        if node is None or node.kind != "object":
            return None
        member = node.get(key)
        node = member.value if member is not None else None
    return node


def indent_unit(text: str) -> str | int:
    """The file's indentation step: the leading whitespace of its first indented line (2 if none)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return lead if "\t" in lead else len(lead)
    return 2


def _line_indent(text: str, pos: int) -> str:
    line_start = text.rfind("\n", 0, pos) + 1
    lead = text[line_start:pos]
    return lead[: len(lead) - len(lead.lstrip(" \t"))]


def _render(value: Any, unit: str | int, indent: str) -> str:
    lines = json.dumps(value, indent=unit, ensure_ascii=False).split("\n")
    return lines[0] + "".join("\n" + indent + line for line in lines[1:])


def insert(text: str, container: Node, value: Any, key: str | None = None) -> str:
    """``text`` with ``value`` added as the last member of ``container`` (an object: under ``key``)."""
    unit = indent_unit(text)
    label = "" if key is None else json.dumps(key, ensure_ascii=False) + ": "
    if container.members:
        last = container.members[-1]
        if "\n" not in text[container.start:container.end]:  # a one-line container stays one line
            addition = ", " + label + json.dumps(value, ensure_ascii=False)
        else:
            indent = _line_indent(text, last.start)
            addition = ",\n" + indent + label + _render(value, unit, indent)
        return text[:last.value.end] + addition + text[last.value.end:]
    outer = _line_indent(text, container.start)
    inner = outer + (unit if isinstance(unit, str) else " " * unit)
    # What an empty container held (spaces, a comment) stays after the new member, so that
    # removing it gives those bytes back; "{}" gets a closing line of its own.
    inside = text[container.start + 1:container.end - 1]
    body = "\n" + inner + label + _render(value, unit, inner) + (inside or "\n" + outer)
    return text[:container.start + 1] + body + text[container.end - 1:]


def remove(text: str, container: Node, index: int) -> str:
    """``text`` without member ``index`` of ``container``: the inverse of :func:`insert`."""
    members = container.members
    member = members[index]
    if len(members) == 1:
        # What follows the member is what the container held before it was inserted (see
        # insert), unless it is only the closing line insert gives an empty "{}".
        tail = text[member.value.end:container.end - 1]
        if tail.lstrip(_WS).startswith(","):  # a trailing comma (JSON with comments)
            tail = tail.lstrip(_WS)[1:]
        if tail == "\n" + _line_indent(text, container.start):
            tail = ""
        return text[:container.start + 1] + tail + text[container.end - 1:]
    if index > 0:
        return text[:members[index - 1].value.end] + text[member.value.end:]
    return text[:member.start] + text[members[1].start:]


def replace(text: str, node: Node, value: Any) -> str:
    """``text`` with the value at ``node`` replaced by ``value`` (indented like its line)."""
    rendered = _render(value, indent_unit(text), _line_indent(text, node.start))
    return text[:node.start] + rendered + text[node.end:]
