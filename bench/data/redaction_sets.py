# ruff: noqa: E501  (tables of templates and generators, one per line, read best unwrapped)
"""The two development sets of bench/redaction.py, generated (seeded, so every run builds the same).

    python bench/data/redaction_sets.py      # rewrites redaction_secrets.jsonl and redaction_ordinary.jsonl

bench/redaction.py runs it when the files are missing; the same seed always builds the same lines.

* **secrets**: lines that each hold one secret, in the shapes people paste or say them, with fake
  values of the right alphabet and length: ``{"kind", "text", "secret"}``; a line counts as
  redacted when neither half of ``secret`` survives.
* **ordinary**: technical lines that hold none and must pass unchanged: commit hashes, UUIDs,
  digests, image digests, lock-file hashes, ticket numbers, base64 of ordinary words, URLs without
  credentials, code that handles passwords without holding one, placeholders, and sentences that
  talk about keys and passwords: ``{"kind", "text"}``.

Every value is made here from a seeded random generator: no real secret, and nothing taken from a
held-out corpus.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).parent
SECRETS_FILE = HERE / "redaction_secrets.jsonl"
ORDINARY_FILE = HERE / "redaction_ordinary.jsonl"

R = random.Random(20261207)
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"


def rand(alphabet: str, n: int) -> str:
    while True:
        value = "".join(R.choice(alphabet) for _ in range(n))
        # a generated credential mixes classes, as the real ones do (and as rules expect)
        if alphabet is HEX or alphabet == string.digits or (any(c.isdigit() for c in value)
                                                           and any(c.isalpha() for c in value)):
            return value


WORDS = ("tiger river orbit lantern velvet maple copper falcon harbor meadow pepper rocket silver "
         "thunder willow amber cobalt delta ember frost glacier hazel indigo jasper koala lemon mango "
         "nectar olive pixel quartz raven sierra tango umber violet walnut yonder zephyr").split()
SYMBOLS = "!@#$%^&*-_+=?"


def password() -> str:
    shape = R.randrange(6)
    if shape == 0:
        return f"{R.choice(WORDS).title()}-{R.choice(WORDS).title()}-{R.randrange(10, 99)}{R.choice('!?#$')}"
    if shape == 1:
        return rand(ALNUM, R.randrange(10, 20))
    if shape == 2:
        return R.choice(WORDS) + str(R.randrange(10, 9999))
    if shape == 3:
        return rand(ALNUM + SYMBOLS, R.randrange(12, 24))
    if shape == 4:
        return f"{R.choice(WORDS).title()}{R.randrange(1970, 2030)}{R.choice(SYMBOLS)}"
    return rand(ALNUM + "/@:!", R.randrange(10, 18))


def passphrase() -> str:
    return " ".join(R.sample(WORDS, R.randrange(3, 6)))


# -- secret lines ---------------------------------------------------------------------------------

Secret = tuple[str, str, str]  # kind, text, secret


def _in_prose(value: str) -> str:
    return R.choice([
        "here it is: {v}", "{v}", "use {v} for prod", "Key for the staging box: {v} (do not share)",
        "I pasted the wrong thing earlier, the right one is {v}", "> {v}", "`{v}`", "new one -> {v}",
        "our CI uses {v} to deploy", "copying from the vault: {v}.", "ok so {v} worked",
    ]).format(v=value)


def known_tokens() -> Iterator[Secret]:
    makers: list[tuple[str, Callable[[], str]]] = [
        ("openai", lambda: "sk-" + R.choice(["", "proj-", "svcacct-", "admin-"]) + rand(URLSAFE, R.randrange(40, 90))),
        ("anthropic", lambda: "sk-ant-api03-" + rand(URLSAFE, 93) + "AA"),
        ("aws-key-id", lambda: R.choice(["AKIA", "ASIA", "AROA", "AIDA"]) + rand(string.ascii_uppercase + string.digits, 16)),
        ("github", lambda: R.choice(["ghp_", "gho_", "ghs_", "ghu_", "ghr_"]) + rand(ALNUM, 36)),
        ("github-pat", lambda: "github_pat_" + rand(ALNUM, 22) + "_" + rand(ALNUM, 59)),
        ("gitlab", lambda: R.choice(["glpat-", "gldt-", "glrt-", "glptt-"]) + rand(URLSAFE, 20)),
        ("slack", lambda: R.choice(["xoxb-", "xoxp-", "xoxa-", "xoxs-"]) + f"{R.randrange(10**10, 10**11)}-"
         f"{R.randrange(10**10, 10**11)}-" + rand(ALNUM, 24)),
        ("slack-app", lambda: f"xapp-1-A{rand(string.ascii_uppercase + string.digits, 10)}-"
         f"{R.randrange(10**12, 10**13)}-{rand(HEX, 64)}"),
        ("slack-webhook", lambda: f"https://hooks.slack.com/services/T{rand(string.ascii_uppercase + string.digits, 8)}"
         f"/B{rand(string.ascii_uppercase + string.digits, 10)}/{rand(ALNUM, 24)}"),
        ("discord-webhook", lambda: f"https://{R.choice(['', 'ptb.', 'canary.'])}discord{R.choice(['', 'app'])}.com/"
         f"api/webhooks/{R.randrange(10**17, 10**18)}/{rand(URLSAFE, 68)}"),
        ("google-api", lambda: "AIza" + rand(URLSAFE, 35)),
        ("google-oauth-secret", lambda: "GOCSPX-" + rand(URLSAFE, 28)),
        ("google-access", lambda: "ya29." + rand(URLSAFE, R.randrange(60, 120))),
        ("stripe", lambda: R.choice(["sk_live_", "rk_live_", "sk_test_"]) + rand(ALNUM, R.randrange(24, 99))),
        ("whsec", lambda: "whsec_" + rand(B64, 32)),
        ("sendgrid", lambda: "SG." + rand(URLSAFE, 22) + "." + rand(URLSAFE, 43)),
        ("huggingface", lambda: "hf_" + rand(ALNUM, 34)),
        ("npm", lambda: "npm_" + rand(ALNUM, 36)),
        ("pypi", lambda: "pypi-AgEIcHlwaS5vcmc" + rand(URLSAFE, R.randrange(70, 160))),
        ("jwt", lambda: "eyJ" + rand(URLSAFE, R.randrange(20, 40)) + ".eyJ" + rand(URLSAFE, R.randrange(30, 120))
         + "." + rand(URLSAFE, 43)),
        ("twilio", lambda: "SK" + rand(HEX, 32)),
        ("telegram", lambda: f"{R.randrange(10**8, 10**10)}:" + rand(URLSAFE, 35)),
        ("digitalocean", lambda: "dop_v1_" + rand(HEX, 64)),
        ("vault", lambda: "hvs." + rand(URLSAFE, R.randrange(24, 90))),
        ("age", lambda: "AGE-SECRET-KEY-1" + rand(string.ascii_uppercase + string.digits, 58)),
        ("shopify", lambda: R.choice(["shpat_", "shpss_"]) + rand(HEX, 32)),
        ("azure-ad", lambda: rand(URLSAFE, 3) + str(R.randrange(10)) + "Q~" + rand(URLSAFE + ".~", 32)),
        ("groq", lambda: "gsk_" + rand(ALNUM, 52)),
        ("databricks", lambda: "dapi" + rand(HEX, 32)),
        ("mailgun", lambda: "key-" + rand(HEX, 32)),
    ]
    for kind, make in makers:
        for _ in range(14):
            value = make()
            yield kind, _in_prose(value), value


def private_keys() -> Iterator[Secret]:
    for _ in range(12):
        for label in ("RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY",
                      "ENCRYPTED PRIVATE KEY", "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK"):
            body = [rand(B64, 64) for _ in range(R.randrange(3, 9))]
            armor = "Version: GnuPG v2\n\n" if "PGP" in label else ""
            end = R.random() < 0.8
            block = f"-----BEGIN {label}-----\n{armor}" + "\n".join(body) + (f"\n-----END {label}-----" if end else "")
            yield "private-key", R.choice(["my key:\n{b}", "{b}", "cat id_rsa gives\n{b}\nthat's it"]).format(b=block), \
                body[1]
        body = [rand(B64, 64) for _ in range(4)]
        ssh2 = ("---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"rsa-key\"\n" + "\n".join(body)
                + "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----")
        yield "private-key", ssh2, body[2]
        private = [rand(B64, 64) for _ in range(R.randrange(1, 4))]
        putty = (f"PuTTY-User-Key-File-{R.choice([2, 3])}: ssh-{R.choice(['rsa', 'ed25519'])}\nEncryption: none\n"
                 f"Comment: {R.choice(WORDS)}@ci\nPublic-Lines: 2\n{rand(B64, 64)}\n{rand(B64, 20)}\n"
                 f"Private-Lines: {len(private)}\n" + "\n".join(private) + f"\nPrivate-MAC: {rand(HEX, 64)}")
        yield "private-key", putty, private[0]


def url_passwords() -> Iterator[Secret]:
    schemes = ["redis", "rediss", "postgres", "postgresql", "mysql", "mongodb", "mongodb+srv", "amqp", "https",
               "ftp", "smtp", "ldap", "mssql", "sqlserver", "clickhouse"]
    users = ["", "", "admin", "app", "root", "deploy", "svc_backup", "default"]
    hosts = ["cache.internal:6379/0", "db.internal:5432/app", "10.0.3.7:3306/shop", "mongo-0.mongo/admin",
             "rabbit.svc:5672/%2f", "example.com/path", "127.0.0.1:9000"]
    for _ in range(260):
        secret = R.choice([password(), rand(ALNUM, 16), rand(ALNUM, 8) + "/" + rand(ALNUM, 6),
                           rand(ALNUM, 6) + "@" + rand(ALNUM, 6)])
        url = f"{R.choice(schemes)}://{R.choice(users)}:{secret}@{R.choice(hosts)}"
        text = R.choice(["{u}", "DATABASE_URL={u}", "connect with {u} please", "REDIS_URL=\"{u}\"",
                         "- url: {u}", "psql {u}"]).format(u=url)
        yield "url-password", text, secret


NAMES = ["password", "PASSWORD", "DB_PASSWORD", "db_password", "dbPassword", "POSTGRES_PASSWORD", "passwd", "pwd",
         "secret", "client_secret", "CLIENT_SECRET", "api_key", "API_KEY", "apiKey", "api-key", "OPENAI_API_KEY",
         "access_token", "ACCESS_TOKEN", "auth_token", "refresh_token", "token", "GITHUB_TOKEN", "secret_key",
         "SECRET_KEY", "aws_secret_access_key", "private_key", "passphrase", "GPG_PASSPHRASE", "encryption_key",
         "signing_key", "session_secret", "JWT_SECRET", "webhook_secret", "db_pass", "SMTP_PASS", "master_key"]


def assignments() -> Iterator[Secret]:
    syntaxes = ["{n}={v}", "export {n}={v}", "{n}: {v}", "{n} = \"{v}\"", "{n}='{v}'", "\"{n}\": \"{v}\"",
                "'{n}': '{v}'", "{n} := \"{v}\"", "{n} => '{v}'", "  {n}: \"{v}\"", "set {n}={v}",
                "$env:{n} = \"{v}\"", "{n} = '{v}'  # prod", "-e {n}={v}", "{{\"{n}\":\"{v}\",\"x\":1}}",
                "<{n}>{v}</{n}>", "Server=db;User Id=sa;{n}={v};Encrypt=true"]
    for _ in range(420):
        name = R.choice(NAMES)
        syntax = R.choice(syntaxes)
        quoted = "\"{v}\"" in syntax or "'{v}'" in syntax
        strong = not any(w in name.lower() for w in ("key", "token"))
        if quoted and strong and R.random() < 0.5:  # a password or passphrase may hold spaces, a key never
            value = R.choice([passphrase(), f"{R.choice(WORDS)} {R.choice(WORDS)}; {R.randrange(100)}",
                              f"{password()} {R.choice(WORDS)}"])
        elif "key" in name.lower() or "token" in name.lower():
            value = rand(URLSAFE, R.randrange(20, 48))
        else:
            value = password()
        if "<" in syntax and not name.replace("_", "").isalnum():
            name = "password"
        if not quoted:
            value = value.replace(" ", "").replace(";", "").replace(",", "")
        yield "assignment", syntax.format(n=name, v=value), value


def headers_and_cli() -> Iterator[Secret]:
    for _ in range(200):
        value = R.choice([rand(URLSAFE + ".", R.randrange(24, 60)), base64.b64encode(
            f"{R.choice(WORDS)}:{password()}".encode()).decode()])
        scheme = R.choice(["Bearer", "Basic", "Token", "token", "Bot", "ApiKey", "SSWS", "bearer"])
        text = R.choice(["Authorization: {s} {v}", "curl -H 'Authorization: {s} {v}' https://api.example.com/v1",
                         "headers = {{\"Authorization\": \"{s} {v}\"}}", "authorization={s} {v}",
                         "-H \"Authorization: {s} {v}\""]).format(s=scheme, v=value)
        yield "auth-header", text, value
    for _ in range(60):
        value = rand(URLSAFE, R.randrange(24, 48))
        header = R.choice(["X-API-Key", "X-Auth-Token", "Api-Key", "PRIVATE-TOKEN", "X-Vault-Token", "x-api-key"])
        yield "header", f"{header}: {value}", value
    for _ in range(60):
        value = rand(HEX + "ABCDEF", 32)
        yield "cookie", f"Cookie: sessionid={value}; csrftoken={rand(ALNUM, 32)}", value
    for _ in range(180):
        secret = password().replace("'", "").replace('"', "")
        text = R.choice([
            "mysql -u root -p{p} shop", "mysqldump -uadmin -p'{p}' app > dump.sql",
            "docker login -u bot --password {p} registry.example.com", "psql --password={p}",
            "curl -u deploy:{p} https://ci.example.com", "sshpass -p '{p}' ssh root@box",
            "openssl enc -aes-256-cbc -pass pass:{p} -in a -out b", "keytool -storepass {p} -list",
            "machine api.example.com login sam password {p}", "cli --token {p} deploy",
            "CREATE USER app WITH PASSWORD '{p}';", "ALTER USER 'app'@'%' IDENTIFIED BY '{p}';"])
        yield "cli", text.format(p=secret), secret


def cloud() -> Iterator[Secret]:
    for _ in range(120):
        key = rand(B64, 86) + "=="
        text = R.choice([
            "DefaultEndpointsProtocol=https;AccountName={a};AccountKey={k};EndpointSuffix=core.windows.net",
            "AccountKey={k}", "Endpoint=sb://{a}.servicebus.windows.net/;SharedAccessKeyName=Root;"
            "SharedAccessKey={k}", "azure storage key is AccountKey={k}"]).format(a=R.choice(WORDS), k=key)
        yield "azure", text, key
    for _ in range(40):
        sig = rand(B64, 43) + "%3D"
        yield "azure-sas", f"https://{R.choice(WORDS)}.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sig={sig}", sig[:40]
    for _ in range(160):
        secret = rand(B64, 40)
        text = R.choice(["{s}", "aws secret: {s}", "AWS_SECRET_ACCESS_KEY={s}", "aws_secret_access_key = {s}",
                         "here's the secret access key {s} for the backup user", "\"SecretAccessKey\": \"{s}\"",
                         "key id AKIA" + rand(string.ascii_uppercase + string.digits, 16) + " secret {s}"])
        yield "aws-secret", text.format(s=secret), secret
    for _ in range(80):
        secret = rand(ALNUM, R.randrange(32, 64))
        yield "bare-random", R.choice(["{s}", "token {s}", "the key is {s}", "paste: {s}"]).format(s=secret), secret


def said_in_words() -> Iterator[Secret]:
    things = ["password", "wifi password", "Wi-Fi password", "router password", "admin password", "root password",
              "database password", "email password", "vault password", "master password", "new password",
              "guest wifi password", "password for the staging db", "password for my laptop",
              "password to the NAS", "password on the router"]
    for _ in range(420):
        shape = R.randrange(8)
        if shape < 4:
            value = password().replace(" ", "")
            verb = R.choice(["is", "is now", "was", "'s", "will be", "has been changed to", "is set to", "is:"])
            thing = R.choice(things)
            text = R.choice(["the {t} {v} {p}", "My {t} {v} {p}", "btw the {t} {v} {p}, keep it safe",
                             "FYI our {t} {v} {p}.", "The {t} {v} \"{p}\"", "remember: the {t} {v} {p}"])
            text = text.format(t=thing, v=verb, p=value).replace(" 's", "'s")
            yield "said-password", text, value
        elif shape == 4:
            value = str(R.randrange(1000, 99999999))
            text = R.choice(["my PIN is {v}", "the door code is {v}", "the alarm code is {v}", "PIN: {v}",
                             "the passcode is {v}", "the garage code is {v}", "my bank card PIN is {v}",
                             "the safe combination is {v}"]).format(v=value)
            yield "said-pin", text, value
        elif shape == 5:
            value = passphrase()
            text = R.choice(["the passphrase is '{v}'", "my passphrase is \"{v}\"", "the passphrase is {v}",
                             "my seed phrase is {v} {w}", "recovery phrase: {v}"]).format(
                v=value, w=" ".join(R.sample(WORDS, 6)))
            yield "said-passphrase", text, value
        elif shape == 6:
            value = password().replace(" ", "")
            text = R.choice(["log in with the password {v}", "use password {v} for the admin panel",
                             "I set the password to {v}", "changed my password to {v} today",
                             "sign in with the password {v}", "try the password {v}"]).format(v=value)
            yield "said-use", text, value
        else:
            value = password().replace(" ", "")
            text = R.choice(["le mot de passe est {v}", "das Passwort ist {v}", "la contraseña es {v}",
                             "a senha é {v}", "het wachtwoord is {v}"]).format(v=value)
            yield "said-other-language", text, value


def secret_lines() -> list[dict[str, str]]:
    out = []
    for make in (known_tokens, private_keys, url_passwords, assignments, headers_and_cli, cloud, said_in_words):
        out += [{"kind": kind, "text": text, "secret": secret} for kind, text, secret in make()]
    return out


# -- ordinary lines -------------------------------------------------------------------------------

SENTENCES = [
    "the nightly backup failed again", "we moved the cache to a new host", "deploys go through the release branch",
    "the flaky test is fixed", "tests pass on linux and macos", "the quick brown fox jumps over the lazy dog",
    "please review the migration", "the service restarts every night at three", "hello world from the worker",
]
ABOUT_SECRETS = [
    "rotate the API key monthly", "the password policy requires 12 chars", "the password policy requires {n} characters",
    "passwords must be at least {n} characters long", "the password is required", "the password is too short",
    "the password is stored hashed with bcrypt", "the password is in 1Password under Ops", "the token is valid for an hour",
    "the token expires after {n} minutes", "the API key is in the vault", "never commit the API key",
    "the secret is stored in AWS Secrets Manager", "store secrets in the vault, not in the repo",
    "the access token is refreshed every {n} minutes", "a password reset link was sent", "reset your password from settings",
    "the wifi password is on the fridge", "the wifi password is written on the router", "my PIN is not something I share",
    "the password is case sensitive", "the password was changed yesterday", "the password is the same as before",
    "the key is in the usual place", "the token is invalid", "the secret key must be 32 bytes",
    "use password authentication over ssh", "set the password to expire after {n} days", "enter the password twice",
    "the passphrase is long enough for our policy", "generate a new API key in the dashboard",
    "the API key is scoped to read-only", "tokens are signed with RS256", "the JWT has a {n} minute lifetime",
    "we store a hash of the password, never the password", "the password field is hidden in the logs",
    "password: the one on the sticky note", "api_key: see the README", "token: expired",
    "the secret to good bread is time", "I like tokens of appreciation", "the token bucket refills at {n}/s",
    "the password manager syncs every {n} minutes", "the combination is unknown", "the PIN is required at login",
    "password_hash: bcrypt", "password_min_length = {n}", "token_type: bearer", "grant_type=password",
    "auth: required", "secret: false", "password: null", "api_key: ${{OPENAI_API_KEY}}", "token: <your-token>",
    "password = getpass.getpass()", "password = os.environ[\"DB_PASSWORD\"]", "token = get_token(session)",
    "api_key = settings.OPENAI_API_KEY", "PWD=/home/sam/project", "compass: north", "bypass=1",
    "Authorization: Bearer <token>", "Authorization: Bearer $TOKEN", "headers[\"Authorization\"] = f\"Bearer {{token}}\"",
    "login(user, password=password)", "if not password: raise ValueError(\"password is empty\")",
    "--password-stdin reads the password from standard input", "docker login --password-stdin < token.txt",
    "keytool -storepass:env STOREPASS -list", "cookie: none set", "the session cookie is HttpOnly",
]


def _b64_words() -> str:
    text = " ".join(R.sample(SENTENCES, R.randrange(1, 3)))
    return base64.b64encode(text.encode()).decode()


def ordinary_lines() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []

    def add(kind: str, text: str) -> None:
        out.append({"kind": kind, "text": text})

    for _ in range(160):
        sha = rand(HEX, 40)
        add("commit", R.choice(["commit {h}", "fixed in {h}", "git cherry-pick {s}", "{s} Merge pull request #{n}",
                                "git revert {h} --no-edit", "HEAD is now at {s} {m}", "bisect: first bad commit is {h}"])
            .format(h=sha, s=sha[:R.randrange(7, 13)], n=R.randrange(1, 9999), m=R.choice(SENTENCES)))
    for _ in range(140):
        add("uuid", R.choice(["request id {u} failed", "session {u}", "{u}", "GET /v1/items/{u} 404",
                              "trace_id={u}", "\"id\": \"{u}\""]).format(u=uuid.UUID(int=R.getrandbits(128), version=4)))
    for _ in range(160):
        digest = hashlib.sha256(R.randbytes(16)).hexdigest()
        add("digest", R.choice(["sha256: {d}", "sha256sum: {d}  dist/app.tar.gz", "{d}  silcrow-0.1.0.whl",
                                "pull ghcr.io/acme/api@sha256:{d}", "image: registry.example.com/web@sha256:{d}",
                                "Digest: sha256:{d}", "md5 {m}", "sha1 {s}", "etag \"{m}\""])
            .format(d=digest, m=hashlib.md5(R.randbytes(8)).hexdigest(), s=hashlib.sha1(R.randbytes(8)).hexdigest()))
    for _ in range(100):
        raw = R.randbytes(R.choice([32, 48, 64]))
        add("lockfile", R.choice([
            f"\"integrity\": \"sha512-{base64.b64encode(hashlib.sha512(raw).digest()).decode()}\"",
            f"integrity=\"sha384-{base64.b64encode(hashlib.sha384(raw).digest()).decode()}\"",
            "golang.org/x/text v0.3.{n} h1:{b}".format(n=R.randrange(9), b=base64.b64encode(
                hashlib.sha256(raw).digest()).decode()),
            f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{base64.b64encode(raw[:32]).decode()[:43]} sam@laptop",
            "SHA256:{b} (ED25519)".format(b=base64.b64encode(hashlib.sha256(raw).digest()).decode().rstrip("="))]))
    for _ in range(120):
        project = R.choice(["JIRA", "OPS", "PROJ", "SEC", "INFRA", "WEB", "BUG", "ABC"])
        add("ticket", R.choice(["{p}-{n} fixes it", "blocked on {p}-{n} and {p}-{m}", "see #{n}", "closes {p}-{n}",
                                "PR #{n}: {s}", "[{p}-{n}] {s}"]).format(
            p=project, n=R.randrange(1, 99999), m=R.randrange(1, 999), s=R.choice(SENTENCES)))
    for _ in range(120):
        add("base64-words", R.choice(["the header says {b}", "{b}", "echo {b} | base64 -d", "data: {b}",
                                      "payload={b}"]).format(b=_b64_words()))
    for _ in range(420):
        add("about-secrets", R.choice(ABOUT_SECRETS).format(n=R.choice([8, 12, 16, 30, 60, 90])))
    for _ in range(160):
        add("url", R.choice([
            "https://example.com/{w}/{n}", "See https://example.com/a:b@c", "http://localhost:{p}/path@foo",
            "git@github.com:acme/{w}.git", "postgres://localhost:5432/{w}", "ssh://git@host:22/{w}.git",
            "https://{w}@example.com/", "redis://cache.internal:6379/0", "mailto:{w}@example.com",
            "https://docs.example.com/{w}?page={n}&sort=asc", "https://github.com/acme/{w}/pull/{n}",
            "contact {w}.{w}@example.org", "https://user@host.example.com:8443/{w}"]).format(
            w=R.choice(WORDS), n=R.randrange(1, 5000), p=R.choice([3000, 5432, 8000, 8080, 8443])))
    for _ in range(240):
        add("code", R.choice([
            "AbstractSingletonProxyFactoryBean{n}", "src/silcrow/safety/_secrets.py:{n}", "/usr/lib/x86_64-linux-gnu/libssl.so.3",
            "def validate_password(password: str) -> bool:", "class TokenRefreshMiddleware(BaseMiddleware):",
            "ERROR 2026-12-07T16:{n:02d}:00Z worker-{n} timed out after {n}s", "version = \"{n}.{m}.{k}\"",
            "pip install requests=={n}.{m}.{k}", "192.168.{n}.{m}", "Traceback (most recent call last):",
            "  File \"/app/{w}.py\", line {n}, in <module>", "SELECT * FROM users WHERE id = {n};",
            "kubectl rollout restart deployment/{w}", "export PATH=$HOME/.local/bin:$PATH", "npm ci && npm run build",
            "const apiKey = process.env.API_KEY;", "password_reset_token_ttl = {n}", "TOKEN_EXPIRY_SECONDS={n}",
            "get_secret_value(SecretId=\"prod/{w}/db\")", "MAX_PASSWORD_LENGTH = {n}", "useAuthToken()",
            "{W}Controller{W}Service{n}Impl", "com.example.{w}.{W}RepositoryImpl", "x86_64-unknown-linux-gnu",
            "{W}{W}{W}{W}Factory{n}", "tests/test_{w}_{w}_{w}.py::test_{w}_{w}"]).format(
            n=R.randrange(1, 60), m=R.randrange(0, 30), k=R.randrange(0, 20), w=R.choice(WORDS),
            W=R.choice(WORDS).title()))
    for _ in range(120):
        add("prose", " ".join(R.sample(SENTENCES, R.randrange(1, 4))))
    return out


def main() -> None:
    secrets, ordinary = secret_lines(), ordinary_lines()
    for path, rows in ((SECRETS_FILE, secrets), (ORDINARY_FILE, ordinary)):
        path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    print(json.dumps({"secrets": len(secrets), "ordinary": len(ordinary)}))


if __name__ == "__main__":
    main()
