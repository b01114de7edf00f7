"""The ``hindsight`` recall provider: a Hindsight server through the official hindsight-client."""

from silcrow.providers.hindsight._provider import HindsightProvider

__all__ = ["HindsightProvider"]
