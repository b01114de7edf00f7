"""Settings: one typed object for what silcrow reads from config.toml and the environment.

Precedence: explicit arguments/flags, then the environment (only the
variables in :data:`ENV_VARS`, read only here: :meth:`Settings.with_env` at
entry points, :func:`env_value` for the Python API's fallbacks), then
``<home>/config.toml``, then the defaults below, which are the only copy
of them (the store and the agent take theirs from here).

``config.toml`` keeps its keys at the top level or in the ``[model]``,
``[recall]``, ``[memory]`` and ``[agent]`` tables; a key means the same
wherever it stands, so moving a line between tables changes nothing. Every
other table (``[storage]``, ``[serve]``, ``[recall.<provider>]`` ...) belongs
to the module that reads it: it is kept raw in :attr:`Settings.tables`, and
that module reads it as its own dataclass through
:meth:`Settings.section`, which reports a bad value the same way as the
settings modelled here. A module that also takes an environment variable
adds it to :data:`ENV_VARS` with the dotted key it sets (``"storage.dsn"``).

Each field's type says what a valid value is (:class:`Rule` in its
``Annotated`` metadata, e.g. :data:`PositiveInt`): TOML values are checked
strictly (``"3"`` is not a number, ``true`` is not 1) and a bad one is
reported with its key, its value and what it must be. These are plain
dataclasses rather than pydantic models because every CLI start reads its
limits from here, and building pydantic's schemas made importing this
module 150-400 ms slower (``python -X importtime``, on a busy machine)
against a 300 ms budget for ``silcrow memory show``.
"""

from __future__ import annotations

import copy
import os
import tomllib
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from silcrow._paths import DEFAULT_PROFILE, config_file, default_home, resolve_home
from silcrow._private import private_dir
from silcrow.errors import ConfigError

if TYPE_CHECKING:
    from silcrow.models import Embedder

__all__ = [
    "ENV_VARS",
    "ProfileSettings",
    "SWITCHES",
    "Settings",
    "profile_settings",
]

DEFAULT_MODEL = "gpt-4o-mini"
# A few dozen short entries each: enough to be useful, small enough for every prompt.
MEMORY_CHAR_LIMIT = 2200
USER_CHAR_LIMIT = 1375
# A project's notes (PROJECT.md): as much room as the agent's own.
PROJECT_CHAR_LIMIT = 2200

# Environment variable -> the setting it gives (a dotted key for a raw table).
ENV_VARS: dict[str, str] = {
    "SILCROW_MODEL": "model",
    "OPENAI_BASE_URL": "base_url",
    "OPENAI_API_KEY": "api_key",
    "SILCROW_PROVIDER": "provider",
    "SILCROW_PROVIDERS": "providers",  # comma-separated: "local,honcho"
    # A DSN here selects PostgreSQL by itself (profile_settings decides the storage).
    "SILCROW_DATABASE_URL": "storage.dsn",
}

# Switches of the process rather than settings of a home (true for 1/true/yes), read only here.
SWITCHES: dict[str, str] = {
    "debug": "SILCROW_DEBUG",  # the CLI re-raises an internal error with its traceback
    "memory_outside_home": "SILCROW_MEMORY_OUTSIDE_HOME",  # memories/ may be a link out of the home
}

# Tables whose keys are settings of this module rather than a section of another one.
_MODELLED_TABLES = ("model", "recall", "memory", "agent")

# Fields of Settings that are not keys of config.toml.
_NOT_KEYS = {"agent", "tables", "source"}

_T = TypeVar("_T")


@dataclass(frozen=True)
class Rule:
    """What a setting's value must be: ``accepts`` decides, ``description`` says it in words."""

    description: str
    accepts: Callable[[Any], bool]
    convert: Callable[[Any], Any] = lambda value: value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


PositiveInt = Annotated[int, Rule("a positive whole number (e.g. 2200)", lambda v: _whole(v) and v > 0)]
Count = Annotated[int, Rule("a whole number (0 or more)", lambda v: _whole(v) and v >= 0)]
Fraction = Annotated[float, Rule("a number above 0 and at most 1 (e.g. 0.75)",
                                 lambda v: (_whole(v) or isinstance(v, float)) and 0 < v <= 1, float)]
