"""Prompt-injection attacks (and benign texts with the same surface) that silcrow's note scanner
is measured on, written for silcrow: goal hijacking, prompt leaking, instructions buried in
documents and tool output, exfiltration, encoded or obfuscated instructions, and agent hijacks.

    python scripts/injection_attacks.py      # writes the three files below

Two sources make up the rows:

* hand-written texts (``injection_texts_attacks.py`` and ``injection_texts_benign.py``), each
  its own group, or a small group of one scenario;
* texts composed here from pools of tasks, delimiters, override wordings, rogue outputs,
  carriers, buried goals, encoding frames and payloads. Every pool is cut into three disjoint
  parts (train / calibrate / eval) and a composed text takes all its parts from the pools of
  its own split, so no split shares a template, carrier or payload idea with another.

Groups are assigned to splits per family (about 50 / 20 / 30 of the groups) by a stable hash,
so the files come out the same on every run. Files written:
``scripts/data/injection_attacks_train.jsonl``, ``scripts/data/injection_attacks_calibration.jsonl``
and ``bench/data/safety_injection_attacks.jsonl`` (the evaluation rows).

Everything here was written for silcrow; nothing is copied from any collection.
"""

from __future__ import annotations

import base64
import hashlib
import random
import urllib.parse
from pathlib import Path

from framed_attacks import encode
from injection_pools import (
    BENIGN_B64,
    CARRIERS,
    DELIMS,
    DOC_SHELLS,
    ENC_FRAMES,
    ENC_PAYLOADS,
    EXFIL,
    EXFIL_DATA,
    FILLER,
    GOALS,
    OVERRIDES,
    ROGUE,
    SUMMARY_TASKS,
    TASKS,
    TOOL_HIJACKS,
)
from injection_texts_attacks import HAND_ATTACKS
from injection_texts_benign import HAND_BENIGN
from own_sets import SPLITS, make_row, tenths, write

ROOT = Path(__file__).resolve().parent.parent
OUT = {
    "train": ROOT / "scripts" / "data" / "injection_attacks_train.jsonl",
    "calibrate": ROOT / "scripts" / "data" / "injection_attacks_calibration.jsonl",
    "eval": ROOT / "bench" / "data" / "safety_injection_attacks.jsonl",
}


def _h(text: str) -> int:
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:12], 16)




# -- obfuscations the pools' payloads are written in ------------------------------------------

_MORSE = dict(zip("abcdefghijklmnopqrstuvwxyz0123456789", (
    ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- .-- -..- "
    "-.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----.").split(), strict=True))
_NATO = dict(zip("abcdefghijklmnopqrstuvwxyz", (
    "Alfa Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike November Oscar "
    "Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey Xray Yankee Zulu").split(), strict=True))
