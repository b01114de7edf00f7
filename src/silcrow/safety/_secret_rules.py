"""The rules :mod:`silcrow.safety._secrets` redacts by: known token formats and the shapes around them.

Three sources, in the order they are tried (an earlier rule's kind wins where two overlap):

1. **Known formats.** The regex detectors of Yelp's ``detect-secrets`` (a maintained ruleset,
   Apache-2.0, a dependency: its ``denylist`` patterns are used as they are, see
   :func:`detect_secrets_rules`), beside silcrow's own patterns for the prefixes vendors document
   for their keys (OpenAI/Anthropic ``sk-``, GitHub, GitLab, Slack and its webhooks, Discord
   webhooks, Google ``AIza``/``GOCSPX-``/``ya29.``, Stripe and ``whsec_`` webhook secrets,
   SendGrid, Hugging Face, npm, PyPI, Azure storage keys and SAS signatures, and more), JSON Web
   Tokens, and private key blocks (PEM, OpenSSH, PGP, SSH2, PuTTY).
2. **Shapes around a secret.** URL credentials (``scheme://[user]:password@host``, an empty user
   and ``/`` or ``@`` in the password included), ``Authorization``/``Cookie`` header values,
   command-line passwords (``--password``, ``mysql -p``, ``curl -u``, ``openssl pass:``), netrc
   lines, XML elements and SQL ``PASSWORD '…'``, and values assigned to secret-looking names
   (``detect-secrets``' keyword list plus token, passphrase, credentials...) in every common
   syntax: ``.env``, YAML, JSON, TOML, INI, code, connection strings; quoted values may hold
   spaces and ``;``.
3. **Secrets said in words** ("the wifi password is Blue-Tiger-77!", "my PIN is 4821", "use the
   token ...") and **bare random strings** (:mod:`silcrow.safety._secret_words`).

detect-secrets' high-entropy plugins are not used: they flag commit hashes, sha256 digests and
base64 of ordinary words, which must pass unchanged; ``_secret_words.random_token`` is the entropy
rule, with those exclusions. Its ``JwtTokenDetector`` is not used either (its lazy tail leaves the
signature out of a match), nor the detectors whose patterns backtrack on long input (npm's
``.+``, OpenAI's, the keyword detector's), nor ``IPPublicDetector`` (an address is not a secret).

Every pattern here is linear on adversarial input (``tests/test_regex_linear.py`` fuzzes them,
detect-secrets' included, through ``_secrets.__regexes__``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from silcrow.safety import _secret_words as words


@dataclass(frozen=True)
class Rule:
    """One way a secret shows: ``pattern``'s group ``secret`` (or the whole match, trimmed of the
    delimiters some detectors match around a token) is replaced by ``[REDACTED:<kind>]`` when
    ``accept`` (if any) takes the match. ``hints``: lowercase strings, one of which the lowercased
    text must hold for the rule to run at all, and ``also`` strings one of which it must hold too
    (fast skips: the scan costs more than ``in``; empty: always run)."""

    kind: str
    pattern: re.Pattern[str]
    hints: tuple[str, ...] = ()
    accept: Callable[[re.Match[str]], bool] | None = None
    #: and one of these too (the text, not lowercased), when given
    also: tuple[str, ...] = ()


def _rule(kind: str, pattern: str, hints: tuple[str, ...] = (), accept: Callable[[re.Match[str]], bool]
          | None = None, also: tuple[str, ...] = ()) -> Rule:
    return Rule(kind, re.compile(pattern), hints, accept, also)


# -- private key blocks --------------------------------------------------------------------------

_BEGIN = r"-{4,5} ?BEGIN [A-Z0-9 ]{0,40}?PRIVATE KEY(?: BLOCK)? ?-{4,5}"
_END = r"-{4,5} ?END [A-Z0-9 ]{0,40}?PRIVATE KEY(?: BLOCK)? ?-{4,5}"
# A block cut before its END line: the header, then armor headers ("Version: ...", "Comment: ...")
# and key lines. Possessive throughout, so a long run cannot backtrack.
_KEY_BODY = r"(?:\s*+(?:[A-Za-z0-9+/=]{8,}+|[A-Z][A-Za-z0-9-]{1,30}+: [^\n]{0,200}+))*+"

PRIVATE_KEYS = (
    _rule("private-key", _BEGIN + r"[\s\S]{0,30000}?" + _END, ("private key",)),
    _rule("private-key", r"PuTTY-User-Key-File-\d+:[\s\S]{0,30000}?Private-(?:MAC|Hash): ?[0-9a-fA-F]{16,}+",
          ("putty-user-key-file",)),
    _rule("private-key", _BEGIN + _KEY_BODY, ("private key",)),
    _rule("private-key", r"PuTTY-User-Key-File-\d+:[^\n]*+" + _KEY_BODY, ("putty-user-key-file",)),
)

# -- tokens whose format says what they are ------------------------------------------------------

_T = r"(?<![A-Za-z0-9_-])"  # a token starts where no token character precedes it
TOKENS = (
    _rule("jwt", _T + r"eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}+", ("eyj",)),
    _rule("jwt", _T + r"eyJ[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.?", ("eyj",)),  # unsigned
    _rule("api-key", _T + r"sk-(?:ant-|proj-|svcacct-|admin-|or-|live-|test-)?[A-Za-z0-9_-]{20,}+", ("sk-",)),
    _rule("aws-key", r"(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA|A3T[A-Z0-9])"
          r"[A-Z0-9]{16}(?![A-Z0-9])"),
    _rule("github-token", _T + r"(?:gh[pousr]_[A-Za-z0-9]{30,}+|github_pat_[A-Za-z0-9_]{22,}+)",
          ("gh", "github_pat_")),
    _rule("gitlab-token", _T + r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|ffct)-[A-Za-z0-9_-]{20,}+",
          ("gl",)),
    _rule("slack-token", _T + r"xox[abposre]-[A-Za-z0-9-]{10,}+", ("xox",)),
    _rule("slack-token", _T + r"xapp-\d-[A-Za-z0-9-]{10,}+", ("xapp-",)),
    _rule("slack-webhook", r"https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{16,}+",
          ("hooks.slack.com",)),
    _rule("discord-webhook", r"https?://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{5,30}/"
          r"[A-Za-z0-9_-]{20,}+", ("discord",)),
    _rule("google-key", _T + r"AIza[0-9A-Za-z_-]{35}", ("aiza",)),
    _rule("google-oauth", _T + r"(?:GOCSPX-[A-Za-z0-9_-]{20,}+|ya29\.[0-9A-Za-z_-]{20,}+"
          r"|1//0[0-9A-Za-z_-]{30,}+)",
          ("gocspx-", "ya29.", "1//0")),
    _rule("stripe-key", _T + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}+", ("_live_", "_test_")),
    _rule("webhook-secret", _T + r"whsec_[A-Za-z0-9+/=_-]{20,}+", ("whsec_",)),
    _rule("sendgrid-key", _T + r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}", ("sg.",)),
    _rule("huggingface-token", _T + r"hf_[A-Za-z0-9]{30,}+", ("hf_",)),
    _rule("npm-token", _T + r"npm_[A-Za-z0-9]{36}", ("npm_",)),
    _rule("pypi-token", _T + r"pypi-[A-Za-z0-9_-]{50,}+", ("pypi-",)),
    _rule("silcrow-token", _T + r"slc_[A-Za-z0-9]{4,}+_[A-Za-z0-9_-]{16,}+", ("slc_",)),
    _rule("azure-key", r"(?i)\b(?:AccountKey|SharedAccessKey|SharedSecret|PrimaryKey|SecondaryKey)\s*+=\s*+"
          r"(?P<secret>[A-Za-z0-9+/]{20,}+={0,2})", ("accountkey", "sharedaccess", "sharedsecret", "arykey")),
    _rule("azure-sas", r"(?i)[?&;]sig=(?P<secret>[A-Za-z0-9%+/=]{20,}+)", ("sig=",)),
    _rule("azure-secret", _T + r"[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])", ("q~",)),
    # More vendors' documented prefixes (each a fixed prefix and a long random tail).
    _rule("api-key", _T + r"(?:do[opr]_v1_[a-f0-9]{64}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"
          r"|hv[sb]\.[A-Za-z0-9_-]{24,}+"
          r"|AGE-SECRET-KEY-1[0-9A-Z]{58}|dapi[a-f0-9]{32}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}"
          r"|gl(?:c|sa)_[A-Za-z0-9_=+/-]{32,}+|lin_api_[A-Za-z0-9]{40}|ntn_[A-Za-z0-9]{40,}+"
          r"|secret_[A-Za-z0-9]{43}|key-[0-9a-f]{32}|NRAK-[A-Z0-9]{27}|sntr[ysu]s?_[A-Za-z0-9_=+/-]{30,}+"
          r"|sbp_[a-f0-9]{40}|gsk_[A-Za-z0-9]{48,}+|r8_[A-Za-z0-9]{37}|dp\.(?:st|sa|ct|pt)\.[A-Za-z0-9_.-]{40,}+"
          r"|ATATT3[A-Za-z0-9_=-]{150,}+|pul-[a-f0-9]{40}|fo1_[A-Za-z0-9_-]{40,}+|figd_[A-Za-z0-9_-]{40,}+"
          r"|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}+)",
          ("do", "shp", "hv", "age-secret-key", "dapi", "pmak-", "glc_", "glsa_", "lin_api_", "ntn_",
           "secret_", "key-", "nrak-", "sntr", "sbp_", "gsk_", "r8_", "dp.", "atatt3", "pul-", "fo1_",
           "figd_", "atlasv1")),
)

#: detect-secrets' detectors used: (module under ``detect_secrets.plugins``, class) -> kind redacted.
DETECT_SECRETS = {
    ("aws", "AWSKeyDetector"): "aws-key",
    ("azure_storage_key", "AzureStorageKeyDetector"): "azure-key",
    ("artifactory", "ArtifactoryDetector"): "artifactory-token",
    ("discord", "DiscordBotTokenDetector"): "discord-token",
    ("github_token", "GitHubTokenDetector"): "github-token",
    ("gitlab_token", "GitLabTokenDetector"): "gitlab-token",
    ("mailchimp", "MailchimpDetector"): "mailchimp-key",
    ("private_key", "PrivateKeyDetector"): "private-key",
    ("pypi_token", "PypiTokenDetector"): "pypi-token",
    ("sendgrid", "SendGridDetector"): "sendgrid-key",
    ("slack", "SlackDetector"): "slack-token",
    ("square_oauth", "SquareOAuthDetector"): "square-secret",
    ("stripe", "StripeDetector"): "stripe-key",
    ("telegram_token", "TelegramBotTokenDetector"): "telegram-token",
    ("twilio", "TwilioKeyDetector"): "twilio-key",
}


def detect_secrets_rules() -> tuple[Rule, ...]:
    """detect-secrets' regex detectors of :data:`DETECT_SECRETS`, as rules, in that order. Imported
    on first use: the package loads ``requests`` (about 0.1 s on an idle machine), which only a
    process that talks to an external provider needs."""
    import importlib

    rules: list[Rule] = []
    for (module, name), kind in DETECT_SECRETS.items():
        detector = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)
        for pattern in detector.denylist:
            # Its private-key patterns are the header alone: the block rules above take the key.
            rules.append(Rule(kind, pattern, accept=words.plausible_token if kind != "private-key" else None))
    return tuple(rules)


# -- the shapes around a secret ----------------------------------------------------------------

_QUOTED = r"\"(?:[^\"\\\n]|\\.){1,300}+\"|'(?:[^'\\\n]|\\.){1,300}+'|`[^`\n]{1,300}+`"
_BARE = r"[^\s\"'`,;<>)\]}]{1,300}+"
_VALUE = rf"(?P<value>{_QUOTED}|{_BARE})"

_NAME = rf"(?P<name>{words.alternation(words.STRONG_NAMES)}|{words.alternation(words.MEDIUM_NAMES)})"

SHAPES = (
    # scheme://[user]:password@host; the password runs to the last "@" before the host, so an
    # unencoded "@" or "/" in it is still its own. A port ("host:8080/a@b") is not a password.
    _rule("url-password", r"(?i)\b[a-z][a-z0-9+.-]{1,20}+://[^\s:/@?#]{0,200}+:(?P<secret>\S{1,200})@(?=[\w\[])",
          ("://",), words.url_password),
    _rule("auth-header", r"(?i)\b(?:proxy-)?authorization\"?\s*+[:=]\s*+[\"']?"
          r"(?:(?:bearer|basic|token|digest|bot|"
          r"apikey|api-key|key|ssws|negotiate|ntlm|hmac|otp|sso-key|pat|jwt|dpop)\b\s*+)?+"
          r"(?P<secret>[^\s\"']{6,500}+)", ("authorization",), words.header_value),
    _rule("auth-header", r"(?i)\b(?:bearer|basic|token)\s++(?P<secret>[A-Za-z0-9._~+/=-]{16,}+)",
          ("bearer", "basic", "token"), words.credential_like),
    _rule("cookie", r"(?i)\b(?:set-)?cookie\s*+:\s*+(?P<secret>[^\r\n\"']{8,500}+)", ("cookie",),
          words.cookie),
    _rule("cli-password", r"(?i)(?<![\w-])--(?:password|passwd|pass|passphrase|token|api-key|apikey|secret|"
          r"client-secret|auth-token|access-token|key-password|storepass|keypass|db-password)(?:=|\s++)"
          rf"(?P<value>{_QUOTED}|[^\s\"'`]{{3,300}}+)", ("--",), words.cli_value),
    _rule("cli-password", r"(?i)(?<![\w-])-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass"
          r"|destkeypass"
          rf"|password|passwd)\s++(?P<value>{_QUOTED}|[^\s\"'`-][^\s\"'`]{{2,300}}+)", ("pass", "passwd"),
          words.cli_value),
    _rule("cli-password", r"(?i)\b(?:mysql(?:dump|admin|sh)?|mariadb|sshpass)\b[^\n]{0,200}?\s-p\s?"
          r"(?P<value>'[^'\n]{1,300}+'|\"[^\"\n]{1,300}+\"|[^\s\"'-][^\s\"']{2,300}+)",
          ("mysql", "mariadb", "sshpass"), words.cli_value),
    _rule("cli-password", r"(?i)(?<![\w-])(?:-u|--user)\s++[\"']?[^\s:\"']{1,100}+:"
          r"(?P<secret>[^\s\"']{1,200}+)",
          ("-u", "--user"), words.not_placeholder),
    _rule("cli-password", r"(?i)(?<![\w-])pass:(?P<secret>[^\s\"']{3,300}+)", ("pass:",),
          words.not_placeholder),
    _rule("netrc", r"(?i)\bmachine\s++\S++\s++login\s++\S++\s++password\s++(?P<secret>\S{1,300}+)",
          ("machine",)),
    _rule("assignment", r"(?i)<(?P<tag>[\w:.-]{0,40}?(?:"
          + words.alternation(words.STRONG_NAMES + words.MEDIUM_NAMES) + r"))>"
          r"(?P<value>[^<\n]{1,300}+)</", ("<",), words.xml_value),
    _rule("assignment", r"(?i)\b(?:password|identified\s++by)\s++"
          r"(?P<value>'[^'\n]{1,300}+'|\"[^\"\n]{1,300}+\")",
          ("password", "identified"), words.quoted_value),
    _rule("assignment", r"(?i)" + _NAME + r"(?![a-z0-9_])[\"'\]]{0,2}+[ \t]{0,3}+(?::=|=>|===?|!==?|=|:)"
          r"[ \t]{0,3}+"
          r"(?:\r?\n[ \t]{1,12}+)?" + _VALUE,
          ("pass", "pwd", "secret", "contras", "credential", "key", "token", "auth", "bearer", "session"),
          words.assigned_value, also=("=", ":")),
)
