"""The HTTP API of ``silcrow serve``: REST under /v1 and the MCP server at /mcp, one process.

Every route answers with the same result JSON as the memory tool (a refused
write is HTTP 422 with that JSON, its ``error`` saying why and what to do);
a malformed body is 400, a body over its route's bound (1 MiB behind the token,
1 KiB on the public routes) or a recall fact over its cap 413, a missing,
unknown or expired token 401, a read-only token on a writing route or a token
without the review scope on a deciding one 403, a foreign Host 421 or browser
Origin 403, a caller past its share of requests in progress 429, no token on
the server at all 503. ``GET /mcp`` is 405: MCP is served as stateless JSON,
each answer in its POST's response, so there is no event stream to open.
Each handler is one library call on the caller's tenant, run on a worker
thread (:meth:`Tenant.offload`) with its JSON rendered there too.

Two middlewares wrap the whole app, so anything mounted on it later is
guarded the same way: :class:`~silcrow.serve._guard.HostGuard` (outermost)
and :class:`~silcrow.serve._auth.TokenGate`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio.to_thread
from fastapi import FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from silcrow._toolcall import guarded
from silcrow.errors import LockTimeoutError, SilcrowError
from silcrow.notes import Notes
from silcrow.recall import MAX_FACT_CHARS, MAX_QUERY_CHARS, MAX_RESULTS, Forgotten, Found, Remembered
from silcrow.serve import _gate_api as gate_api
from silcrow.serve import _upkeep as upkeep
from silcrow.serve import _web as web
from silcrow.serve._auth import TokenGate, access_of, review_needed
from silcrow.serve._guard import HostGuard
from silcrow.serve._limits import (
    BACKLOG,
    KEEP_ALIVE,
    MAX_CONNECTIONS,
    READ_TIMEOUT,
    WORKER_THREADS,
    guarded_protocol,
)
from silcrow.serve._mcp_server import SilcrowMCP
from silcrow.serve._tenant import Tenant, Tenants

# The origin the journal records for a note written through this API.
REST = "rest"

Target = Literal["memory", "user"]
MCP_PATH = "/mcp"


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
    query: str = Field(max_length=MAX_QUERY_CHARS, description="What to look for, in plain words.")
    k: int = Field(8, ge=1, le=MAX_RESULTS, description="How many results.")


class RecallBody(_Body):
    text: str = Field(description=f"One durable fact to keep in long-term recall (at most {MAX_FACT_CHARS} "
                      "characters).")


MemoryId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="A memory id from a recall search.")]


async def no_event_stream() -> JSONResponse:
    """``GET /mcp``: 405, as the MCP spec allows a server that offers no stream. Every MCP
    request is answered in its own POST's response (stateless JSON), so a stream opened here
    would carry nothing and only hold a connection."""
    return JSONResponse({"success": False, "error": "this server offers no event stream at GET /mcp: it "
                         "answers each MCP request in the response to its POST (stateless JSON); send "
                         "requests with POST /mcp"}, status_code=405,
                        headers={"Allow": "POST", "Connection": "close"})


def _tenant(request: Request) -> Tenant:
    # A read-only token never gets here on a writing route: TokenGate answered 403.
    return access_of(request.scope).tenant


def _blank_query(field: str) -> JSONResponse:
    """A search with nothing to look for is malformed input (400), as docs/mcp-http.md says."""
    return JSONResponse({"success": False, "error": f"malformed request ({field}: the query is empty or only "
                         "whitespace); send the words to look for"}, status_code=400)


def _reply(result: dict[str, Any]) -> JSONResponse:
    return JSONResponse(result, status_code=200 if result.get("success") else 422)


def _recalled(what: str, call: Callable[[], Found | Remembered | Forgotten]) -> dict[str, Any]:
    """A typed recall call's result as the route's JSON: the one place REST turns typed recall
    results into JSON (a RecallError becomes the refusal that says what to do)."""
    return guarded(what, lambda: call().to_json())


async def _respond(request: Request, answer: Callable[[Tenant], JSONResponse]) -> JSONResponse:
    """``answer(tenant)``, the library call and its JSON, on a worker thread of the caller's tenant."""
    tenant = _tenant(request)
    return await tenant.offload(answer, tenant)


