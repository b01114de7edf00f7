"""Secrets scrubbed from what leaves the machine for an external recall provider.

A conversation holds secrets by accident: a pasted ``.env``, a ``curl`` with a token, a database
URL with its password, "the wifi password is ...". silcrow's own stores keep what the user wrote,
but every string handed to an *external* provider (turns, notes mirrored to recall, queries, tool
arguments, the messages given at session end or before a compression) is scrubbed first: each
secret found is replaced by ``[REDACTED:<kind>]``, so the service never holds it.

What is found, and why each rule is as it is, is in :mod:`silcrow.safety._secret_rules` (known
formats: detect-secrets' detectors and silcrow's own; the shapes around a secret) and
:mod:`silcrow.safety._secret_words` (secrets said in words, bare random strings), documented in
docs/memory-hygiene.md. Ordinary technical text (commit hashes, UUIDs, digests, ticket numbers,
base64 of words, sentences about keys and passwords) passes unchanged: ``bench/redaction.py``
measures both sides and the cost.

Redaction is idempotent: a ``[REDACTED:…]`` placeholder is never redacted again, so each layer
that hands text on (the manager, a provider's own entry points, its outbox) may apply it.
"""

from __future__ import annotations

import bisect
import re
import threading
from typing import Any

from silcrow.safety import _secret_words as words
from silcrow.safety._secret_rules import PRIVATE_KEYS, SHAPES, TOKENS, Rule, detect_secrets_rules

__all__ = ["redact_secrets", "redact_value", "secret_rules"]  # and SECRET_PATTERNS, built on first use

_PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9-]{1,40}\]")
_TRIM = " \t\r\n=:\"'"

# Secrets said in words and bare random strings: judged by code, not by a pattern alone.
_SAID = tuple(Rule(kind, pattern, hints) for kind, pattern, hints in (
    ("password", words.SAID, ("pass", "pin", "code", "combination", "phrase", "words", "key", "token",
                              "contras", "mot de", "passw", "kennw", "senha", "wachtw")),
    ("password", words.SAID_USE, ("pass", "pin", "token", "key")),
    ("password", words.SAID_SET, ("pass", "pin")),
))
_RANDOM = Rule("high-entropy", words.RANDOM, accept=words.random_token)

_lock = threading.Lock()
_rules: tuple[Rule, ...] | None = None


def secret_rules() -> tuple[Rule, ...]:
    """Every rule, in the order they are tried (built on first use: see ``detect_secrets_rules``)."""
    global _rules
    if _rules is None:
        with _lock:
            if _rules is None:
                _rules = PRIVATE_KEYS + TOKENS + detect_secrets_rules() + SHAPES + _SAID + (_RANDOM,)
    return _rules


def __regexes__() -> list[re.Pattern[str]]:
    """Every pattern run on untrusted text, for tests/test_regex_linear.py."""
    return [rule.pattern for rule in secret_rules()]


def __getattr__(name: str) -> Any:
    if name == "SECRET_PATTERNS":  # (kind, pattern) pairs; built lazily, like the rules
        return tuple((rule.kind, rule.pattern) for rule in secret_rules())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _span(rule: Rule, found: re.Match[str]) -> tuple[int, int] | None:
    """The characters of ``found`` that are the secret, or None when the rule's check refuses it."""
    if rule.pattern in (words.SAID, words.SAID_USE, words.SAID_SET):
        return words.said_span(found)
    if rule.accept is not None and not rule.accept(found):
        return None
    groups = found.re.groupindex
    if "secret" in groups and found.group("secret") is not None:
        return found.span("secret")
    if "value" in groups and found.group("value") is not None:
        start, end = found.span("value")
        text = found.string
        if end - start >= 2 and text[start] == text[end - 1] and text[start] in "\"'`":
            start, end = start + 1, end - 1  # a quoted value: the quotes stay, what is inside goes
        return start, end
    if found.re.groups and found.group(1) is not None and len(found.group(1)) >= 16:
        return found.span(1)  # a detector whose group is the token itself
    start, end = found.span()
    text = found.string
    while start < end and text[start] in _TRIM:  # some detectors match the delimiters around a token
        start += 1
    while end > start and text[end - 1] in _TRIM:
        end -= 1
    return (start, end) if end > start else None


def _find(text: str) -> list[tuple[int, int, str]]:
    """Non-overlapping ``(start, end, kind)`` secret spans of ``text``, in order: overlapping finds
    are merged into one span of the earliest rule's kind; a find that overlaps a placeholder
    already there is dropped (that value is gone already). Sorting and one sweep keep this
    linear in the number of finds."""
    lowered = text.lower()
    guarded = [(m.start(), m.end()) for m in _PLACEHOLDER.finditer(text)]
    found_spans: list[tuple[int, int, int, str]] = []  # start, end, rule order, kind
    for order, rule in enumerate(secret_rules()):
        if rule.hints and not any(hint in lowered for hint in rule.hints):
            continue
        if rule.also and not any(needed in text for needed in rule.also):
            continue
        for found in rule.pattern.finditer(text):
            span = _span(rule, found)
            if span is not None and span[0] < span[1] and not _overlaps(guarded, *span):
                found_spans.append((span[0], span[1], order, rule.kind))
    merged: list[tuple[int, int, str]] = []
    best = -1
    for start, end, order, kind in sorted(found_spans):
        if merged and start < merged[-1][1]:
            last_start, last_end, last_kind = merged[-1]
            if order < best:
                last_kind, best = kind, order
            merged[-1] = (last_start, max(last_end, end), last_kind)
        else:
            merged.append((start, end, kind))
            best = order
    return merged


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether [start, end) overlaps one of ``spans`` (sorted, not overlapping each other)."""
    at = bisect.bisect_left(spans, (end, end))  # spans that start before ``end``...
    return at > 0 and spans[at - 1][1] > start  # ...the last of which may reach past ``start``


def redact_secrets(text: str) -> str:
    """``text`` with every secret found replaced by ``[REDACTED:<kind>]``."""
    if not text:
        return text
    spans = _find(text)
    if not spans:
        return text
    out: list[str] = []
    last = 0
    for start, end, kind in spans:
        out.append(text[last:start])
        out.append(f"[REDACTED:{kind}]")
        last = end
    out.append(text[last:])
    return "".join(out)


def redact_value(value: Any) -> Any:
    """Every string in ``value`` (nested lists, tuples and dicts, keys kept) redacted."""
    if isinstance(value, str):
        return redact_secrets(value)
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(redact_value(v) for v in value)
    if isinstance(value, dict):
        return {k: redact_value(v) for k, v in value.items()}
    return value
