"""One writer process of ``bench/store.py``: runs its share of the churn workload on one home.

    python bench/_store_writer.py silcrow|silcrow_no_dirfsync|hermes|hermes_dirfsync HOME WORKER COUNT

``silcrow`` uses :class:`silcrow.store.MemoryStore` (run it with silcrow's Python), and
``silcrow_no_dirfsync`` the same without the directory fsync after its rename; ``hermes``
uses ``tools.memory_tool.MemoryStore`` of hermes-agent, and ``hermes_dirfsync`` the same with a
directory fsync after its rename (run both with ``.venv-hermes``'s Python, ``HERMES_HOME`` set
to HOME: Hermes finds its files in ``$HERMES_HOME/memories`` as silcrow does in
``HOME/memories``). Every kind gets the same budget and the same operations, one store per
process as an agent has, loaded (the session start) and its threat scan warmed before the
first write: the figures are the cost of a write, not of a process's start. Prints ``ready``
once the store is built, waits for a line on stdin (so that every writer starts at once), runs,
then prints one JSON line: when it began and ended (``time.monotonic``, one clock for every
process of the machine) and how many operations the store refused.

Only the standard library is imported before the store: this file runs in both virtualenvs.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

# A budget far above the files under test: the run measures writes, not the size limit.
BIG_LIMIT = 10**7
# A note long enough for every stage of either store's threat scan, scanned once before the run.
WARM_UP = "The user keeps project notes in ~/notes and prefers short answers with examples."


def ops(worker: int, count: int) -> list[tuple[str, str, str]]:
    """(action, old_text, new_text) for one writer: it adds ``[w<id>:i<k>] v0``, replaces it
    with ``v1``, then removes it, except every eighth item, which it keeps. The final state is
    known whatever the interleaving (``bench/store.py`` checks it)."""
    planned: list[tuple[str, str, str]] = []
    item = 0
    while len(planned) < count:
        tag = f"[w{worker}:i{item}]"
        planned.append(("add", "", f"{tag} v0"))
        planned.append(("replace", f"{tag} v0", f"{tag} v1"))
        if item % 8 != 7:
            planned.append(("remove", f"{tag} v1", ""))
        item += 1
    return planned[:count]


def _silcrow(home: str, sync_directory: bool = True) -> Callable[[str, str, str], bool]:
    from silcrow import safety as threats
    from silcrow.store import MemoryStore

    if not sync_directory:
        # For information only (bench/store.py --without-dirfsync): what a write costs without
        # the fsync that makes its rename survive a power cut. Never how silcrow runs.
        from silcrow.store import _files

        _files._fsync_dir = lambda directory: None  # type: ignore[assignment]

    store = MemoryStore(home, memory_char_limit=BIG_LIMIT, user_char_limit=BIG_LIMIT, lock_timeout=120)
    store.load()  # the session start: an agent's first write comes after it
    # The learned stage of the threat scan loads its weights on the first note long enough to
    # judge; Hermes compiles its patterns at import. Both are paid once per process, not per write.
    threats.scan(WARM_UP, learned=True)

    def apply(action: str, old: str, new: str) -> bool:
        store.reset_turn()  # one tool call per agent turn, as Hermes's counter is never reached
        if action == "add":
            return bool(store.add("memory", new)["success"])
        if action == "replace":
            return bool(store.replace("memory", old, new)["success"])
        return bool(store.remove("memory", old)["success"])

    return apply


def _hermes(sync_directory: bool = False) -> Callable[[str, str, str], bool]:
    import tools.memory_tool as memory_tool  # hermes-agent's own curated memory
    from tools.memory_tool import MemoryStore

    if sync_directory:
        # Hermes's _write_file (tools/memory_tool.py) fsyncs the temp file, then renames it with
        # utils.atomic_replace, and stops there. This adds what silcrow does next, an fsync of the
        # directory, so that the rename survives a power cut too: Hermes at silcrow's durability.
        replace = memory_tool.atomic_replace

        def durable_replace(tmp_path: Any, target: Any) -> str:
            real = replace(tmp_path, target)
            directory = os.open(os.path.dirname(real), os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
            return real

        memory_tool.atomic_replace = durable_replace  # type: ignore[attr-defined]

    store = MemoryStore(memory_char_limit=BIG_LIMIT, user_char_limit=BIG_LIMIT)
    store.load_from_disk()  # the session start, as AIAgent does before the first turn
    memory_tool._scan_memory_content(WARM_UP)

    def apply(action: str, old: str, new: str) -> bool:
        store.reset_consolidation_failures()
        if action == "add":
            return bool(store.add("memory", new)["success"])
        if action == "replace":
            return bool(store.replace("memory", old, new)["success"])
        return bool(store.remove("memory", old)["success"])

    return apply


def main() -> None:
    kind, home, worker, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if kind.startswith("silcrow"):
        apply = _silcrow(home, sync_directory=kind == "silcrow")
    else:
        apply = _hermes(sync_directory=kind == "hermes_dirfsync")
    planned = ops(worker, count)
    print("ready", flush=True)
    sys.stdin.readline()
    failed = 0
    began = time.monotonic()
    for action, old, new in planned:
        failed += not apply(action, old, new)
    ended = time.monotonic()
    print(json.dumps({"began": began, "ended": ended, "failed": failed}), flush=True)


if __name__ == "__main__":
    main()
