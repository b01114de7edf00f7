"""What tells a secret from ordinary words: the checks behind :mod:`silcrow.safety._secret_rules`.

Two rules live here because they are mostly judgement:

* **Secrets said in words**: "the wifi password is Blue-Tiger-77!", "my PIN is 4821", "the
  passphrase is 'correct horse battery staple'", "set the password to X", "log in with the password
  X". The value is taken unless it is a word that describes rather than gives a secret ("the
  password is required / too short / in the vault / expired"): function words, a list of such
  adjectives, and lowercase words ending like one (-ed, -ing, -able, -ive, ...). A token or key
  said in words must look like one (digits or mixed case); a passphrase or seed phrase is taken to
  the end of its clause.
* **Bare random strings** (:data:`RANDOM`): a run of 30+ characters of the base64/base64url
  alphabet holding upper case, lower case and digits (an AWS secret access key on its own, an API
  key pasted without a name). Not taken: hex (commit hashes, sha256 digests, UUIDs have no
  lower+upper mix), identifiers and paths made of words (``AbstractFactoryBean2``), base64 that
  decodes to ordinary text, and digests with their label (``sha256:``, ``sha512-`` as in lock
  files, ``h1:`` as in go.sum, SSH public keys and fingerprints, ``data:...;base64,``).
"""

from __future__ import annotations

import base64
import binascii
import re

# -- placeholders and code ---------------------------------------------------------------------

_PLACEHOLDER = re.compile(
    r"(?i:<[^>]{0,80}>?|\$\{[^}]{0,80}\}?|\$\([^)]{0,80}\)?)|\$[A-Z_][A-Z0-9_]{0,80}|\$[a-z_][a-z0-9_]{0,80}"
    r"|(?i:%\(?[A-Za-z_]\w{0,80}\)?[%s]?"
    r"|\{\{.{0,80}|\{[A-Za-z_]\w{0,80}\}|x{3,}|\*{3,}|\.{3}|…|null|none|nil|undefined|true|false|yes|no"
    r"|on|off|empty|required|optional|string|str|int|bool|redacted|hidden|masked|placeholder|example"
    r"|todo|tbd|n/?a|!vault|your[_-]?\w{0,40}|\[?redacted\]?|secret|password|token|\[REDACTED:[a-z0-9-]+\])"
    r"|(?:raise|return|pass|continue|break|print|yield|await|self|this|not|and|or|if|else|lambda|function|new)(?:[\s(].*)?"
)
_SECRET_WORD = re.compile(r"(?i)pass|pwd|secret|token|key|cred|auth")
_CODE = re.compile(r"(?<![\w.])(?:[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)++(?:[(\[].*)?|[A-Za-z_][\w.]*+[(\[].*)")
_PATH = re.compile(r"[~.]?/[\w./-]*")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_NAME_LIKE = re.compile(r"[A-Za-z]++(?:[-_][A-Za-z]++)*+")  # "Mcp-Session-Id": a header's name, not a key
_ENV_NAME = re.compile(r"(?<![A-Z0-9_])[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++")
_DOTTED = re.compile(r"(?<![\w.-])[A-Za-z_][\w-]*+(?:\.[A-Za-z_][\w-]*+)++")


def is_placeholder(value: str) -> bool:
    """A stand-in for a secret, not one: ``<your-key>``, ``${TOKEN}``, ``$API_KEY``, ``null``, a
    cut example (``slc_...``), the name of the variable that holds it (``MEM0_API_KEY``)..."""
    value = value.rstrip("`,;)")
    return (not value or bool(_PLACEHOLDER.fullmatch(value)) or value.endswith(("...", "…"))
            or bool(_ENV_NAME.fullmatch(value) and _SECRET_WORD.search(value)))


def _unquote(value: str) -> tuple[str, bool]:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'`":
        return value[1:-1], True
    return value, False


def credential_like(found: re.Match[str]) -> bool:
    """The ``secret`` group looks like a generated credential: a digit, or upper and lower case."""
    return _looks_generated(found.group("secret"))


