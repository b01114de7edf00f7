"""Hybrid retrieval: how memories are indexed, queried and scored.

What each piece is for (measured on LoCoMo conversation 26, evidence recall
over dialog turns; see ``bench/recall.py`` and the report for the table):

- A turn is indexed as ``"speaker: text"``: questions about people name them,
  and a bare "I went there yesterday" does not.
- A turn is also indexed with the *preceding* turns of its session as a
  separate, down-weighted FTS5 column, and its vector carries them too. In
  dialogue the answer ("yes, last Sunday!") often carries none of the words
  of what it answers ("did you go to the pride parade?"); the question it
  answers sits just before it. Only the turn itself is returned.
- The stored vector is the turn's own embedding (weight OWN_WEIGHT) plus the
  mean of its own and its preceding turns' embeddings, renormalised. This
  matched embedding the concatenated text (same recall within noise) at a
  third of the ingest cost, since every turn is embedded once, alone; and
  keeping the turn's own share stops its follower ("Lisbon is beautiful!")
  from outranking the turn that says it ("my sister moved to Lisbon").
- The date it happened is a third, lightly weighted column, so "in May 2023"
  in a query can match.
- A question that names someone is mostly answered by what that person said
  ("what does Ana do to relax?" -> Ana's own turns), so turns whose speaker
  the query names get a mild multiplicative boost (SPEAKER_BOOST). With
  speakers "user"/"assistant" it only acts when a query says "user".
- Lexical (BM25) and dense (cosine) scores are fused on a common scale:
  BM25 divided by the best BM25 score of the query, cosine min-max scaled
  over the candidate pool. Score fusion beat reciprocal-rank fusion here
  because it keeps how *much* better the best hits are, which RRF throws away.
- A question that asks for several things ("what books has she read?", "how
  many times...") has its evidence spread over sessions, so there a
  session's 2nd, 3rd... hit is multiplied by LIST_SESSION_DECAY**1, **2...:
  turn recall@10 0.811 -> 0.821, multi-hop 0.427 -> 0.458 (for every
  question the same decay cost 0.035). Session context, tail diversity and
  DBSF are kept as off-by-default options for the benchmark's ablations.
- Recency is not a ranking term, because it does not pay: a multiplicative
  boost ``1 + 0.1 * r`` of the fused score (``r`` the memory's timestamp
  between the oldest (0) and newest (1) candidate, only for queries that
  name no time of their own) gave recall@5 0.7122 and recall@10 0.7956
  against 0.7156 and 0.7922 without it (``python bench/recall.py --dataset
  locomo-conv-26.json``, the LoCoMo development conversation, 150 questions): noise at best, and
  worse at k=5. Recency still reaches the model: prefetch lists its hits
  oldest first with their dates (a timeline), and the dated FTS5 column
  serves queries that name a time.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

import numpy as np

from silcrow._sqlite import STOPWORDS, quote_term
from silcrow.models import Embedder
from silcrow.recall.local._records import epoch_time
from silcrow.recall.local._when import in_words, mentioned_dates

#: How many preceding turns of the same session index and embed with a turn.
CONTEXT_TURNS = 2
#: Share of the turn-alone embedding in a turn's stored vector (the rest: turn with context).
OWN_WEIGHT = 0.4
#: FTS5 bm25() column weights for (body, context, dated).
COLUMN_WEIGHTS = (1.0, 0.5, 0.2)
#: Whether relative time in a turn ("last Saturday") is resolved at ingest and indexed as dates.
RESOLVE_DATES = True
#: Weight of the dense score in the fusion; 1 - ALPHA goes to BM25.
ALPHA = 0.4
#: Fused scores of turns whose speaker the query names are multiplied by 1 + SPEAKER_BOOST.
SPEAKER_BOOST = 0.4
#: How many candidates each retriever contributes before fusion.
POOL = 50
#: Query terms kept (longest first) so pathological prompts stay cheap.
MAX_TERMS = 32
#: A query term found in more than this share of the memories (and more than DF_FLOOR rows)
#: is left out of the lexical query: its idf is near zero, yet FTS5 would have to score every
#: row holding it (100k rows cost ~140 ms on two cores). Below DF_FLOOR rows nothing is dropped.
DF_FRACTION = 0.05
DF_FLOOR = 2000

_WORD = re.compile(r"\w+", re.UNICODE)
_MONTHS = (
    "January February March April May June July August September October November December".split()
)
_DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()


def query_terms(text: str) -> list[str]:
    """Content words of ``text``: lower-cased, stopwords and 1-letter words dropped, unique."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text.casefold()):
        if len(word) > 1 and word not in STOPWORDS and "_" not in word:
            seen.setdefault(word, None)
    terms = list(seen)
    if len(terms) > MAX_TERMS:
        terms = sorted(terms, key=len, reverse=True)[:MAX_TERMS]
    return terms


