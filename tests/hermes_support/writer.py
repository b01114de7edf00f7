"""One writer of the concurrency test: adds COUNT entries to MEMORY.md with Hermes's or silcrow's store.

    python writer.py hermes|silcrow HERMES_HOME WRITER_ID COUNT

Prints "ready", waits for a line on stdin (so every writer starts at once), adds its entries,
then prints JSON {"ok": n, "failed": [...]}. The "hermes" kind needs the hermes-agent venv.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

kind, hermes_home, writer, count = sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
LIMIT = 1_000_000  # budget raised: the test is about lost updates, not the size limit

if kind == "hermes":
    from tools.memory_tool import MemoryStore as HermesStore

    store = HermesStore(memory_char_limit=LIMIT, user_char_limit=LIMIT)

    def add(text: str) -> tuple[bool, str]:
        result = store.add("memory", text)
        return bool(result.get("success")), str(result.get("error", ""))
else:
    from silcrow.store import MemoryStore
    from silcrow.tool import handle_memory_call

    silcrow_store = MemoryStore(hermes_home, memory_char_limit=LIMIT, user_char_limit=LIMIT)

    def add(text: str) -> tuple[bool, str]:  # through the memory tool: its JSON is the stable contract
        result = json.loads(handle_memory_call(silcrow_store, {"action": "add", "target": "memory",
                                                               "content": text}))
        return bool(result.get("success")), str(result.get("error", ""))

print("ready", flush=True)
sys.stdin.readline()
ok, failed = 0, []
for n in range(count):
    success, error = add(f"Entry {n} from {kind} writer {writer}: the build server is build-{n}.example.")
    if success:
        ok += 1
    else:
        failed.append(error)
print(json.dumps({"ok": ok, "failed": failed[:5]}), flush=True)
