"""Does SilcrowMemoryBlock find the right memory, and how fast, against LlamaIndex's VectorMemoryBlock?

One command, in silcrow's .venv (``pip install 'silcrow[llama-index]'``): ``python
bench/llama_index_memory.py --dataset PATH [--questions N]``. Prints ONE JSON object on stdout
(progress on stderr).

On one LoCoMo conversation (``--dataset``, default ``$LOCOMO_DATA``; bench/locomo.py says where to
get it: https://github.com/snap-research/locomo, ``data/locomo10.json``), each dialog turn becomes
one LlamaIndex ``ChatMessage`` (the first speaker's ``user``, the other's ``assistant``, the
session's name as ``session_id``), and each question of categories 1-4 is asked once. Measured in
the same run, with the same embedding model (silcrow's default, bge-small, wrapped below as a
LlamaIndex ``BaseEmbedding`` for LlamaIndex's block):

  silcrow       SilcrowMemoryBlock on a profile with the local provider: each session's messages
                given to the block's ``_aput`` (as ``Memory`` flushes them; the block pairs them
                into turns and tells the provider each one), then the provider's hybrid search
                (words and bge-small meaning fused) that the block's ``_aget`` recalls through,
                asked for the best 10
  vector_block  LlamaIndex's default long-term memory block, VectorMemoryBlock, over its default
                in-memory vector store, SimpleVectorStore (which keeps no text, so the block
                refuses it as it is: TextKeepingVectorStore below keeps each node beside it):
                each message given to ``_aput`` (one node per call, so one memory holds one turn
                as in silcrow), then the block's own ``_aget`` for the question with
                ``similarity_top_k=10``

``evidence_recall@k``: share of a question's evidence turns among the first k memories returned
(a memory is matched to the turns whose text it contains), averaged over questions. ``ingest_s``:
seconds to put every message in, embedding and storing included; ``search_ms``: median and p95
per search, the query's embedding included.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import locomo  # bench/locomo.py: where the data comes from
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import VectorMemoryBlock
from llama_index.core.schema import BaseNode
from llama_index.core.vector_stores import SimpleVectorStore
from llama_index.core.vector_stores.types import VectorStoreQuery, VectorStoreQueryResult
from pydantic import PrivateAttr
from rich.console import Console

from silcrow.integrations.llama_index import SilcrowMemoryBlock
from silcrow.models import Embedder, get_embedder

err = Console(stderr=True)
KS = (1, 5, 10)
STORE_TIMEOUT = 600.0  # seconds the ingest waits for the provider to store what it was told
PREFIX = 120  # characters of a turn matched against a memory (recall indexes a long turn by its start)
MESSAGE = re.compile(r"<message role='[^']*'>(.*?)</message>", re.DOTALL)


class TextKeepingVectorStore(SimpleVectorStore):
    """LlamaIndex's in-memory SimpleVectorStore (llama_index/core/vector_stores/simple.py), which
    VectorMemoryBlock refuses as it is because it keeps no text (``stores_text = False``): the
    same store and ranking (exact cosine over every embedding), with each node kept beside it so a
    query answers the nodes, as a text-storing store does. No store in llama-index-core keeps text."""

    stores_text: bool = True
    _nodes: dict[str, BaseNode] = PrivateAttr(default_factory=dict)

    def add(self, nodes: Sequence[BaseNode], **add_kwargs: Any) -> list[str]:
        self._nodes.update((node.node_id, node) for node in nodes)
        return super().add(nodes, **add_kwargs)

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        result = super().query(query, **kwargs)
        result.nodes = [self._nodes[i] for i in result.ids or []]
        return result


class SilcrowEmbedding(BaseEmbedding):
    """silcrow's embedder as a LlamaIndex embedding model (queries through ``embed_query``, which
    gives bge-small its query instruction, as silcrow's own recall does)."""

    _embedder: Embedder = PrivateAttr()

    def __init__(self, embedder: Embedder) -> None:
        super().__init__(model_name=embedder.name)
        self._embedder = embedder

    def _get_query_embedding(self, query: str) -> list[float]:
        return [float(x) for x in self._embedder.embed_query(query)]

    def _get_text_embedding(self, text: str) -> list[float]:
        return [float(x) for x in self._embedder.embed([text])[0]]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return [[float(x) for x in row] for row in self._embedder.embed(texts)]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)


