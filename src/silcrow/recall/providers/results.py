"""The JSON a provider tool returns to the model, built in one place.

Every tool result of the external providers goes through :func:`ok` or
:func:`error`, so moving to silcrow's shared tool-call helper is a change
here only.
"""

from __future__ import annotations

import json
from typing import Any


def ok(**data: Any) -> str:
    """A successful tool result: ``{"success": true, ...data}``."""
    return json.dumps({"success": True, **data}, ensure_ascii=False, default=str)


def error(message: str, **data: Any) -> str:
    """A failed tool result the model can read and act on."""
    return json.dumps({"success": False, "error": message, **data}, ensure_ascii=False, default=str)
