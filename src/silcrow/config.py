"""Settings: one typed object for what silcrow reads from config.toml and the environment.

Precedence: explicit arguments/flags, then the environment (only the
variables in :data:`ENV_VARS`, read at entry points by :meth:`Settings.with_env`),
then ``<home>/config.toml``, then the defaults below, which are the only
copy of them (the store and the agent take theirs from here).

``config.toml`` keeps its keys at the top level or in the ``[model]``,
``[recall]``, ``[memory]`` and ``[agent]`` tables; a key means the same
wherever it stands, so moving a line between tables changes nothing. Every
other table (``[storage]``, ``[serve]``, ``[recall.<provider>]`` ...) belongs
to the module that reads it: it is kept raw in :attr:`Settings.tables`, and
that module validates it with its own pydantic model through
:meth:`Settings.section`, which reports a bad value the same way as the
settings modelled here. A module that also takes an environment variable
adds it to :data:`ENV_VARS` with the dotted key it sets (``"storage.dsn"``).

pydantic does the typing (strict: ``"3"`` is not a number, ``true`` is not
1); pydantic-settings was not used because silcrow's variable names
(``OPENAI_BASE_URL`` beside ``SILCROW_MODEL``) and its flat-or-table TOML
do not follow that library's prefix and nesting rules.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.fields import FieldInfo

from silcrow.errors import ConfigError
from silcrow.paths import config_file

if TYPE_CHECKING:
    from silcrow.recall.embedders import Embedder

__all__ = [
    "DEFAULT_MODEL",
    "ENV_VARS",
    "MEMORY_CHAR_LIMIT",
    "USER_CHAR_LIMIT",
    "AgentSettings",
    "Settings",
    "env_value",
    "load_settings",
]

DEFAULT_MODEL = "gpt-4o-mini"
# A few dozen short entries each: enough to be useful, small enough for every prompt.
MEMORY_CHAR_LIMIT = 2200
USER_CHAR_LIMIT = 1375

# Environment variable -> the setting it gives (a dotted key for a raw table).
ENV_VARS: dict[str, str] = {
    "SILCROW_MODEL": "model",
    "OPENAI_BASE_URL": "base_url",
    "OPENAI_API_KEY": "api_key",
    "SILCROW_PROVIDER": "provider",
}

# Tables whose keys are settings of this module rather than a section of another one.
_MODELLED_TABLES = ("model", "recall", "memory", "agent")

# Fields of Settings that are not keys of config.toml.
_NOT_KEYS = {"agent", "tables", "source"}

_M = TypeVar("_M", bound=BaseModel)

PositiveInt = Annotated[int, Field(gt=0, description="a positive whole number (e.g. 2200)")]
Count = Annotated[int, Field(ge=0, description="a whole number (0 or more)")]
Fraction = Annotated[float, Field(gt=0, le=1, description="a number above 0 and at most 1 (e.g. 0.75)")]
Flag = Annotated[bool, Field(description="true or false")]
Text = Annotated[str, Field(description="a string")]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")


class AgentSettings(_Strict):
    """Agent-loop options; None leaves the :class:`~silcrow.agent.Agent` default."""

    replay_recall: Flag | None = None
    nudge_interval: Count | None = None
    max_tool_iterations: PositiveInt | None = None
    context_window: PositiveInt | None = None
    compress_threshold: Fraction | None = None
    flush_min_turns: Count | None = None

    def kwargs(self) -> dict[str, Any]:
        """The options that were set, as :class:`~silcrow.agent.Agent` keyword arguments."""
        return self.model_dump(exclude_none=True)


class Settings(_Strict):
    """Everything silcrow's entry points need, typed; see the module doc for the sources."""

    model: Text = DEFAULT_MODEL
    base_url: Text | None = None
    api_key: Text | None = None
    provider: Text = "local"            # the recall provider; "none" for no recall
    embedder: Text = "onnx"             # onnx | fastembed | openai | none
    embedder_model: Text | None = None
    embedder_url: Text | None = None
    memory_char_limit: PositiveInt = MEMORY_CHAR_LIMIT
    user_char_limit: PositiveInt = USER_CHAR_LIMIT
    agent: AgentSettings = AgentSettings()
    # Tables this module does not model, as parsed from TOML (plus their ENV_VARS).
    tables: dict[str, Any] = Field(default_factory=dict)
    # The file the values came from, named in error messages; None for defaults only.
    source: Path | None = None

    # -- sections owned by other modules ---------------------------------------------------

    def table(self, name: str) -> dict[str, Any]:
        """The raw table ``name`` (dotted for a nested one: ``"recall.mem0"``); {} when absent."""
        node: Any = self.tables
        for part in name.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        return dict(node) if isinstance(node, dict) else {}

    def section(self, name: str, model: type[_M]) -> _M:
        """Table ``name`` validated by ``model``; a bad value raises a ConfigError naming it."""
        return _validate(model, self.table(name), self.source, prefix=f"{name}.")

    @property
    def extra(self) -> dict[str, Any]:
        """Scalar keys of tables this module does not model, flattened (prefer :meth:`section`)."""
        return {k: v for table in self.tables.values() if isinstance(table, dict)
                for k, v in table.items() if not isinstance(v, dict)}

    # -- the embedder ----------------------------------------------------------------------

    def embedder_spec(self, name: str | None = None) -> str | Embedder:
        """What to hand a provider as its embedder: ``name`` (default: the configured one),
        built with ``embedder_model`` / ``embedder_url`` and the API key when they apply."""
        name = name or self.embedder
        if name != self.embedder or not (self.embedder_model or self.embedder_url):
            return name
        from silcrow.recall.embedders import get_embedder

        options: dict[str, Any] = {"model": self.embedder_model}
        if name.strip().lower() == "openai":
            options.update(base_url=self.embedder_url, api_key=self.api_key)
        return get_embedder(name, **options)

    # -- the sources, lowest precedence first ----------------------------------------------

    @classmethod
    def from_toml(cls, home: Path) -> Settings:
        """Read ``<home>/config.toml``; a missing file gives the defaults."""
        path = config_file(home)
        if not path.exists():
            return cls()
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read {path}: {exc}; fix or delete the file") from exc
        return _validate(cls, _arrange(data, path), path)

    def with_env(self, environ: Mapping[str, str] | None = None) -> Settings:
        """Overlay the non-empty variables of :data:`ENV_VARS`."""
        env = os.environ if environ is None else environ
        return self._with({key: env[var] for var, key in ENV_VARS.items() if env.get(var)}, "environment")

    def with_overrides(self, **overrides: Any) -> Settings:
        """Overlay explicit values (flags); None means 'not given'."""
        return self._with({k: v for k, v in overrides.items() if v is not None}, "arguments")

    def _with(self, changes: dict[str, Any], where: str) -> Settings:
        if not changes:
            return self
        data = self.model_dump(exclude={"source"})
        for key, value in changes.items():
            section, _, leaf = key.rpartition(".")
            if section:
                node = data["tables"]
                for part in section.split("."):
                    node = node.setdefault(part, {})
                node[leaf] = value
            elif key in AgentSettings.model_fields:
                data["agent"][key] = value
            else:
                data[key] = value
        try:
            return type(self)(**data, source=self.source)
        except ValidationError as exc:
            raise ConfigError(_describe(exc, type(self), f"the {where}")) from None