def build_match_query(text: str) -> str | None:
    """An FTS5 MATCH expression OR-ing the content words of ``text``, or None if it has none.

    Every term is double-quoted, which makes it a plain string to FTS5: user
    text such as ``NEAR(``, ``AND``, ``col:`` or ``*`` can never become
    query syntax.
    """
    return match_expression(query_terms(text))


def match_expression(terms: Sequence[str]) -> str | None:
    """``"a" OR "b"`` for FTS5 MATCH, or None for no terms."""
    if not terms:
        return None
    return " OR ".join(quote_term(term) for term in terms)


def body_text(text: str, speaker: str) -> str:
    """What a memory is indexed and embedded as: its text on one line, prefixed by who said it."""
    flat = " ".join(text.split())  # one line: a context column is these bodies joined by newlines
    return f"{speaker}: {flat}" if speaker else flat


def dated_text(ts: float | None, text: str = "") -> str:
    """The date in words ("Monday 8 May 2023"), so queries naming a date or month match;
    with ``text``, also the dates its relative time expressions point to ("yesterday" said
    on 8 May -> "Sunday 7 May 2023"), when RESOLVE_DATES is on."""
    if ts is None:
        return ""
    when = epoch_time(ts)
    said = f"{_DAYS[when.weekday()]} {when.day} {_MONTHS[when.month - 1]} {when.year}"
    if not RESOLVE_DATES or not text:
        return said
    resolved = dict.fromkeys(in_words(d, p) for d, p in mentioned_dates(text, when.date()))
    return " ".join([said, *resolved])


#: What of a turn its vector is made from, in words (the lexical index always holds all of
#: it). An assistant's answer is embedded by its opening: it states what the answer is about,
#: the user's words carry what recall is mostly asked about (and the answer's vector carries
#: the question it answers as context), and every word of the rest stays findable lexically.
#: Long answers were nearly all of the ingest cost (12 layers over up to 256 tokens each).
#: ``bench/recall.py`` measures the rate and the effect on recall of this window (its
#: ``window_speaker_b`` ablation applies it to half of LoCoMo's turns).
ASSISTANT_EMBED_WORDS = 24
#: Whose turns get that window (the speaker as stored: "assistant" in chat exports and syncs).
WINDOWED_SPEAKERS: tuple[str, ...] = ("assistant",)
#: Every other turn: the embedders read at most 256 tokens (~190 words) anyway. (0: no window.)
EMBED_WORDS = 192
#: Whether a body embedded for one turn is reused as the context of the next (see OwnVectors).
REUSE_VECTORS = True


def embed_window(body: str) -> str:
    """The part of a memory's body (:func:`body_text`, one line) its vector is made from."""
    windowed = body.startswith(tuple(f"{who}: " for who in WINDOWED_SPEAKERS))
    limit = ASSISTANT_EMBED_WORDS if windowed else EMBED_WORDS
    if limit <= 0 or body.count(" ") <= limit:
        return body
    keep = limit + 1 if windowed else limit  # the speaker's label is not one of the words
    return " ".join(body.split(" ", keep + 1)[:keep])


def context_piece(body: str) -> str:
    """What of a preceding turn is indexed (and embedded) as context of the turns after it: its
    first EMBED_WORDS words. The question a turn answers is short; a long answer before it
    would otherwise be indexed again in full with each of the next turns (PostgreSQL's
    tsvector of those texts was most of its ingest time on long turns). The words kept
    hold the turn's own :func:`embed_window`, so its vector is reused, not made again."""
    if EMBED_WORDS <= 0 or body.count(" ") <= EMBED_WORDS:  # as embed_window cuts a body
        return body
    return " ".join(body.split(" ", EMBED_WORDS + 1)[:EMBED_WORDS])


