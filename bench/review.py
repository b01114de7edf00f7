"""Does `memory review` keep the notes right? Contradictions, duplicates and independent pairs.

    .venv/bin/python bench/review.py [--data bench/data/review_pairs.jsonl] [--no-embedder]

Each labelled pair of ``--data`` (158 pairs written for this benchmark: contradictions of
eight kinds of change, duplicates in other words, independent pairs on one topic; the
judgement's rules were developed on them) becomes a
fresh home: three unrelated entries, then the older and the newer entry of the pair. The
review pass runs (with the default embedder, bge-small), every proposal is approved in
order (what `memory review` then `memory approve --all` do), and the notes are read:

* a **contradiction** is resolved when the older entry is gone and the newer stays as written;
* a **duplicate** is merged when one entry is left that still states what each said (the
  pair's ``newer_fact`` and ``older_fact``);
* an **independent** pair is left alone when both entries stay as written;
* ``newer_facts_lost``: cases whose notes no longer state the newer entry's fact (target 0);
* ``unrelated_lost``: unrelated entries (and the older of an independent pair) that left
  the notes (target 0).

``--data bench/data/review_pairs_check.jsonl`` runs 52 more pairs of the same shapes, written
after the rules were settled and never used to change them: an estimate of how the judgement
does on pairs it was not developed on.

Precision and recall are per kind of judgement (what the review proposed for the pair:
archive the older = contradiction, merge or contained = duplicate, nothing = independent).
The baseline in the same run is the review as it was before pairs were judged
(``bench/_review_baseline.py``), its proposals applied the same way.

``recall``: knowledge updates in long-term recall (the local provider): each pair stored as
two facts, older first, searched with the older's own words; ``newer_first`` is how often
the newer ranks above the older (``newer_first_baseline``: the store's ranking without the
judgement), ``older_shown_as_of`` how often the prefetched block shows the older "as of" its
date. For independent pairs both should stay low.

``review_time``: the review pass on a MEMORY.md and a USER.md filled to their budgets with
entries of the data set: ``cold_s`` includes loading the embedder (target <= 2 s), ``warm_s``
does not; ``find_warm_s`` is the judging alone (embedding included, no proposals written),
``baseline_find_warm_s`` the former rules' on the same notes.

Prints one JSON object on stdout; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _review_baseline  # noqa: E402

from silcrow.store import MemoryStore  # noqa: E402
from silcrow.store._review import find as review_find  # noqa: E402

console = Console(stderr=True)
DATA = Path(__file__).resolve().parent / "data" / "review_pairs.jsonl"

# Unrelated entries, three of which open every case (none is about what a pair is about).
FILLERS = {
    "user": ["User's favourite board game is Catan.", "User volunteers at an animal shelter on Saturdays.",
             "User collects vinyl records of 70s jazz.", "User is training for a half marathon in April.",
             "User's grandmother taught them to bake bread.", "User keeps a bonsai on the balcony."],
    "memory": ["The changelog follows Keep a Changelog.", "Error codes are listed in docs/errors.md.",
               "Feature flags live in flags.yaml and are read at startup.",
               "Screenshots for the README are made with the demo profile.",
               "The license header is required in every source file.",
               "Translations are managed in Crowdin."],
}
KINDS = ("contradiction", "duplicate", "independent")


def _judged(findings: list[dict[str, Any]], older: str, newer: str) -> str:
    """What the review proposed for the pair: contradiction, duplicate or independent."""
    for finding in findings:
        touched = set(finding.get("remove") or [])
        if finding.get("replace"):
            touched.add(finding["replace"]["old_text"])
        if not touched & {older, newer}:
            continue
        if finding["kind"] == "contradicted":
            return "contradiction"
        if finding["kind"] in ("duplicate", "contained"):
            return "duplicate"
    return "independent"


Run = Callable[[MemoryStore, str], list[dict[str, Any]]]


def _current(case: dict[str, Any], store: MemoryStore, run: Run, fillers: list[str]) -> dict[str, Any]:
    target = case["target"]
    for text in [*fillers, case["older"], case["newer"]]:
        store.add(target, text, origin="cli")
    findings = run(store, target)
    notes = store.entries(target)
    joined = "\n".join(notes).casefold()
    older_kept, newer_kept = case["older"] in notes, case["newer"] in notes
    kind = case["kind"]
    if kind == "contradiction":
        ok = newer_kept and not older_kept
    elif kind == "duplicate":
        ok = len(notes) == len(fillers) + 1 and case["newer_fact"].casefold() in joined \
            and case["older_fact"].casefold() in joined
    else:
        ok = older_kept and newer_kept
    lost = sum(f not in notes for f in fillers) + (kind == "independent" and not older_kept)
    return {"judged": _judged(findings, case["older"], case["newer"]), "ok": ok,
            "newer_lost": case["newer_fact"].casefold() not in joined, "unrelated_lost": lost}


def _silcrow(embed: Any) -> Run:
    def run(store: MemoryStore, target: str) -> list[dict[str, Any]]:
        findings = store.consolidate(embed=embed)
        for item in store.review(sequential=True):
            store.approve(str(item["id"]), base=item.get("base") or None)
        return findings
    return run


def _baseline(embed: Any) -> Run:
    def run(store: MemoryStore, target: str) -> list[dict[str, Any]]:
        found = _review_baseline.find(target, store.entries(target), embed=embed)
        for finding in found:
            store.apply_batch(target, finding.operations(), origin="cli")
        return [f.as_dict() for f in found]
    return run


def _score(results: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in KINDS:
        truth = [r for c, r in results if c["kind"] == kind]
        said = [(c, r) for c, r in results if r["judged"] == kind]
        hits = sum(c["kind"] == kind for c, _ in said)
        out[kind] = {"cases": len(truth), "precision": round(hits / len(said), 3) if said else None,
                     "recall": round(sum(r["judged"] == kind for r in truth) / len(truth), 3)
                     if truth else None,
                     "resolved": round(sum(r["ok"] for r in truth) / len(truth), 3) if truth else None}
    by_change: dict[str, list[bool]] = collections.defaultdict(list)
    for case, result in results:
        if case["kind"] == "contradiction":
            by_change[case["change"]].append(result["ok"])
    out["contradiction"]["resolved_by_change"] = {k: f"{sum(v)}/{len(v)}"
                                                  for k, v in sorted(by_change.items())}
    out["newer_facts_lost"] = sum(r["newer_lost"] for _, r in results)
    out["unrelated_lost"] = sum(r["unrelated_lost"] for _, r in results)
    out["misjudged"] = [f"{c['kind']}->{r['judged']}: {c['older']} | {c['newer']}"
                        for c, r in results if r["judged"] != c["kind"]]
    return out


def _recall(cases: list[dict[str, Any]], root: Path, embedder: Any) -> dict[str, Any]:
    """Knowledge updates in recall: each pair stored as two facts (older first) among three
    unrelated ones, searched with the older's own words (what favours it most): how often the
    newer ranks above the older, with silcrow's ordering and, as the baseline, the store's raw
    ranking; and how often the older is shown "as of" its date in the prefetched block."""
    from silcrow.recall.local import LocalProvider

    counts: collections.Counter[str] = collections.Counter()
    for n, case in enumerate(cases):
        provider = LocalProvider(Path(tempfile.mkdtemp(dir=root)), embedder=embedder or "none")
        provider.initialize("bench")
        try:
            for text in [*random.Random(n).sample(FILLERS[case["target"]], 3), case["older"], case["newer"]]:
                provider.add_fact(text)
            ranked = [h.text for h in provider.search(case["older"], 5).hits]
            raw = [h.text for h in provider.store.search(case["older"], 5, provider._scope)]
            block = provider.prefetch(case["older"], session_id="another")
        finally:
            provider.shutdown()
        kind = case["kind"]
        counts[f"{kind}_cases"] += 1
        for name, order in (("silcrow", ranked), ("baseline", raw)):
            if case["newer"] in order and (case["older"] not in order
                                           or order.index(case["newer"]) < order.index(case["older"])):
                counts[f"{kind}_newer_first_{name}"] += 1
        older_line = next((line for line in block.splitlines() if case["older"] in line), "")
        counts[f"{kind}_older_as_of"] += "(as of " in older_line
    out: dict[str, Any] = {}
    for kind in KINDS:
        total = counts[f"{kind}_cases"] or 1
        out[kind] = {"newer_first": round(counts[f"{kind}_newer_first_silcrow"] / total, 3),
                     "newer_first_baseline": round(counts[f"{kind}_newer_first_baseline"] / total, 3),
                     "older_shown_as_of": round(counts[f"{kind}_older_as_of"] / total, 3)}
    return out


def _full(store: MemoryStore, cases: list[dict[str, Any]]) -> None:
    """Fill MEMORY.md and USER.md to their budgets with entries of the data set."""
    for case in cases:
        for text in (case["older"], case["newer"]):
            if store.fullness(case["target"]) < 0.95:
                store.reset_turn()
                store.add(case["target"], text, origin="cli")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--no-embedder", action="store_true", help="wording alone (embedder = \"none\")")
    args = parser.parse_args()
    cases = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    embed = None
    if not args.no_embedder:
        from silcrow.models import get_embedder

        embed = get_embedder("bge").embed
    runs = {"silcrow": _silcrow(embed), "baseline": _baseline(embed)}
    scored: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, Progress(console=console) as progress:
        root = Path(tmp)
        for name, run in runs.items():
            task = progress.add_task(name, total=len(cases))
            results = []
            for n, case in enumerate(cases):
                fillers = random.Random(n).sample(FILLERS[case["target"]], 3)
                store = MemoryStore(Path(tempfile.mkdtemp(dir=root)))
                results.append((case, _current(case, store, run, fillers)))
                progress.advance(task)
            scored[name] = _score(results)
        recall = _recall(cases, root, None if args.no_embedder else "bge")
        full = MemoryStore(Path(tempfile.mkdtemp(dir=root)))
        _full(full, random.Random(7).sample(cases, len(cases)))
        times = {}
        for label, embedder in (("cold_s", None), ("warm_s", embed)):
            if label == "cold_s" and not args.no_embedder:
                from silcrow.models._embedders import BgeSmallEmbedder

                embedder = BgeSmallEmbedder().embed  # a fresh model: loading it is part of the cost
            full_copy = MemoryStore(Path(tempfile.mkdtemp(dir=root)))
            for target in ("memory", "user"):
                for text in full.entries(target):
                    full_copy.add(target, text, origin="cli")
            start = time.perf_counter()
            full_copy.consolidate(embed=embedder)
            times[label] = round(time.perf_counter() - start, 3)
        # The former rules on the same notes with the same (warm) embedder, in the same run.
        start = time.perf_counter()
        for target in ("memory", "user"):
            _review_baseline.find(target, full.entries(target), embed=embed)
        times["baseline_find_warm_s"] = round(time.perf_counter() - start, 3)
        start = time.perf_counter()
        for target in ("memory", "user"):
            review_find(target, full.entries(target), embed=embed)
        times["find_warm_s"] = round(time.perf_counter() - start, 3)
        entries = len(full.entries("memory")) + len(full.entries("user"))
        times.update({"target_cold_s": 2.0, "entries": entries,
                      "memory_fullness": round(full.fullness("memory"), 2),
                      "user_fullness": round(full.fullness("user"), 2)})
    out = {"cases": len(cases), "embedder": None if args.no_embedder else "bge", **scored["silcrow"],
           "baseline": scored["baseline"], "review_time": times, "recall": recall,
           "targets": {"contradiction_resolved": 0.8, "duplicate_resolved": 0.75,
                       "independent_resolved": 0.9, "newer_facts_lost": 0, "unrelated_lost": 0}}
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
