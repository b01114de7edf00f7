"""How a REST route calls the library: one call on the caller's tenant, answered once.

Every route under ``/v1`` hands :func:`respond` what to do with the tenant; it runs through
the tenant's one entry (:meth:`~silcrow.serve._tenant.Tenant.offload`: the per-profile
thread bound, disk errors) and its outcome becomes the response here, by the table of
:mod:`silcrow.serve._errors`: a result is 200, 404 or 422, an exception its status. Nothing
below a route catches an error to make a refusal of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from silcrow.errors import ReviewRequiredError
from silcrow.serve._auth import access_of, review_needed
from silcrow.serve._errors import failure, result_status
from silcrow.serve._mcp_server import Access
from silcrow.serve._tenant import Tenant

__all__ = ["failed", "reply", "respond"]

Answer = Callable[[Tenant], Mapping[str, Any] | Response]


def reply(result: Mapping[str, Any]) -> JSONResponse:
    """A call's result JSON with its status (200, 404 or 422)."""
    return JSONResponse(dict(result), status_code=result_status(result))


def failed(exc: BaseException, access: Access | None = None) -> JSONResponse:
    """The response to a call that raised ``exc``; a person's action asked by a model's token
    says which token and how a person does it."""
    status, error = failure(exc)
    if isinstance(exc, ReviewRequiredError) and access is not None:
        error = review_needed(access, exc.action)
    return JSONResponse({"success": False, "error": error}, status_code=status)


async def respond(request: Request, answer: Answer) -> Response:
    """``answer(tenant)`` for the caller's tenant, through its one entry, as the response: a
    result (rendered on the worker thread too) by its status, an exception by the table."""
    access = access_of(request.scope)

    def run(tenant: Tenant) -> Response:
        out = answer(tenant)
        return out if isinstance(out, Response) else reply(out)

    try:
        return await access.tenant.offload(run, access.tenant)
    except Exception as exc:  # the one place a REST call's failure is answered
        return failed(exc, access)
