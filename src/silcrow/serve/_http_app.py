"""The HTTP API of ``silcrow serve``: REST under /v1 and the MCP server at /mcp, one process.

Every route answers with the same result JSON as the memory tool, and every
outcome has its status from one table (:mod:`silcrow.serve._errors`, shown in
docs/mcp-http.md): a refused write is 422 with that JSON, its ``error`` saying
why and what to do; a memory file that cannot be read 409; a lock not taken in
time 503; an unexpected failure 500 with a generic message. Before a call
reaches the library: a malformed body is 400, a body over its route's bound
(1 MiB behind the token, 1 KiB on the public routes) or a recall fact over its
cap 413, a missing, unknown or expired token 401, a read-only token on a
writing route or a token without the review scope on a deciding one 403, a
foreign Host 421 or browser Origin 403, a caller past its share of requests in
progress 429, no token on the server at all 503. ``GET /mcp`` is 405: MCP is
served as stateless JSON, each answer in its POST's response, so there is no
event stream to open. Each handler is one library call on the caller's tenant
through :func:`~silcrow.serve._rest.respond` (the tenant's one entry, on a
worker thread, with its JSON rendered there too).

Two middlewares wrap the whole app, so anything mounted on it later is
guarded the same way: :class:`~silcrow.serve._guard.HostGuard` (outermost)
and :class:`~silcrow.serve._auth.TokenGate`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio.to_thread
from fastapi import FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from silcrow.errors import SilcrowError
from silcrow.recall import MAX_FACT_CHARS, MAX_QUERY_CHARS, MAX_RESULTS
from silcrow.serve import _gate_api as gate_api
from silcrow.serve import _login as login
from silcrow.serve import _upkeep as upkeep
from silcrow.serve import _web as web
from silcrow.serve import _web_projects as web_projects
from silcrow.serve._auth import ACCESS_KEY, TokenGate, access_of
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
from silcrow.serve._rest import failed, respond
from silcrow.serve._tenant import Tenant, Tenants

# The origin the journal records for a note written through this API.
REST = "rest"

# "project": the notes of the project the request's X-Silcrow-Project header names (422 without one).
Target = Literal["memory", "user", "project"]
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


def _blank_query(field: str) -> JSONResponse:
    """A search with nothing to look for is malformed input (400), as docs/mcp-http.md says."""
    return JSONResponse({"success": False, "error": f"malformed request ({field}: the query is empty or only "
                         "whitespace); send the words to look for"}, status_code=400)


#: The fields of a session search hit, as the agent's session_search tool gives them.
SESSION_HIT = ("session_id", "title", "date", "snippet", "message_id", "role")


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
    app.include_router(login.router)  # the inspector's one-time login, public as PUBLIC_PATHS says
    app.include_router(web.router)  # the inspector at /, behind the same middlewares
    app.include_router(web_projects.router)  # its projects panel
    app.state.inspector_logins = login.OneTimeLogins(home)
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
    async def _ours(request: Request, exc: SilcrowError) -> JSONResponse:
        # Every route answers through respond(); one mounted later answers by the same table.
        return failed(exc, request.scope.get(ACCESS_KEY))

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
    async def history(request: Request, target: Target | None = None) -> Response:
        return await respond(request, lambda tenant: {"success": True,
                                                      "records": tenant.history(target, safe=True)})

    @app.post("/v1/memory/batch")
    async def batch(request: Request, body: BatchBody) -> Response:
        operations = [op.model_dump(exclude_none=True) for op in body.operations]
        return await respond(request, lambda tenant: tenant.notes().batch(body.target, operations,
                                                                          origin=REST))

    @app.post("/v1/memory/undo")
    async def undo(request: Request, body: UndoBody) -> Response:
        person = access_of(request.scope).can_review  # the review scope is a person's
        return await respond(request, lambda tenant: tenant.notes().undo(body.target, origin=REST,
                                                                          person=person))

    @app.get("/v1/memory/{target}")
    async def read(request: Request, target: Target) -> Response:
        return await respond(request, lambda tenant: tenant.read(target))

    @app.post("/v1/memory/{target}")
    async def add(request: Request, target: Target, body: AddBody) -> Response:
        return await respond(request, lambda tenant: tenant.notes().add(target, body.content, origin=REST))

    @app.patch("/v1/memory/{target}")
    async def replace(request: Request, target: Target, body: ReplaceBody) -> Response:
        return await respond(request, lambda tenant: tenant.notes().replace(
            target, body.old_text, body.content, origin=REST))

    @app.delete("/v1/memory/{target}")
    async def remove(request: Request, target: Target, body: RemoveBody) -> Response:
        return await respond(request, lambda tenant: tenant.notes().remove(target, body.old_text,
                                                                           origin=REST))

    @app.get("/v1/prompt")
    async def prompt(request: Request) -> Response:
        return await respond(request, lambda tenant: {"success": True, "prompt": tenant.prompt_section()})

    @app.post("/v1/recall/search")
    async def recall_search(request: Request, body: SearchBody) -> Response:
        if not body.query.strip():
            return _blank_query("query")
        return await respond(request, lambda tenant: tenant.recall.search(body.query, body.k).to_json())

    @app.post("/v1/recall")
    async def recall_add(request: Request, body: RecallBody) -> Response:
        if len(body.text) > MAX_FACT_CHARS:
            return JSONResponse({"success": False, "error": f"the fact is {len(body.text)} characters, over "
                                 f"the cap of {MAX_FACT_CHARS}; save one short fact at a time"},
                                status_code=413)
        return await respond(request, lambda tenant: tenant.recall.remember(body.text).to_json())

    @app.delete("/v1/recall/{memory_id}")
    async def recall_forget(request: Request, memory_id: MemoryId) -> Response:
        def answer(tenant: Tenant) -> dict[str, Any] | JSONResponse:
            result = tenant.recall.forget(memory_id).to_json()
            if result.get("removed") == 0:  # no such memory, as HTTP says it
                return JSONResponse({**result, "success": False, "error": f"no memory #{memory_id} in this "
                                     "profile; find ids with POST /v1/recall/search"}, status_code=404)
            return result

        return await respond(request, answer)

    @app.get("/v1/sessions/search")
    async def sessions_search(request: Request,
                              q: str = Query(max_length=MAX_QUERY_CHARS, description="Keywords."),
                              limit: int = Query(5, ge=1, le=20)) -> Response:
        if not q.strip():
            return _blank_query("q")

        def answer(tenant: Tenant) -> dict[str, Any]:
            hits = [{key: hit[key] for key in SESSION_HIT} for hit in tenant.search_sessions(q, limit)]
            return {"success": True, "query": q, "count": len(hits), "results": hits}

        return await respond(request, answer)

    return app


def run_http(application: FastAPI, *, host: str, port: int, read_timeout: float = READ_TIMEOUT,
             max_connections: int = MAX_CONNECTIONS) -> None:
    """Serve ``application`` with uvicorn until interrupted, within the server's limits (a whole
    request in ``read_timeout`` seconds, at most ``max_connections`` open connections)."""
    import uvicorn

    uvicorn.run(application, host=host, port=port, log_level="warning", access_log=False,
                http=guarded_protocol(read_timeout), timeout_keep_alive=KEEP_ALIVE,
                limit_concurrency=max_connections, backlog=BACKLOG)
