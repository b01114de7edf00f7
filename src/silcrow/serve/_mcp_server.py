"""The silcrow MCP server: tools, resources and a prompt over the official SDK's MCPServer.

The same server object runs over stdio (``silcrow mcp``, one home) and over
streamable HTTP (``silcrow serve``, one home per token). Which memory a
request reaches is decided per request by ``access`` (the HTTP layer puts the
token's tenant on the request; stdio has one fixed tenant), so list and call
handlers are overridden here rather than registered per function: the
schemas are the ones the agent gives its model, and every call runs the
tenant's library calls on a worker thread.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.server.stdio import stdio_server as mcp_stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    CallToolResult,
    ErrorData,
    GetPromptResult,
    JSONRPCError,
    ListResourcesResult,
    ListToolsResult,
    Prompt,
    PromptMessage,
    Resource,
    TextContent,
    Tool,
    ToolAnnotations,
)
from pydantic import ValidationError

from silcrow import tool as memory_tool
from silcrow._toolcall import convert_schema
from silcrow.agent import session_search_schema
from silcrow.recall import TOOL_NAMES, TOOL_SPECS, ToolSpec, bare_tool, hits_block
from silcrow.serve._errors import failure, failure_result
from silcrow.serve._tenant import READ_ONLY_TOOLS, Tenant, is_read_only_call
from silcrow.store import ENTRY_DELIMITER, PROJECT_FILES, PROJECT_TARGET, TARGET_FILES

log = logging.getLogger(__name__)

PROMPT_URI = "silcrow://prompt"
MEMORY_URIS = {f"silcrow://memory/{file_name}": target
               for target, file_name in {**TARGET_FILES, **PROJECT_FILES}.items()}
PROMPT_NAME = "memory_context"

INSTRUCTIONS = """\
silcrow is this user's long-term memory. At the start of each conversation read the resource \
silcrow://prompt once (or get the prompt memory_context) and keep it at the top of your context: \
it is the user's curated notes, and it changes only when a new conversation starts, so a prompt \
cache can reuse it. Save lasting facts and preferences with the `memory` tool (action add/replace/\
remove; `read` shows the current entries); search older conversations with session_search and \
long-term recall with recall_search."""

READ_LINE = ("\n- read: returns the current entries and usage of `target` (no other argument); use it "
             "instead of re-reading the prompt after a change.")


class AccessDenied(Exception):
    """The request may not do this; the message says why."""


class Access:
    """Which tenant a request reaches, whether it may write, and whether it may review (decide
    the model's proposals and edit through the inspector: a person's scope, see _tokens)."""

    def __init__(self, tenant: Tenant, can_write: bool, token_name: str | None = None,
                 token_id: str | None = None, can_review: bool = False,
                 projects: tuple[str, ...] | None = None) -> None:
        self.tenant = tenant
        self.can_write = can_write
        self.can_review = can_review and can_write
        # The API token's name and id, recorded with every write and decision it makes.
        self.token_name = token_name
        self.token_id = token_id
        # The project roots the token may name (None: any).
        self.projects = projects

    def may_reach(self, project: Path | None) -> bool:
        """Whether this caller may work in ``project`` (a root; None: no project)."""
        return project is None or self.projects is None or str(project) in self.projects


# Given the transport's request object (None on stdio), the caller's access.
AccessResolver = Callable[[Any], Access]


def _memory_tool(project: bool) -> Tool:
    """The memory tool, with the target ``project`` for a caller in a project."""
    schema = copy.deepcopy(memory_tool.PROJECT_PARAMETERS if project else memory_tool.PARAMETERS)
    action = schema["properties"]["action"]
    action["enum"] = [*action["enum"], "read"]
    action["description"] += " 'read' returns the current entries and usage of the target."
    description = memory_tool.PROJECT_DESCRIPTION if project else memory_tool.DESCRIPTION
    return Tool(name=memory_tool.TOOL_NAME, description=description + READ_LINE, input_schema=schema)


def _function_tool(schema: dict[str, Any] | ToolSpec) -> Tool:
    bare = bare_tool(schema) if isinstance(schema, ToolSpec) else convert_schema(schema, "bare")
    return Tool(name=bare["name"], description=bare.get("description") or "",
                input_schema=bare.get("parameters") or {"type": "object", "properties": {}},
                annotations=ToolAnnotations(read_only_hint=bare["name"] in READ_ONLY_TOOLS))


def _recall_specs(tenant: Tenant) -> list[ToolSpec]:
    """The recall tools of ``tenant``: those answered through the typed API (the recall tools'
    own specs), then the provider's other tools."""
    typed = set(tenant.typed_recall_tools())
    edge = [spec for spec in TOOL_SPECS if spec.name in typed]
    return edge + [spec for spec in tenant.manager.tool_specs() if spec.name not in typed]