Flag = Annotated[bool, Rule("true or false", lambda v: isinstance(v, bool))]
Text = Annotated[str, Rule("a string", lambda v: isinstance(v, str))]
Table = Annotated[dict[str, Any], Rule("a table", lambda v: isinstance(v, dict))]
WritePolicy = Annotated[str, Rule('"auto" (writes from a model are applied) or "approve" (they wait for '
                                  "the user's approval)", lambda v: v in ("auto", "approve"))]
OnFull = Annotated[str, Rule('"refuse" (an add that would overflow a file is refused, naming what could '
                              'go) or "archive_oldest" (the least used, oldest entries are archived to make '
                              'room)',
                              lambda v: v in ("refuse", "archive_oldest"))]


def _provider_list(value: Any) -> tuple[str, ...]:
    """``["local", "honcho"]`` or ``"local,honcho"`` (the environment's form) as names."""
    items = value.split(",") if isinstance(value, str) else value
    return tuple(item.strip() for item in items)


def _is_provider_list(value: Any) -> bool:
    if not isinstance(value, str | list | tuple) or not all(isinstance(v, str) for v in value):
        return False
    names = _provider_list(value)
    return bool(names) and all(names) and len(set(names)) == len(names) and "none" not in names


ProviderList = Annotated[tuple[str, ...], Rule(
    'a list of distinct recall provider names, at least one and not "none" (e.g. ["local", "honcho"]; '
    'for no recall write provider = "none")', _is_provider_list, _provider_list)]
RerankerName = Annotated[str, Rule('"none" or "ms-marco" (a cross-encoder that reorders the best hits)',
                                   lambda v: v in ("none", "ms-marco"))]


@dataclass(frozen=True)
class AgentSettings:
    """Agent-loop options; None leaves the :class:`~silcrow.agent.Agent` default."""

    replay_recall: Flag | None = None
    nudge_interval: Count | None = None
    max_tool_iterations: PositiveInt | None = None
    context_window: PositiveInt | None = None
    compress_threshold: Fraction | None = None
    flush_min_turns: Count | None = None

    def kwargs(self) -> dict[str, Any]:
        """The options that were set, as :class:`~silcrow.agent.Agent` keyword arguments."""
        return {f.name: value for f in fields(self) if (value := getattr(self, f.name)) is not None}


