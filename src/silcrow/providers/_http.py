"""HTTP status and client errors as ServiceError, and a small JSON-over-HTTP client.

:func:`service_error` turns what an HTTP client or a service's SDK raised
into a :class:`ServiceError` with a message that says what to do. It reads
the status and headers by duck typing, so it serves httpx errors and the
official SDKs (honcho-ai, supermemory, ...) alike without importing them.
:class:`JsonHttp` is the client of the providers without an official SDK.
"""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Mapping
from typing import Any

import httpx

from silcrow.errors import ServiceError
from silcrow.providers._validate import parse_json

_PERMANENT = {400, 404, 405, 409, 413, 415, 422}


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta seconds or an HTTP date)."""
    if not headers:
        return None
    raw = headers.get("retry-after") or headers.get("Retry-After")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def marked_retryable(detail: str) -> bool:
    """True when an error body says, in JSON, that the same request may succeed later
    (``"retryable": true`` anywhere in it, as OpenViking marks a 409 on a busy resource)."""
    try:
        body = json.loads(detail)
    except (ValueError, TypeError):
        return False
    stack = [body]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("retryable") is True:
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def status_error(service: str, status: int, detail: str, headers: Mapping[str, str] | None = None,
                 *, key_hint: str = "") -> ServiceError:
    """The ServiceError of an HTTP error status, with advice per status."""
    retryable = marked_retryable(detail)
    detail = " ".join(detail.split())[:200]
    advice = {
        401: f"the API key was refused; {key_hint or 'check the key setting'}",
        403: f"the API key may not do this; {key_hint or 'check the key and its permissions'}",
        404: "not found; check the endpoint URL and the workspace/project names",
        429: "rate limited; calls pause and queued writes are retried later",
    }.get(status, "the service failed; calls are retried later" if status >= 500 else "request refused")
    if retryable:
        advice = "the service is busy with it; retried later"
    retry = retry_after_seconds(headers)
    return ServiceError(
        f"{service} answered HTTP {status} ({detail or 'no detail'}): {advice}",
        status=status, retry_after=retry, permanent=status in _PERMANENT and not retryable,
    )


def _decode_failure(exc: BaseException) -> bool:
    """True when ``exc`` or what caused it is a JSON decoding error."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, json.JSONDecodeError) or str(current).startswith("Expecting value: line"):
            return True
        current = current.__cause__ or current.__context__
    return False


def service_error(service: str, exc: BaseException, *, key_hint: str = "") -> ServiceError:
    """Translate any client/SDK exception into a ServiceError (see module doc)."""
    if isinstance(exc, ServiceError):
        return exc
    status = getattr(exc, "status_code", None)
    if not isinstance(status, int):
        status = getattr(exc, "status", None)  # honcho-ai's errors; 0 there means "no response"
    response = getattr(exc, "response", None)
    if not status and response is not None:
        status = getattr(response, "status_code", None)
    if isinstance(status, int) and 0 < status < 400:  # an SDK that could not parse a 2xx body
        return ServiceError(f"{service} answered a malformed response (HTTP {status}): {str(exc)[:160]}")
    if isinstance(status, int) and status:
        headers = getattr(exc, "headers", None) or getattr(response, "headers", None)
        body = getattr(exc, "body", None) or getattr(exc, "message", None) or str(exc)
        error = status_error(service, status, str(body), headers, key_hint=key_hint)
        retry = getattr(exc, "retry_after", None)
        if error.retry_after is None and isinstance(retry, int | float):
            error.retry_after = float(retry)
        return error
    name = type(exc).__name__
    if _decode_failure(exc):  # e.g. honcho-ai reports a body that is not JSON as a ConnectionError
        return ServiceError(f"{service} answered a malformed response (not JSON: {exc}); the endpoint may "
                            "not be this service's API (check the URL)")
    if isinstance(exc, httpx.TimeoutException | TimeoutError) or "Timeout" in name:
        return ServiceError(f"{service} did not answer in time ({name}); the service may be overloaded")
    if isinstance(exc, httpx.TransportError | ConnectionError | OSError) or "Connection" in name:
        return ServiceError(f"cannot reach {service} ({name}: {exc}); check the endpoint URL and the network")
    return ServiceError(f"{service} call failed: {name}: {exc}")


class JsonHttp:
    """JSON requests to one service with a timeout; every failure is a ServiceError."""

    def __init__(self, service: str, base_url: str, *, headers: Mapping[str, str] | None = None,
                 timeout: float = 10.0, key_hint: str = "") -> None:
        self.service = service
        self.key_hint = key_hint
        self._client = httpx.Client(base_url=base_url.rstrip("/"), headers=dict(headers or {}),
                                    timeout=timeout, follow_redirects=False)

    def raw(self, method: str, path: str, *, json: Any = None,
            params: Mapping[str, Any] | None = None, follow_presigned: bool = False) -> bytes:
        """The body of a 2xx answer as bytes; every failure is a ServiceError.

        With ``follow_presigned`` a redirect (a download answered with a presigned storage URL) is
        followed once, without this client's headers: the URL carries its own signature, and the
        API key must not go to the storage host. Otherwise a redirect is an error, not an empty body.
        """
        try:
            response = self._client.request(method, path, json=json, params=params)
            location = response.headers.get("location")
            if follow_presigned and response.is_redirect and location:
                response = httpx.get(str(response.url.join(location)), timeout=self._client.timeout)
        except httpx.HTTPError as exc:
            raise service_error(self.service, exc) from exc
        if response.status_code >= 400:
            raise status_error(self.service, response.status_code, response.text, response.headers,
                               key_hint=self.key_hint)
        if response.is_redirect:
            raise ServiceError(f"{self.service} answered a redirect (HTTP {response.status_code}) for "
                               f"{method} {path}; the endpoint URL may be wrong (check it)")
        return response.content

    def request(self, method: str, path: str, *, json: Any = None,
                params: Mapping[str, Any] | None = None) -> Any:
        """The decoded JSON body of a 2xx answer (None for an empty one)."""
        content = self.raw(method, path, json=json, params=params)
        if not content.strip():
            return None
        return parse_json(self.service, f"{method} {path} response", content)

    def close(self) -> None:
        self._client.close()
