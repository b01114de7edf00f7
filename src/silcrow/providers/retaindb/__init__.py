"""The ``retaindb`` recall provider: the hosted RetainDB memory API over HTTP."""

from silcrow.providers.retaindb._provider import RetainDBProvider

__all__ = ["RetainDBProvider"]
