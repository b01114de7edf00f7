"""redact_secrets over the shapes secrets take, and over ordinary technical text it must leave alone.

Each secret case is (text, what must not survive); each kind of rule has at least one case. The
ordinary lines are what a coding conversation is full of: hashes, UUIDs, digests, tickets, base64 of
words, and sentences about keys and passwords that give none.
"""

from __future__ import annotations

import pytest

from silcrow.safety import redact_secrets, redact_value

PGP = ("-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n"
       "lQOYBGV1c2VyAQgAxK3f9Wm2Tq8Lr4Zp0Nc7Vb1Yh6Gd5Sa3Jk9Xe2Rw8Uo4Pi1Ly7Mt0Qn6Bv5Cz3Hg\n=x7Qa\n"
       "-----END PGP PRIVATE KEY BLOCK-----")
PUTTY = ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\n"
         "AAAAC3NzaC1lZDI1NTE5AAAAIHq9Xw2Lm5Rt8Yp3Zc6Vb1Nd4Gf7Hj0Ks\nPrivate-Lines: 1\n"
         "AAAAIFp8Qm3Wx6Rt2Yk9Lc4Vb7Nd1Gf5Hj8Zs\nPrivate-MAC: 5f3a9c1e7b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a")
AZURE_KEY = "q3X9vLm2Tz8Rk1Wp5Yc7Nb4Hd6Gf0Sa9Jk3Le8Qw2Er5Ty1Ui7Op4As6Df0Gh3Jk9Lz2Xc5Vb8Nm1Qw4Er7Ty0Ui3Op6A"

