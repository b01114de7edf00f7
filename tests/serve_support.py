"""Shared set-up for the serve tests: homes with profiles and tokens, MCP clients."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from silcrow.serve import create_token, silcrow_command

# Semantics do not matter in these tests: no embedding model, so nothing slow loads.
CONFIG = 'embedder = "none"\nmemory_char_limit = 100000\n'


def make_home(root: Path, profiles: tuple[str, ...] = ()) -> Path:
    for home in (root, *(root / "profiles" / p for p in profiles)):
        home.mkdir(parents=True, exist_ok=True)
        (home / "config.toml").write_text(CONFIG, encoding="utf-8")
    return root


def tokens(home: Path) -> dict[str, str]:
    """Write tokens for profiles a (write, read, review: a person's) and b (write, review); returns
    them by label."""
    return {
        "a": create_token(home, profile="a", scope="write", name="a")[0],
        "a_read": create_token(home, profile="a", scope="read", name="a-read")[0],
        "a_review": create_token(home, profile="a", scope="review", name="a-review")[0],
        "b": create_token(home, profile="b", scope="write", name="b")[0],
        "b_review": create_token(home, profile="b", scope="review", name="b-review")[0],
    }


def stdio_params(home: Path, *extra: str) -> StdioServerParameters:
    """`silcrow mcp` for ``home``, started in it: in no git work tree, so in no project unless
    ``extra`` names one (--project)."""
    return stdio_in(home, home, *extra)


def stdio_in(home: Path, cwd: Path, *extra: str) -> StdioServerParameters:
    """`silcrow mcp` for ``home``, started in ``cwd``. The SDK hands a server only a few of the
    environment's variables: PYTHONPATH is passed on, so it runs the silcrow under test."""
    command = silcrow_command()
    env = {name: os.environ[name] for name in ("PYTHONPATH",) if name in os.environ}
    return StdioServerParameters(command=command[0], args=[*command[1:], "mcp", "--home", str(home), *extra],
                                 cwd=str(cwd), env=env or None)


@asynccontextmanager
async def http_client(url: str, token: str | None, headers: dict[str, str] | None = None
                      ) -> AsyncIterator[Client]:
    headers = {**({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
            yield client
