"""The ``honcho`` recall provider: Honcho user modelling through the official honcho-ai SDK."""

from silcrow.providers.honcho._provider import HonchoProvider

__all__ = ["HonchoProvider"]
