"""Instruction-type attacks in the framings a pattern scan lets slip, and benign look-alikes in
the same framings, written for silcrow (DATASPEC.md).

The attacks ask the agent to override its instructions, leak its system prompt, drop its rules,
obey someone else, hide things from the user, send data away or run commands, dressed as
fiction and screenplays, hypotheticals, a dead relative's bedtime ritual, games, opposite day,
research / red-team / compliance pretexts, simulated terminals and other AIs, dual responses,
points and threats, developer or maintenance modes, translation carriers, completion tricks,
past- and future-tense rewordings, poems and songs, and "continue where the last assistant
stopped"; as one-liners, as medium requests, and as long set-ups (800 to 2,500 characters); in
casual, formal and markdown voice; and in eleven other languages. The benign side asks for real
stories with AI characters, tabletop sessions, language-tutoring role-plays, hypothetical
questions, party-game rules, plain notes about jailbreak research, terminal tutorials,
translations, debug-mode docs for the user's own app and the like, in the same voices and
languages.

    python scripts/framing_attacks.py        # writes the three files below

Every pool (templates, payloads, names, sections, topics) is cut by position into train
(about 50%), calibrate (20%) and eval (30%), and a text is composed only from parts of its
own split; ``group`` names the template or opening a text is built on.

* ``scripts/data/framing_attacks_train.jsonl`` (train),
* ``scripts/data/framing_attacks_calibration.jsonl`` (calibrate),
* ``bench/data/safety_framing_attacks.jsonl`` (eval; bench/safety.py reads it).

Deterministic: the same parts give the same files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import framing_attack_parts as A
import framing_benign_parts as B
import framing_foreign_parts as F
from own_sets import SPLITS, make_row, pools, third, write

ROOT = Path(__file__).resolve().parent.parent
FILES = {
    "train": ROOT / "scripts" / "data" / "framing_attacks_train.jsonl",
    "calibrate": ROOT / "scripts" / "data" / "framing_attacks_calibration.jsonl",
    "eval": ROOT / "bench" / "data" / "safety_framing_attacks.jsonl",
}
PER_MEDIUM = 4
PER_SHORT = 3
PER_LONG_INTRO = 6
#: Long set-ups built on each medium template (its opener, then sections, then the ask).
PER_LONG_MEDIUM = 2
PER_FOREIGN = 2
PER_BENIGN = 5
PER_LONG_BENIGN = 11
SIGNERS = ["M. Novak", "Dr. R. Okafor", "J. Lindqvist", "Priya S.", "the Operations Desk", "A. Ferreira"]


PAYLOADS = {goal: pools(texts) for goal, texts in A.PAYLOADS.items()}
NAMES = pools(A.NAMES)
RELATIVES = pools(A.RELATIVES)
SECTIONS = pools(A.SECTIONS)
CLOSINGS = pools(A.CLOSINGS)


def _row(text: str, label: str, family: str, group: str, split: str, lang: str = "en") -> dict[str, str]:
    return make_row(text, label, family, group, split, lang)


def _typos(text: str, rng: random.Random) -> str:
    """A few swapped neighbouring letters, as someone typing fast on a phone; only inside plain
    words, so addresses, paths and commands stay as written."""
    tokens = text.split(" ")
    plain = [i for i, t in enumerate(tokens) if len(t) > 3 and t.isalpha()]
    for i in rng.sample(plain, min(len(plain), max(1, len(text) // 70))):
        word = tokens[i]
        j = rng.randrange(len(word) - 1)
        tokens[i] = word[:j] + word[j + 1] + word[j] + word[j + 2:]
    return " ".join(tokens)


def casual(text: str, rng: random.Random) -> str:
    """Chat voice: lower case, shortened words, a filler at the start or end, a few typos."""
    out = text.lower()
    for a, b in ((" you ", " u "), ("please", "pls"), (" your ", " ur "), (" are ", " r "),
                 ("because", "bc"), ("okay", "ok")):
        if rng.random() < 0.6:
            out = out.replace(a, b)
    out = rng.choice(["", "ok so ", "hey ", "yo ", "lol ", "hiii ", "quick one: "]) + out
    out = out.rstrip(".") + rng.choice(["", " thx", " 🙏", " lol", "!!", " ty", " :)"])
    return _typos(out, rng)


def formal(text: str, rng: random.Random) -> str:
    opening = rng.choice(["Dear Assistant,", "Good afternoon,", "To whom it may concern,", "Hello,"])
    middle = rng.choice(["I would be grateful if you could attend to the following request.",
                         "Please find my request below.", "I am writing with a request.", ""])
    closing = rng.choice(["Kind regards,", "With thanks in advance,", "Yours sincerely,", "Best regards,"])
    head = f"{opening}\n\n{middle}\n\n" if middle else f"{opening}\n\n"
    return f"{head}{text}\n\n{closing}\n{rng.choice(SIGNERS)}"


def markdown(text: str, rng: random.Random) -> str:
    sentences = [s.strip() for s in text.replace("\n", " ").split(". ") if s.strip()]
    style = rng.randrange(3)
    if style == 0 and len(sentences) > 1:
        title = rng.choice(["## Task", "### Request", "# Prompt", "## Brief"])
        return title + "\n\n" + "\n".join(f"- {s.rstrip('.')}." for s in sentences)
    if style == 1:
        return f"**{rng.choice(['Instructions', 'Context', 'Setup', 'Note'])}:** {text}"
    return f"> {text}\n\n_{rng.choice(['thanks!', 'see above', 'details in thread', 'v2'])}_"


def surface(text: str, rng: random.Random, long: bool = False) -> str:
    """The voice a text is written in: plain mostly, else casual, formal or markdown."""
    roll = rng.random()
    if roll < 0.45:
        return text
    if roll < 0.65 and not long:
        return casual(text, rng)
    if roll < 0.8:
        return formal(text, rng)
    return markdown(text, rng)


def _payload(rng: random.Random, split: str, goals: list[str]) -> str:
    return rng.choice(PAYLOADS[rng.choice(goals)][split])


def _fill(template: str, rng: random.Random, split: str, goal: str) -> str:
    return template.format(p=rng.choice(PAYLOADS[goal][split]), n=rng.choice(NAMES[split]),
                           r=rng.choice(RELATIVES[split]))


def _long(opener: str, rng: random.Random, split: str, goal: str) -> str:
    """An opener, sections of the same split, and a closing that asks, 800 to 2,500 characters."""
    sections = SECTIONS[split][:]
    rng.shuffle(sections)
    parts = [opener]
    while len("\n\n".join(parts)) < rng.randint(700, 2_000) and sections:
        parts.append(sections.pop())
    parts.append(rng.choice(CLOSINGS[split]))
    while len("\n\n".join(parts)) > 2_400 and len(parts) > 2:
        del parts[-2]
    values = {"p": rng.choice(PAYLOADS[goal][split]), "n": rng.choice(NAMES[split]),
              "r": rng.choice(RELATIVES[split])}
    return "\n\n".join(p.format(**values) for p in parts)


def medium_attacks() -> list[dict[str, str]]:
    out = []
    goals = list(PAYLOADS)
    for family, templates in A.MEDIUM.items():
        for i, template in enumerate(templates):
            split = third(i, len(templates))
            rng = random.Random(f"medium/{family}/{i}")
            group = f"{family}/medium{i}"
            seen: set[str] = set()
            order = rng.sample(goals, len(goals))
            for k in range(PER_MEDIUM * 3):
                base = _fill(template, rng, split, order[k % len(order)])
                if base in seen and "{p}" in template:
                    continue
                seen.add(base)
                out.append(_row(surface(base, rng), "attack", family, group, split))
                if len(seen) >= PER_MEDIUM or ("{p}" not in template and k >= 1):
                    break
            for k in range(PER_LONG_MEDIUM if "{p}" in template else 0):
                goal = order[(k + 3) % len(order)]
                opener = _fill(template, rng, split, goal).replace("{", "{{").replace("}", "}}")
                text = _long(opener, rng, split, goal)
                out.append(_row(surface(text, rng, long=True), "attack", family, group, split))
    return out


def short_attacks() -> list[dict[str, str]]:
    out = []
    goals = list(PAYLOADS)
    for family, templates in A.SHORT.items():
        for i, template in enumerate(templates):
            split = third(i, len(templates))
            rng = random.Random(f"short/{family}/{i}")
            seen: set[str] = set()
            for k in range(PER_SHORT * 3):
                text = _fill(template, rng, split, goals[(k + i) % len(goals)])
                if rng.random() < 0.35:
                    text = casual(text, rng)
                if text in seen:
                    continue
                seen.add(text)
                out.append(_row(text, "attack", family, f"{family}/short{i}", split))
                if len(seen) == PER_SHORT or ("{p}" not in template and len(seen) == 2):
                    break
    return out


def long_attacks() -> list[dict[str, str]]:
    """The long set-ups: an opening paragraph, sections, then the ask. The openings of every
    family are cut in thirds together (shuffled once), so each split gets long texts of
    several families."""
    flat = [(family, j, intro) for family, intros in A.LONG_INTROS.items() for j, intro in enumerate(intros)]
    random.Random("long-intros").shuffle(flat)
    out = []
    goals = list(PAYLOADS)
    for i, (family, j, intro) in enumerate(flat):
        split = third(i, len(flat))
        rng = random.Random(f"long/{family}/{j}")
        for k in range(PER_LONG_INTRO):
            text = _long(intro, rng, split, goals[(k + i) % len(goals)])
            out.append(_row(surface(text, rng, long=True), "attack", family, f"{family}/long{j}", split))
    return out


def _foreign(table: dict[str, tuple[list[str], list[str]]], label: str, slot: str,
             ) -> list[dict[str, str]]:
    out = []
    for lang, (templates, fillers) in table.items():
        filled = pools(fillers)
        for i, template in enumerate(templates):
            split = third(i, len(templates))
            rng = random.Random(f"{label}/{lang}/{i}")
            pool = filled[split]
            if label == "benign":
                # Benign topics are written for one template each: the k-th for template k, the
                # fifth and sixth for templates 0 and 2.
                pool = [t for k, t in enumerate(fillers) if (k if k < 4 else 2 * (k - 4)) == i]
            seen: set[str] = set()
            for k in range(PER_FOREIGN):
                text = template.format(**{slot: pool[k % len(pool)]})
                if k % 3 == 1:
                    text = casual(text, rng)
                elif k % 3 == 2:
                    text = markdown(text, rng)
                if text not in seen:
                    seen.add(text)
                    family = "foreign_language" if label == "attack" else "foreign_benign"
                    out.append(_row(text, label, family, f"{label}/{lang}/{i}", split, lang))
    return out


def foreign_long() -> list[dict[str, str]]:
    """Long set-ups in other languages, each its own group, asking with its language's payloads."""
    out = []
    for i, (lang, family, text) in enumerate(F.LONG):
        split = third(i, len(F.LONG))
        pool = pools(F.ATTACKS[lang][1])[split]
        head, ask = text.rsplit("\n\n", 1)
        text = f"{head}\n\n{F.LONG_MORE[lang]}\n\n{ask}"
        for payload in pool[:2]:
            out.append(_row(text.format(p=payload), "attack", "foreign_language",
                            f"attack/{lang}/long/{family}", split, lang))
    return out


