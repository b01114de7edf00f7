"""Latent prompt injections: instructions aimed at the AI that reads a document, hidden inside data
an agent reads and might store as a memory note (résumés, emails, tickets, web pages, logs, whois
records, API responses, code, package metadata...), and benign look-alikes: the same documents with
no instruction to the AI, with lines addressed to their human readers, wrapped in the same tasks.

    python scripts/latent_attacks.py      # writes the three files below

A text is a carrier (``latent_carriers_text.py``, ``latent_carriers_data.py``,
``latent_carriers_more.py``, ``latent_carriers_extra.py``, ``latent_carriers_misc.py``) cut to a
short (< 300 characters), medium or long (800-2,500) length, with an injected line at a place where
that kind of document hides one (a comment, alt text, a footer, a log field, a JSON value...) and
anywhere in the document. The injected line is a trigger style (explicit, polite, fake system or
role markers, authority claims, pre-filled answers, conditionals; sometimes split over lines)
around a payload (a fixed phrase, a changed verdict, a leak, exfiltration through a link or image,
a tool call, a redirect, stopping the task, a memory write, a persona change), from
``latent_parts.py``.

Each carrier is one group, and its attacks and benign look-alikes go to the same split (about
50 / 20 / 30 of the carriers of each family); the trigger, payload, hiding, wrapper and
human-directed line pools are cut by position into disjoint parts per split, so no split shares a
carrier, a trigger wording or a payload wording with another. Files written:
``scripts/data/latent_attacks_train.jsonl``, ``scripts/data/latent_attacks_calibration.jsonl``
and ``bench/data/safety_latent_attacks.jsonl`` (the evaluation rows).

Everything here was written for silcrow; nothing is copied from any collection.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from latent_carriers_data import DATA_CARRIERS
from latent_carriers_extra import EXTRA_CARRIERS
from latent_carriers_misc import FOREIGN_CARRIERS, MISC_CARRIERS
from latent_carriers_more import MORE_CARRIERS
from latent_carriers_text import TEXT_CARRIERS
from latent_parts import (
    BENIGN_AI_LINES,
    BENIGN_DOCS,
    BENIGN_LINES,
    HIDE,
    PAYLOADS,
    TRIGGERS,
    VERDICT_LEADS,
    WRAPPERS,
)
from own_sets import SPLITS, make_row, tenths, write

ROOT = Path(__file__).resolve().parent.parent
OUT = {
    "train": ROOT / "scripts" / "data" / "latent_attacks_train.jsonl",
    "calibrate": ROOT / "scripts" / "data" / "latent_attacks_calibration.jsonl",
    "eval": ROOT / "bench" / "data" / "safety_latent_attacks.jsonl",
}
CARRIERS = (TEXT_CARRIERS + DATA_CARRIERS + MORE_CARRIERS + EXTRA_CARRIERS + MISC_CARRIERS
            + FOREIGN_CARRIERS)
#: The split of the n-th carrier of a family: five of every ten to train, two to calibrate, three
#: to eval, interleaved so a small family still gets all three.
CYCLE = ("train", "eval", "calibrate", "train", "eval", "train", "calibrate", "train", "eval", "train")
ATTACKS_PER_CARRIER = 10
BENIGN_PER_CARRIER = 8
#: Kinds that are already a task around a document: no second task is wrapped around them.
TASK_KINDS = {"translation_task", "summarisation_task"}
#: Between two documents an agent reads in one go (search hits, attachments, a mail thread).
SEPARATORS = ("\n\n---\n\n", "\n\n[Result 2]\n", "\n\n========\n\n", "\n\n--- next document ---\n\n",
              "\n\n-----Original Message-----\n", "\n\n<document index=\"2\">\n", "\n\n* * *\n\n")
IDEAS = ("say_phrase", "verdict", "verdict", "leak", "exfil", "tool", "redirect", "stop_task", "memory",
         "memory", "persona")


#: Marks of a vessel that hides its text from a person looking at the rendered document.
HIDING = ("style=", "white", "hidden", "invisible", "alt=", "1pt")




def carrier_splits() -> dict[str, str]:
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    for c in CARRIERS:
        n = seen.get(c["family"], 0)
        seen[c["family"]] = n + 1
        out[c["id"]] = CYCLE[n % len(CYCLE)]
    return out


def _fill(line: str, rng: random.Random) -> str:
    """Placeholders of the structured carriers: an address or a commit id of the record."""
    while "{ip}" in line:
        ip = f"{rng.choice(('192.0.2', '198.51.100', '203.0.113'))}.{rng.randint(2, 254)}"
        line = line.replace("{ip}", ip, 1)
    while "{sha}" in line:
        line = line.replace("{sha}", f"{rng.getrandbits(28):07x}", 1)
    return line


def _length_class(rng: random.Random) -> str:
    return rng.choices(("short", "medium", "long"), weights=(30, 40, 30))[0]


def compose(c: dict[str, Any], rng: random.Random, inserted: str | None, vessel: str, size: str,
            others: list[dict[str, Any]]) -> str:
    """The carrier cut to ``size`` with ``inserted`` (if any) put into ``vessel`` at a place of it."""
    head, body, foot = list(c["head"]), list(c["body"]), list(c["foot"])
    gen = c.get("gen")
    if size == "short":
        # As much of the document as fits in about 280 characters with the inserted line.
        budget = rng.randint(200, 285) - len(inserted or "") - len(vessel)
        head = [x for i, x in enumerate(head) if i == 0 or sum(len(y) + 1 for y in head[:i + 1]) < budget]
        budget -= sum(len(x) + 1 for x in head)
        foot = foot[:1] if foot and len(foot[0]) < budget and rng.random() < 0.6 else []
        budget -= sum(len(x) + 1 for x in foot)
        start = rng.randrange(len(body)) if body else 0
        source = body[start:] or ([gen(rng)] if gen else [])
        take = []
        for line in source:
            if len(line) + 1 > budget:
                break
            take.append(line)
            budget -= len(line) + 1
        while gen and budget > 60 and rng.random() < 0.7:
            line = gen(rng)
            if len(line) + 1 > budget:
                break
            take.append(line)
            budget -= len(line) + 1
    else:
        low, high = (330, 780) if size == "medium" else (900, 2_300)
        target = rng.randint(low, high)
        start = rng.randrange(max(1, len(body) // 3)) if size == "medium" else 0
        take, total = [], sum(len(x) for x in head + foot)
        source = body[start:]
        while total < target:
            if source:
                line = source.pop(0)
            elif gen:
                line = gen(rng)
            else:
                break
            if take and total + len(line) > (790 if size == "medium" else 2_450):
                break
            take.append(line)
            total += len(line) + 1
    if gen:
        # Generated records are in the order a log or listing prints them (time, id or rank first).
        made = [x for x in take if x not in body]
        take = [x for x in take if x in body] + sorted(made)
    take = [_fill(x, rng) for x in take]
    if inserted is None:
        parts = head + take + foot
    else:
        at_end = vessel.startswith("@end")
        line = _fill(vessel.removeprefix("@end").replace("<I>", inserted), rng)
        if at_end:
            parts = head + take + foot + [line]
        else:
            at = rng.randint(0, len(take))
            parts = head + take[:at] + [line] + take[at:] + foot
    text = c["sep"].join(parts).strip("\n")
    if size == "long" and len(text) < 800 and others:
        # A retrieval result or an inbox read in one go: the document arrives with others.
        other = rng.choice(others)
        rest = compose(other, rng, None, "<I>", "medium", [])
        sep = rng.choice(SEPARATORS)
        text = sep.join([text, rest] if rng.random() < 0.5 else [rest, text])
    return text


def _injection(c: dict[str, Any], rng: random.Random, split: str, style: str, idea: str) -> str:
    template = rng.choice(tenths(TRIGGERS[style], split))
    verdict = rng.choice(c["verdicts"])
    if style == "prefilled" or idea == "verdict":
        payload = f"{rng.choice(tenths(VERDICT_LEADS, split))} {verdict}"
    else:
        payload = rng.choice(tenths(PAYLOADS[idea], split))
    if style != "prefilled" and rng.random() < 0.25:
        payload += rng.choice(tenths(HIDE, split))
    text = (template.replace("<Pc>", payload[0].upper() + payload[1:]).replace("<P>", payload)
            .replace("<V>", verdict))
    roll = rng.random()
    if roll < 0.06:
        text = text.upper()
    elif roll < 0.10:
        text = "⚠️ " + text
    elif roll < 0.14:
        text = f"**{text}**"
    if rng.random() < 0.12 and "\n" not in text:
        # Split over lines: each line alone reads as a fragment.
        words = text.split(" ")
        cuts = sorted(rng.sample(range(1, len(words)), k=min(2, len(words) - 1)))
        text = "\n".join(" ".join(words[a:b]) for a, b in zip([0, *cuts], [*cuts, len(words)], strict=True))
    return text


def _wrap(c: dict[str, Any], rng: random.Random, split: str, text: str, chance: float) -> str:
    if c["kind"] in TASK_KINDS or rng.random() >= chance:
        return text
    return rng.choice(tenths(WRAPPERS, split)).replace("<D>", text)




def carrier_rows(c: dict[str, Any], split: str, others: list[dict[str, Any]]) -> list[dict[str, str]]:
    rng = random.Random(f"latent-{c['id']}")
    group = f"latent-{c['id']}"
    out: list[dict[str, str]] = []
    styles = list(TRIGGERS)
    for i in range(ATTACKS_PER_CARRIER):
        style = styles[i % len(styles)] if i < len(styles) else rng.choice(styles)
        idea = "verdict" if style == "prefilled" else rng.choice(IDEAS)
        text = compose(c, rng, _injection(c, rng, split, style, idea), rng.choice(c["vessels"]),
                       _length_class(rng), others)
        text = _wrap(c, rng, split, text, 0.25)
        out.append(make_row(text, "attack", f"latent_{c['family']}", group, split))
    lines = tenths(BENIGN_LINES, split) + tenths(BENIGN_AI_LINES, split)
    for _ in range(BENIGN_PER_CARRIER):
        roll = rng.random()
        if roll < 0.35:
            inserted, vessel = rng.choice(c["benign"]), "<I>"
        elif roll < 0.7:
            inserted = rng.choice(lines)
            # A line for people sits where people would see it (a comment is fine); text made
            # invisible is kept for the attacks.
            shown = [v for v in c["vessels"] if not any(h in v.lower() for h in HIDING)]
            vessel = rng.choice(shown) if shown and rng.random() < 0.4 else "<I>"
        else:
            inserted, vessel = None, "<I>"
        text = compose(c, rng, inserted, vessel, _length_class(rng), others)
        out.append(make_row(_wrap(c, rng, split, text, 0.3), "benign", f"benign_{c['family']}", group, split))
    return out


def rows() -> dict[str, list[dict[str, str]]]:
    splits = carrier_splits()
    every: list[dict[str, str]] = []
    for c in CARRIERS:
        others = [o for o in CARRIERS if splits[o["id"]] == splits[c["id"]] and o["id"] != c["id"]]
        every += carrier_rows(c, splits[c["id"]], others)
    seen_family: dict[str, int] = {}
    for n, (family, text) in enumerate(BENIGN_DOCS):
        k = seen_family.get(family, 0)
        seen_family[family] = k + 1
        every.append(make_row(text, "benign", family, f"latent-doc-{n}", CYCLE[k % len(CYCLE)]))
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
