"""The typed values of a provider's tools: what a tool is (:class:`ToolSpec`) and what a call
of it answered (:class:`ToolResult`).

A provider describes its tools and answers their calls with these values; no JSON passes
between a provider and the manager. The model's formats (OpenAI function schemas, the JSON
text of a result) are made from them in one place, :mod:`silcrow.recall._edge`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ToolResult", "ToolSpec"]


@dataclass(frozen=True)
class ToolSpec:
    """One tool a model may call: its name, what it does, and its arguments.

    ``properties`` maps each argument to its JSON Schema (``{"type": "string", "description":
    ...}``); ``required`` names those a call must give. ``schema_extra`` holds any other keyword of
    the arguments' object schema (``additionalProperties``...), kept as given.
    """

    name: str
    description: str
    properties: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    schema_extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a tool needs a non-empty name, got {self.name!r}")
        missing = [key for key in self.required if key not in self.properties]
        if missing:
            raise ValueError(f"tool {self.name!r}: required arguments {missing} are not among its "
                             f"properties ({', '.join(self.properties) or 'none'})")

    @classmethod
    def of(cls, name: str, description: str, properties: Mapping[str, Mapping[str, Any]] | None = None,
           required: list[str] | tuple[str, ...] = ()) -> ToolSpec:
        """A tool whose arguments are the object ``properties`` (the usual case)."""
        return cls(name, description, dict(properties or {}), tuple(required))

    def with_property(self, key: str, schema: Mapping[str, Any]) -> ToolSpec:
        """This tool with one more (optional) argument."""
        return ToolSpec(self.name, self.description, {**self.properties, key: schema}, self.required,
                        self.schema_extra)

    def parameters(self) -> dict[str, Any]:
        """The JSON Schema of the arguments object (a new dict: callers may change it)."""
        params: dict[str, Any] = {"type": "object",
                                  "properties": {key: dict(value) for key, value in self.properties.items()}}
        if self.required:
            params["required"] = list(self.required)
        params.update(self.schema_extra)
        return params


@dataclass(frozen=True)
class ToolResult:
    """What a tool call answered: the fields the model reads, or why it failed.

    ``data`` holds what the call found or did (``{"results": [...], "count": 2}``);
    ``error``, when set, says what was wrong and what to do (the call failed). A call that
    failed may still carry ``data`` (the matches a refusal was about, say).
    """

    data: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @classmethod
    def done(cls, **data: Any) -> ToolResult:
        """A call that worked, answering ``data``."""
        return cls(data)

    @classmethod
    def failed(cls, error: str, **data: Any) -> ToolResult:
        """A call that failed because of ``error`` (what was wrong, what to do)."""
        return cls(data, str(error))
