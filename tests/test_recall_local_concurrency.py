"""The local provider under concurrency: threads on one provider, and a second process."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from silcrow.models import Embedder, get_embedder
from silcrow.recall.local import LocalProvider

# The writer process: adds a batch while the parent reads, then one fact at a time on request.
WRITER = textwrap.dedent(
    """
    import sys
    from silcrow.recall.local import LocalProvider, RecallRecord

    p = LocalProvider(sys.argv[1])
    p.initialize("writer")
    print("ready", flush=True)
    sys.stdin.readline()
    batch = [RecallRecord(text=f"Batch note {i} about harbour cranes", session_id="w") for i in range(300)]
    p.ingest(batch)
    print("batch", flush=True)
    for line in sys.stdin:
        cmd = line.strip()
        if cmd.startswith("add "):
            print(p.add_fact(cmd[4:]), flush=True)
        elif cmd.startswith("forget "):
            print(p.forget(int(cmd[7:])).removed, flush=True)
        elif cmd == "quit":
            break
    p.shutdown()
    """
)


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder("onnx")


def test_concurrent_sync_turn_from_threads(tmp_path: Path, embedder: Embedder) -> None:
    p = LocalProvider(tmp_path, embedder=embedder)
    p.initialize("threads")
    errors: list[BaseException] = []
    barrier = threading.Barrier(6)

    def worker(n: int) -> None:
        try:
            barrier.wait(timeout=30)
            for i in range(4):
                p.sync_turn(f"thread {n} message {i}: my lucky number is {n * 100 + i}", f"noted {n}-{i}",
                            session_id=f"t{n}")
                p.search(f"lucky number {n}", 3)  # reads interleaved with the other writers
        except BaseException as exc:  # reported below, with the thread's own traceback
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a sync_turn thread hung"
    assert errors == []
    assert p.stats()["memories"] == 6 * 4 * 2
    for n in range(6):
        hits = p.search(f"lucky number is {n * 100 + 3}", 1).hits
        assert hits[0].text == f"thread {n} message 3: my lucky number is {n * 100 + 3}"
        assert hits[0].session_id == f"t{n}"
    p.shutdown()


def test_second_process_writes_while_this_one_reads(tmp_path: Path, embedder: Embedder) -> None:
    reader = LocalProvider(tmp_path, embedder=embedder)
    reader.initialize("writer")  # same (empty) tenant scope as the writer
    reader.add_fact("The harbour opens at six.")
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
    )
    assert child.stdin is not None and child.stdout is not None

    def ask(line: str) -> str:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(line + "\n")
        child.stdin.flush()
        return child.stdout.readline().strip()

    try:
        assert child.stdout.readline().strip() == "ready"
        child.stdin.write("go\n")
        child.stdin.flush()
        # Read continuously while the other process commits its batch: never "database is locked".
        done = threading.Event()
        seen: list[int] = []

        def wait_batch() -> None:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "batch"
            done.set()

        waiter = threading.Thread(target=wait_batch)
        waiter.start()
        while not done.is_set() and len(seen) < 10_000:
            seen.append(len(reader.search("harbour cranes", 5).hits))
        waiter.join(timeout=120)
        assert done.is_set(), "the writer did not finish its batch"
        assert reader.stats()["memories"] == 301
        assert len(reader.search("harbour cranes", 10).hits) == 10

        new_id = int(ask("add The secret word is heliotrope."))
        hits = reader.search("What is the secret word?", 1).hits
        assert hits[0].id == new_id and hits[0].text == "The secret word is heliotrope."
        # The dense side too: the other process's vector was loaded from SQLite into this index.
        assert [h.id for h in reader.search("what is the secret word", 1, mode="dense").hits] == [new_id]
        assert reader.stats()["index_rows"] == 302
        assert [h.id for h in reader.search("heliotrope", 3, mode="lexical").hits] == [new_id]

        assert ask(f"forget {new_id}") == "1"
        assert all(h.id != new_id for h in reader.search("secret word heliotrope", 5).hits)
        assert reader.stats()["memories"] == 301
        ask("quit")
    finally:
        child.stdin.close()
        code = child.wait(timeout=60)
        stderr = child.stderr.read() if child.stderr else ""
        if child.stderr:
            child.stderr.close()
        child.stdout.close()
    assert code == 0, stderr
    reader.shutdown()