def _arrange(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """TOML as parsed -> the keyword arguments of Settings (see the module doc)."""
    flat: dict[str, Any] = {}
    tables: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and key in _MODELLED_TABLES:
            for inner, item in value.items():
                if isinstance(item, dict):  # e.g. [recall.mem0]: a provider's own section
                    tables.setdefault(key, {})[inner] = item
                else:
                    flat[inner] = item
        elif isinstance(value, dict):
            tables[key] = value
        else:
            flat[key] = value
    agent = {k: flat.pop(k) for k in list(flat) if k in AgentSettings.model_fields}
    allowed = set(Settings.model_fields) - _NOT_KEYS
    unknown = sorted(set(flat) - allowed)
    if unknown:
        known = ", ".join(sorted(allowed | set(AgentSettings.model_fields)))
        raise ConfigError(f"unknown setting {unknown[0]!r} in {path}: the settings are {known}; "
                          "fix or remove that line")
    return {**flat, "agent": agent, "tables": tables}


def _validate(model: type[_M], data: dict[str, Any], path: Path | None, prefix: str = "") -> _M:
    try:
        if "source" in model.model_fields:
            return model(**data, source=path)
        return model(**data)
    except ValidationError as exc:
        where = str(path) if path is not None else "the settings"
        raise ConfigError(f"{_describe(exc, model, where, prefix)}; fix that line") from None


def _describe(exc: ValidationError, model: type[BaseModel], where: str, prefix: str = "") -> str:
    """The first problem of a validation error as one line: which key, its value, what it must be."""
    error = exc.errors()[0]
    loc = [str(part) for part in error["loc"]]
    # A key of Settings means the same in any of its tables, so it is named without one.
    key = prefix + (loc[-1] if model is Settings and loc else ".".join(loc))
    if error["type"] == "extra_forbidden":
        return f"unknown setting {key!r} in {where}"
    expected = _description(model, loc) or str(error["msg"]).lower()
    return f"{key} must be {expected}, got {error['input']!r} (in {where})"


def _description(model: type[BaseModel], loc: list[str]) -> str | None:
    """The ``description`` of the field at ``loc``: what a valid value looks like."""
    current: Any = model
    for part in loc:
        fields = getattr(current, "model_fields", None)
        if not fields or part not in fields:
            return None
        info = fields[part]
        current = info.annotation
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return info.description or _annotated_description(current)
    return None


def _annotated_description(annotation: Any) -> str | None:
    # An optional field keeps its Annotated[..., Field(description=...)] inside the union.
    for arg in get_args(annotation):
        if isinstance(arg, FieldInfo) and arg.description:
            return arg.description
        found = _annotated_description(arg)
        if found:
            return found
    return None


def env_value(key: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The environment's value for setting ``key`` (see :data:`ENV_VARS`), or None."""
    env = os.environ if environ is None else environ
    for var, target in ENV_VARS.items():
        if target == key and env.get(var):
            return env[var]
    return None


def load_settings(home: Path, **overrides: Any) -> Settings:
    """flags > environment > config.toml > defaults."""
    return Settings.from_toml(home).with_env().with_overrides(**overrides)
