"""The ``hindsight`` recall provider: a Hindsight server through the official hindsight-client."""

from silcrow.recall.providers.hindsight.provider import HindsightProvider

__all__ = ["HindsightProvider"]
