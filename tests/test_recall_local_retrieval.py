"""The pure pieces of hybrid retrieval: query terms, FTS5 escaping, dates, fusion, turn vectors."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from silcrow.models import Embedder
from silcrow.recall.local import _retrieval as retrieval


def test_query_terms_drop_function_words_and_repeats() -> None:
    assert retrieval.query_terms("When did Caroline go to the LGBTQ support group? The group!") == [
        "caroline", "go", "lgbtq", "support", "group",
    ]
    assert retrieval.query_terms("what is it?") == []
    assert retrieval.query_terms("Zoë's café in São Paulo") == ["zoë", "café", "são", "paulo"]


def test_match_query_is_always_valid_fts5() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    conn.execute("INSERT INTO t VALUES ('he said \"near\" and body: OR NOT')")
    for text in ['"quoted', 'NEAR(a b)', "body:x", "a* OR b", "AND OR NOT", "x^y", "(((", "'; DROP"]:
        match = retrieval.build_match_query(text)
        if match is not None:
            conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (match,)).fetchall()
    assert retrieval.build_match_query("NOT near") == '"near"'  # "not" is a stopword, NEAR a plain word
    assert retrieval.build_match_query("the and of") is None


def test_dated_text_spells_out_the_day() -> None:
    assert retrieval.dated_text(1683554160.0) == "Monday 8 May 2023"  # 2023-05-08 13:56 UTC
    assert retrieval.dated_text(None) == ""


def test_fuse_scales_both_sides() -> None:
    lexical = [(1, 10.0), (2, 5.0)]
    dense = {2: 0.9, 3: 0.5, 1: 0.1}
    fused = dict(retrieval.fuse(lexical, dense, alpha=0.5))
    assert fused[1] == pytest.approx(0.5 * 0.0 + 0.5 * 1.0)
    assert fused[2] == pytest.approx(0.5 * 1.0 + 0.5 * 0.5)
    assert fused[3] == pytest.approx(0.5 * 0.5)
    assert [i for i, _ in retrieval.fuse(lexical, dense, alpha=0.5)] == [2, 1, 3]
    assert [i for i, _ in retrieval.fuse(lexical, {}, alpha=0.5)] == [1, 2]  # no vectors: lexical only
    assert retrieval.fuse([], {}) == []


def test_rrf_uses_ranks_only() -> None:
    fused = retrieval.rrf([(1, 100.0), (2, 1.0)], {2: 0.9, 1: 0.8}, alpha=0.5, k0=0)
    assert fused[0][1] == pytest.approx(fused[1][1])  # each first once, second once: a tie


class _Axes(Embedder):
    """Each known text is one axis: makes the vector arithmetic checkable by hand."""

    name = "axes"
    dim = 3
    AXES = {"a": 0, "b": 1, "c": 2}

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), 3), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row, self.AXES[text]] = 1.0
        return out


def test_turn_vectors_keep_their_own_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retrieval, "OWN_WEIGHT", 0.4)
    emb = _Axes()
    calls: list[list[str]] = []
    real = emb._embed_batch
    monkeypatch.setattr(emb, "_embed_batch", lambda texts: calls.append(texts) or real(texts))
    vecs = retrieval.memory_vectors(emb, ["a", "b", "c"], ["", "a", "a\nb"])
    assert calls == [["a", "b", "c"]]  # every distinct text embedded once
    assert np.allclose(vecs[0], [1, 0, 0])
    window = np.array([1, 1, 0]) / np.sqrt(2)
    expected = 0.4 * np.array([0, 1, 0]) + 0.6 * window
    assert np.allclose(vecs[1], expected / np.linalg.norm(expected), atol=1e-6)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0)
    assert vecs[2][2] == max(vecs[2])  # the turn itself still dominates its vector


def test_speaker_named_in_the_query_is_boosted() -> None:
    scored = [(1, 1.0), (2, 0.9), (3, 0.85), (4, 0.5)]
    speakers = {1: "Ben", 2: "Ana Lima", 3: "Ana", 4: ""}
    boosted = retrieval.boost_named_speakers(scored, speakers, "What did ana lima say?", boost=0.2)
    assert boosted == [(2, pytest.approx(1.08)), (3, pytest.approx(1.02)), (1, 1.0), (4, 0.5)]
    # Every word of a speaker's name must appear: "Ana" alone does not name "Ana Lima".
    boosted = retrieval.boost_named_speakers(scored, speakers, "what about Ana", boost=0.2)
    assert [i for i, _ in boosted] == [3, 1, 2, 4]
    assert retrieval.boost_named_speakers(scored, speakers, "anything", boost=0.2) == scored
    assert retrieval.boost_named_speakers(scored, speakers, "ana", boost=0.0) == scored


def test_a_top_hit_lifts_the_turns_next_to_it_in_its_session() -> None:
    scored = [(10, 1.0), (30, 0.5), (20, 0.1)]
    sessions = {10: "s1", 11: "s1", 9: "s0", 30: "s2", 20: "s3"}
    lifted = retrieval.spread_to_neighbours(scored, sessions, weight=0.7, top=1)
    assert lifted == [(10, 1.0), (11, 0.7), (30, 0.5), (20, 0.1)]  # 9 is of another session
    assert retrieval.spread_to_neighbours(scored, sessions, weight=0.0) == scored
    # a neighbour already scoring higher keeps its own score
    assert dict(retrieval.spread_to_neighbours([(1, 1.0), (2, 0.9)], {1: "s", 2: "s"}, weight=0.5))[2] == 0.9


def test_session_decay_spreads_hits_over_sessions() -> None:
    scored = [(1, 1.0), (2, 0.95), (3, 0.9)]
    sessions = {1: "a", 2: "a", 3: "b"}
    assert [i for i, _ in retrieval.diversify_sessions(scored, sessions, decay=0.8)] == [1, 3, 2]
    assert retrieval.diversify_sessions(scored, sessions, decay=1.0) == scored


def test_bm25_weighs_rare_terms_and_columns() -> None:
    docs = {
        1: ("ana: my kitten pixel", "", ""),
        2: ("ana: hello ana", "", ""),
        3: ("ben: nothing here", "ana: my kitten pixel", ""),
    }
    scored = retrieval.bm25(["ana", "kitten"], docs, {"ana": 3, "kitten": 1}, 3)
    assert [i for i, _ in scored] == [1, 3, 2]  # the rare word first; context counts less
    assert retrieval.bm25(["kittens"], {1: ("kitten",)}, {"kittens": 1}, 10)  # light stemming
    assert retrieval.bm25([], docs, {}, 10) == []


@pytest.mark.parametrize(("query", "listing"), [
    ("What activities does Ana partake in?", True),
    ("What books has Ben read?", True),
    ("What LGBTQ+ events has Ana attended?", True),
    ("What kind of books does Ana have?", True),
    ("How many children does Ben have?", True),
    ("What are some changes Ana has faced?", True),
    ("What subject have Ana and Ben both painted?", True),
    ("What is Ana's identity?", False),
    ("What does Ben do to destress?", False),
    ("What was Ana's favourite book?", False),
    ("When did Ben go to the museum?", False),
    ("Where has Ana camped?", False),
])
def test_list_questions_are_told_apart(query: str, listing: bool) -> None:
    assert retrieval.asks_for_a_list(query) is listing


def test_a_list_question_spreads_its_hits_over_sessions() -> None:
    from silcrow.recall.local._backend import rank

    lexical = [(1, 1.0), (2, 0.95), (3, 0.9)]
    about = {1: ("", "a"), 2: ("", "a"), 3: ("", "b")}.__getitem__

    def ranked(query: str) -> list[int]:
        out = rank(query, "hybrid", lexical, {}, lambda ids: {i: about(i) for i in ids if i in (1, 2, 3)},
                   min_similarity=None)
        return [i for i, _ in out]

    # Neighbour lift: 2 (next to 1 in session a) is lifted to 0.7, below its own 0.95.
    assert ranked("what books did she read?") == [1, 3, 2]  # list: session a's second hit waits
    assert ranked("what book did she read?") == [1, 2, 3]


def test_session_context_lifts_turns_of_strong_sessions() -> None:
    scored = [(1, 1.0), (2, 0.9), (3, 0.8), (4, 0.75)]
    sessions = {1: "a", 2: "b", 3: "b", 4: "a"}
    lifted = retrieval.session_context(scored, sessions, weight=0.5, top=2)
    # a: (1.0 + 0.75) / 2, b: (0.9 + 0.8) / 2
    assert lifted == [(1, pytest.approx(1.4375)), (2, pytest.approx(1.325)),
                      (3, pytest.approx(1.225)), (4, pytest.approx(1.1875))]
    one_hit = retrieval.session_context([(1, 1.0), (2, 0.9), (3, 0.8)], {1: "a", 2: "b", 3: "b"},
                                        weight=1.0, top=2)
    assert [i for i, _ in one_hit] == [2, 3, 1]  # session b's two hits outweigh a's one
    assert retrieval.session_context(scored, sessions, weight=0.0) == scored


def test_tail_diversity_keeps_the_head_and_defers_repeats() -> None:
    scored = [(i, 1.0 - i / 100) for i in range(1, 9)]
    sessions = {1: "a", 2: "a", 3: "a", 4: "b", 5: "a", 6: "c", 7: "a", 8: "d"}
    out = retrieval.diversify_tail(scored, sessions, head=2, per_session=1, depth=5)
    assert [i for i, _ in out] == [1, 2, 4, 6, 8, 3, 5, 7]
    assert retrieval.diversify_tail(scored, sessions, head=2, per_session=0) == scored
    # too few other sessions: the deferred fill the rest in their order
    few = retrieval.diversify_tail(scored[:4], sessions, head=1, per_session=1, depth=4)
    assert [i for i, _ in few] == [1, 4, 2, 3]


def test_dbsf_scales_by_spread() -> None:
    assert retrieval.spread_scale({1: 2.0, 2: 2.0}) == {1: 1.0, 2: 1.0}
    scaled = retrieval.spread_scale({1: 0.0, 2: 1.0})  # mean 0.5, sd 0.5
    assert scaled == {1: pytest.approx(1 / 3), 2: pytest.approx(2 / 3)}
    # An outlier no longer squashes the rest to 0 as min-max would: 0.1 stays above 0.
    assert min(retrieval.spread_scale({1: 0.0, 2: 0.1, 3: 0.1, 4: 5.0}).values()) > 0.0
    fused = dict(retrieval.dbsf([(1, 10.0), (2, 0.0)], {2: 1.0, 3: 0.0}, alpha=0.5))
    assert fused[1] == pytest.approx(0.5 * 1 / 3 + 0.5 * 2 / 3)  # dense: missing -> that side's lowest
    assert fused[3] == pytest.approx(0.5 * 1 / 3 + 0.5 * 1 / 3)  # lexical: missing -> lowest
    assert retrieval.dbsf([], {}) == []


def test_bm25_term_weights_scale_a_terms_share() -> None:
    docs = {1: ("kitten",), 2: ("puppy",)}
    df = {"kitten": 1, "puppy": 1}
    assert [i for i, _ in retrieval.bm25(["kitten", "puppy"], docs, df, 10)] == [1, 2]  # a tie: id order
    weighted = retrieval.bm25(["kitten", "puppy"], docs, df, 10, weights={"kitten": 0.5})
    assert [i for i, _ in weighted] == [2, 1]
    assert weighted[1][1] == pytest.approx(weighted[0][1] / 2)


def test_bm25_takes_a_term_count_over_the_total_as_the_total() -> None:
    """Another process may add memories between the count of a term and the total being read:
    a count above the total is that total (no NaN, no warning), not a failure."""
    import warnings

    docs = {1: ("kitten",), 2: ("puppy",)}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scored = retrieval.bm25(["kitten"], docs, {"kitten": 5}, 3)
    assert scored and all(score == score and score > 0 for _, score in scored)  # not NaN


def _bm25_stemming_every_word(terms: list[str], docs: dict[int, tuple[str, ...]], df: dict[str, int],
                              total: int) -> list[tuple[int, float]]:
    """The lexical score as its definition reads: every word of every column stemmed."""
    import math

    stems = {retrieval.stem(t): t for t in terms}
    idf = {s: max(1e-6, math.log((total - min(df[t], total) + 0.5) / (min(df[t], total) + 0.5)))
           for s, t in stems.items()}
    counted = {}
    for i, columns in docs.items():
        tf: dict[str, float] = {}
        length = 0
        for n, text in enumerate(columns):
            words = retrieval._WORD.findall(text.casefold())
            length += len(text.split())
            for w in words:
                if retrieval.stem(w) in idf:
                    tf[retrieval.stem(w)] = tf.get(retrieval.stem(w), 0.0) + retrieval.COLUMN_WEIGHTS[n]
        counted[i] = (tf, length)
    avg = max(1.0, sum(length for _, length in counted.values()) / len(counted))
    k1, b = retrieval.BM25_K1, retrieval.BM25_B
    scored = []
    for i, (tf, length) in counted.items():
        norm = k1 * (1.0 - b + b * length / avg)
        score = sum(idf[s] * f * (k1 + 1.0) / (f + norm) for s, f in tf.items())
        if score > 0:
            scored.append((i, score))
    return sorted(scored, key=lambda p: (-p[1], p[0]))


_WORDS = ["story", "stories", "storied", "play", "plays", "playing", "fries", "fry", "glass", "glasses",
          "live", "lived", "living", "lives", "a", "ab", "abc", "paint", "painted", "painting", "Zoë",
          "zoës", "café", "cafés", "STUDIES", "study", "studying", "x-ray", "re-paint", "ies", "yes", "y"]


@given(
    terms=st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4),
    docs=st.lists(st.tuples(*(st.lists(st.sampled_from(_WORDS + [" ", ", ", "!"]), max_size=12).map(" ".join)
                              for _ in range(3))), min_size=1, max_size=6),
)
@settings(max_examples=300, deadline=None)
def test_bm25_stems_only_candidate_words_and_scores_as_defined(
    terms: list[str], docs: list[tuple[str, str, str]]
) -> None:
    terms = [t.casefold() for t in terms]
    by_id = dict(enumerate(docs))
    df = {t: 1 + n for n, t in enumerate(terms)}
    fast = retrieval.bm25(terms, by_id, df, 20)
    slow = _bm25_stemming_every_word(terms, by_id, df, 20)
    assert [i for i, _ in fast] == [i for i, _ in slow]
    assert [s for _, s in fast] == pytest.approx([s for _, s in slow])


def test_a_long_turn_is_context_by_its_opening_and_embedded_once() -> None:
    """A preceding turn is indexed as context by its first EMBED_WORDS words, which hold its own
    embedding window: the turns after a long answer neither index it whole again nor embed it again."""
    for words in (5, 24, 25, 191, 192, 193, 800):
        for label in ("assistant: ", "Ann: ", ""):
            body = label + " ".join(f"w{i}" for i in range(words))
            piece = retrieval.context_piece(body)
            assert len(piece.split()) <= retrieval.EMBED_WORDS + 1  # + the speaker label
            assert retrieval.embed_window(piece) == retrieval.embed_window(body), (words, label)
    long = "assistant: " + " ".join(f"w{i}" for i in range(800))
    assert retrieval.embed_window(long) == "assistant: " + " ".join(f"w{i}" for i in range(24))
