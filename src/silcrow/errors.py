"""The one exception tree of silcrow.

Every error silcrow raises derives from :class:`SilcrowError`; errors from
libraries are translated at the edges with ``raise ... from exc``. Each
message says what was wrong and what to do about it.

::

    SilcrowError
    ├── ConfigError            bad settings, profile names, homes
    │   └── ExtraNotInstalledError  an optional SDK (an extra) is missing; also an ImportError
    ├── StoreError             curated notes (MEMORY.md / USER.md)
    │   ├── ReviewRequiredError  a change that takes a person, asked by a model's caller
    │   ├── ProjectRequiredError  target ``project`` asked where no project was given
    │   ├── LockTimeoutError   the sidecar lock could not be taken in time
    │   └── DriftError         a file on disk would not round-trip
    ├── RecallError            long-term recall providers
    │   ├── ProviderNotFoundError
    │   ├── ProviderConflictError   providers that cannot run together
    │   ├── EmbedderUnavailableError  the chosen embedding model is not installed
    │   └── ServiceError       a hosted recall service failed, refused or answered malformed
    │       └── ServiceUnavailableError  its circuit breaker is open: calls paused
    ├── SessionError           sessions.db: unknown ids, bad branches
    ├── ToolCallError          a tool call's arguments or a tool definition are malformed
    ├── ConnectError           a coding agent's config file silcrow cannot edit safely
    └── ModelError             the LLM endpoint: unreachable, no key, bad reply
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "ConnectError",
    "DriftError",
    "EmbedderUnavailableError",
    "ExtraNotInstalledError",
    "LockTimeoutError",
    "ModelError",
    "ProjectRequiredError",
    "ProviderConflictError",
    "ProviderNotFoundError",
    "RecallError",
    "ReviewRequiredError",
    "SafetyModelError",
    "ServiceError",
    "ServiceUnavailableError",
    "SessionError",
    "SilcrowError",
    "StoreError",
    "ToolCallError",
]


class SilcrowError(Exception):
    """Base class of every error silcrow raises."""


class ConfigError(SilcrowError):
    """A setting, profile name or path is invalid."""


class ExtraNotInstalledError(ConfigError, ImportError):
    """An integration's SDK is not installed; the message names the extra to install."""


class StoreError(SilcrowError):
    """A curated-memory operation failed."""


class ReviewRequiredError(StoreError):
    """A change of the notes that takes a person (the review scope) was asked by a caller who is
    not one; ``action`` names what was asked."""

    def __init__(self, message: str, *, action: str) -> None:
        super().__init__(message)
        self.action = action


class ProjectRequiredError(StoreError):
    """The target ``project`` (a project's ``PROJECT.md``) was asked of notes that have no
    project; the message says why there is none and how to name one where it was asked."""


class LockTimeoutError(StoreError):
    """The sidecar lock of a memory file could not be acquired in time."""


class DriftError(StoreError):
    """A memory file on disk is in a shape silcrow would not round-trip."""


class RecallError(SilcrowError):
    """A long-term recall provider failed."""


class ProviderNotFoundError(RecallError):
    """No provider of that name is installed."""


class ProviderConflictError(RecallError):
    """Recall providers that cannot run together: a second one added to a manager, one selected
    twice, or two with a tool of the same name."""


class EmbedderUnavailableError(RecallError):
    """The chosen embedding backend cannot run on this machine."""


class ServiceError(RecallError):
    """A hosted recall service failed, refused a request or answered something malformed.

    ``status`` is the HTTP status when there was one; ``retry_after`` the seconds
    the service asked to wait (429/503); ``permanent`` marks a request that will
    fail the same way if sent again (a 400 or 422), so a queued write is set
    aside instead of blocking the ones behind it.
    """

    def __init__(
        self, message: str, *, status: int | None = None, retry_after: float | None = None,
        permanent: bool = False,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.permanent = permanent


class ServiceUnavailableError(ServiceError):
    """Calls to a hosted recall service are paused after repeated failures (circuit open)."""


class ConnectError(SilcrowError):
    """A coding agent's config file cannot be changed safely (not valid JSON/TOML, a key of the
    wrong type); nothing was written."""


class SessionError(SilcrowError):
    """A session could not be found, created or changed."""


class ToolCallError(SilcrowError):
    """A tool call's arguments, or a tool definition, cannot be used."""


class ModelError(SilcrowError):
    """The language-model endpoint could not be used."""


class SafetyModelError(SilcrowError):
    """The threat scanner's shipped classifier weights are missing, changed or damaged."""
