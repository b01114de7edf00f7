"""Every regex silcrow runs on untrusted text is linear on adversarial input.

The worst cases are generated from each pattern's own parts
(tests/worstcase.py): every character of every class it uses, repeated to
1,300 and 20,000 characters, after its literal runs and after every other
character. The run happens in a subprocess with a timeout, so a regression that
makes one pattern backtrack fails the test instead of hanging the suite; the
bound per text is generous (seconds, where a linear pattern takes milliseconds
and the old fence pattern took minutes). The 20 ms figure is measured in
``bench/safety.py``, not asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from worstcase import parts, untrusted_patterns, worst_cases

# A linear pattern takes milliseconds on 20,000 characters; the fence pattern this test
# was written against took about 7 s on 200 characters and did not finish on 1,300.
GENEROUS_SECONDS = 3.0

_CHILD = """
import json, sys
from worstcase import {fn}
print(json.dumps({fn}()))
"""


def _run_child(fn: str, timeout: float) -> list[list[object]]:
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD.format(fn=fn)], capture_output=True, text=True,
                              encoding="utf-8", timeout=timeout, check=False,
                              cwd=Path(__file__).parent)  # worstcase.py is a test helper
    except subprocess.TimeoutExpired:
        pytest.fail(f"{fn} did not finish in {timeout:.0f} s: some regex backtracks on a worst case")
    assert done.returncode == 0, done.stderr[-2000:]
    result: list[list[object]] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.slow
def test_every_pattern_is_linear_on_its_worst_cases() -> None:
    results = _run_child("slowest", timeout=600)
    assert len(results) > 40  # the safety patterns and the rest of silcrow's are all there
    slow = [r for r in results if float(r[0]) > GENEROUS_SECONDS]  # type: ignore[arg-type]
    assert not slow, f"backtracking patterns (seconds, name, length, text): {slow}"


@pytest.mark.slow
def test_scan_fence_and_stream_are_linear_on_worst_cases() -> None:
    results = _run_child("slowest_entry_points", timeout=600)
    assert {r[1] for r in results} == {"scan", "sanitize_context", "stream"}
    slow = [r for r in results if float(r[0]) > GENEROUS_SECONDS]  # type: ignore[arg-type]
    assert not slow, f"slow entry points (seconds, name, length, text): {slow}"


def test_the_generator_builds_the_case_that_hung_the_old_fence() -> None:
    # The old fence tag pattern: "<", then whitespace and invisible characters, then the name.
    old = __import__("re").compile(r"[<\uff1c]\s*[\x1c\x0b\x85\u200b]*/?\s*[\x1c\x0b\x85\u200b]*memory")
    chars, runs = parts(old)
    assert {"<", "\x1c", "\x0b", "\x85", "m"} <= set(chars) and "memory" in runs
    cases = list(worst_cases(old, 1_300))
    assert any(c.startswith("<\x1c\x1c") and c.endswith("\x01") for c in cases)
    assert all(1_290 <= len(c) <= 1_300 for c in cases)


def test_untrusted_patterns_include_every_safety_regex() -> None:
    names = {name for name, _ in untrusted_patterns()}
    assert "silcrow.safety._tags.TAG" in names
    assert any(n.startswith("silcrow.safety._threats.") and "[override.ignore_previous]" in n for n in names)
    assert any("persist.agent_config" in n and n.endswith("<1>") for n in names)  # inside a Near matcher
    assert any(n.startswith("silcrow.recall.") for n in names)
    # The decoders' run patterns (base64 ... Morse, Braille, NATO, character codes) run on every note.
    runs = ("_BASE64", "_BASE32", "_ASCII85", "_BASE85", "_HEX", "_MIME")
    signs = ("_MORSE", "_BRAILLE", "_NATO", "_SPACED", "_DECIMAL", "_BINARY", "_MARKS")
    assert {f"silcrow.safety._decode.{n}" for n in runs} <= names
    assert {f"silcrow.safety._decode_signs.{n}" for n in signs} <= names