class OwnVectors:
    """Each body's own vector, kept for the next few turns that carry it as context: the preceding
    turns of a session are embedded once, not again with every turn that follows them (nor again
    by the next batch, or by the next turn an agent syncs). Bounded, oldest dropped first."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._rows: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()  # an agent's background sync and an import may both write

    def get(self, text: str) -> np.ndarray | None:
        with self._lock:
            return self._rows.get(text)

    def put(self, texts: Sequence[str], rows: np.ndarray) -> None:
        with self._lock:
            for text, row in zip(texts, rows, strict=True):
                self._rows.pop(text, None)
                self._rows[text] = row
            while len(self._rows) > self.size:
                del self._rows[next(iter(self._rows))]


def memory_vectors(
    embedder: Embedder, bodies: Sequence[str], contexts: Sequence[str], cache: OwnVectors | None = None
) -> np.ndarray:
    """The unit vectors stored for memories with these bodies and contexts.

    Each distinct text is embedded once (by its :func:`embed_window`); a memory with
    context gets ``OWN_WEIGHT * own + (1 - OWN_WEIGHT) * window``, renormalised, where
    ``window`` is the normalised mean of its own and its preceding turns' vectors. With
    ``cache``, texts it holds are not embedded again, and the new ones are added to it.
    """
    pieces = [context.split("\n") if context else [] for context in contexts]
    unique = list(dict.fromkeys(embed_window(t) for t in [*bodies, *(p for ps in pieces for p in ps)]))
    own: dict[str, np.ndarray] = {}
    cache = cache if REUSE_VECTORS else None
    if cache is not None:
        own = {t: row for t in unique if (row := cache.get(t)) is not None}
    todo = [t for t in unique if t not in own]
    if todo:
        rows = embedder.embed(todo)
        own.update(zip(todo, rows, strict=True))
        if cache is not None:
            cache.put(todo, rows)
    dim = embedder.dim
    out = np.array([own[embed_window(b)] for b in bodies], dtype=np.float32).reshape(len(bodies), dim)
    if OWN_WEIGHT < 1.0:
        for i, ps in enumerate(pieces):
            if not ps:
                continue
            window = np.sum([own[embed_window(p)] for p in ps], axis=0) + out[i]
            window /= max(float(np.linalg.norm(window)), 1e-12)
            mixed = OWN_WEIGHT * out[i] + (1.0 - OWN_WEIGHT) * window
            out[i] = mixed / max(float(np.linalg.norm(mixed)), 1e-12)
    return np.ascontiguousarray(out, dtype=np.float32)


def fuse(
    lexical: Sequence[tuple[int, float]],
    dense: Mapping[int, float],
    *,
    alpha: float = ALPHA,
) -> list[tuple[int, float]]:
    """Combine BM25 and cosine scores of the candidate pool; best first.

    ``lexical`` holds (id, bm25) with larger = better; ``dense`` maps every
    candidate that has a vector to its cosine. A candidate missing from one
    side gets 0 from it.
    """
    ids = list(dict.fromkeys([i for i, _ in lexical] + list(dense)))
    if not ids:
        return []
    best_lex = max((s for _, s in lexical), default=0.0)
    lex = {i: (s / best_lex if best_lex > 0 else 0.0) for i, s in lexical}
    if dense:
        lo, hi = min(dense.values()), max(dense.values())
        span = hi - lo
        cos = {i: ((s - lo) / span if span > 1e-9 else 1.0) for i, s in dense.items()}
        weight = alpha
    else:
        cos, weight = {}, 0.0  # lexical-only store or embedder "none"
    scored = [(i, weight * cos.get(i, 0.0) + (1.0 - weight) * lex.get(i, 0.0)) for i in ids]
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored


def rrf(
    lexical: Sequence[tuple[int, float]], dense: Mapping[int, float], *, alpha: float = ALPHA, k0: int = 60
) -> list[tuple[int, float]]:
    """Reciprocal-rank fusion, the common alternative to compare with (``bench/recall.py --fusion rrf``).

    Each side adds ``weight / (k0 + rank)``; the weights are ``1 - alpha`` and
    ``alpha`` as in :func:`fuse`. Measured worse than score fusion here.
    """
    scores: dict[int, float] = {}
    dense_ranked = sorted(dense.items(), key=lambda p: (-p[1], p[0])) if alpha > 0 else []
    for weight, ranked in ((1.0 - alpha, lexical), (alpha, dense_ranked)):
        for rank, (i, _) in enumerate(ranked, start=1):
            scores[i] = scores.get(i, 0.0) + weight / (k0 + rank)
    return sorted(scores.items(), key=lambda p: (-p[1], p[0]))


def spread_scale(scores: Mapping[int, float]) -> dict[int, float]:
    """Scores mapped so mean - 3 sd -> 0 and mean + 3 sd -> 1 (not clipped): one outlier does
    not squash the rest, as it does under min-max scaling."""
    if not scores:
        return {}
    values = np.fromiter(scores.values(), dtype=np.float64, count=len(scores))
    mu, sd = float(values.mean()), float(values.std())
    if sd < 1e-12:
        return dict.fromkeys(scores, 1.0)
    return {i: (s - mu + 3.0 * sd) / (6.0 * sd) for i, s in scores.items()}


def dbsf(
    lexical: Sequence[tuple[int, float]], dense: Mapping[int, float], *, alpha: float = ALPHA
) -> list[tuple[int, float]]:
    """Distribution-based score fusion (``bench/recall.py`` ablation ``dbsf_fusion``): each side
    scaled by :func:`spread_scale` over its candidates; a candidate missing from a side gets
    that side's lowest scaled score."""
    lex = spread_scale(dict(lexical))
    cos = spread_scale(dense)
    weight = alpha if cos else 0.0
    lo_lex, lo_cos = min(lex.values(), default=0.0), min(cos.values(), default=0.0)
    ids = list(dict.fromkeys([i for i, _ in lexical] + list(dense)))
    scored = [(i, weight * cos.get(i, lo_cos) + (1.0 - weight) * lex.get(i, lo_lex)) for i in ids]
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored


#: The ways the lexical and dense sides can be combined, by the name a search takes
#: (``fusion=``): "score" (:func:`fuse`, the default); "rrf" and "dbsf" for comparison.
FUSIONS: Mapping[str, Callable[..., list[tuple[int, float]]]] = MappingProxyType(
    {"score": fuse, "rrf": rrf, "dbsf": dbsf}
)


def boost_named_speakers(
    scored: Sequence[tuple[int, float]],
    speakers: Mapping[int, str],
    query: str,
    *,
    boost: float | None = None,
) -> list[tuple[int, float]]:
    """Re-rank ``scored`` with the speaker boost; a speaker is named if all its words are in the query."""
    boost = SPEAKER_BOOST if boost is None else boost
    if boost <= 0:
        return list(scored)
    words = set(_WORD.findall(query.casefold()))
    named: dict[str, bool] = {}
    out = []
    for i, score in scored:
        who = speakers.get(i, "")
        if who not in named:
            parts = _WORD.findall(who.casefold())
            named[who] = bool(parts) and all(p in words for p in parts)
        out.append((i, score * (1.0 + boost) if named[who] else score))
    out.sort(key=lambda pair: (-pair[1], pair[0]))
    return out


#: A top hit lends this share of its fused score to the turns just before and after it in its
#: session (0 turns it off): an answer often sits next to the turn that matched the question.
NEIGHBOUR_WEIGHT = 0.7
#: How many of the best hits lend to their neighbours.
NEIGHBOUR_TOP = 10
#: The n-th hit of one session (n >= 2) has its score multiplied by SESSION_DECAY ** (n - 1):
#: questions about a person's habits have their evidence spread over many sessions.
SESSION_DECAY = 1.0


def spread_to_neighbours(
    scored: Sequence[tuple[int, float]],
    sessions: Mapping[int, str],
    *,
    weight: float | None = None,
    top: int | None = None,
) -> list[tuple[int, float]]:
    """``scored`` with the adjacent turns (ids +-1 of the same session) of the best ``top``
    hits lifted to at least ``weight`` times that hit's score; best first.

    ``sessions`` maps ids (the candidates and their +-1 ids) to their session; an id
    missing from it, or of another session, is not a neighbour.
    """
    weight = NEIGHBOUR_WEIGHT if weight is None else weight
    top = NEIGHBOUR_TOP if top is None else top
    if weight <= 0:
        return list(scored)
    out = dict(scored)
    for i, score in list(scored)[:top]:
        session = sessions.get(i)
        if not session:
            continue
        for j in (i - 1, i + 1):
            if sessions.get(j) == session and out.get(j, 0.0) < weight * score:
                out[j] = weight * score
    return sorted(out.items(), key=lambda pair: (-pair[1], pair[0]))


