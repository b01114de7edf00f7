"""Persona and jailbreak-style attacks on a memory note, and benign notes in the same surface forms,
written for silcrow (DATASPEC.md): invented "unbound" personas, developer / god / sudo / debug
modes with two answers, evil confidants, simulations, fake authority, emotional and fiction
framings, refusal suppression and prefix injection, and notes that make a persona persist across
sessions. The benign side has support personas, games, fiction requests, phone and IDE developer
modes, debug flags, two-length answers, terminals for learning, token budgets, grandparents'
stories, memory preferences, and security notes *about* jailbreaks (family ``security_doc``:
labelled benign, dual-use -- a reviewer should see them held, never refused).

    python scripts/persona_attacks.py        # writes the three files below

Every pool in scripts/persona_attack_parts.py and scripts/persona_benign_parts.py is cut into
thirds by position (about 50% train, 20% calibrate, 30% eval), and a text is composed only from
parts of its own split: no template, opening paragraph, persona name, payload or section of one
split appears in another. ``group`` names the template, opening or note a text is built on.

* ``scripts/data/persona_attacks_train.jsonl`` (train),
* ``scripts/data/persona_attacks_calibration.jsonl`` (calibrate),
* ``bench/data/safety_persona_attacks.jsonl`` (eval; bench/safety.py reads it).

Deterministic: the same parts give the same files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import persona_attack_long as W
import persona_attack_parts as A
import persona_benign_parts as B
from own_sets import SPLITS, make_row, pools, third, write

ROOT = Path(__file__).resolve().parent.parent
FILES = {
    "train": ROOT / "scripts" / "data" / "persona_attacks_train.jsonl",
    "calibrate": ROOT / "scripts" / "data" / "persona_attacks_calibration.jsonl",
    "eval": ROOT / "bench" / "data" / "safety_persona_attacks.jsonl",
}
#: Texts per long opening paragraph and per short template.
PER_INTRO = 6
PER_SHORT = 4


PERSONAS = pools(A.PERSONAS)
PAYLOADS = pools(A.PAYLOADS)
TOPICS = pools(A.TOPICS)
SECTIONS = {name: pools(getattr(A, name)) for name in ("RULES", "TOKENS", "DUAL", "STAY", "NOWARN", "MEMORY",
                                                       "CLOSINGS", "BACKSTORY", "EXAMPLES")}
#: Which sections each family's long attacks draw on, most typical first.
FAMILY_SECTIONS = {
    "unbound_persona": ["RULES", "BACKSTORY", "TOKENS", "STAY", "EXAMPLES", "DUAL", "NOWARN", "MEMORY"],
    "developer_mode": ["DUAL", "STAY", "EXAMPLES", "NOWARN", "BACKSTORY", "TOKENS", "RULES"],
    "evil_confidant": ["NOWARN", "RULES", "EXAMPLES", "STAY", "BACKSTORY", "DUAL", "TOKENS"],
    "simulation": ["NOWARN", "STAY", "RULES", "BACKSTORY", "EXAMPLES", "TOKENS"],
    "authority": ["NOWARN", "MEMORY", "RULES", "STAY", "DUAL"],
    "fiction_emotional": ["NOWARN", "STAY", "RULES", "BACKSTORY"],
    "memory_persistence": ["MEMORY", "RULES", "BACKSTORY", "STAY", "NOWARN", "TOKENS", "EXAMPLES"],
}


def _row(text: str, label: str, family: str, group: str, split: str, lang: str = "en") -> dict[str, str]:
    return make_row(text, label, family, group, split, lang)


def _fill(template: str, rng: random.Random, split: str) -> str:
    name, desc = rng.choice(PERSONAS[split])
    return template.format(name=name, desc=desc, payload=rng.choice(PAYLOADS[split]),
                           topic=rng.choice(TOPICS[split]))


def _typos(text: str, rng: random.Random) -> str:
    """A few swapped neighbouring letters, as someone typing fast."""
    chars = list(text)
    for _ in range(max(1, len(chars) // 60)):
        i = rng.randrange(len(chars) - 1)
        if chars[i].isalpha() and chars[i + 1].isalpha():
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
    return "".join(chars)


def _surface(text: str, rng: random.Random) -> str:
    """How people paste these: plain mostly, sometimes quoted, fenced, shouted or mistyped."""
    roll = rng.random()
    if roll < 0.08:
        return text.upper()
    if roll < 0.18:
        return _typos(text, rng)
    if roll < 0.24:
        return "```\n" + text + "\n```"
    if roll < 0.30:
        return "\n".join("> " + line for line in text.split("\n"))
    return text


def long_attacks() -> list[dict[str, str]]:
    """An opening paragraph, then zero to all of its family's sections, then the request."""
    out = []
    for family, intros in A.INTROS.items():
        for i, intro in enumerate(intros):
            split = third(i, len(intros))
            rng = random.Random(f"{family}/{i}")
            for k in range(PER_INTRO):
                name, desc = rng.choice(PERSONAS[split])
                payload = rng.choice(PAYLOADS[split])
                names = FAMILY_SECTIONS[family]
                # Lengths as real ones come: a bare opening, a few sections, or the whole kit.
                count = [rng.randint(0, 1), rng.randint(2, 3), rng.randint(4, len(names)), len(names),
                         rng.randint(3, len(names)), len(names)][k % 6]
                chosen = names[:count] if k % 2 else rng.sample(names, count)
                parts = [intro]
                for s in chosen:
                    pool = SECTIONS[s][split]
                    parts += rng.sample(pool, 2 if count == len(names) and len(pool) > 1 else 1)
                parts.append(rng.choice(SECTIONS["CLOSINGS"][split]))
                values = {"name": name, "desc": desc, "payload": payload, "topic": rng.choice(TOPICS[split])}
                # The longest real ones run to about 3,000 characters.
                while len("\n\n".join(parts)) > 3_000 and len(parts) > 2:
                    del parts[-2]
                text = "\n\n".join(p.format(**values) for p in parts)
                if rng.random() < 0.15:
                    text = f"### {name} prompt\n\n" + text
                out.append(_row(_surface(text, rng) if rng.random() < 0.3 else text, "attack", family,
                                f"{family}/intro{i}", split))
    return out