def sessions(turns: list[tuple[str, dict[str, str]]]) -> dict[str, list[ChatMessage]]:
    """Each session's turns as the chat messages a LlamaIndex ``Memory`` would flush (made anew
    for each block: VectorMemoryBlock's ``_aput`` pops ``session_id`` off the message)."""
    first = turns[0][1]["speaker"]
    out: dict[str, list[ChatMessage]] = {}
    for name, turn in turns:
        role = MessageRole.USER if turn["speaker"] == first else MessageRole.ASSISTANT
        out.setdefault(name, []).append(
            ChatMessage(role=role, content=turn["text"], additional_kwargs={"session_id": name}))
    return out


def matched(memories: list[str], texts: dict[str, str]) -> list[set[str]]:
    """The dialog ids of the turns each memory contains, in the order returned."""
    return [{dia for text, dia in texts.items() if text in memory} for memory in memories]


async def measure(put: Callable[[], Awaitable[None]], search: Callable[[str], Awaitable[list[str]]],
                  questions: list[dict[str, Any]], texts: dict[str, str], label: str) -> dict[str, Any]:
    err.print(f"{label}: putting the conversation in")
    start = time.perf_counter()
    await put()
    ingest_s = time.perf_counter() - start
    found: dict[int, list[float]] = {k: [] for k in KS}
    latencies, returned = [], []
    for n, q in enumerate(questions):
        start = time.perf_counter()
        memories = await search(q["question"])
        latencies.append((time.perf_counter() - start) * 1000)
        returned.append(len(memories))
        hits = matched(memories, texts)
        wanted = set(q["evidence"])
        for k in KS:
            among = set().union(*hits[:k]) if hits else set()
            found[k].append(len(wanted & among) / len(wanted))
        if n % 25 == 0:
            err.print(f"{label}: {n}/{len(questions)} questions")
    latencies.sort()
    return {
        **{f"evidence_recall@{k}": round(statistics.mean(v), 4) for k, v in found.items()},
        "returned_median": statistics.median(returned),
        "ingest_s": round(ingest_s, 2),
        **locomo.search_times(latencies),
    }


async def run_silcrow(home: str, turns: list[tuple[str, dict[str, str]]],
                      questions: list[dict[str, Any]], texts: dict[str, str]) -> dict[str, Any]:
    Path(home, "config.toml").write_text('provider = "local"\nembedder = "bge"\n', encoding="utf-8")
    block = SilcrowMemoryBlock(home=home)
    manager = block.memory.manager()

    async def put() -> None:
        for messages in sessions(turns).values():
            # The block holds a session's last turn open until the next user message of that
            # session; an empty one completes it (and, having no reply, is never stored itself).
            await block._aput([*messages, ChatMessage(role=MessageRole.USER, content="",
                                                      additional_kwargs={"session_id": messages[0]
                                                                         .additional_kwargs["session_id"]})])
        await asyncio.to_thread(manager.flush, STORE_TIMEOUT)  # stored, so the searches find it

    async def search(question: str) -> list[str]:
        return [hit.text for hit in manager.search(question, max(KS)).hits]

    try:
        return await measure(put, search, questions, texts, "silcrow")
    finally:
        block.close()


async def run_vector(embedder: Embedder, turns: list[tuple[str, dict[str, str]]],
                     questions: list[dict[str, Any]], texts: dict[str, str]) -> dict[str, Any]:
    block = VectorMemoryBlock(vector_store=TextKeepingVectorStore(), embed_model=SilcrowEmbedding(embedder),
                              similarity_top_k=max(KS))

    async def put() -> None:
        for messages in sessions(turns).values():
            for message in messages:
                await block._aput([message])

    async def search(question: str) -> list[str]:
        answer = await block._aget([ChatMessage(role=MessageRole.USER, content=question)])
        return MESSAGE.findall(answer)

    return await measure(put, search, questions, texts, "vector_block")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    turns, questions = locomo.turns_and_questions(args.dataset)
    if args.questions:
        questions = questions[:args.questions]
    texts = {turn["text"].strip()[:PREFIX]: turn["dia_id"] for _, turn in turns}
    err.print(f"{len(turns)} turns, {len(questions)} questions")
    with tempfile.TemporaryDirectory() as home:
        ours = await run_silcrow(home, turns, questions, texts)
    theirs = await run_vector(get_embedder("bge"), turns, questions, texts)
    ratios = {f"{key}_ratio": round(ours[key] / theirs[key], 3)
              for key in ("search_ms_median", "search_ms_p95", "ingest_s") if theirs[key]}
    return {"dataset": args.dataset.name, "turns": len(turns), "questions": len(questions),
            "silcrow": ours, "vector_block": theirs, "ratios": ratios}


def main() -> None:
    args = locomo.question_bench_args(__doc__.split("\n")[0])
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    sys.exit(main())
