"""The ``byterover`` recall provider: ByteRover's ``brv`` command run as a subprocess."""

from silcrow.providers.byterover._provider import ByteroverProvider

__all__ = ["ByteroverProvider"]