def short_attacks() -> list[dict[str, str]]:
    out = []
    for family, templates in A.SHORT.items():
        for i, template in enumerate(templates):
            split = third(i, len(templates))
            rng = random.Random(f"{family}/short{i}")
            seen: set[str] = set()
            for _ in range(PER_SHORT * 3):
                text = _fill(template, rng, split)
                if text in seen:
                    continue
                seen.add(text)
                out.append(_row(_surface(text, rng), "attack", family, f"{family}/short{i}", split))
                if len(seen) == PER_SHORT:
                    break
    for i, (lang, text) in enumerate(A.FOREIGN):
        out.append(_row(text, "attack", "foreign_language", f"foreign/{i}", third(i, len(A.FOREIGN)), lang))
    return out


def whole_attacks() -> list[dict[str, str]]:
    """The attacks written in one piece: each its own group."""
    out = []
    for family, texts in W.WHOLE.items():
        for i, text in enumerate(texts):
            out.append(_row(text, "attack", family, f"{family}/whole{i}", third(i, len(texts))))
    for family, texts in W.WHOLE_MORE.items():
        for i, text in enumerate(texts):
            out.append(_row(text, "attack", family, f"{family}/whole_more{i}", third(i, len(texts))))
    for i, (lang, family, text) in enumerate(W.FOREIGN_MORE):
        out.append(_row(text, "attack", "foreign_language", f"foreign/{family}/{i}",
                        third(i, len(W.FOREIGN_MORE)), lang))
    return out


def benign() -> list[dict[str, str]]:
    out = []
    people = pools(B.SUPPORT)
    for i, form in enumerate(B.SUPPORT_FORMS):
        split = third(i, len(B.SUPPORT_FORMS))
        for name, biz, rules in people[split]:
            out.append(_row(form.format(name=name, biz=biz, rules=rules), "benign", "support_persona",
                            f"support/form{i}", split))
    sections = pools(B.SECTIONS)
    for split, group in people.items():
        for name, biz, rules in group:
            rng = random.Random(f"support/long/{name}")
            head = f"You are {name}, the assistant for {biz}. In short: {rules}."
            chosen = rng.sample(sections[split], rng.randint(1, len(sections[split])))
            text = "\n\n".join([head, *chosen]).format(name=name, biz=biz)
            out.append(_row(text, "benign", "support_persona", f"support/long/{name}", split))
    # Long persona prompts with rules, like the attacks' openings and sections, asking for nothing
    # an attack asks for.
    names = pools(B.HELPER_NAMES)
    more = pools(B.SECTIONS_MORE)
    for i, opening in enumerate(B.OPENINGS):
        split = third(i, len(B.OPENINGS))
        rng = random.Random(f"opening/{i}")
        for name in rng.sample(names[split], min(3, len(names[split]))):
            pool = sections[split] + more[split]
            # The smaller thirds' pools take all their sections, to keep some of their texts long.
            low = len(pool) if split != "train" else max(1, len(pool) // 2)
            chosen = rng.sample(pool, rng.randint(low, len(pool)))
            text = "\n\n".join([opening, *chosen]).format(name=name, biz="us")
            out.append(_row(text, "benign", "long_persona_prompt", f"opening/{i}", split))
    lists = {**B.BENIGN, **B.BENIGN_MORE}
    for family, texts in lists.items():
        for i, text in enumerate(texts):
            lang = "en"
            if family == "foreign_benign":
                lang = ("es", "fr", "de", "pt", "zh", "ru", "ja")[i]
            elif family == "security_doc" and "escáner" in text:
                lang = "es"
            out.append(_row(text, "benign", family, f"{family}/{i}", third(i, len(texts)), lang))
    long: dict[str, list[str]] = {}
    for more in (B.LONG, B.LONG_MORE):
        for family, texts in more.items():
            long.setdefault(family, []).extend(texts)
    # Few per family: cut the whole list in thirds, families interleaved, so that every split
    # gets long benign texts.
    flat = [(family, i, text) for i in range(max(map(len, long.values())))
            for family, texts in long.items() for j, text in enumerate(texts) if j == i]
    for n, (family, i, text) in enumerate(flat):
        out.append(_row(text, "benign", family, f"{family}/long{i}", third(n, len(flat))))
    for i, (family, text) in enumerate(W.BENIGN_WHOLE):
        out.append(_row(text, "benign", family, f"{family}/whole{i}", third(i, len(W.BENIGN_WHOLE))))
    return out


def rows() -> list[dict[str, str]]:
    return long_attacks() + short_attacks() + whole_attacks() + benign()


def summary(data: list[dict[str, str]]) -> dict[str, Any]:
    counts: dict[str, dict[str, int]] = {}
    for r in data:
        key = f"{r['label']}/{r['family']}"
        counts.setdefault(key, {s: 0 for s in SPLITS})[r["split"]] += 1
    long = sum(len(r["text"]) > 800 for r in data)
    return {"n": len(data), "over_800_chars": long, "by_family": counts}


def main() -> None:
    data = rows()
    for split, path in FILES.items():
        write(path, [r for r in data if r["split"] == split])
    print(json.dumps(summary(data), indent=1))


if __name__ == "__main__":
    main()
