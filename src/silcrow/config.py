"""Settings in one place.

Precedence for the agent and CLI: explicit arguments/flags, then the
environment (read only at entry points, via :meth:`Settings.from_env`),
then ``<home>/config.toml``, then the defaults below.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from silcrow.errors import ConfigError
from silcrow.paths import config_file

if TYPE_CHECKING:
    from silcrow.recall.embedders import Embedder


@dataclass(frozen=True)
class Settings:
    model: str = "gpt-4o-mini"
    base_url: str | None = None
    api_key: str | None = None
    provider: str = "local"            # config key: [recall] provider / `provider`
    embedder: str = "onnx"             # onnx | fastembed | openai | none
    embedder_model: str | None = None
    embedder_url: str | None = None
    memory_char_limit: int = 2200
    user_char_limit: int = 1375
    extra: dict[str, Any] = field(default_factory=dict)

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

    @classmethod
    def from_toml(cls, home: Path) -> Settings:
        """Read ``<home>/config.toml``; a missing file gives the defaults."""
        path = config_file(home)
        if not path.exists():
            return cls()
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read {path}: {exc}; fix or delete the file") from exc
        flat: dict[str, Any] = {}
        for key, value in data.items():
            if isinstance(value, dict):  # allow [recall] / [model] tables
                flat.update(value)
            else:
                flat[key] = value
        known = {f.name for f in fields(cls)} - {"extra"}
        kwargs = {k: v for k, v in flat.items() if k in known}
        extra = {k: v for k, v in flat.items() if k not in known}
        for f in fields(cls):
            if f.name in kwargs and not _type_ok(kwargs[f.name], f.default):
                raise ConfigError(
                    f"bad setting {f.name} = {kwargs[f.name]!r} in {path}: {_expected(f.default)}; "
                    "fix the file"
                )
        return cls(**kwargs, extra=extra)

    def with_env(self, environ: dict[str, str] | None = None) -> Settings:
        """Overlay SILCROW_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY."""
        env = os.environ if environ is None else environ
        changes: dict[str, Any] = {}
        if env.get("SILCROW_MODEL"):
            changes["model"] = env["SILCROW_MODEL"]
        if env.get("OPENAI_BASE_URL"):
            changes["base_url"] = env["OPENAI_BASE_URL"]
        if env.get("OPENAI_API_KEY"):
            changes["api_key"] = env["OPENAI_API_KEY"]
        if env.get("SILCROW_PROVIDER"):
            changes["provider"] = env["SILCROW_PROVIDER"]
        return replace(self, **changes)

    def with_overrides(self, **overrides: Any) -> Settings:
        """Overlay explicit values (flags); None means 'not given'."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


def _expected(default: Any) -> str:
    if default is None:
        return "expected a string"
    if isinstance(default, bool):
        return "expected true or false"
    if isinstance(default, int):
        return "it must be a positive whole number (e.g. 2200)"
    return f"expected {type(default).__name__}"


def _type_ok(value: Any, default: Any) -> bool:
    if default is None:
        return isinstance(value, str)
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool) and value > 0
    return isinstance(value, type(default))


def load_settings(home: Path, **overrides: Any) -> Settings:
    """flags > environment > config.toml > defaults."""
    return Settings.from_toml(home).with_env().with_overrides(**overrides)
