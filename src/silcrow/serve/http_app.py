"""The HTTP API of ``silcrow serve``: REST under /v1 and the MCP server at /mcp, one process.

Every route answers with the same result JSON as the memory tool (a refused
write is HTTP 422 with that JSON, its ``error`` saying why and what to do);
a malformed body is 400, a body over 1 MiB 413, a missing or unknown token
401, a read-only token on a writing route 403. Handlers are plain functions,
run on FastAPI's worker threads, each one library call on the caller's tenant.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from silcrow.errors import LockTimeoutError, SilcrowError
from silcrow.serve import gate_api, web
from silcrow.serve.auth import TokenGate, access_of
from silcrow.serve.mcp_server import SilcrowMCP
from silcrow.serve.tenant import Tenant, Tenants

Target = Literal["memory", "user"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AddBody(_Body):
    content: str = Field(description="The new entry: one short, declarative fact.")


class ReplaceBody(_Body):
    old_text: str = Field(description="A short substring that identifies one entry.")
    content: str = Field(description="The full new text of that entry.")


class RemoveBody(_Body):
    old_text: str = Field(description="A short substring that identifies one entry.")


class Operation(_Body):
    action: Literal["add", "replace", "remove"]
    content: str | None = None
    old_text: str | None = None


class BatchBody(_Body):
    target: Target
    operations: list[Operation] = Field(description="Applied all-or-nothing, in one write.")


class UndoBody(_Body):
    target: Target


class SearchBody(_Body):
    query: str = Field(description="What to look for, in plain words.")
    k: int = Field(8, ge=1, le=50, description="How many results.")


class RecallBody(_Body):
    text: str = Field(description="One durable fact to keep in long-term recall.")


def _tenant(request: Request) -> Tenant:
    # A read-only token never gets here on a writing route: TokenGate answered 403.
    return access_of(request.scope).tenant


def _reply(result: dict[str, Any]) -> JSONResponse:
    return JSONResponse(result, status_code=200 if result.get("success") else 422)


def _memory(request: Request, arguments: dict[str, Any]) -> JSONResponse:
    return _reply(_tenant(request).call("memory", arguments))


def build_app(home: Path, default_home: Path, *, host: str = "127.0.0.1") -> FastAPI:
    """The ASGI app: ``home`` holds tokens.json and the profiles; ``default_home`` is served
    to callers when no token exists at all (loopback only)."""
    tenants = Tenants()
    mcp = SilcrowMCP(lambda req: access_of(req.scope), lambda: tenants.get(default_home))
    mcp_app = mcp.streamable_http_app(streamable_http_path="/mcp", stateless_http=True,
                                      json_response=True, host=host)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async with mcp.session_manager.run():
            try:
                yield
            finally:
                tenants.close()

    app = FastAPI(title="silcrow", summary="Memory for LLM agents: curated notes, recall, sessions.",
                  lifespan=lifespan)
    app.router.routes.extend(mcp_app.routes)
    app.include_router(gate_api.router)  # before /v1/memory/{target}: "pending" is no target
    app.include_router(web.router)  # the inspector at /, behind the same middlewares
    app.state.inspector_logins = web.OneTimeLogins(home)
    app.add_middleware(gate_api.ProposerContext)  # inside TokenGate: it reads the caller's access
    app.add_middleware(TokenGate, home=home, default=lambda: tenants.get(default_home),
                       tenant_for=tenants.get)

    @app.exception_handler(RequestValidationError)
    async def _bad_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err.get('loc', ()) if p != 'body') or 'body'}: {err.get('msg')}"
            for err in exc.errors())
        in_body = any(err.get("loc", ("",))[0] == "body" for err in exc.errors())
        hint = "send a JSON object with 'Content-Type: application/json'; " if in_body else ""
        return JSONResponse({"success": False, "error": f"malformed request ({problems}); {hint}see /docs"},
                            status_code=400)

    @app.exception_handler(SilcrowError)
    async def _ours(_request: Request, exc: SilcrowError) -> JSONResponse:
        # Only reads that return text (prompt, history) raise; tool-shaped calls answer 422.
        status = 503 if isinstance(exc, LockTimeoutError) else 409
        return JSONResponse({"success": False, "error": str(exc)}, status_code=status)

    @app.exception_handler(HTTPException)
    async def _http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"success": False, "error": str(exc.detail)}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        return {"ok": True}

    @app.get("/v1/memory/history")
    def history(request: Request, target: Target | None = None) -> dict[str, Any]:
        return {"success": True, "records": _tenant(request).history(target)}

    @app.post("/v1/memory/batch")
    def batch(request: Request, body: BatchBody) -> JSONResponse:
        operations = [op.model_dump(exclude_none=True) for op in body.operations]
        return _memory(request, {"target": body.target, "operations": operations})

    @app.post("/v1/memory/undo")
    def undo(request: Request, body: UndoBody) -> JSONResponse:
        return _reply(_tenant(request).undo(body.target))

    @app.get("/v1/memory/{target}")
    def read(request: Request, target: Target) -> JSONResponse:
        return _memory(request, {"action": "read", "target": target})

    @app.post("/v1/memory/{target}")
    def add(request: Request, target: Target, body: AddBody) -> JSONResponse:
        return _memory(request, {"action": "add", "target": target, "content": body.content})

    @app.patch("/v1/memory/{target}")
    def replace(request: Request, target: Target, body: ReplaceBody) -> JSONResponse:
        return _memory(request, {"action": "replace", "target": target, "old_text": body.old_text,
                                 "content": body.content})

    @app.delete("/v1/memory/{target}")
    def remove(request: Request, target: Target, body: RemoveBody) -> JSONResponse:
        return _memory(request, {"action": "remove", "target": target, "old_text": body.old_text})

    @app.get("/v1/prompt")
    def prompt(request: Request) -> dict[str, Any]:
        return {"success": True, "prompt": _tenant(request).prompt_section()}

    @app.post("/v1/recall/search")
    def recall_search(request: Request, body: SearchBody) -> JSONResponse:
        return _reply(_tenant(request).call("recall_search", {"query": body.query, "k": body.k}))

    @app.post("/v1/recall")
    def recall_add(request: Request, body: RecallBody) -> JSONResponse:
        return _reply(_tenant(request).call("recall_add", {"fact": body.text}))

    @app.delete("/v1/recall/{memory_id}")
    def recall_forget(request: Request, memory_id: int) -> JSONResponse:
        result = _tenant(request).call("recall_forget", {"id": memory_id})
        if result.get("success") and result.get("removed") == 0:  # the tool's "nothing", as HTTP says it
            return JSONResponse({**result, "success": False, "error": f"no memory #{memory_id} in this "
                                 "profile; find ids with POST /v1/recall/search"}, status_code=404)
        return _reply(result)

    @app.get("/v1/sessions/search")
    def sessions_search(request: Request, q: str = Query(description="Keywords."),
                        limit: int = Query(5, ge=1, le=20)) -> JSONResponse:
        return _reply(_tenant(request).call("session_search", {"query": q, "limit": limit}))

    return app