def _result_text(name: str, result: dict[str, Any]) -> str:
    """What the model reads: the result JSON; recalled text inside the memory-context fence."""
    if name == "recall_search" and result.get("success"):
        if "context" in result:  # a provider without its own search tool: already a fenced block
            return str(result["context"]) or "no memories matched"
        return hits_block(result.get("results", [])) or "no memories matched"
    return json.dumps(result, ensure_ascii=False)


def _answer(tenant: Tenant, name: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """One tool call and the text the model reads of it (a worker thread's job)."""
    result = tenant.call(name, arguments)
    return result, _result_text(name, result)


class SilcrowMCP(MCPServer):
    """MCPServer whose tools, resources and prompt are the tenant's memory (see module doc)."""

    def __init__(self, access: AccessResolver, catalog: Callable[[], Tenant]) -> None:
        super().__init__("silcrow", instructions=INSTRUCTIONS, log_level="WARNING")
        self._access = access
        self._catalog = catalog  # the tenant listed for a call from outside a request
        # Per profile (and whether in a project): each tenant's provider declares its own tools.
        self._tools: dict[tuple[Path, bool], list[Tool]] = {}

    def _caller(self, context: Context[Any, Any] | None) -> Access:
        request = None
        if context is not None:
            try:
                request = context.request_context.request
            except ValueError:  # called outside a request (in-process use)
                request = None
        return self._access(request)

    async def _handle_list_tools(self, ctx: Any, params: Any) -> ListToolsResult:
        # The SDK's handler lists without the request; the caller's token names the profile.
        context: Context[Any, Any] = Context(request_context=ctx, mcp_server=self,
                                             subscriptions=self._subscriptions)
        return ListToolsResult(tools=await self.tools_for(self._caller(context).tenant))

    async def list_tools(self) -> list[Tool]:
        return await self.tools_for(await anyio.to_thread.run_sync(self._catalog))

    async def tools_for(self, tenant: Tenant) -> list[Tool]:
        """The tools of ``tenant``: memory, session_search, and its provider's recall tools."""
        key = (tenant.home, tenant.project is not None)
        tools = self._tools.get(key)
        if tools is None:
            own = [_memory_tool(key[1]), _function_tool(session_search_schema())]
            try:
                recall = await tenant.offload(_recall_specs, tenant)
            except Exception as exc:  # a provider that fails costs recall, never the notes
                log.warning("the recall tools of %s are not listed: %s", tenant.home, failure(exc)[1])
                return own  # not kept: listed again once the provider opens
            tools = self._tools[key] = [*own, *(_function_tool(s) for s in recall)]
        return tools

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> CallToolResult:
        access = self._caller(context)
        try:
            result, text = await self._call(access, name, arguments)
        except Exception as exc:  # the one place an MCP call's failure is answered (the table's text)
            result = failure_result(exc)
            text = json.dumps(result, ensure_ascii=False)
        return CallToolResult(content=[TextContent(type="text", text=text)],
                              structured_content=result, is_error=not result.get("success", False))

    async def _call(self, access: Access, name: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], str]:
        known = {t.name for t in await self.tools_for(access.tenant)}
        if name not in known and name in TOOL_NAMES:  # unlisted here: say why
            result: dict[str, Any] = await access.tenant.offload(access.tenant.missing_recall_tool, name)
            text = json.dumps(result, ensure_ascii=False)
        elif name not in known:
            result = {"success": False, "error": f"unknown tool {name!r}; available: "
                      f"{', '.join(sorted(known))}"}
            text = json.dumps(result, ensure_ascii=False)
        elif not access.can_write and not is_read_only_call(name, arguments):
            result = {"success": False, "error": f"this token is read-only, so {name!r} was refused; "
                      "use a token created with --scope write"}
            text = json.dumps(result, ensure_ascii=False)
        else:
            # Even a read: the notes may be on a PostgreSQL that does not answer, and fencing
            # recalled text scans all of it. Both on a worker thread.
            result, text = await access.tenant.offload(_answer, access.tenant, name, arguments)
        return result, text

    async def _handle_list_resources(self, ctx: Any, params: Any) -> ListResourcesResult:
        # As for tools: the SDK lists without the request; a caller in a project gets PROJECT.md.
        context: Context[Any, Any] = Context(request_context=ctx, mcp_server=self,
                                             subscriptions=self._subscriptions)
        project = self._caller(context).tenant.project is not None
        return ListResourcesResult(resources=await self.list_resources(project=project))

    async def list_resources(self, *, project: bool = False) -> list[Resource]:
        uris = [uri for uri, target in MEMORY_URIS.items() if project or target != PROJECT_TARGET]
        memory = [Resource(uri=uri, name=uri.rsplit("/", 1)[1], mime_type="text/markdown",
                           description=f"The current entries of {uri.rsplit('/', 1)[1]}, separated by "
                           f"'{ENTRY_DELIMITER.strip()}' lines.")
                  for uri in uris]
        prompt = Resource(uri=PROMPT_URI, name="prompt", mime_type="text/plain",
                          description="The curated-memory section of the system prompt, exactly as a "
                          "silcrow agent gets it. Read it once per conversation.")
        return [*memory, prompt]

    async def read_resource(self, uri: Any, context: Context[Any, Any] | None = None
                            ) -> Iterable[ReadResourceContents]:
        address = str(uri)
        tenant = self._caller(context).tenant
        target = MEMORY_URIS.get(address)
        if target is None and address != PROMPT_URI:
            raise ResourceNotFoundError(f"unknown resource {address}; use {PROMPT_URI} or "
                                        f"{' or '.join(MEMORY_URIS)}")
        try:
            if target is None:
                text = await tenant.offload(tenant.prompt_section)
                return [ReadResourceContents(content=text, mime_type="text/plain")]
            result = await tenant.offload(tenant.read, target)
        except Exception as exc:  # answered by the one table's text
            raise ResourceError(failure(exc)[1]) from exc
        if not result.get("success"):
            raise ResourceError(str(result.get("error")))
        return [ReadResourceContents(content=ENTRY_DELIMITER.join(result["entries"]),
                                     mime_type="text/markdown")]

    async def list_prompts(self) -> list[Prompt]:
        return [Prompt(name=PROMPT_NAME, description="silcrow's memory instructions and the user's "
                       "curated notes, to put in a system prompt once per conversation.")]

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None,
                         context: Context[Any, Any] | None = None) -> GetPromptResult:
        if name != PROMPT_NAME:
            raise ValueError(f"unknown prompt {name!r}; the only prompt is {PROMPT_NAME!r}")
        tenant = self._caller(context).tenant
        try:
            text = await tenant.offload(tenant.memory_context)
        except Exception as exc:  # answered by the one table's text
            raise ValueError(failure(exc)[1]) from exc
        message = PromptMessage(role="user", content=TextContent(type="text", text=text))
        return GetPromptResult(description="silcrow memory context", messages=[message])