def diversify_sessions(
    scored: Sequence[tuple[int, float]], sessions: Mapping[int, str], *, decay: float | None = None
) -> list[tuple[int, float]]:
    """Re-rank ``scored`` so the later hits of one session count less (see SESSION_DECAY)."""
    decay = SESSION_DECAY if decay is None else decay
    if decay >= 1.0:
        return list(scored)
    seen: dict[str, int] = {}
    out = []
    for i, score in scored:
        session = sessions.get(i) or f"#{i}"
        n = seen.get(session, 0)
        seen[session] = n + 1
        out.append((i, score * decay**n))
    out.sort(key=lambda pair: (-pair[1], pair[0]))
    return out


#: BM25 saturation and length normalisation of the shared lexical score.
BM25_K1 = 1.2
BM25_B = 0.75
#: Lexical candidates each engine returns, by its own ranking, to be rescored by :func:`bm25`.
#: Each engine picks them by its own score (FTS5's bm25, PostgreSQL's ts_rank), so a pool
#: that holds only part of the matches holds different memories on each: with 100, the two
#: backends' top 10 agreed for half the questions of the development conversation; with 400
#: (every match of a personal store's question, mostly) for nine in ten, at ~5 ms of scoring.
LEXICAL_POOL = 400
#: Whether the SQLite store ranks its lexical candidates by :func:`bm25` too (PostgreSQL always does).
SHARED_BM25 = True


def stem(word: str) -> str:
    """A light suffix stripper, the same for every engine: "lives", "lived", "living" and
    "live" all become "liv"; "stories" -> "story"; "glasses" -> "glass"."""
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zes", "ches", "shes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) >= 6:
        word = word[:-3]
    elif word.endswith("ed") and len(word) >= 5:
        word = word[:-2]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _stem_candidates(stems: Iterable[str]) -> re.Pattern[str]:
    """A pattern for the whole words that may stem to one of ``stems``.

    :func:`stem` only cuts a suffix, and turns "ies" into "y": a word starts with its
    stem, or with its stem less a final "y". So a word that does not start that way
    cannot stem to it, and need not be stemmed.
    """
    # A term that is not one word (no word is) can match nothing.
    prefixes = sorted({s[:-1] if s.endswith("y") and len(s) > 1 else s for s in stems if _WORD.fullmatch(s)},
                      key=len, reverse=True)
    if not prefixes:
        return re.compile(r"(?!)")
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, prefixes)) + r")\w*", re.UNICODE)


def bm25(
    terms: Sequence[str],
    docs: Mapping[int, Sequence[str]],
    df: Mapping[str, int],
    total: int,
    weights: Mapping[str, float] | None = None,
) -> list[tuple[int, float]]:
    """BM25 of each of ``docs`` (id -> its columns: body, context, dated) for ``terms``; best first.

    ``weights`` scales a term's share (1 when not given), e.g. for expansion terms.

    The lexical score of both backends: each engine only finds the candidates and counts
    how many memories hold each term (``df``, of ``total``); the score itself is computed
    here, so SQLite and PostgreSQL rank the same data the same way. Columns are weighted
    by COLUMN_WEIGHTS; lengths are normalised by each column's mean over ``docs``.
    """
    if not docs or not terms:
        return []
    stems = {stem(t): t for t in terms}
    # Okapi idf, floored just above 0 so a term in most memories still counts a little. A count
    # is clamped to the total: another process may add memories between the two being read.
    counts = {t: min(max(df.get(t, 0), 0), max(total, 0)) for t in stems.values()}
    idf = {s: max(1e-6, math.log((max(total, 0) - counts[t] + 0.5) / (counts[t] + 0.5)))
           * (weights.get(t, 1.0) if weights else 1.0) for s, t in stems.items()}
    candidates = _stem_candidates(idf)
    stems_of: dict[str, str] = {}
    counted: dict[int, tuple[dict[str, float], int]] = {}
    for i, columns in docs.items():
        tf: dict[str, float] = {}  # column-weighted term frequency
        length = 0
        for n, text in enumerate(columns):
            weight = COLUMN_WEIGHTS[n] if n < len(COLUMN_WEIGHTS) else 0.0
            folded = text.casefold()
            length += len(folded.split())  # words as a reader counts them: cheap, the same everywhere
            # Only words that can stem to a query term are stemmed (found at C speed): a
            # candidate pool of hundreds of turns is scored in a few milliseconds.
            for w in candidates.findall(folded):
                s = stems_of.get(w)
                if s is None:
                    s = stems_of[w] = stem(w)
                if s in idf:
                    tf[s] = tf.get(s, 0.0) + weight
        counted[i] = (tf, length)
    avg = max(1.0, sum(length for _, length in counted.values()) / len(counted))
    scored = []
    for i, (tf, length) in counted.items():
        norm = BM25_K1 * (1.0 - BM25_B + BM25_B * length / avg)
        score = sum(idf[s] * f * (BM25_K1 + 1.0) / (f + norm) for s, f in tf.items())
        if score > 0:
            scored.append((i, score))
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored


#: A turn's fused score gains SESSION_WEIGHT times its session's score (the mean of the
#: session's best SESSION_TOP candidate scores): the right session is found far more often
#: than the right turn, so a weak turn of a strongly matching session moves up.
SESSION_WEIGHT = 0.0
SESSION_TOP = 2


def session_context(
    scored: Sequence[tuple[int, float]],
    sessions: Mapping[int, str],
    *,
    weight: float | None = None,
    top: int | None = None,
) -> list[tuple[int, float]]:
    """``scored`` with each turn's score raised by ``weight`` times its session's score; best first.

    A session's score is the mean of its ``top`` best candidate scores (missing ones count 0,
    so a session with one lucky hit scores less than one with several). Memories outside a
    session keep their score.
    """
    weight = SESSION_WEIGHT if weight is None else weight
    top = SESSION_TOP if top is None else top
    if weight <= 0 or top < 1:
        return list(scored)
    best: dict[str, list[float]] = {}
    for i, score in scored:  # best first, so each session's list is its best scores in order
        session = sessions.get(i)
        if session and len(best.setdefault(session, [])) < top:
            best[session].append(score)
    session_score = {s: sum(v) / top for s, v in best.items()}
    out = [(i, score + weight * session_score.get(sessions.get(i) or "", 0.0)) for i, score in scored]
    out.sort(key=lambda pair: (-pair[1], pair[0]))
    return out


#: After the first TAIL_HEAD hits, a hit whose session already holds TAIL_PER_SESSION of the
#: hits before it waits behind hits of other sessions (0 turns it off). Questions asking for
#: a list ("what activities...") have their evidence spread over sessions; the head is kept
#: as ranked so precision at the top does not pay for it.
TAIL_HEAD = 5
TAIL_PER_SESSION = 0


def diversify_tail(
    scored: Sequence[tuple[int, float]],
    sessions: Mapping[int, str],
    *,
    head: int | None = None,
    per_session: int | None = None,
    depth: int = 10,
) -> list[tuple[int, float]]:
    """``scored`` reordered after ``head`` so that, up to ``depth``, no session holds more than
    ``per_session`` hits while hits of other sessions wait; the deferred ones follow, in order.
    Scores are kept (the order, not the score, changes), so they may no longer descend."""
    head = TAIL_HEAD if head is None else head
    per_session = TAIL_PER_SESSION if per_session is None else per_session
    if per_session <= 0 or len(scored) <= head:
        return list(scored)
    out = list(scored[:head])
    count: dict[str, int] = {}
    for i, _ in out:
        s = sessions.get(i) or f"#{i}"
        count[s] = count.get(s, 0) + 1
    deferred = []
    for i, score in scored[head:]:
        s = sessions.get(i) or f"#{i}"
        if len(out) < depth and count.get(s, 0) >= per_session:
            deferred.append((i, score))
            continue
        count[s] = count.get(s, 0) + 1
        out.append((i, score))
    # Past ``depth`` (or when too few other sessions filled it) the rest keep their order.
    where = {i: n for n, (i, _) in enumerate(scored)}
    first = out[: max(depth, head)]
    return first + sorted([*deferred, *out[len(first):]], key=lambda p: where[p[0]])


_AUX = "is|was|are|were|does|did|do|has|have|had|this|kind|type|sort|its|his"
_LIST_QUESTION = re.compile(
    r"^\s*(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?:[\w+-]+\s+)?"
    rf"(?!(?:{_AUX})\b)(?:\w+[^s\W]s|\w+ies)\b|^\s*how\s+many\b|\b(?:some|both|all\s+the)\b",
    re.IGNORECASE,
)
#: SESSION_DECAY for questions that ask for several things ("what books has she read?",
#: "how many times..."): their answers are spread over sessions, so a session's later hits
#: give way to other sessions' best ones. 1.0 turns it off.
LIST_SESSION_DECAY = 0.8


def asks_for_a_list(query: str) -> bool:
    """Whether ``query`` asks for several things: "what <plural noun>", "how many", "some", "both"."""
    return _LIST_QUESTION.search(query) is not None