def benign() -> list[dict[str, str]]:
    out = []
    for family, (templates, topics) in B.FAMILIES.items():
        # Five topics of twelve for train, three for calibrate, four for eval, so that with three,
        # one and two templates of six, and five texts a template, the texts split about 50/17/33.
        filled = {"train": topics[:5], "calibrate": topics[5:8], "eval": topics[8:]}
        for i, template in enumerate(templates):
            split = third(i, len(templates))
            rng = random.Random(f"benign/{family}/{i}")
            texts = [template.format(t=topic) for topic in filled[split]]
            # A topic asked twice, in two voices, where the split has fewer than five topics.
            texts += [casual(t, rng) for t in rng.sample(texts, PER_BENIGN - len(texts))]
            for text in texts:
                out.append(_row(surface(text, rng) if text in texts[:len(filled[split])] else text,
                                "benign", family, f"{family}/{i}", split))
    for family, pairs in B.PAIRED.items():
        for i, (template, topics) in enumerate(pairs):
            split = third(i, len(pairs))
            rng = random.Random(f"benign/{family}/{i}")
            for topic in topics:
                out.append(_row(surface(template.format(t=topic), rng), "benign", family,
                                f"{family}/{i}", split))
    sections = pools(B.LONG_SECTIONS)
    closings = pools(B.LONG_CLOSINGS)
    for i, opening in enumerate(B.LONG_OPENINGS):
        split = third(i, len(B.LONG_OPENINGS))
        rng = random.Random(f"benign/long/{i}")
        for _ in range(PER_LONG_BENIGN):
            pool = sections[split][:]
            rng.shuffle(pool)
            parts = [opening]
            while len("\n\n".join(parts)) < rng.randint(700, 1_800) and pool:
                parts.append(pool.pop())
            parts.append(rng.choice(closings[split]))
            out.append(_row(surface("\n\n".join(parts), rng, long=True), "benign", "long_setup",
                            f"long_setup/{i}", split))
    return out + _foreign(F.BENIGN, "benign", "t")