def _looks_generated(value: str) -> bool:
    if is_placeholder(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_upper = any(c.isupper() for c in value[1:])
    has_lower = any(c.islower() for c in value)
    return len(value) >= 8 and (has_digit and (has_upper or has_lower) or has_upper and has_lower)


def not_placeholder(found: re.Match[str]) -> bool:
    return not is_placeholder(found.group("secret").strip("\"'"))


def header_value(found: re.Match[str]) -> bool:
    """An ``Authorization`` value, not the word after one ("an Authorization: Bearer header")."""
    value = found.group("secret").strip("\"'")
    return not is_placeholder(value) and not (value.isalpha() and value.islower())


def plausible_token(found: re.Match[str]) -> bool:
    """A detect-secrets format match that is a token, not a word that happens to fit the shape."""
    token = found.group(0).strip(" \t\r\n=:\"'")
    return any(c.isdigit() for c in token) or len(token) >= 24


_PORT = re.compile(r"\d{1,5}(?:[/?#].*)?")


def url_password(found: re.Match[str]) -> bool:
    secret = found.group("secret")
    return not _PORT.fullmatch(secret) and not is_placeholder(secret)


def cookie(found: re.Match[str]) -> bool:
    return "=" in found.group("secret")


def cli_value(found: re.Match[str]) -> bool:
    value, quoted = _unquote(found.group("value"))
    return bool(value) and not is_placeholder(value) and (quoted or not value.startswith("-"))


def xml_value(found: re.Match[str]) -> bool:
    return not is_placeholder(found.group("value").strip())


def quoted_value(found: re.Match[str]) -> bool:
    return not is_placeholder(_unquote(found.group("value"))[0])


#: Names a value is a secret of. detect-secrets' keyword list (``KeywordDetector``'s DENYLIST:
#: api_?key ... contraseña), with a dash allowed where it has an underscore, plus the names of
#: tokens, passphrases and credentials. Any value of a STRONG name is a secret; a MEDIUM name's
#: value must look generated (``sort_key = name``, ``token: expired`` are not secrets).
STRONG_NAMES = ("password", "passwd", "pwd", "pass", "passphrase", "secret", "contraseña", "contrasena",
                "db_?pass", "database_?pass", "key_?pass", "credentials?", "passcode")
MEDIUM_NAMES = ("api_?key", "auth_?key", "service_?key", "account_?key", "db_?key", "database_?key",
                "priv_?key", "private_?key", "client_?key", "secret_?key", "access_?key", "token", "auth",
                "api_?token", "access_?token", "refresh_?token", "auth_?token", "authtoken", "bearer",
                "session_?(?:key|token|secret)", "signing_?key", "encryption_?key", "master_?key",
                "private_?token", "app_?key", "license_?key", "webhook_?(?:url|secret)")


def alternation(names: tuple[str, ...]) -> str:
    return "|".join(n.replace("_?", "[_-]?") for n in names)


_STRONG = re.compile(rf"(?i)(?:{alternation(STRONG_NAMES)})")
_STRONG_END = re.compile(r"(?i)(?:secret|passw(?:or)?d|pass|pwd|passphrase|credentials?|passcode)$")
_SHORT = frozenset({"pass", "pwd", "auth", "token", "secret", "bearer"})


def assigned_value(found: re.Match[str]) -> bool:
    """A value assigned to a secret-looking name (``PASSWORD=…``, ``"token": "…"``) is a secret
    unless it is a placeholder, code (``os.environ[...]``, ``getpass()``), a path, or a variable
    named after a secret (``password=password``); a token/key name also needs a value that looks
    generated (``sort_key = name`` is not a secret)."""
    name = found.group("name")
    start = found.start("name")
    before = found.string[start - 1] if start else ""
    # "compass: north", "bypass=1": a short name inside a lowercase word is not that name.
    if name.lower() in _SHORT and before.isalpha() and before.islower() and name[0].islower():
        return False
    value, quoted = _unquote(found.group("value"))
    if is_placeholder(value) or not value.strip():
        return False
    if not quoted:
        if _CODE.fullmatch(value) or _PATH.fullmatch(value) or value[0] in "[({":
            return False
        if _IDENT.fullmatch(value) and _SECRET_WORD.search(value) and not any(c.isdigit() for c in value):
            return False
    if _STRONG.fullmatch(name) or _STRONG_END.search(name):
        return len(value) >= (3 if quoted else 4)
    if quoted and not _DOTTED.fullmatch(value):  # a literal given to a token or key name
        return len(value) >= 8 and not any(c.isspace() for c in value) and not _NAME_LIKE.fullmatch(value)
    return _looks_generated(value)


# -- secrets said in words ------------------------------------------------------------------------

_DESCRIBING = frozenset("""
a an the this that these those it its it's my your our his her their one some any no not none never
now still also only just too very so then there here what which who where when why how if or and but
in on at to of for from by with without into onto over under about after before as is was be been
being are were will would should could can may might must shall do does did done has have had same
different short long longer shorter weak strong wrong right correct incorrect invalid valid empty
blank missing old new secret private public safe unsafe secure insecure hidden unknown optional
mandatory fine good bad ok okay simple easy hard complex random unique temporary permanent static
dynamic sensitive personal shared global local default fake real ready available unavailable active
inactive live dead stale fresh obsolete deprecated compromised leaked exposed visible readable
writable necessary needed required enabled disabled set unset stored saved hashed encrypted rotated
changed reset expired expiring expires valid required case all both each every another other more
less most least much many few several enough first last next previous current same part whatever
something nothing anything everything someone nobody hunter too-short too-long weak-ish strong-ish
mine yours ours theirs written kept known given sent shown typed printed somewhere elsewhere
below above attached included inside outside encoded lowercase uppercase numeric alphanumeric
unchanged identical similar unchanged great terrible horrible awful nice cool different common
""".split())
_FUNCTION = frozenset("""
a an the this that these those it its it's my your our his her their one some any no not none never
now still also only just too very so then there here what which who where when why how if or and but
in on at to of for from by with without into onto over under about after before as is was be been
being are were will would should could can may might must shall do does did done has have had
""".split())
_DESCRIBING_ENDS = ("ed", "ing", "able", "ible", "ive", "ous", "ful", "less", "ly", "ent", "ant", "ary",
                    "ory", "al", "ic", "ish", "ise", "ize")


def _describing(word: str) -> bool:
    """A lowercase word shaped like an adjective or participle ("expired", "rotating", "unguessable")."""
    return word.replace("-", "").isalpha() and word.islower() and word.endswith(_DESCRIBING_ENDS)

_NAME_WORDS = (
    r"(?:(?:wi-?fi|wlan|router|network|admin|root|sudo|login|account|e-?mail|db|database|vault|master|server"
    r"|door|gate|alarm|garage|safe|lock(?:er|box)?|voicemail|atm|bank|card|phone|laptop|computer|user|guest"
    r"|new|old|current|temporary|temp|default|one-time)\s++)?"
)
SAID = re.compile(
    r"(?i)\b(?P<name>pass(?:word|phrase|code)s?|passwd|pins?|pin\s++(?:code|number)"
    r"|(?:door|gate|alarm|garage|safe|lock|wi-?fi|router|voicemail|atm|card|entry|access)\s++(?:code|combination)"
    r"|combination|(?:seed|recovery|mnemonic|backup)\s++(?:phrase|words|codes?)"
    r"|(?:api|secret|access|auth|bearer|session|private|personal\s++access|deploy|bot|app)\s++(?:key|token)s?"
    r"|tokens?|contrase[ñn]a|mot\s++de\s++passe|passwort|kennwort|senha|wachtwoord)"
    r"(?P<qual>\s++(?:for|of|to|on|at|in)(?:\s++[\w.@:/-]{1,40}+){1,4}?)?"
    r"\s*+(?P<verb>(?:is|was|has\s++been|have\s++been|got)(?:\s++(?:now|still|(?:set|changed|reset|updated)"
    r"\s++to))?|(?:set|changed|reset|updated)\s++to|are|were|will\s++be|would\s++be|should\s++be|now\s++is"
    r"|'s|’s|est|ist|es|é|lautet|:)"
    r"(?:\s*+:)?\s++(?P<value>\"[^\"\n]{1,200}+\"|'[^'\n]{1,200}+'|“[^”\n]{1,200}+”|`[^`\n]{1,200}+`"
    r"|[^\s\"'“”`]{1,200}+)"
)
SAID_USE = re.compile(
    r"(?i)\b(?:use|using|with|enter|type|try|(?:log|sign)\s?in\s++with|set\s++(?:it|that)\s++to)\s++"
    r"(?:the\s++|my\s++|our\s++|this\s++|a\s++)?" + _NAME_WORDS
    + r"(?P<name>password|passphrase|passcode|pin|token|api\s++key|key)\s++(?P<value>\"[^\"\n]{1,200}+\""
    r"|'[^'\n]{1,200}+'|[^\s\"']{4,200}+)"
)
SAID_SET = re.compile(
    r"(?i)\b(?:set|change|changed|reset|update|updated)\s++(?:the\s++|my\s++|our\s++|your\s++|his\s++|her\s++)?"
    + _NAME_WORDS + r"(?P<name>password|passphrase|passcode|pin)\s++to\s++(?P<value>\"[^\"\n]{1,200}+\""
    r"|'[^'\n]{1,200}+'|[^\s\"']{3,200}+)"
)

_TRAILING = ".,;:)"
_PHRASE = re.compile(r"(?i)phrase|words$|(?:recovery|backup)\s+codes?$")
_WORD_LIST = re.compile(r"(?i)seed|recovery|mnemonic|backup")
_PIN = re.compile(r"(?i)pins?$|pin\s+(?:code|number)|code$|combination")
_TOKEN = re.compile(r"(?i)key|token")


def said_span(found: re.Match[str]) -> tuple[int, int] | None:
    """Where the secret a sentence gives is, or None when the words describe one instead."""
    value = found.group("value")
    start, end = found.span("value")
    name = found.group("name")
    inner, quoted = _unquote(value)
    if quoted or value[:1] in "“":
        inner = value[1:-1]
        if _TOKEN.search(name) and (len(inner) < 8 or any(c.isspace() for c in inner)):
            return None  # "a `review` token: `GET /v1/memory/pending`": words, not a token
        return (start + 1, end - 1) if inner.strip() and not is_placeholder(inner) else None
    while end > start and found.string[end - 1] in _TRAILING:
        end -= 1
    word = found.string[start:end]
    if not word or is_placeholder(word):
        return None
    lowered = word.lower().rstrip("!?")
    if lowered in _FUNCTION or (lowered in _DESCRIBING and not _PHRASE.search(name)):
        return None
    if _PHRASE.search(name):
        return _phrase(found.string, start, end, listed=bool(_WORD_LIST.search(name)))
    if _describing(word) and found.re is SAID:
        return None
    if found.re is not SAID and not _looks_generated(word) and not (any(c.isdigit() for c in word)
                                                                      and _PIN.search(name)):
        return None  # "use password authentication", "set the password to expire"
    if _TOKEN.search(name) and not _looks_generated(word):
        return None  # "the token is 3600 seconds old"
    if _PIN.search(name) and not any(c.isdigit() for c in word) and not _looks_generated(word):
        return None  # "the combination is unknown"
    return start, end


_CLAUSE = re.compile(r"[^.;,\n]{0,300}")


def _phrase(text: str, start: int, end: int, *, listed: bool) -> tuple[int, int] | None:
    """A passphrase or seed phrase runs to the end of its clause: several words, none of them (for
    a passphrase) the function words a sentence describing one would hold ("long enough for our
    policy"); a seed phrase is a list of words, whatever they are ("abandon ability able about")."""
    clause = _CLAUSE.match(text, start)
    stop = clause.end() if clause is not None else end
    phrase = text[start:stop].split()
    if len(phrase) >= 3 and (listed or not any(w.lower() in _FUNCTION for w in phrase)):
        stop = start + len(text[start:stop].rstrip())
        return start, stop
    first = phrase[0].lower() if phrase else ""
    if first in _DESCRIBING or _describing(first):
        return None  # "the passphrase is stored in the vault"
    return start, end


# -- bare random strings --------------------------------------------------------------------------

RANDOM = re.compile(r"(?<![A-Za-z0-9+/=_.:-])[A-Za-z0-9+/_-]{30,512}+={0,2}+(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"[0-9a-fA-F-]+")
_SEPARATORS = re.compile(r"[-_/+.]")
_WORDISH = re.compile(r"[A-Z]?[a-z]{3,}")
_LABELS = ("sha1-", "sha256-", "sha384-", "sha512-", "sha256:", "sha512:", "sha1:", "md5:", "h1:", "base64,",
           "ssh-rsa ", "ssh-ed25519 ", "ssh-dss ", "ecdsa-sha2-nistp256 ", "ecdsa-sha2-nistp384 ",
           "ecdsa-sha2-nistp521 ", "sk-ssh-ed25519@openssh.com ", "integrity=\"", "integrity: ")


def random_token(found: re.Match[str]) -> bool:
    """A bare run that is a generated secret, not a digest, an identifier or encoded text."""
    token = found.group(0)
    if not (any(c.isupper() for c in token) and any(c.islower() for c in token)
            and any(c.isdigit() for c in token)):
        return False
    if _HEX.fullmatch(token):
        return False
    before = found.string[max(0, found.start() - 28):found.start()].lower()
    if before.endswith(_LABELS) or token.lower().startswith(_LABELS):
        return False
    # Words glued together (identifiers, paths, CamelCase names) are mostly runs of 3+ letters, or
    # many short pieces between separators ("cross-encoder/ms-marco-MiniLM-L-12-v2").
    covered = sum(len(m.group(0)) for m in _WORDISH.finditer(token))
    pieces = [p for p in _SEPARATORS.split(token) if p]
    plain = sum(p.isalpha() or p.isdigit() or len(p) <= 2 for p in pieces)
    if covered >= 0.6 * len(token) or len(pieces) >= 5 and plain >= 0.8 * len(pieces):
        return False
    return not _encodes_text(token)


def _encodes_text(token: str) -> bool:
    """Base64 (or base64url) of ordinary text, as a data sample or an encoded config often is."""
    data = token.replace("-", "+").replace("_", "/")
    data += "=" * (-len(data) % 4)
    try:
        raw = base64.b64decode(data, validate=True)
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    if not text:
        return False
    printable = sum(c.isalnum() or c in " .,:;!?'\"-_/()\n\t{}[]=@#&+*%$" for c in text)
    return printable >= 0.95 * len(text) and sum(c.isalpha() for c in text) >= 0.5 * len(text)
