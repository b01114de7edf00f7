"""What the providers built on a vendor SDK or CLI share beyond :class:`HostedProvider`.

An SDK raises its own exception types (mem0's ``MemoryError`` with the
status in ``debug_info``, hindsight's ``ApiException`` with ``.status``), so
such a provider names its translation in :meth:`SdkProvider.translate_error`
and every :meth:`call` reports a :class:`ServiceError` the breaker and the
tool results understand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from silcrow.errors import RecallError, ServiceError
from silcrow.providers._base import HostedProvider
from silcrow.providers._http import service_error

T = TypeVar("T")


def required_text(args: dict[str, Any], key: str) -> str:
    """The tool argument ``key``, a non-empty string, or a RecallError the model can act on."""
    value = args.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RecallError(f"missing required parameter {key!r} (a non-empty string)")
    return value


class SdkProvider(HostedProvider):
    def translate_error(self, exc: BaseException, key_hint: str) -> ServiceError:
        """The ServiceError for what the SDK raised (override for SDK-specific exceptions)."""
        return service_error(self.name, exc, key_hint=key_hint)

    def call(self, op: str, fn: Callable[[], T]) -> T:
        hint = self.key_hint("api_key") if "api_key" in self.env else ""

        def translated() -> T:
            try:
                return fn()
            except ServiceError:
                raise
            except Exception as exc:
                raise self.translate_error(exc, hint) from exc

        return super().call(op, translated)