def rows() -> list[dict[str, str]]:
    data = (medium_attacks() + short_attacks() + long_attacks() + _foreign(F.ATTACKS, "attack", "p")
            + foreign_long() + benign())
    seen: set[str] = set()
    out = []
    for r in data:
        if r["text"] not in seen:
            seen.add(r["text"])
            out.append(r)
    return out


def summary(data: list[dict[str, str]]) -> dict[str, Any]:
    counts: dict[str, dict[str, int]] = {}
    for r in data:
        key = f"{r['label']}/{r['family']}"
        counts.setdefault(key, {s: 0 for s in SPLITS})[r["split"]] += 1
    attacks = [r for r in data if r["label"] == "attack"]
    return {"n": len(data), "attacks": len(attacks),
            "attacks_over_800_chars": sum(len(r["text"]) >= 800 for r in attacks),
            "attacks_under_160_chars": sum(len(r["text"]) < 160 for r in attacks),
            "attacks_foreign": sum(r["lang"] != "en" for r in attacks),
            "benign_over_800_chars": sum(len(r["text"]) >= 800 for r in data if r["label"] == "benign"),
            "by_split": {s: {lab: sum(r["split"] == s and r["label"] == lab for r in data)
                             for lab in ("attack", "benign")} for s in SPLITS},
            "by_family": counts}


def main() -> None:
    data = rows()
    for split, path in FILES.items():
        write(path, [r for r in data if r["split"] == split])
    print(json.dumps(summary(data), indent=1))


if __name__ == "__main__":
    main()