def stdio_server(tenant: Tenant) -> SilcrowMCP:
    """The server ``silcrow mcp`` runs: one tenant, full access."""
    access = Access(tenant, can_write=True)
    return SilcrowMCP(lambda _request: access, lambda: tenant)


def _line_error(exc: Exception) -> JSONRPCError:
    """The JSON-RPC answer to a stdio line that is not a message: -32700 when it is not JSON at
    all, -32600 when it is JSON but no JSON-RPC message (its id cannot be known: null)."""
    not_json = isinstance(exc, ValidationError) and any(e.get("type") == "json_invalid" for e in exc.errors())
    if not_json:
        error = ErrorData(code=PARSE_ERROR, message="Parse error: the line is not JSON; send one JSON-RPC "
                          "message per line")
    else:
        error = ErrorData(code=INVALID_REQUEST, message="Invalid Request: the line is JSON but not a "
                          "JSON-RPC 2.0 message")
    return JSONRPCError(jsonrpc="2.0", id=None, error=error)


class _AnswerBadLines:
    """The stdio transport's read stream, answering each line it could not decode (the SDK only
    logs it, so the client would wait for an answer that never comes)."""

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner = inner
        self._write = write

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            await self._write.send(SessionMessage(_line_error(item)))

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _AnswerBadLines:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _AnswerBadLines:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


async def run_stdio(server: SilcrowMCP) -> None:
    """Serve ``server`` on stdin/stdout as the SDK does, but answer lines that are not messages."""
    lowlevel = server._lowlevel_server  # the SDK's run_stdio_async does the same, without the answers
    async with mcp_stdio_server() as (read_stream, write_stream):
        await lowlevel.run(_AnswerBadLines(read_stream, write_stream), write_stream,
                           lowlevel.create_initialization_options())