@dataclass(frozen=True)
class Settings:
    """Everything silcrow's entry points need, typed; see the module doc for the sources."""

    model: Text = DEFAULT_MODEL
    base_url: Text | None = None
    api_key: Text | None = None
    provider: Text = "local"            # the recall provider; "none" for no recall
    providers: ProviderList | None = None  # [recall]: several at once; set, it replaces `provider`
    embedder: Text = "bge"              # bge | onnx (MiniLM) | e5 | fastembed | openai | none
    embedder_model: Text | None = None
    embedder_url: Text | None = None
    reranker: RerankerName = "none"     # [recall]: "ms-marco" reorders the local provider's best hits
    memory_char_limit: PositiveInt = MEMORY_CHAR_LIMIT
    user_char_limit: PositiveInt = USER_CHAR_LIMIT
    project_char_limit: PositiveInt = PROJECT_CHAR_LIMIT  # [memory]: a project's PROJECT.md
    write_policy: WritePolicy = "auto"  # [memory]: "approve" holds a model's writes for the user
    on_full: OnFull = "refuse"          # [memory]: what an add that would overflow a file does
    review_threshold: Fraction = 0.9    # [memory]: a file this full gets a `memory review` pass
    archive_to_recall: Flag = False     # [memory]: archived entries are also kept in recall
    judge_held_notes: Flag = False      # [memory]: the chat model judges what the learned scan holds
    agent: AgentSettings = field(default_factory=AgentSettings)
    # Tables this module does not model, as parsed from TOML (plus their ENV_VARS).
    tables: Table = field(default_factory=dict)
    # The file the values came from, named in error messages; None for defaults only.
    source: Path | None = field(default=None, compare=False)

    # -- sections owned by other modules ---------------------------------------------------

    def table(self, name: str) -> dict[str, Any]:
        """The raw table ``name`` (dotted for a nested one: ``"recall.mem0"``); {} when absent."""
        node: Any = self.tables
        for part in name.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        return dict(node) if isinstance(node, dict) else {}

    def section(self, name: str, model: type[_T]) -> _T:
        """Table ``name`` as an instance of the dataclass ``model``, checked like the settings
        here (annotate its fields with :class:`Rule` types); a bad value raises a ConfigError."""
        return _build(model, self.table(name), _where(self.source), prefix=f"{name}.")

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
        from silcrow.models import get_embedder

        options: dict[str, Any] = {"model": self.embedder_model}
        if name.strip().lower() == "openai":
            options.update(base_url=self.embedder_url, api_key=self.api_key)
        return get_embedder(name, **options)

    def embed_function(self) -> Callable[[Sequence[str]], Any] | None:
        """The configured embedder's ``embed`` (None for ``embedder = "none"``), for what compares
        texts by meaning outside recall: the notes' review pass."""
        if self.embedder == "none":
            return None
        from silcrow.models import get_embedder

        spec = self.embedder_spec()
        return (get_embedder(spec) if isinstance(spec, str) else spec).embed

    @property
    def recall_providers(self) -> tuple[str, ...]:
        """The selected recall providers, in order: ``providers`` when set, else ``provider``
        (none for ``"none"``)."""
        if self.providers is not None:
            return self.providers
        return () if self.provider in ("", "none") else (self.provider,)

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
        return cls.from_mapping(data, path)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: Path | None = None) -> Settings:
        """Settings from parsed TOML (``source`` names the file in error messages)."""
        return replace(_build(cls, _arrange(dict(data), source), _where(source)), source=source)

    @classmethod
    def from_layers(cls, layers: Sequence[tuple[Mapping[str, Any], Path]]) -> Settings:
        """Settings from several parsed files, lowest precedence first (a home's config.toml,
        then a profile's). Each file is arranged on its own before they are merged, so a later
        file's key wins whichever table either file keeps it in."""
        merged: dict[str, Any] = {}
        source: Path | None = None
        for data, path in layers:
            arranged = _arrange(dict(data), path)
            _build(cls, arranged, _where(path))  # checked on its own: an error names its file
            if _PROVIDER_KEYS & set(arranged):  # a file that chooses the providers replaces the choice
                merged = {k: v for k, v in merged.items() if k not in _PROVIDER_KEYS}
            merged, source = merge_tables(merged, arranged), path
        if source is None:
            return cls()
        return replace(_build(cls, merged, _where(source)), source=source)

    def with_env(self, environ: Mapping[str, str] | None = None) -> Settings:
        """Overlay the non-empty variables of :data:`ENV_VARS`."""
        env = os.environ if environ is None else environ
        # A blank variable (``export SILCROW_DATABASE_URL=``) is unset, not a value: a blank DSN
        # would select PostgreSQL on libpq's defaults.
        given = {key: env[var].strip() for var, key in ENV_VARS.items() if env.get(var, "").strip()}
        return self._with(given, "environment")

    def with_overrides(self, **overrides: Any) -> Settings:
        """Overlay explicit values (flags); None means 'not given'."""
        return self._with({k: v for k, v in overrides.items() if v is not None}, "arguments")

    def _with(self, changes: dict[str, Any], where: str) -> Settings:
        if not changes:
            return self
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _NOT_KEYS}
        _one_choice(changes, f"the {where}")
        if "provider" in changes and "providers" not in changes:
            data["providers"] = None  # a single provider given over a list: it is the choice
        agent = AgentSettings.kwargs(self.agent)
        tables = copy.deepcopy(self.tables)
        for key, value in changes.items():
            section, _, leaf = key.rpartition(".")
            if section:
                node = tables
                for part in section.split("."):
                    node = node.setdefault(part, {})
                node[leaf] = value
            elif key in _AGENT_KEYS:
                agent[key] = value
            else:
                data[key] = value
        built = _build(type(self), {**data, "agent": agent, "tables": tables}, f"the {where}")
        return replace(built, source=self.source)


