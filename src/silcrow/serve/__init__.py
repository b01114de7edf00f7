"""silcrow for other agents: the MCP server (stdio and streamable HTTP), the HTTP API, tokens.

Nothing here has memory logic of its own: every call goes through the same
store, manager and session-store calls as the library, the CLI and the agent
(:mod:`silcrow.serve.tenant`), so they all see one state. The modules import
the MCP SDK, FastAPI and uvicorn; import them only where they are used, so
that ``import silcrow`` stays cheap.
"""
