"""Secrets scrubbed from what leaves the machine for an external recall provider.

A conversation holds secrets by accident: a pasted ``.env``, a ``curl`` with a token, a
database URL with its password. silcrow's own stores keep what the user wrote, but every
string handed to an *external* provider (turns, notes mirrored to recall, queries, tool
arguments, the messages given at session end) is scrubbed first: each match below is
replaced by ``[REDACTED:<kind>]``, so the service never holds the secret.

The patterns (documented in docs/memory-hygiene.md; each has a test):

* provider API keys: OpenAI/Anthropic-style ``sk-…``, AWS access key ids ``AKIA…``/``ASIA…``,
  GitHub tokens ``ghp_…``/``gho_…``/``ghs_…``/``ghu_…``/``ghr_…`` and ``github_pat_…``,
  GitLab ``glpat-…``, Slack ``xox?-…``, Google ``AIza…``, Stripe ``sk_live_…``/``rk_live_…``,
  Hugging Face ``hf_…``, npm ``npm_…``, silcrow's own ``slc_…`` tokens;
* JSON Web Tokens (three base64url parts starting ``eyJ``);
* PEM private key blocks (``-----BEGIN … PRIVATE KEY-----`` to its ``END`` line);
* passwords in URLs (``scheme://user:password@host``: the password only);
* ``Authorization: Bearer …`` / ``Basic …`` header values;
* assignments to secret-looking names (``api_key=…``, ``"password": "…"``,
  ``AWS_SECRET_ACCESS_KEY=…``, ``token: …``): the value only, when it is 8+ characters.

Every pattern is linear-time (no nested quantifiers), like the threat patterns.
"""

from __future__ import annotations

import re
from typing import Any

_NAMED = "(?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?key|client[_-]?secret|auth[_-]?token|" \
         "access[_-]?token|refresh[_-]?token|token|password|passwd|pwd|private[_-]?key)"

#: (kind, pattern); a pattern with a group named ``secret`` replaces only that group.
SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("private-key", re.compile(
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]{0,20000}?"
        r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----")),
    ("private-key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[A-Za-z0-9+/=\s]{16,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("api-key", re.compile(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}")),
    ("aws-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("google-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("stripe-key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("huggingface-token", re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}")),
    ("silcrow-token", re.compile(r"\bslc_[A-Za-z0-9]{4,}_[A-Za-z0-9_-]{16,}")),
    # The password runs to the last "@" before the host: an unencoded "@" in it is still its own.
    ("url-password", re.compile(
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,200}:(?P<secret>[^\s/]{1,200})@(?=[^\s@/])")),
    ("auth-header", re.compile(r"(?i)\b(?:bearer|basic)\s+(?P<secret>[A-Za-z0-9._~+/=-]{16,})")),
    ("assignment", re.compile(
        rf"(?i)\b[A-Z0-9_]{{0,40}}{_NAMED}[\"']?\s{{0,3}}[:=]\s{{0,3}}[\"']?(?P<secret>[^\s\"',;]{{8,}})")),
)


def _replace(kind: str) -> Any:
    def replace(found: re.Match[str]) -> str:
        if "[REDACTED:" in found.group(0):  # an earlier pattern took this value already
            return found.group(0)
        if "secret" in found.re.groupindex and found.group("secret") is not None:
            start, end = found.span("secret")
            whole_start = found.start()
            text = found.group(0)
            return text[: start - whole_start] + f"[REDACTED:{kind}]" + text[end - whole_start:]
        return f"[REDACTED:{kind}]"

    return replace


def redact_secrets(text: str) -> str:
    """``text`` with every secret :data:`SECRET_PATTERNS` finds replaced by ``[REDACTED:kind]``."""
    if not text:
        return text
    for kind, pattern in SECRET_PATTERNS:
        text = pattern.sub(_replace(kind), text)
    return text


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