async def _call(request: Request, name: str, arguments: dict[str, Any]) -> JSONResponse:
    return await _respond(request, lambda tenant: _reply(tenant.call(name, arguments)))


async def _note(request: Request, run: Callable[[Notes], Mapping[str, Any]]) -> JSONResponse:
    """A note call through the notes service and the store only: typed in, JSON out once, here."""
    return await _respond(request, lambda tenant: _reply(tenant.note(run)))


def build_app(home: Path, default_home: Path, *, host: str = "127.0.0.1", allow_hosts: Iterable[str] = (),
              open_access: bool = False, max_connections: int = MAX_CONNECTIONS) -> FastAPI:
    """The ASGI app: ``home`` holds tokens.json and the profiles; ``default_home`` lists the tools
    and, with ``open_access`` (``--no-auth``), is served to callers while no token exists;
    ``max_connections`` is the server's, of which each caller gets its share."""
    tenants = Tenants()
    mcp = SilcrowMCP(lambda req: access_of(req.scope), lambda: tenants.get(default_home))
    # HostGuard below checks Host and Origin for every route; the SDK's own check would only
    # disagree with it (it knows neither --allow-host nor a bind on 127.0.0.2).
    mcp_app = mcp.streamable_http_app(
        streamable_http_path=MCP_PATH, stateless_http=True, json_response=True, host=host,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = WORKER_THREADS
        async with mcp.session_manager.run():
            try:
                yield
            finally:
                await anyio.to_thread.run_sync(tenants.close)

    app = FastAPI(title="silcrow", summary="Memory for LLM agents: curated notes, recall, sessions.",
                  lifespan=lifespan)
    # Before the SDK's route: stateless JSON needs no event stream, so none is offered (see
    # no_event_stream); other methods still reach the SDK.
    app.add_api_route(MCP_PATH, no_event_stream, methods=["GET"], include_in_schema=False)
    app.router.routes.extend(mcp_app.routes)
    app.include_router(gate_api.router)  # before /v1/memory/{target}: "pending" is no target
    app.include_router(upkeep.router)  # the same: "details", "archive" and "review" are no targets
    app.include_router(web.router)  # the inspector at /, behind the same middlewares
    app.state.inspector_logins = web.OneTimeLogins(home)
    app.add_middleware(gate_api.ProposerContext)  # inside TokenGate: it reads the caller's access
    app.add_middleware(TokenGate, home=home, tenant_for=tenants.get,
                       open_home=(lambda: tenants.get(default_home)) if open_access else None,
                       max_connections=max_connections)
    app.add_middleware(HostGuard, bind_host=host, allow_hosts=tuple(allow_hosts))  # outermost

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
        error = str(exc.detail)
        if exc.status_code == 400 and exc.__cause__ is not None:  # FastAPI could not parse the body
            why = ("it is nested too deeply" if isinstance(exc.__cause__, RecursionError)
                   else str(exc.__cause__)[:200])
            error = f"malformed request: the body is not a JSON object ({why}); send one as /docs shows"
        return JSONResponse({"success": False, "error": error}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True}

    @app.get("/v1/memory/history")
    async def history(request: Request, target: Target | None = None) -> JSONResponse:
        return await _respond(request, lambda tenant: JSONResponse(
            {"success": True, "records": tenant.history(target)}))

    @app.post("/v1/memory/batch")
    async def batch(request: Request, body: BatchBody) -> JSONResponse:
        operations = [op.model_dump(exclude_none=True) for op in body.operations]
        return await _note(request, lambda notes: notes.batch(body.target, operations, origin=REST))

    @app.post("/v1/memory/undo")
    async def undo(request: Request, body: UndoBody) -> JSONResponse:
        access = access_of(request.scope)

        def answer(tenant: Tenant) -> JSONResponse:
            # Undo is not held as a proposal: while the model's writes wait for a person, only a
            # person may step the notes back (it would undo their edits and approvals too).
            if not access.can_review and tenant.store().write_policy == "approve":
                return JSONResponse({"success": False, "error": review_needed(
                    access, 'undo while write_policy = "approve"')}, status_code=403)
            return _reply(tenant.note(lambda notes: notes.undo(body.target, origin=REST)))

        return await _respond(request, answer)

    @app.get("/v1/memory/{target}")
    async def read(request: Request, target: Target) -> JSONResponse:
        return await _respond(request, lambda tenant: _reply(tenant.read(target)))

    @app.post("/v1/memory/{target}")
    async def add(request: Request, target: Target, body: AddBody) -> JSONResponse:
        return await _note(request, lambda notes: notes.add(target, body.content, origin=REST))

    @app.patch("/v1/memory/{target}")
    async def replace(request: Request, target: Target, body: ReplaceBody) -> JSONResponse:
        return await _note(request, lambda notes: notes.replace(target, body.old_text, body.content,
                                                                origin=REST))

    @app.delete("/v1/memory/{target}")
    async def remove(request: Request, target: Target, body: RemoveBody) -> JSONResponse:
        return await _note(request, lambda notes: notes.remove(target, body.old_text, origin=REST))

    @app.get("/v1/prompt")
    async def prompt(request: Request) -> JSONResponse:
        return await _respond(request, lambda tenant: JSONResponse(
            {"success": True, "prompt": tenant.prompt_section()}))

    @app.post("/v1/recall/search")
    async def recall_search(request: Request, body: SearchBody) -> JSONResponse:
        if not body.query.strip():
            return _blank_query("query")
        return await _respond(request, lambda tenant: _reply(_recalled(
            "recall search", lambda: tenant.recall.search(body.query, body.k))))

    @app.post("/v1/recall")
    async def recall_add(request: Request, body: RecallBody) -> JSONResponse:
        if len(body.text) > MAX_FACT_CHARS:
            return JSONResponse({"success": False, "error": f"the fact is {len(body.text)} characters, over "
                                 f"the cap of {MAX_FACT_CHARS}; save one short fact at a time"},
                                status_code=413)
        return await _respond(request, lambda tenant: _reply(_recalled(
            "recall add", lambda: tenant.recall.remember(body.text))))

    @app.delete("/v1/recall/{memory_id}")
    async def recall_forget(request: Request, memory_id: MemoryId) -> JSONResponse:
        def answer(tenant: Tenant) -> JSONResponse:
            result = _recalled("recall forget", lambda: tenant.recall.forget(memory_id))
            if result.get("success") and result.get("removed") == 0:  # no such memory, as HTTP says it
                return JSONResponse({**result, "success": False, "error": f"no memory #{memory_id} in this "
                                     "profile; find ids with POST /v1/recall/search"}, status_code=404)
            return _reply(result)

        return await _respond(request, answer)

    @app.get("/v1/sessions/search")
    async def sessions_search(request: Request,
                              q: str = Query(max_length=MAX_QUERY_CHARS, description="Keywords."),
                              limit: int = Query(5, ge=1, le=20)) -> JSONResponse:
        if not q.strip():
            return _blank_query("q")
        return await _call(request, "session_search", {"query": q, "limit": limit})

    return app


def run_http(application: FastAPI, *, host: str, port: int, read_timeout: float = READ_TIMEOUT,
             max_connections: int = MAX_CONNECTIONS) -> None:
    """Serve ``application`` with uvicorn until interrupted, within the server's limits (a whole
    request in ``read_timeout`` seconds, at most ``max_connections`` open connections)."""
    import uvicorn

    uvicorn.run(application, host=host, port=port, log_level="warning", access_log=False,
                http=guarded_protocol(read_timeout), timeout_keep_alive=KEEP_ALIVE,
                limit_concurrency=max_connections, backlog=BACKLOG)
