"""The agent loop (:class:`Agent`) and its parts: prompt, model client, tools, compression.

The conversations it keeps are stored through :mod:`silcrow.sessions`.

The public names are listed in ``__all__``; the modules named ``_x`` are
internal. Each name is imported on first use, so that the prompt and the
``session_search`` tool can be used without pulling in the model client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow._lazy import lazy_getattr

if TYPE_CHECKING:
    from silcrow.agent._hold_judge import configured_hold_judge as configured_hold_judge
    from silcrow.agent._hold_judge import model_hold_judge as model_hold_judge
    from silcrow.agent._llm import Completion as Completion
    from silcrow.agent._llm import LLMClient
    from silcrow.agent._llm import ToolCall as ToolCall
    from silcrow.agent._loop import DEFAULT_REPLAY_RECALL as DEFAULT_REPLAY_RECALL
    from silcrow.agent._loop import Agent
    from silcrow.agent._merge import model_judge as model_judge
    from silcrow.agent._merge import model_merge as model_merge
    from silcrow.agent._prompt import build_system_prompt as build_system_prompt
    from silcrow.agent._search_tool import handle_session_search as handle_session_search
    from silcrow.agent._search_tool import session_search_schema as session_search_schema
    from silcrow.agent._tools import ToolRouter as ToolRouter

__all__ = [
    "Agent",
    "LLMClient",
]

__getattr__ = lazy_getattr(__name__, {
    "Agent": "silcrow.agent._loop",
    "Completion": "silcrow.agent._llm",
    "DEFAULT_REPLAY_RECALL": "silcrow.agent._loop",
    "LLMClient": "silcrow.agent._llm",
    "ToolCall": "silcrow.agent._llm",
    "ToolRouter": "silcrow.agent._tools",
    "build_system_prompt": "silcrow.agent._prompt",
    "handle_session_search": "silcrow.agent._search_tool",
    "configured_hold_judge": "silcrow.agent._hold_judge",
    "model_hold_judge": "silcrow.agent._hold_judge",
    "model_judge": "silcrow.agent._merge",
    "model_merge": "silcrow.agent._merge",
    "session_search_schema": "silcrow.agent._search_tool",
})
