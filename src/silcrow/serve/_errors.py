"""How the servers answer a call that did not succeed: the one table of outcomes and HTTP
statuses, used by every REST route, the MCP server and the inspector (docs/mcp-http.md shows
it to clients).

A call either returns a result (the memory tool's JSON: ``success`` says whether it did what
was asked) or raises. A result that did not succeed is a refusal; an exception is looked up
by its class, the nearest entry of :data:`STATUSES` on its MRO winning:

=====================================================  ======  ==========================
outcome                                                status  error text
=====================================================  ======  ==========================
a refusal naming something that does not exist         404     the refusal's
any other refusal (a write refused, invalid input)     422     the refusal's
target ``project`` in a request naming no project      422     how to name one
(a write's refusal, or :class:`~silcrow.errors.ProjectRequiredError` for a read)
:class:`~silcrow.errors.ReviewRequiredError`           403     what it takes (a person)
:class:`~silcrow.errors.StoreError`, ``DriftError``    409     the error's (names the file)
:class:`~silcrow.errors.LockTimeoutError`,             503     the error's
``ServiceUnavailableError``
any other :class:`~silcrow.errors.SilcrowError`        422     the error's (what to do)
anything else (a bug)                                  500     a generic one; the server's
                                                               log has the traceback
=====================================================  ======  ==========================

An unexpected error is never a 422 and its text never reaches the caller.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from silcrow.errors import (
    DriftError,
    LockTimeoutError,
    ProjectRequiredError,
    ReviewRequiredError,
    ServiceUnavailableError,
    SilcrowError,
    StoreError,
)

__all__ = ["STATUSES", "UNEXPECTED", "failure", "failure_result", "result_status"]

log = logging.getLogger(__name__)

#: The status of an exception, by the nearest of these classes on its MRO.
STATUSES: dict[type[BaseException], int] = {
    ReviewRequiredError: 403,
    ProjectRequiredError: 422,
    LockTimeoutError: 503,
    ServiceUnavailableError: 503,
    DriftError: 409,
    StoreError: 409,
    SilcrowError: 422,
}
UNEXPECTED = ("the server failed unexpectedly; try again, and if it keeps failing, its operator "
              "finds why in the server's log")
#: How a refusal says that what it names does not exist (the store's own wording).
_MISSING = ("no pending proposal", "no archived entry")


def failure(exc: BaseException) -> tuple[int, str]:
    """``(status, error text)`` of an exception a call raised (see the module's table). An
    unexpected one is logged with its traceback here, once, and its text kept from the caller."""
    for klass in type(exc).__mro__:
        status = STATUSES.get(klass)
        if status is not None:
            return status, str(exc)
    log.error("a server call failed unexpectedly", exc_info=exc)
    return 500, UNEXPECTED


def failure_result(exc: BaseException) -> dict[str, Any]:
    """The result JSON of a call that raised ``exc`` (what MCP answers; REST adds the status)."""
    return {"success": False, "error": failure(exc)[1]}


def result_status(result: Mapping[str, Any]) -> int:
    """The status of a call's result: 200 when it succeeded, else 404 or 422 (see the table)."""
    if result.get("success"):
        return 200
    return 404 if str(result.get("error", "")).startswith(_MISSING) else 422
