"""Long-turn conversations for ingest benchmarks, made here from text every Python ships.

Provenance: the assistant answers are passages of the Python Language Reference
and Library Reference help topics that CPython installs as
``pydoc_data/topics.py`` (the text ``help("with")`` prints; Python Software
Foundation, PSF License). Nothing is downloaded, and no benchmark data set of
conversations (LongMemEval or any other) is used. Each conversation is a run of
pairs: a short user question naming a topic ("Can you explain the with
statement? I keep getting it wrong in my scripts.") and an assistant answer of
200-800 words taken from that topic's text, at a different offset for each
answer, so no two answers are the same text (an embedder embeds a repeated
text once, which would flatter the rate).
"""

from __future__ import annotations

import pydoc_data.topics
import random
from datetime import UTC, datetime, timedelta

from silcrow.recall.local import RecallRecord

SOURCE = "CPython's pydoc_data/topics.py (Python Language and Library Reference help topics, PSF License)"
_ASKS = (
    "Can you explain {}? I keep getting it wrong in my scripts.",
    "What exactly does Python do with {}?",
    "I'm reviewing a colleague's code: how does {} work again?",
    "Quick question about {} before my interview tomorrow.",
    "My tests fail around {}. What are the rules?",
)


def _prose(text: str) -> list[str]:
    """The words of a help topic without its reST furniture (``*****`` and ``====`` rules)."""
    return [word for word in text.split() if any(c.isalnum() for c in word) and len(word) < 40]


def _words() -> list[tuple[str, list[str]]]:
    topics = {name: _prose(text) for name, text in pydoc_data.topics.topics.items()}
    return [(name.replace("-", " "), words) for name, words in sorted(topics.items()) if len(words) >= 200]


def long_conversation(pairs: int, *, seed: int = 7, session_pairs: int = 10) -> list[RecallRecord]:
    """``pairs`` user/assistant exchanges (assistant answers of 200-800 words), ``session_pairs``
    to a session, a day apart, as an imported history would hold them."""
    rng = random.Random(seed)
    topics = _words()
    start = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    records: list[RecallRecord] = []
    for n in range(pairs):
        name, words = topics[n % len(topics)]
        size = min(len(words), rng.randint(200, 800))
        offset = rng.randint(0, len(words) - size)
        answer = " ".join(words[offset : offset + size])
        session = f"long/{n // session_pairs}"
        when = start + timedelta(days=n // session_pairs, minutes=2 * (n % session_pairs))
        question = rng.choice(_ASKS).format(f"the {name} topic")
        records.append(RecallRecord(text=question, session_id=session, speaker="user", timestamp=when,
                                    external_id=f"L{n}u"))
        records.append(RecallRecord(text=answer, session_id=session, speaker="assistant",
                                    timestamp=when + timedelta(seconds=30), external_id=f"L{n}a"))
    return records