def merge_tables(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``, table by table (a key of ``over`` wins)."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = merge_tables(merged[key], value)
        else:
            merged[key] = value
    return merged


def _arrange(data: dict[str, Any], path: Path | None) -> dict[str, Any]:
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
    agent = {k: flat.pop(k) for k in list(flat) if k in _AGENT_KEYS}
    _one_choice(flat, _where(path))
    allowed = {f.name for f in fields(Settings)} - _NOT_KEYS
    unknown = sorted(set(flat) - allowed)
    if unknown:
        known = ", ".join(sorted(allowed | _AGENT_KEYS))
        raise ConfigError(f"unknown setting {unknown[0]!r} in {_where(path)}: the settings are {known}; "
                          "fix or remove that line")
    return {**flat, "agent": agent, "tables": tables}


_AGENT_KEYS = {f.name for f in fields(AgentSettings)}
_PROVIDER_KEYS = {"provider", "providers"}


def _one_choice(given: Mapping[str, Any], where: str) -> None:
    """Refuse ``provider`` and ``providers`` given together (one file, the environment, the
    arguments) when they disagree: which one is meant cannot be guessed."""
    if not _PROVIDER_KEYS <= set(given):
        return
    single, several = given["provider"], given["providers"]
    if _is_provider_list(several) and _provider_list(several) == (single,):
        return
    raise ConfigError(
        f"both provider = {single!r} and providers = {several!r} are set in {where}, and they disagree; "
        "keep one: `providers` (a list) to run several recall providers at once, or `provider` for one "
        "(in the environment: SILCROW_PROVIDERS or SILCROW_PROVIDER)")


def _where(path: Path | None) -> str:
    return str(path) if path is not None else "the settings"


def _build(cls: type[_T], data: Mapping[str, Any], where: str, prefix: str = "") -> _T:
    """An instance of the dataclass ``cls`` from ``data``, every value checked against its field."""
    if not is_dataclass(cls):
        raise TypeError(f"{cls!r} is not a dataclass")
    names = {f.name for f in fields(cls) if f.init}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ConfigError(f"unknown setting {prefix + unknown[0]!r} in {where}; "
                          f"the settings there are {', '.join(sorted(names - _NOT_KEYS))}")
    hints = get_type_hints(cls, include_extras=True)
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        kind, optional = _unwrap(hints[key])
        if value is None and optional:
            kwargs[key] = None
        elif isinstance(kind, type) and is_dataclass(kind):
            if not isinstance(value, Mapping):
                raise ConfigError(f"{prefix}{key} must be a table, got {value!r} (in {where}); fix that line")
            kwargs[key] = _build(kind, value, where, prefix if cls is Settings else f"{prefix}{key}.")
        else:
            rule = _rule(kind)
            if rule is not None and not rule.accepts(value):
                raise ConfigError(f"{prefix}{key} must be {rule.description}, got {value!r} (in {where}); "
                                  "fix that line")
            kwargs[key] = rule.convert(value) if rule is not None else value
    return cls(**kwargs)


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True); anything else -> (it, False)."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], len(args) < len(get_args(annotation))
    return annotation, False


def _rule(annotation: Any) -> Rule | None:
    """The Rule of an ``Annotated`` type, else a plain isinstance check for simple types."""
    for meta in getattr(annotation, "__metadata__", ()):
        if isinstance(meta, Rule):
            return meta
    base = get_origin(annotation) or annotation
    if base is int:
        return Rule("a whole number", _whole)
    if base is float:
        return Rule("a number", lambda v: _whole(v) or isinstance(v, float), float)
    if base in (str, bool, dict, list):
        noun = {str: "a string", bool: "true or false", dict: "a table", list: "a list"}[base]
        return Rule(noun, lambda v: isinstance(v, base))
    return None


