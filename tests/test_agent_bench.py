"""bench/prefix_cache.py measures what it claims: checked on a short run and on hand-made requests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "prefix_cache.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("prefix_cache_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_measure_counts_the_shared_prefix(bench: ModuleType) -> None:
    system = {"role": "system", "content": "S" * 100}
    first = {"messages": [system, {"role": "user", "content": "hello"}], "tools": []}
    second = {"messages": [system, {"role": "user", "content": "hello"},
                           {"role": "assistant", "content": "hi"}, {"role": "user", "content": "again"}],
              "tools": []}
    changed = {"messages": [{"role": "system", "content": "T" * 100}, *second["messages"][1:]], "tools": []}
    texts = [bench.serialise(r) for r in (first, second, changed)]
    figures = bench.measure([first, second, changed])
    assert figures["prompt_chars"] == sum(len(t) for t in texts)
    shared = bench.common_prefix(texts[0], texts[1])
    assert shared == len(texts[0])  # the first request is a prefix of the second
    # the third shares only up to the first differing character of the system prompt
    third_shared = bench.common_prefix(texts[1], texts[2])
    assert third_shared < 40
    assert figures["cacheable_share"] == round((shared + third_shared) / figures["prompt_chars"], 4)
    assert figures["uncached_chars"] == figures["prompt_chars"] - shared - third_shared


def test_short_run_silcrow_beats_the_naive_loop(bench: ModuleType) -> None:
    def quiet(step: str) -> None:
        return None

    requests, writes = bench.run_agent(False, 6, quiet)
    silcrow = bench.measure(requests)
    naive = bench.measure(bench.run_naive(6, quiet))
    assert writes == 2  # turns 1 and 5 ask the stand-in to remember something
    # both recall from the warm-up session (prefetch skips turns that share nothing with a message)
    assert silcrow["recall_blocks_seen"] >= 2 and naive["recall_blocks_seen"] >= 2
    assert silcrow["cacheable_share"] > naive["cacheable_share"]
    assert silcrow["median_request_share"] > naive["median_request_share"]
    assert silcrow["uncached_chars"] < naive["uncached_chars"]