# (kind expected, text, a piece that must not survive)
CASES = [
    ("url-password", "cache at redis://:Rz9hunterQ7x@cache.internal:6379/0 now", "Rz9hunterQ7x"),
    ("url-password", "DATABASE_URL=postgres://app:pa/ss@word@db.internal:5432/app", "pa/ss"),
    ("url-password", "amqp://guest:g3st!Pass@rabbit/vhost", "g3st!Pass"),
    ("auth-header", "curl -H 'Authorization: Token 9f8e7d6c5b4a39281706f5e4' https://api", "9f8e7d6c5b4a"),
    ("auth-header", "Authorization: Bearer abc.def-ghi_jkl012345", "abc.def-ghi_jkl012345"),
    ("auth-header", "authorization: Basic dXNlcjpwYXNzd29yZDEyMw==", "dXNlcjpwYXNzd29yZDEyMw"),
    ("assignment", 'password="correct horse; battery staple"', "horse; battery"),
    ("assignment", "DB_PASSWORD='my pass with spaces'", "my pass with spaces"),
    ("assignment", '{"client_secret": "Zq8-RkTn3-LmWx"}', "Zq8-RkTn3-LmWx"),
    ("assignment", "Server=db;User Id=sa;Password=S3cr3t!Pa55;Encrypt=true", "S3cr3t!Pa55"),
    ("assignment", "api_key: abc123def456ghi789", "abc123def456ghi789"),
    ("assignment", "<password>hunter2hunter2</password>", "hunter2hunter2"),
    ("assignment", "CREATE USER app WITH PASSWORD 'Tr0ub4dor&3';", "Tr0ub4dor&3"),
    ("assignment", "export GITHUB_TOKEN=Zx9Yw8Vu7Ts6Rq5Po4Nm3", "Zx9Yw8Vu7Ts6Rq5Po4Nm3"),
    ("private-key", PGP, "lQOYBGV1c2VyAQgAxK3f9Wm2Tq8Lr4Zp0Nc7"),
    ("private-key", PUTTY, "AAAAIFp8Qm3Wx6Rt2Yk9Lc4Vb7Nd1Gf5Hj8Zs"),
    ("private-key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAq9Xw2Lm5Rt8Yp3Zc6Vb1",
     "MIIEpAIBAAKCAQEAq9Xw"),
    ("private-key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
     "-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"),
    ("azure-key", f"DefaultEndpointsProtocol=https;AccountName=x;AccountKey={AZURE_KEY}==;Endpoint=core",
     AZURE_KEY[:30]),
    ("azure-sas", "https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA%3D",
     "Zm9vYmFyYmF6cXV4MTIzNDU2"),
    ("sendgrid-key", "SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFgHiJk",
     "aBcDeFgHiJkLmNoPqRsTuV"),
    ("slack-webhook", "post to https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx",
     "abcdefghijklmnopqrstuvwx"),
    ("discord-webhook", "https://discord.com/api/webhooks/123456789012345678/abcDEF_ghiJKL-mnoPQRstuVWXyz0123",
     "abcDEF_ghiJKL"),
    ("google-oauth", "client secret GOCSPX-abcdefghijklmnopqrstuvwx12", "GOCSPX-abcdefghijklmnop"),
    ("webhook-secret", "STRIPE_WEBHOOK=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "MfKQ9r8GKYqrTwjUPD8I"),
    ("slack-token", "app token xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef",
     "abcdef0123456789abcdef"),
    ("slack-token", "xoxb-20485-77731-Zq8RkTn3", "Zq8RkTn3"),
    ("high-entropy", "aws secret on its own line:\nwJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "wJalrXUtnFEMI"),
    ("aws-key", "AKIAQ3EGRKX7Z5T2MB4N", "AKIAQ3EGRKX7Z5T2MB4N"),
    ("api-key", "sk-proj-Q7rT2xW9kL4mN8pB3vC6zY1aD5fG0hJ", "Q7rT2xW9kL4mN8pB3vC6"),
    ("api-key", "sk-ant-api03-Q7rT2xW9kL4mN8pB3vC6zY1aD5fG0hJ", "Q7rT2xW9kL4mN8pB3vC6"),
    ("github-token", "ghp_R8d3Kq1Lm7Nz2Xc5Vb9Aa4Ss6Dd0Ff3Gg1Hh", "R8d3Kq1Lm7Nz2Xc5Vb9A"),
    ("gitlab-token", "glpat-Xk29dLq8ZmPw3RtY7uVn", "Xk29dLq8ZmPw3RtY7uVn"),
    ("google-key", "AIzaSyD3kQ9xL2mP7wR4tY8uV1nB6cZ0aS5dF3g", "D3kQ9xL2mP7wR4tY8uV1"),
    ("stripe-key", "sk_live_51HqLyjWDarjtT1zdp7dc", "51HqLyjWDarjtT1zdp7dc"),
    ("huggingface-token", "hf_kQpZrT8mWx3LnY7vB2cD9fG4hJ6sA1eR0uIo", "kQpZrT8mWx3LnY7vB2cD"),
    ("npm-token", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "a1B2c3D4e5F6g7H8i9J0"),
    ("pypi-token", "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejEyMzQ1AAIqWzMsImFiYyJd",
     "AgEIcHlwaS5vcmcCJGFi"),
    ("silcrow-token", "slc_ab12_Zx9Yw8Vu7Ts6Rq5Po4Nm3", "Zx9Yw8Vu7Ts6Rq5Po4Nm3"),
    ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzYW0ifQ.c2lnbmF0dXJlLXBhcnQtaGVyZQ",
     "c2lnbmF0dXJlLXBhcnQtaGVyZQ"),
    ("twilio-key", "SK0123456789abcdef0123456789abcdef", "SK0123456789abcdef"),
    ("telegram-token", "bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0", "AAHdqTcvCH1vGWJxfSeofSAs0K5"),
    ("artifactory-token", "token AKCp8jQ9xYz7K3LmN0pQ5rS2tU4vW6xY8zA1bC3dE5fG7hJ9kL", "AKCp8jQ9xYz7K3LmN0pQ"),
    ("discord-token", "bot token MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",
     "ZnCjm1XVW7vRze4b7Cq4se7kKWs"),
    ("mailchimp-key", "MAILCHIMP 0123456789abcdef0123456789abcdef-us12", "0123456789abcdef0123"),
    ("square-secret", "sq0csp-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefg", "ABCDEFGHIJKLMNOPQRST"),
    ("azure-secret", "client secret abc8Q~Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0DeCb", "Zx9Yw8Vu7Ts6Rq5Po4Nm3"),
    ("cli-password", "mysql -u root -pS3cretPass db", "S3cretPass"),
    ("cli-password", "keytool -list -storepass Ch4ng3d!t", "Ch4ng3d!t"),
    ("cli-password", "docker login --password 'Hx7!kq2 zz' registry", "Hx7!kq2 zz"),
    ("cli-password", "curl -u deploy:Tr0ub4dor3 https://ci", "Tr0ub4dor3"),
    ("netrc", "machine api.example.com login sam password Zq8RkTn3x", "Zq8RkTn3x"),
    ("cookie", "Cookie: session=9f8e7d6c5b4a39281706; csrftoken=abc", "9f8e7d6c5b4a39281706"),
    ("password", "the password is Blue-Tiger-77!", "Blue-Tiger-77"),
    ("password", "btw the wifi password is sunshine42, ask me if it changes", "sunshine42"),
    ("password", "The password for the staging router is mango-tree-91.", "mango-tree-91"),
    ("password", "my PIN is 4821", "4821"),
    ("password", "the passphrase is 'correct horse battery staple'", "correct horse battery staple"),
    ("password", "my seed phrase is abandon ability able about above absent absorb", "ability able about"),
    ("password", "log in with the password Tr0ub4dor&3 for now", "Tr0ub4dor&3"),
    ("password", "I set the password to Xk29-dLq8 yesterday", "Xk29-dLq8"),
    ("password", "le mot de passe est Soleil2024!", "Soleil2024"),
]

ORDINARY = [
    "commit 3f2a9c01d4e7b8a6c5d4e3f2a1b0c9d8e7f6a5b4 fixes the flaky test",
    "request id 123e4567-e89b-12d3-a456-426614174000 failed",
    "sha256: 9b7c5a1f0e3d2c4b6a8f7e9d1c3b5a7f9e2d4c6b8a0f1e3d5c7b9a2f4e6d8c0b",
    "pull ghcr.io/acme/api@sha256:9b7c5a1f0e3d2c4b6a8f7e9d1c3b5a7f9e2d4c6b8a0f1e3d5c7b9a2f4e6d8c0b",
    "JIRA-1234 and OPS-77 are blocked on PROJ-10234",
    "the header says VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw== in base64",
    "rotate the API key monthly", "the password policy requires 12 chars", "the password is required",
    "the token is valid for an hour", "The secret to good bread is time", "api_key: see the README",
    "See https://example.com/a:b@c", "http://localhost:8080/path@foo", "git@github.com:acme/api.git",
    "postgres://localhost:5432/app", "ssh://git@host:22/repo.git",
    "AbstractSingletonProxyFactoryBean2Impl is a real class name",
    "password = getpass.getpass()", "PWD=/home/sam/project", "compass: north", "bypass=1",
    "token = get_token(session)", "password: ${DB_PASSWORD}", "api_key: <your-api-key>",
    "Authorization: Bearer <token>", "the passphrase is long enough for our policy",
    "set the password to expire after 90 days", "use password authentication over ssh",
    '"integrity": "sha512-Zt6hIbN0m3nQzOGm0YUFAx9P0e1uG0HtG7vDqHkUpGN4QV1b6DfTwNq3u2S3ZqkJ8B4+1y0A6mLZgA=="',
    "golang.org/x/text v0.3.7 h1:olpwvP2KacW1ZWvsR7uQhoyTYvKAupfQrRGBFM352Gk=",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHq9Xw2Lm5Rt8Yp3Zc6Vb1Nd4Gf7Hj0Ks sam@laptop",
    "I like tokens of appreciation", "skip-navigation link", "the key is in the usual place",
    "my PIN is not something I share", "the password is stored hashed with bcrypt",
    # Lines of silcrow's own docs and code (bench/redaction.py measures all of them).
    'curl -s localhost:8765/v1/memory/user -H "Authorization: Bearer $T"',
    'claude mcp add --transport http silcrow http://127.0.0.1:8765/mcp '
    '--header "Authorization: Bearer slc_..."',
    "it authenticates with ``Authorization: Token`` and", '"api_key": "MEM0_API_KEY",',
    'ACCESS_KEY = "silcrow.access"', "sha256 of cross-encoder/ms-marco-MiniLM-L-12-v2 (model and tokenizer)",
    'secret = [key for key in params if "password" in key.lower()]',
    "- **REST**, with a `review` token: `GET /v1/memory/pending`,",
    'SESSION_HEADERS = {b"mcp-session-id": "Mcp-Session-Id", b"x-silcrow-session": "X-Silcrow-Session"}',
    'raise Refused(401, "Incorrect API key provided (an Authorization: Bearer header is required)",',
]


def test_every_kind_of_rule_has_a_case() -> None:
    from silcrow.safety._secrets import secret_rules

    assert {rule.kind for rule in secret_rules()} == {kind for kind, _, _ in CASES}


@pytest.mark.parametrize(("kind", "text", "leak"), CASES,
                         ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(CASES)])
def test_each_shape_is_redacted(kind: str, text: str, leak: str) -> None:
    redacted = redact_secrets(text)
    assert leak not in redacted, redacted
    assert f"[REDACTED:{kind}]" in redacted, redacted
    assert redact_secrets(redacted) == redacted  # idempotent: a placeholder is never redacted again


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_technical_text_is_left_alone(text: str) -> None:
    assert redact_secrets(text) == text


def test_the_words_around_a_secret_are_kept() -> None:
    assert redact_secrets("the wifi password is sunshine42, ask me") == \
        "the wifi password is [REDACTED:password], ask me"
    assert redact_secrets("redis://:pw1234@cache:6379/0") == "redis://:[REDACTED:url-password]@cache:6379/0"
    assert redact_secrets('gpg_passphrase="lantern orbit; velvet 42" then') == \
        'gpg_passphrase="[REDACTED:assignment]" then'


def test_values_nested_in_payloads_are_redacted() -> None:
    payload = {"messages": [("user", "the password is Blue-Tiger-77!")], "n": 3, "ok": True}
    assert redact_value(payload) == {"messages": [("user", "the password is [REDACTED:password]")], "n": 3,
                                     "ok": True}