_LEET = str.maketrans({"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"})
_GLYPH = str.maketrans({"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "i": "і", "x": "х"})


def obfuscate(text: str, kind: str) -> str:
    if kind in ("base64", "ROT13", "reversed text", "hex"):
        return encode(text, kind)
    if kind == "base32":
        return base64.b32encode(text.encode("utf-8")).decode("ascii")
    if kind == "Morse code":
        return " / ".join(" ".join(_MORSE[c] for c in w if c in _MORSE) for w in text.lower().split())
    if kind == "the NATO alphabet":
        return " / ".join(" ".join(_NATO[c] for c in w if c in _NATO) for w in text.lower().split())
    if kind == "leetspeak":
        return text.lower().translate(_LEET)
    if kind == "spaced letters":
        return "  ".join(" ".join(w) for w in text.split())
    if kind == "dotted letters":
        return ".".join(text.replace(" ", "_"))
    if kind == "URL encoding":
        return urllib.parse.quote(text, safe="")
    if kind == "homoglyphs":
        return text.translate(_GLYPH)
    if kind == "tag characters":
        return "".join(chr(0xE0000 + ord(c)) for c in text if ord(c) < 128)
    if kind == "pig latin":
        def pig(w: str) -> str:
            for i, c in enumerate(w):
                if c in "aeiou":
                    return w[i:] + w[:i] + ("way" if i == 0 else "ay")
            return w + "ay"
        return " ".join(pig(w) for w in text.lower().split())
    if kind == "split variables":
        words = text.split()
        parts = [" ".join(words[i:i + 3]) for i in range(0, len(words), 3)]
        names = "abcdefghij"[: len(parts)]
        defs = "; ".join(f"{n} = '{p}'" for n, p in zip(names, parts, strict=True))
        return f"{defs}. Now let z = {' + '.join(names)}"
    if kind == "spelled out":
        return ", ".join(c.upper() if c != " " else "(space)" for c in text)
    raise ValueError(kind)


KINDS = ("base64", "ROT13", "reversed text", "hex", "base32", "leetspeak", "URL encoding", "homoglyphs",
         "tag characters", "pig latin", "split variables")
#: Encodings that write a text one letter at a time: any two such texts share most of their
#: "words" (the letters), so each split gets its own.
LETTER_KINDS = {"train": ("spaced letters", "dotted letters", "spelled out"), "calibrate": ("Morse code",),
                "eval": ("the NATO alphabet",)}


# -- composed rows ---------------------------------------------------------------------------



def composed(split: str) -> list[dict[str, str]]:
    rng = random.Random(f"injection-{split}")
    out: list[dict[str, str]] = []
    tasks, delims, rogue = tenths(TASKS, split), tenths(DELIMS, split), tenths(ROGUE, split)
    filler = tenths(FILLER, split)
    for override in tenths(OVERRIDES, split):
        gid = f"hijack-override-{_h(override) % 10**6}"
        for j in range(3):
            task, delim, out_text = rng.choice(tasks), rng.choice(delims), rng.choice(rogue)
            if j == 2 or (j == 1 and rng.random() < 0.85):
                lead = ("Summarize the following text in two sentences:" if j == 2
                        else "Pull out every date and number in this text:")
                task = lead + "\n\n" + "\n\n".join(rng.sample(filler, k=rng.randint(2, 4)))
            text = f"{task}{delim.format(o=override.format(x=out_text))}"
            if rng.random() < 0.15:
                text = text.upper()
            out.append(make_row(text, "attack", "goal_hijack", gid, split))
    goals, shells = tenths(GOALS, split), tenths(DOC_SHELLS, split)

    def pad(text: str, n: int) -> str:
        paragraphs = rng.sample(filler, k=min(n, len(filler)))
        at = rng.randint(0, len(paragraphs))
        return "\n\n".join([*paragraphs[:at], text, *paragraphs[at:]])

    for kind, carrier in tenths(CARRIERS, split):
        gid = f"indirect-{kind}-{_h(carrier) % 10**6}"
        for j, goal in enumerate(rng.sample(goals, k=min(3, len(goals)))):
            text = carrier.format(g=goal)
            # Short as found, padded by a paragraph or two, or deep inside a long document.
            n = (0, rng.randint(2, 3), rng.randint(4, 8))[j]
            out.append(make_row(pad(text, n) if n else text, "attack", "indirect", gid, split))
    data = tenths(EXFIL_DATA, split)
    for template in tenths(EXFIL, split):
        gid = f"exfil-template-{_h(template) % 10**6}"
        for j in range(2):
            what, param = rng.choice(data)
            text = template.format(d=what, p=param)
            out.append(make_row(pad(text, 3) if j else text, "attack", "exfiltration", gid, split))
    payloads = tenths(ENC_PAYLOADS, split)
    for frame in tenths(ENC_FRAMES, split):
        gid = f"encoding-frame-{_h(frame) % 10**6}"
        for kind in rng.sample(KINDS + LETTER_KINDS[split], k=4):
            text = frame.format(e=kind, c=obfuscate(rng.choice(payloads), kind))
            out.append(make_row(text, "attack", "encoding", gid, split))
    for template in tenths(TOOL_HIJACKS, split):
        gid = f"tool-template-{_h(template) % 10**6}"
        for j, goal in enumerate(rng.sample(goals, k=min(2, len(goals)))):
            text = template.format(g=goal)
            # A tool that returns a whole page: the instruction sits among ordinary paragraphs.
            out.append(make_row(pad(text, 3) if j else text, "attack", "tool_hijack", gid, split))
    # Benign twins of the surface: the same tasks with texts that only mention instructions,
    # and base64 of ordinary data.
    for shell in shells:
        for n in (3, 5, 7):
            body = "\n\n".join(rng.sample(filler, k=min(n, len(filler))))
            out.append(make_row(shell.format(body=body), "benign", "benign_document",
                            f"benign-doc-{_h(shell) % 10**6}", split))
    for task in tenths(SUMMARY_TASKS, split):
        out.append(make_row(task, "benign", "benign_task", f"benign-task-{_h(task) % 10**6}", split))
    for name, payload in tenths(BENIGN_B64, split):
        b64 = base64.b64encode(payload.encode("utf-8")).decode("ascii")
        text = name.format(b=b64)
        out.append(make_row(text, "benign", "benign_encoded", f"benign-b64-{_h(name) % 10**6}", split))
    return out


def hand_rows() -> list[dict[str, str]]:
    """The hand-written texts, each group in the split a stable hash of its name draws (50 / 20 / 30):
    a text added later never moves another group."""
    out: list[dict[str, str]] = []
    for label, items in (("attack", HAND_ATTACKS), ("benign", HAND_BENIGN)):
        for family, group, text in items:
            draw = _h(group) % 10
            split = "train" if draw < 5 else "calibrate" if draw < 7 else "eval"
            out.append(make_row(text.strip("\n"), label, family, group, split))
    return out


def rows() -> dict[str, list[dict[str, str]]]:
    every = hand_rows() + [r for split in SPLITS for r in composed(split)]
    seen: set[str] = set()
    out: dict[str, list[dict[str, str]]] = {s: [] for s in SPLITS}
    for row in every:
        if row["text"] not in seen:
            seen.add(row["text"])
            out[row["split"]].append(row)
    return out




def main() -> None:
    for split, items in rows().items():
        write(OUT[split], items)
        attacks = sum(r["label"] == "attack" for r in items)
        print(f"{OUT[split].relative_to(ROOT)}: {attacks} attacks, {len(items) - attacks} benign")


if __name__ == "__main__":
    main()
