"""The framework integrations are extras: importing one without its SDK says which extra to
install, and importing them loads no model."""

from __future__ import annotations

import subprocess
import sys

import pytest

from silcrow.errors import ConfigError, ExtraNotInstalledError

CASES = [("anthropic", "anthropic", "anthropic"), ("openai_agents", "agents", "openai-agents"),
         ("langgraph", "langgraph", "langgraph"), ("llama_index", "llama_index", "llama-index"),
         ("pydantic_ai", "pydantic_ai", "pydantic-ai"),
         ("agent_framework", "agent_framework", "agent-framework"),
         ("autogen", "autogen_core", "autogen"), ("crewai", "crewai", "crewai"),
         ("google_adk", "google", "google-adk")]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8",
                          timeout=120)


@pytest.mark.parametrize(("module", "sdk", "extra"), CASES)
def test_a_missing_sdk_names_the_extra(module: str, sdk: str, extra: str) -> None:
    # None in sys.modules makes `import sdk` fail as it does when the package is not installed.
    done = _python(f"import sys; sys.modules[{sdk!r}] = None\n"
                   "from silcrow.errors import ExtraNotInstalledError\n"
                   f"try:\n    import silcrow.integrations.{module}\n"
                   "except ExtraNotInstalledError as exc:\n    print(exc)\n"
                   "else:\n    raise SystemExit('imported without the SDK')\n")
    assert done.returncode == 0, done.stderr
    assert f"pip install 'silcrow[{extra}]'" in done.stdout
    assert f"silcrow.integrations.{module} needs the {sdk!r} package" in done.stdout


def test_the_error_is_an_import_error_and_a_silcrow_error() -> None:
    assert issubclass(ExtraNotInstalledError, ImportError)
    assert issubclass(ExtraNotInstalledError, ConfigError)


def test_importing_silcrow_loads_no_sdk_and_the_integrations_load_no_model() -> None:
    done = _python("import sys, silcrow, silcrow.integrations, silcrow.schema\n"
                   "sdks = {'anthropic', 'agents', 'langgraph', 'llama_index', 'pydantic_ai',\n"
                   "        'agent_framework'}\n"
                   "sdks &= set(sys.modules)\n"
                   "assert not sdks, sdks\n"
                   "import silcrow.integrations.anthropic, silcrow.integrations.openai_agents\n"
                   "import silcrow.integrations.langgraph, silcrow.integrations.llama_index\n"
                   "import silcrow.integrations.pydantic_ai, silcrow.integrations.agent_framework\n"
                   "heavy = {'onnxruntime', 'tokenizers'} & set(sys.modules)\n"
                   "assert not heavy, heavy\n")
    assert done.returncode == 0, done.stderr
