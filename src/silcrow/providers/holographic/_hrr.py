"""Holographic reduced representations (Plate, 1995) over real vectors.

A concept is a deterministic pseudo-random vector (an *atom*) derived from
its name with SHA-256, so every process and machine builds the same one.

* ``bind(a, b)``: circular convolution, computed with the FFT. The result
  resembles neither input and stores the pair.
* ``unbind(m, key)``: circular correlation, the inverse of ``bind`` for
  unitary keys: ``unbind(bind(a, k), k) == a`` exactly for one pair, and
  approximately (plus superposition noise) inside a bundle.
* ``bundle(*vs)``: normalised sum; the result stays similar to each input.
* ``similarity``: cosine.

Atoms are *unitary* (every Fourier coefficient has modulus 1), which makes
correlation an exact inverse of convolution and keeps norms stable; noise
between unrelated atoms is about ``1/sqrt(dim)`` (0.03 at 1024).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np

ROLE_CONTENT = "__role:content__"
ROLE_ENTITY = "__role:entity__"
EMPTY = "__empty__"
_PUNCT = ".,!?;:\"'()[]{}<>#@*`"


@lru_cache(maxsize=8192)
def _atom(name: str, dim: int) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha256(f"silcrow-hrr:{name}".encode()).digest()[:8], "little")
    phases = np.random.default_rng(seed).uniform(-np.pi, np.pi, dim // 2 + 1)
    spectrum = np.exp(1j * phases)
    spectrum[0] = 1.0  # the DC and Nyquist terms of a real signal are real
    if dim % 2 == 0:
        spectrum[-1] = 1.0
    vec = np.fft.irfft(spectrum, n=dim) * np.sqrt(dim)  # unit-variance entries: norm sqrt(dim)
    vec.flags.writeable = False
    return vec


def atom(name: str, dim: int) -> np.ndarray:
    """The unitary vector of ``name`` (read-only, cached)."""
    return _atom(name, dim)


def bind(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.fft.irfft(np.fft.rfft(a) * np.fft.rfft(b), n=a.shape[-1])


def unbind(memory: np.ndarray, key: np.ndarray) -> np.ndarray:
    return np.fft.irfft(np.fft.rfft(memory) * np.conj(np.fft.rfft(key)), n=memory.shape[-1])


def bundle(*vectors: np.ndarray) -> np.ndarray:
    total = np.sum(vectors, axis=0)
    norm = float(np.linalg.norm(total))
    return total * (np.sqrt(total.shape[-1]) / norm) if norm > 0 else total


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    denom = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b)) / denom if denom > 0 else 0.0


def tokens(text: str) -> list[str]:
    """Lower-cased words with surrounding punctuation removed (the same rule everywhere)."""
    out = (word.strip(_PUNCT) for word in text.lower().split())
    return [w for w in out if w]


def encode_text(text: str, dim: int) -> np.ndarray:
    """Bag of words: the bundle of each distinct word's atom."""
    words = list(dict.fromkeys(tokens(text)))
    return bundle(*(atom(w, dim) for w in words)) if words else atom(EMPTY, dim).copy()


def encode_fact(content: str, entities: list[str], dim: int) -> np.ndarray:
    """content (x) CONTENT-role + sum of entity (x) ENTITY-role, bundled.

    So ``unbind(fact, atom(ROLE_ENTITY))`` is close to the bundle of the fact's
    entities and ``unbind(fact, atom(ROLE_CONTENT))`` to its words.
    """
    parts = [bind(encode_text(content, dim), atom(ROLE_CONTENT, dim))]
    parts += [bind(atom(e.lower(), dim), atom(ROLE_ENTITY, dim)) for e in dict.fromkeys(entities)]
    return bundle(*parts)


def to_bytes(vec: np.ndarray) -> bytes:
    return np.asarray(vec, dtype=np.float32).tobytes()


def from_bytes(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype=np.float32).astype(np.float64)