def env_value(key: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The environment's value for setting ``key`` (see :data:`ENV_VARS`), or None."""
    env = os.environ if environ is None else environ
    for var, target in ENV_VARS.items():
        if target == key and env.get(var, "").strip():
            return env[var].strip()
    return None


def env_switch(name: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the switch ``name`` of :data:`SWITCHES` is on in the environment."""
    env = os.environ if environ is None else environ
    return env.get(SWITCHES[name], "").strip().lower() in ("1", "true", "yes")


def load_settings(home: Path, **overrides: Any) -> Settings:
    """flags > environment > config.toml (a profile's over its home's) > defaults."""
    return read_settings(home).with_env().with_overrides(**overrides)


# ------------------------------------------------------------------ a profile's settings and storage

BACKENDS = ("files", "postgres")

Backend = Annotated[str, Rule(f"one of {', '.join(BACKENDS)}", lambda v: v in BACKENDS)]


@dataclass(frozen=True)
class StorageSettings:
    """The ``[storage]`` table of config.toml::

        [storage]
        backend = "postgres"              # or "files" (the default)
        dsn = "postgresql://user@host/db"
    """

    backend: Backend = "files"
    dsn: Text | None = None


@dataclass(frozen=True)
class Storage:
    """Where a profile's notes, recall and sessions live, decided once by :func:`open_profile`."""

    backend: Literal["files", "postgres"] = "files"
    dsn: str | None = None

    @property
    def shared(self) -> bool:
        """True for a database (several homes may use it), False for the profile's own files."""
        return self.backend == "postgres"


def locate(path: Path) -> tuple[Path, str]:
    """``(home, profile name)`` of a directory: ``<home>/profiles/<name>`` is profile ``name``
    of ``<home>``, any other directory is a home (profile ``default``)."""
    if path.parent.name == "profiles":
        return path.parent.parent, path.name
    return path, DEFAULT_PROFILE


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}; fix or delete the file") from exc


def read_settings(path: Path) -> Settings:
    """The file settings of the profile directory ``path``: its home's config.toml with the
    profile's own on top (no environment, no arguments; see :func:`open_profile`)."""
    home, name = locate(path)
    layers: list[tuple[dict[str, Any], Path]] = []
    for directory in ((home, path) if path != home else (path,)):
        found = config_file(directory)
        layer = _read_toml(found)
        if layer:
            layers.append((layer, found))
    return Settings.from_layers(layers)


def _storage(settings: Settings, dsn: str | None, environ: Mapping[str, str] | None,
             files: str) -> Storage:
    """A DSN given as an argument or in the environment selects PostgreSQL by itself; in
    config.toml it takes ``backend = "postgres"``. ``files`` names the config files read."""
    given = dsn or env_value("storage.dsn", environ)
    if given:
        return Storage("postgres", given)
    storage = settings.section("storage", StorageSettings)
    if storage.backend == "files":
        return Storage()
    if not storage.dsn or not storage.dsn.strip():
        raise ConfigError(
            f'[storage] backend = "postgres" in {files} needs '
            'dsn = "postgresql://user@host/dbname" (or set SILCROW_DATABASE_URL)'
        )
    return Storage("postgres", storage.dsn.strip())


@dataclass(frozen=True)
class ProfileSettings:
    """Where one profile of a home is, its settings and its storage, read once by
    :func:`profile_settings`. :class:`silcrow.home.Profile` adds the parts built on them;
    each domain opens its own storage from this (``silcrow.store``, ``silcrow.sessions``,
    ``silcrow.recall.local``)."""

    path: Path          # the directory of the profile's files (config.toml, memories/, recall.db ...)
    home: Path          # the home it belongs to (== path for the profile "default")
    name: str           # "default" for the home's own profile
    settings: Settings
    storage: Storage


def profile_settings(
    home: str | os.PathLike[str] | None = None,
    profile: str | None = None,
    *,
    dsn: str | None = None,
    environ: Mapping[str, str] | None = None,
    create: bool = False,
    **overrides: Any,
) -> ProfileSettings:
    """The settings and storage of ``profile`` of ``home``, read once (see
    :func:`silcrow.home.open_profile`, which takes the same arguments)."""
    base = Path(home).expanduser() if home is not None else default_home(environ)
    path = resolve_home(base, profile).absolute()
    home_dir, name = locate(path)
    settings = read_settings(path).with_env(environ).with_overrides(**overrides)
    read = [config_file(d) for d in dict.fromkeys((home_dir, path)) if config_file(d).exists()]
    try:
        storage = _storage(settings, dsn, environ, " and ".join(map(str, read)) or str(config_file(path)))
    except ConfigError:
        for found in read:  # a bad [storage] line: name the file that holds it
            Settings.from_mapping(_read_toml(found), found).section("storage", StorageSettings)
        raise
    if create:
        private_dir(path)
    return ProfileSettings(path=path, home=home_dir, name=name, settings=settings, storage=storage)

