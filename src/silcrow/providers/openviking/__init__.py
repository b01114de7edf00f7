"""The ``openviking`` recall provider: a self-hosted OpenViking context database over HTTP."""

from silcrow.providers.openviking._provider import OpenVikingProvider

__all__ = ["OpenVikingProvider"]
