import importlib
import sys

import pytest

import silcrow
import silcrow.errors

# The curated public API: a change to this list is a change to what users may rely on.
PUBLIC = [
    "Agent",
    "ConfigError",
    "DriftError",
    "ENTRY_DELIMITER",
    "EmbedderUnavailableError",
    "LocalProvider",
    "LockTimeoutError",
    "MemoryManager",
    "MemoryProvider",
    "MemoryStore",
    "ModelError",
    "Profile",
    "ProviderConflictError",
    "ProviderNotFoundError",
    "RecallError",
    "SafetyModelError",
    "ServiceError",
    "ServiceUnavailableError",
    "SessionError",
    "SilcrowError",
    "StoreError",
    "ToolCallError",
    "__version__",
    "build_memory_context_block",
    "check_provider_contract",
    "handle_memory_call",
    "load_provider",
    "memory_call",
    "memory_tool_schema",
    "open_profile",
    "sanitize_context",
]


def test_all_is_the_pinned_sorted_list() -> None:
    assert silcrow.__all__ == PUBLIC
    assert sorted(silcrow.__all__, key=str.casefold) == sorted(PUBLIC, key=str.casefold)
    assert dir(silcrow) == sorted(PUBLIC)


def test_curated_public_api_resolves() -> None:
    for name in silcrow.__all__:
        assert getattr(silcrow, name) is not None, name
    assert silcrow.ENTRY_DELIMITER == "\n§\n"
    assert issubclass(silcrow.LocalProvider, silcrow.MemoryProvider)


def test_every_error_class_is_exported() -> None:
    errors = {
        name for name, value in vars(silcrow.errors).items()
        if isinstance(value, type) and issubclass(value, silcrow.SilcrowError)
    }
    assert errors <= set(silcrow.__all__), errors - set(silcrow.__all__)


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("silcrow.tool", "handle_memory_call"),
        ("silcrow.recall", "load_provider"),
        ("silcrow.recall.local", "LocalProvider"),
        ("silcrow.recall.contract", "check_provider_contract"),
        ("silcrow.testing", "ScriptedModelServer"),
        ("silcrow.store", "MemoryStore"),
    ],
)
def test_import_paths_spelled_out_by_earlier_issues_keep_working(module: str, name: str) -> None:
    value = getattr(importlib.import_module(module), name)
    if hasattr(silcrow, name):
        assert getattr(silcrow, name) is value


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="nope"):
        silcrow.nope  # type: ignore[attr-defined]  # noqa: B018


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ("silcrow.agent.sessions", "silcrow.sessions", "SessionStore"),
        ("silcrow.db.curated", "silcrow.store.postgres", "PostgresBackend"),
        ("silcrow.db.recall", "silcrow.recall.local.postgres", "PostgresRecall"),
        ("silcrow.db.sessions", "silcrow.sessions", "PostgresSessions"),
        ("silcrow.db.transfer", "silcrow.transfer", "import_home"),
        ("silcrow.db.settings", "silcrow.home", "open_profile"),
    ],
)
def test_moved_modules_keep_a_deprecated_alias_for_one_release(old: str, new: str, name: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        alias = importlib.import_module(old)
    assert getattr(alias, name) is getattr(importlib.import_module(new), name)
