"""Threat scanning for text that enters a prompt (PLACEHOLDER: being replaced).

Interface (a contract inside silcrow):
    scan(text) -> list[ThreatHit]      empty list means clean
    display_safe(text) -> str          a form safe to echo back in errors
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ThreatHit:
    pattern_id: str
    category: str
    description: str


def scan(text: str) -> list[ThreatHit]:
    return []


def display_safe(text: str) -> str:
    return text
