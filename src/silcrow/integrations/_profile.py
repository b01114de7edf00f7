"""What the framework integrations share: opening a profile, and its recall provider on demand.

A framework object (a memory tool, a session, a store) is built on one profile of a home, the
way every surface is (:func:`silcrow.home.open_profile`). Its recall provider is opened only when
something needs it (the local one loads an embedding model), and driven through one
:class:`~silcrow.recall.MemoryManager`, so its policy (what may be stored, what may be recalled)
is the agent's.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from silcrow.home import Profile, open_profile

if TYPE_CHECKING:
    from silcrow.recall import MemoryManager

ProfileArg = Profile | str | None
#: A framework object's ``project=``: a directory, the same meaning as ``Agent(project=...)``
#: (the git work tree holding it is the project; None, the default, is no project).
ProjectArg = str | os.PathLike[str] | None


def opened(profile: ProfileArg = None, home: str | os.PathLike[str] | None = None) -> Profile:
    """``profile`` as an opened :class:`Profile`: one already opened, or the name of one of
    ``home`` (default: ``$SILCROW_HOME`` or ``~/.silcrow``; None is the home's own profile)."""
    if isinstance(profile, Profile):
        return profile
    return open_profile(home, profile, create=True)


class Recall:
    """The profile's configured recall provider behind a :class:`MemoryManager`, opened on first
    use (``manager`` given: that one, which the caller owns)."""

    def __init__(self, profile: Profile, manager: MemoryManager | None = None,
                 *, session_id: str = "") -> None:
        self.profile = profile
        self._manager = manager
        self._owned = manager is None
        self._session_id = session_id
        self._lock = threading.Lock()
        self._opened = manager is not None

    def manager(self) -> MemoryManager:
        """The manager, its provider opened and initialised on the first call (a manager without
        a provider when the profile has none, or it is unavailable: recall is then empty)."""
        with self._lock:
            if self._manager is None or not self._opened:
                self._manager, self._opened = self.profile.recall(self._session_id), True
            return self._manager

    def close(self) -> None:
        """Drain the queued provider work and shut the provider down (a manager handed in is
        left to its owner)."""
        with self._lock:
            manager, self._manager = self._manager, None
            self._opened = False
        if manager is not None and self._owned:
            manager.shutdown()
