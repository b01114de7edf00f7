"""The threat scanner's pattern tables (data only; :mod:`silcrow.safety._threats` compiles
and runs them). Patterns aim at instructions to the agent -- to read, send, hide, obey --
and leave notes *about* those things alone; ``bench/safety.py`` measures both sides on
labelled examples and a held-out split.

Every gap inside a pattern is bounded or possessive, and "verb, then an object within N
characters" is a :class:`~silcrow.safety._near.Near` matcher: scanning stays linear on any
input (``tests/test_regex_linear.py``).
"""

from __future__ import annotations

from silcrow.safety._near import Near

# --- categories ------------------------------------------------------------

INVISIBLE = "invisible_unicode"
OVERRIDE = "instruction_override"
ROLE = "role_hijack"
LEAK = "prompt_leak"
EXFIL = "exfiltration"
SECRET_READ = "secret_reading"
PERSIST = "persistence"
HIDDEN = "hidden_content"
EXEC = "encoded_execution"
SECRET = "hardcoded_secret"
DECEPTION = "deception"
REMOTE_CONTROL = "remote_control"
LEARNED = "learned_classifier"



# --- behavioural patterns (matched on normalize(text)) -----------------------

_W = r"(?:[\w'-]+\s+)"  # one filler word, for "ignore ALL OF THE previous ..."
# "don't forget the previous rules" is advice, not an attack.
_NOT_NEGATED = r"(?<!\bnot\s)(?<!n't\s)(?<!n\u2019t\s)(?<!never\s)"
#: Subjects that show "pretend to be" describes a thing, not asks the agent ("fixtures pretend to
#: be the SMS gateway", "the stubs in tests/fakes/ pretend to be S3"): a test double, a script,
#: a third party, a path.
_NOT_AGENT = r"(?<![/`]\s)" + "".join(rf"(?<!\b{w}\s)" for w in (
    "fixture", "fixtures", "mock", "mocks", "stub", "stubs", "fake", "fakes", "doubles", "tests",
    "servers", "services", "scripts", "bots", "emails", "they", "which", "simulations"))
_SECRET_VAR = (
    r"\$\{?[a-z0-9_]*(?:key|token|secret|passw(?:or)?d|pwd|credential|auth|cookie|session)[a-z0-9_]*\}?"
)
_SECRET_NAME = r"[a-z0-9_]*(?:key|token|secret|passw(?:or)?d|pwd|credential|auth|cookie|session)[a-z0-9_]*"
# A secret-looking environment variable read in code: process.env.API_KEY,
# os.environ["GITHUB_TOKEN"], os.getenv("DB_PASSWORD"), Deno.env.get(...).
_CODE_SECRET_ENV = (
    rf"(?:process\.env\.|process\.env\[\s*['\"`]|os\.environ\[\s*['\"]|os\.environ\.get\(\s*['\"]"
    rf"|os\.getenv\(\s*['\"]|deno\.env\.get\(\s*['\"]){_SECRET_NAME}\b"
)
# An HTTP call in code, up to its argument list; the gap to the secret stays
# inside that argument list (one level of nested parentheses), so a note that
# calls fetch() and later mentions process.env.API_KEY is not a hit.
_CODE_HTTP_CALL = (
    r"\b(?:fetch|axios(?:\.(?:get|post|put|patch|request))?|requests\.(?:get|post|put|patch|request)"
    r"|httpx\.(?:get|post|put|patch|request)|urlopen|navigator\.sendbeacon|\$\.(?:ajax|get|post))\s*\("
    r"(?:[^\n()]|\([^\n()]{0,80}\)){0,200}?"
)
_SECRET_FILE = (
    r"(?:(?<![\w.-])\.env(?![\w./-])|\.ssh/|id_(?:rsa|dsa|ecdsa|ed25519)(?!\.pub)\b|\.aws/credentials"
    r"|\.aws/config|\.config/gcloud|application_default_credentials|\.azure/|\.kube/config"
    r"|\.docker/config\.json|\.netrc|\.pgpass|\.git-credentials|/etc/shadow|/etc/passwd|keychain)"
)
_SEND_VERB = r"(?:send|post|upload|transmit|forward|exfiltrate|leak|submit|beam|pipe|ship)"
_SENSITIVE_OBJ = (
    r"(?:conversation|chat|history|transcript|memor(?:y|ies)|secrets?|keys?|tokens?|credentials?"
    r"|passwords?|env(?:ironment)?|\.env|contents?|files?|messages?|data|everything|all|notes"
    r"|system prompt|instructions|cookies?|session|results?|outputs?|findings|answers?|responses?|logs?"
    r"|them|it|those)"
)
_AGENT_FILES = (
    r"(?:\.silcrow\b|memory\.md|user\.md|agents\.md|claude\.md|gemini\.md|\.cursorrules|\.clinerules"
    r"|\.windsurfrules|copilot-instructions\.md|\.hermes\b|soul\.md|system[_-]prompt\.(?:md|txt))"
)
_STARTUP_FILES = (
    r"(?:\.bashrc|\.zshrc|\.bash_profile|\.zprofile|\.profile\b|crontab|/etc/cron|\.config/autostart"
    r"|launchagents|systemd/user|/etc/rc\.local)"
)
# A quoted command may stand between the verb and the file ("Add `export X=$(...)` to ~/.zshrc").
_APPEND = (r"(?:append|add|write|inject|insert|put|echo)(?:\s+[\w'-]+){0,5}(?:\s+`[^`\n]{1,200}+`)?"
           r"(?:\s+[\w'-]+){0,3}\s+(?:to|into|in)\b|>>?|\btee\b")
# Agent instruction files: any edit is a persistence attempt. Shell start-up files are
# edited by people all the time ("User edits ~/.zshrc for aliases"), so only writing
# into them is flagged.
_AGENT_WRITE = (
    rf"(?:\b(?:modify|overwrite|rewrite|edit|update|change|replace|patch|delete|remove|rm|truncate|sed\s+-i)\b"
    rf"|{_APPEND})"
)

BEHAVIOUR: tuple[tuple[str, str, str, str | Near], ...] = (
    # instruction override
    ("override.ignore_previous", OVERRIDE, "asks to ignore or override earlier instructions",
     rf"{_NOT_NEGATED}\b(?:ignore|disregard|forget|override|bypass|abandon|drop)\s+{_W}{{0,3}}"
     r"(?:previous|prior|above|earlier|preceding|original|initial|system|safety|developer|all|your|any|content"
     r"|usage|ethical)"
     # ("commands" and "orders" are left out: "forget all the orders from the staging DB" is a note.)
     rf"\s+(?:{_W}{{0,2}}(?:instructions?|prompts?|directives?|directions|guidance|guidelines|guardrails"
     r"|programming)\b"
     r"|(?:(?:previous|prior|system|safety|other|content|usage)\s+)?(?:rules|restrictions|policies|policy)\b"
     r"|(?:content|safety|moderation)\s+filters?\b)"),
    ("override.new_instructions", OVERRIDE, "announces replacement instructions for the agent",
     r"\b(?:your|the)\s+(?:new|real|actual|updated|true)\s+(?:instructions?|directives?|orders|task|objective"
     r"|system prompt)\s+(?:is|are|:)|\bnew\s+system\s+prompt\s*:|\bupdated\s+instructions\s*:"),
    ("override.new_principal", OVERRIDE, "tells the agent to take its orders from someone else",
     r"\b(?:consider|treat|regard|recogni[sz]e|accept)\s+(?:[\w'@.-]+\s+){1,8}?(?:as\s+)?your\s+"
     # (not "your new boss" or "your real owner": people say that of people)
     r"(?:real|true|actual|only|rightful|sole)\s+(?:operator|master|admin(?:istrator)?|developer|creator"
     r"|principal|controller)\b"
     r"|\b(?:take|accept)\s+(?:your\s+)?(?:orders|commands|instructions)\s+(?:only\s+)?from\s+"
     r"(?:this\s+(?:page|document|email|message|file|note|site)|the\s+(?:sender|author)\s+of)\b"
     r"|\bobey\s+only\s+(?:me|this|the\s+(?:sender|author))\b"),
    ("override.do_not_follow", OVERRIDE, "tells the agent not to follow its instructions",
     r"\b(?:do\s+not|don't|stop|never)\s+(?:follow|obey|comply\s+with|listen\s+to)\s+"
     rf"{_W}{{0,2}}(?:system|previous|prior|original|developer|your|safety)\s+{_W}{{0,1}}"
     r"(?:instructions?|prompts?|rules|guidelines|policy|policies)"),
    ("override.forget_everything", OVERRIDE, "asks the agent to drop everything it was told",
     rf"{_NOT_NEGATED}\b(?:forget|disregard|ignore)\s+(?:about\s+)?(?:everything|all(?:\s+of)?\s+(?:that|this|it))"
     r"\s+(?:you\s+(?:were|have\s+been)\s+told|you\s+know|above|before\s+this|(?:said|written)\s+(?:before|above)"
     r"|previously)"),
    ("override.ignore_and_answer", OVERRIDE,
     "asks to set aside the request or the text above and answer as told",
     r"\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?|everything\s+)?(?:the\s+)?(?:above|text\s+above"
     r"|(?:user'?s\s+|summari[sz]ation\s+|original\s+|current\s+|previous\s+)request)\b[^\n]{0,30}?"
     r"(?:[.,;:]|\band\b|\bthen\b)\s*(?:instead\s+)?(?:output|reply|respond|say|print|return|write)\b"),
    ("override.task_cancelled", OVERRIDE, "declares the agent's task cancelled and gives a new one",
     r"\b(?:prior|previous|current|original|earlier)\s+task\s+(?:is|has\s+been|was)\s+(?:cancell?ed|void"
     r"|aborted|replaced)\b|\bnew\s+task\s*:\s*(?:reply|respond|output|say|print|ignore)\b"),
    ("override.fake_authority", OVERRIDE, "claims system or admin authority to give new orders",
     r"\b(?:system|admin|administrator|developer|root|security)\s+(?:override|command|directive|notice|update)"
     r"\s*+:|(?m:^[ \t]*+\[(?:system|admin|developer)\])"),
    ("override.rules_void", OVERRIDE, "claims the agent's rules or system prompt no longer apply",
     r"\b(?:your|the|all|previous|prior|earlier|original|safety|system)\s+(?:\w+\s+)?(?:instructions|rules"
     r"|guidelines|restrictions|policies|guardrails|filters|system\s+prompt)\s+(?:(?:are|is|have\s+been|has\s+been"
     r"|were|was)\s+)?(?:no\s+longer\s+(?:apply|valid|in\s+effect|active)|(?:now\s+)?(?:void|revoked|lifted"
     r"|suspended|disabled|overridden|cancelled|canceled|obsolete|replaced|removed))\b"
     r"|\bsystem\s+prompt\s+(?:override|overridden|has\s+been\s+(?:replaced|updated|changed))"
     r"|\byou\s+(?:have\s+been|were|are\s+now)\s+(?:\w+\s+)?(?:updated|upgraded|patched|reprogrammed"
     r"|unlocked|freed|liberated)\b"),
    ("override.priority_claim", OVERRIDE, "claims priority over the system prompt",
     r"\b(?:takes?|have|has)\s+(?:priority|precedence)\s+over\s+(?:all\s+|any\s+|the\s+|your\s+)*"
     r"(?:system|previous|other|prior)\b|\bhighest[- ]priority\s+(?:instruction|directive|command)"),
    # role hijack
    ("role.you_are_now", ROLE, "tries to give the agent a new identity",
     r"\byou\s+are\s+(?:now|no\s+longer)\s+(?:a|an|the|my|in\s+\w+\s+mode|dan\b|unrestricted|unfiltered"
     r"|jailbroken|uncensored|free|bound|an?\s+ai\s+without)\b"),
    ("role.no_restrictions", ROLE, "asks the agent to act without its safety rules",
     r"\b(?:pretend|act|behave|roleplay|respond|answer|reply|operate)\w*\s+"
     rf"{_W}{{0,4}}(?:without|with\s+no|free\s+of|free\s+from)\s+(?:any\s+)?"
     r"(?:restrictions|filters?|filtering|limitations|censorship|guardrails|safety|rules|ethics)"
     r"|\b(?:act|pretend|roleplay)\s+(?:as|to\s+be)\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken"
     r"|uncensored|evil)\b"
     r"|\bact\s+as\s+(?:if|though)\s+(?:\w+\s+){0,2}you\s+(?:have\s+no|don't\s+have|do\s+not\s+have|had\s+no)"
     r"\s+(?:\w+\s+)?(?:restrictions|limits|limitations|rules|guidelines|filters)"),
    ("role.jailbreak_mode", ROLE, "invokes a jailbreak persona or mode",
     r"\b(?:dan|developer|god|jailbreak|unrestricted|evil|chaos)\s+mode\s+(?:is\s+)?(?:enabled|activated|on"
     r"|engaged)\b|\b(?:enter|enable|activate|switch\s+to|turn\s+on)\s+(?:\w+\s+)?(?:dan|developer|god"
     r"|jailbreak|unrestricted)\s+mode\b|\byou\s+are\s+(?:now\s+)?jailbroken\b|\bdo\s+anything\s+now\b"),
    ("role.persona", ROLE, "asks the agent to take on another identity",
     rf"{_NOT_AGENT}\bpretend\s+(?:that\s+)?(?:you\s+are|you're|to\s+be)\s+"
     # A practice partner is no new identity: "pretend you're the examiner and quiz me".
     r"(?!(?:a\s+|an\s+|the\s+|my\s+)?(?:user|customer|beginner|examiner|interviewer|tutor|teacher"
     r"|quizmaster|patient|opponent|recruiter|hiring\s+manager|dungeon\s+master|student)\b)"
     r"|\b(?:name|call)\s+yourself\s+\w+|\bfrom\s+now\s+on,?\s+you\s+(?:are|will\s+be|answer\s+as|respond\s+as)\b"
     r"|\b(?:roleplay|role-play)\s+as\s+(?:an?\s+)?(?:ai|assistant|model|chatbot)\s+(?:without|with\s+no|that)\b"),
    ("role.fake_turn", ROLE, "contains chat-template role markers that fake a new turn",
     r"<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\s*\|>"
     r"|\[/?inst\]|<<\s*/?sys\s*>>"
     r"|(?m:^[ \t]*+(?:#++[ \t]*+)?(?:system|developer)[ \t]*+(?:(?:message|prompt)[ \t]*+)?:\s*+"
     r"(?:you\b|ignore\b|from\s+now))"),
    # system-prompt leak
    ("leak.reveal_prompt", LEAK, "asks the agent to reveal its system prompt or instructions",
     r"(?<!how\sto\s)\b(?:(?:reveal|print|show|output|repeat|display|dump|leak|disclose|tell\s+me|echo|share"
     rf"|give\s+me|write\s+out|spell\s+out)\s+{_W}{{0,3}}(?:system\s+prompt|initial\s+(?:prompt|instructions)"
     r"|hidden\s+(?:prompt|instructions)|your\s+(?:instructions|prompt|rules|guidelines)|developer\s+message"
     r"|system\s+message|prompt\s+above)"
     # Translating or reciting "the system prompt" is a developer's own chore; "your" is the agent's.
     rf"|(?:translate|recite|quote|paraphrase|read\s+out|type\s+out|paste)\s+{_W}{{0,2}}"
     rf"(?:your|the\s+(?:hidden|secret|initial|original))\s+{_W}{{0,2}}"
     r"(?:system\s+prompt|prompt|instructions|rules|guidelines)\b)"),
    ("leak.repeat_above", LEAK, "asks the agent to repeat the text above it verbatim",
     r"\brepeat\s+(?:\w+\s+){0,3}?(?:everything|all|the\s+text|the\s+words|what\s+is\s+written)\s+"
     r"(?:above|before|that\s+came\s+before)|\bverbatim\b[^\n]{0,40}\b(?:instructions|system\s+prompt)"),
    ("leak.dump_context", LEAK, "asks the agent to dump the whole conversation or context",
     r"\b(?:include|output|print|share|dump|paste|repeat|reveal|leak|copy|write\s+out|append|attach)\s+"
     r"(?:[\w'-]+\s+){0,3}?(?:(?:entire|full|whole|complete)\s+(?:conversation|chat|context|transcript|history"
     r"|context\s+window|prompt)|conversation\s+history|chat\s+history|previous\s+messages"
     r"|all\s+(?:prior|previous|earlier)\s+messages|context\s+window)\b"),
    # exfiltration
    ("exfil.http_secret_var", EXFIL, "an HTTP client call carrying a secret-looking variable",
     rf"\b(?:curl|wget|fetch|invoke-webrequest|iwr|httpie|http|axios|requests\.(?:get|post)|nc|ncat)\b"
     rf"[^\n]{{0,200}}?{_SECRET_VAR}|{_CODE_HTTP_CALL}{_CODE_SECRET_ENV}"),
    ("exfil.http_secret_file", EXFIL, "an HTTP client uploading a secret file",
     rf"\b(?:curl|wget|httpie|http)\b[^\n]{{0,200}}?(?:@|<\s*|--post-file[= ]|--upload-file\s+|-t\s+)"
     rf"\S{{0,40}}?{_SECRET_FILE}"),
    ("exfil.send_to_url", EXFIL, "asks to send private data to an external address",
     rf"\b{_SEND_VERB}\b[^\n]{{0,80}}?\b{_SENSITIVE_OBJ}\b[^\n]{{0,80}}?\b(?:to|at|via)\s+"
     r"(?:https?://|ftp://|\S+@\S+\.\w+|webhook)"),
    ("exfil.markdown_image", EXFIL, "a markdown image whose URL carries data out",
     r"!\[[^\]]{0,100}\]\(\s*https?://[^)\s]{0,200}\?[^)\s]{0,200}(?:\{|\$|%7b|=\s*\[)"),
    ("exfil.send_secret_file", EXFIL, "points at a secret file and asks for it to be sent",
     Near(_SECRET_FILE, 80, rf"\b{_SEND_VERB}\s+(?:them|it|those|these|that|this|the\s+keys?|the\s+file)\b"
          rf"|\b{_SEND_VERB}\s+\w+\s+over\b")),
    # secret reading
    ("secret_read.env_file", SECRET_READ, "reads a .env file",
     r"\b(?:cat|less|more|head|tail|bat|type|source|strings|xxd|base64|grep|awk|print|open|load|view"
     r"|show|dump|reveal|output|display|leak|share|paste|send|upload|summari[sz]e|extract|exfiltrate"
     r"|(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)read(?!\s+from)|contents?\s+of|what'?s\s+in)\b[^\n]{0,60}?"
     r"(?<![\w.-])\.env(?![\w./-])"
     r"|\b(?:cp|scp|rsync|copy|mv|tar|zip)\s+(?:-\S+\s+)*+\S*(?<![\w.-])\.env(?![\w./-])\s"),
    ("secret_read.ssh_key", SECRET_READ, "reads SSH private keys",
     r"\b(?:cat|less|more|head|tail|type|strings|xxd|base64|cp|scp|rsync|tar|zip|print|show|dump|reveal"
     r"|output|display|leak|share|paste|send|upload|copy|read|include|exfiltrate|access|get|grab|fetch"
     r"|retrieve|steal|collect)\b[^\n]{0,60}?"
     r"(?:\.ssh/(?!\S*\.pub\b)(?!authorized_keys|known_hosts|config\b)|id_(?:rsa|dsa|ecdsa|ed25519)"
     r"(?!\.pub)\b)"),
    ("secret_read.cloud_credentials", SECRET_READ, "reads cloud or tool credentials",
     r"\b(?:cat|less|more|head|tail|type|strings|base64|cp|scp|print|show|dump|reveal|output|display"
     r"|leak|share|paste|send|upload|copy|read|open|load|view|source|extract|exfiltrate|include)\b[^\n]{0,60}?"
     r"(?:\.aws/credentials|\.aws/config|\.config/gcloud|application_default_credentials|\.azure/"
     r"|\.kube/config|\.docker/config\.json|\.netrc|\.pgpass|\.git-credentials|/etc/shadow|\.npmrc|\.pypirc"
     r"|\.gem/credentials|\.cargo/credentials|\.config/gh/hosts|\.vault-token|keychain)"),
    ("secret_read.env_dump", SECRET_READ, "dumps environment variables or stored secrets",
     r"\b(?:print|dump|list|show|output|echo|reveal|send|leak|share|tell\s+me)\s+"
     rf"{_W}{{0,4}}(?:environment\s+variables|env\s+vars|api\s+keys|secret\s+keys|access\s+tokens"
     r"|credentials|passwords)\b|\bprintenv\b\s*(?:\|(?!\s*grep\b)|>)|(?:^|[;&|]\s*)env\s*\|(?!\s*grep\b)"
     rf"|\b(?:printenv|env)\s*\|\s*grep\s+(?:-\w+\s+)*['\"]?{_SECRET_NAME}"),
    # persistence
    ("persist.authorized_keys", PERSIST, "adds an SSH key to authorized_keys",
     Near(r">>?|\btee\b|\b(?:add|append|write|insert|put|copy|cp|echo)\b", 120, "authorized_keys")),
    ("persist.agent_config", PERSIST, "edits the agent's own instruction or memory files",
     Near(_AGENT_WRITE, 80, _AGENT_FILES)),
    ("persist.startup_files", PERSIST, "writes into shell start-up files, cron or autostart",
     Near(rf"\b{_APPEND}", 80, _STARTUP_FILES, also=r"\bcrontab\s++(?:-[a-z]*+\s++)*+-\s*+$|\(crontab\s+-l")),
    # hidden content
    ("hidden.html_comment", HIDDEN, "hides an instruction in an HTML comment",
     Near(r"<!--", 300, r"\b(?:ignore|override|system|secret|hidden|assistant|agent|ai|model|llm|obey"
          r"|you\s+must|always|never\s+(?:tell|mention|reveal)|instructions?|prompt|do\s+not\s+tell)\b",
          same_line=False)),
    ("hidden.css_hidden", HIDDEN, "hides text with CSS in markup",
     Near(r"\bstyle\s*=\s*[\"']", 200,
          r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9])"
          r"|color\s*:\s*(?:white|#fff)", also=r"\[//\]:\s*#\s*\(")),
    ("hidden.forged_boundary", HIDDEN, "announces the end of the recalled block or a new speaker",
     r"\b(?:end|close|closing)\s+of\s+(?:the\s+)?(?:recalled\s+)?(?:memory|memories|context|recall)"
     r"(?:\s+(?:context|block|section))?\b|\b(?:memory|recalled)\s+(?:context|block)\s+(?:ends|ended|is\s+over"
     r"|closed)\b|\b(?:everything|all|anything|the\s+text|text|what(?:ever)?)\s+(?:below|after\s+this"
     r"|that\s+follows|from\s+here(?:\s+on)?)\s+(?:is|comes\s+from|was\s+written\s+by)\s+(?:a\s+|the\s+)?"
     r"(?:new\s+|real\s+|actual\s+|genuine\s+)?(?:user|system|human|developer|operator)\b"
     r"|\bnew\s+(?:user|system)\s+(?:input|message|turn)\s+(?:starts|begins|follows)\b"),
    ("deception.hide_from_user", DECEPTION, "asks the agent to hide something from the user",
     r"\b(?:do\s+not|don't|never|without)\s+(?:\w+\s+){0,2}?(?:tell(?:ing)?|inform(?:ing)?|notify(?:ing)?"
     r"|alert(?:ing)?|mention(?:ing)?\s+(?:\w+\s+){0,2}?to|let(?:ting)?|show(?:ing)?)\s+(?:\w+\s+)?(?:the\s+)?"
     r"user\b|\b(?:keep|hide)\s+(?:\w+\s+){0,3}?(?:secret\s+|hidden\s+)?from\s+(?:the\s+)?user\b"
     r"|\b(?:silently|secretly|quietly|covertly)\s+(?:\w+\s+)?(?:send|forward|upload|copy|delete|run|execute"
     r"|exfiltrate|post|add|modify|change)\b"),
    # encoded execution
    ("exec.decode_pipe_shell", EXEC, "decodes data and pipes it into a shell or interpreter",
     r"\b(?:base64|base32|xxd|openssl\s+(?:enc|base64))\b[^\n|]{0,80}?(?:\s-d\b|--decode|\s-r\b)[^\n|]{0,80}"
     r"\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k|c|tc|fi)?sh|python3?|perl|ruby|node)(?:\s+-s?)?\s*(?:$|[;&|)])"),
    ("exec.download_pipe_shell", EXEC, "downloads a script and runs it",
     r"\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b"),
    ("exec.eval_decoded", EXEC, "evaluates decoded or obfuscated code",
     r"\b(?:eval|exec)\s*\(\s*(?:atob|base64|b64decode|base64\.b64decode|bytes\.fromhex|unescape"
     r"|decodeuricomponent|string\.fromcharcode|codecs\.decode|zlib\.decompress)"
     r"|powershell[^\n]{0,40}\s-(?:e|enc|encodedcommand)\s+[a-z0-9+/=]{16,}"),
    ("exec.translate_execute", EXEC, "asks to decode or translate text and then run it",
     Near(r"\b(?:translate|decode|decrypt|deobfuscate|unscramble)\b", 200,
          r"\band\s+(?:then\s+)?(?:execute|run|eval(?:uate)?)\b")),
    ("exec.decode_follow", EXEC, "asks to decode hidden text and follow what it says",
     r"\b(?:decode|decrypt|deobfuscate|unscramble)\b[^\n]{0,80}?\b(?:and|then)\s+(?:then\s+)?(?:follow|obey"
     r"|carry\s+(?:it\s+)?out|do\s+what\s+it\s+says)\b"),
    ("exec.reverse_shell", EXEC, "opens a reverse shell",
     r"/dev/(?:tcp|udp)/|\b(?:nc|ncat|netcat)\b[^\n]{0,60}\s-[a-z]*[ec]\b\s*\S*(?:sh|cmd)"
     r"|\bbash\s+-i\s*[>&]|\bsocat\b[^\n]{0,80}\bexec:|\bmkfifo\b[^\n]{0,80}\b(?:nc|ncat|netcat)\b"
     r"|\bpty\.spawn\s*\(|socket\.socket\([^\n]{0,200}(?:subprocess|os\.dup2)"),
)

REMOTE: tuple[tuple[str, str, str, str | Near], ...] = (
    ("remote.c2_checkin", REMOTE_CONTROL, "tells the agent to check in with a remote controller",
     r"\bregister\s+(?:yourself\s+)?(?:as\s+)?an?\s+(?:new\s+)?(?:node|agent|bot|worker|peer)\s+(?:with|at|on)\b"
     r"|\b(?:send\s+an?\s+)?(?:heartbeat|beacon|check[\s-]?in)s?\s+(?:to|with)\s+(?:https?://|\S+\.\w+|the\s+"
     r"(?:server|controller|c2|operator))|\b(?:pull|fetch|poll)\s+(?:down\s+)?(?:new\s+)?(?:tasks|tasking|orders"
     r"|commands|instructions)\s+from\b|\byou\s+must\s+(?:\w+\s+){0,3}?(?:register|beacon|report\s+back)\b"
     r"|\bc2\s+(?:server|channel|beacon)\b"),
    ("remote.anti_forensics", REMOTE_CONTROL, "tells the agent to cover its tracks",
     r"\b(?:only|always)\s+use\s+(?:one[\s-]?liners?|in-memory)\b|\bnever\s+(?:\w+\s+)?(?:write|create|save)\s+"
     r"(?:\w+\s+)?(?:scripts?|files?)\s+to\s+disk\b|\b(?:clear|delete|wipe|erase)\s+(?:your\s+|the\s+)?"
     r"(?:bash\s+|shell\s+|command\s+)?history\s+(?:after|afterwards|when)\b|\bhistory\s+-c\b"),
    ("remote.unset_agent_env", REMOTE_CONTROL, "unsets the agent runtime's environment variables",
     r"\bunset\s+\w*(?:claude|codex|hermes|silcrow|agent|openai|anthropic)\w*"),
)

FENCE_ID, FENCE_DESC = "hidden.fence_tag", "imitates the <memory-context> fence of recalled text"


# --- secret shapes (matched on the NFKC text, case kept) ---------------------

SECRETS: tuple[tuple[str, str, str], ...] = (
    ("secret.private_key", "a private key block",
     r"-----BEGIN\s+(?:[A-Z0-9]+\s+){0,3}PRIVATE\s+KEY(?:\s+BLOCK)?-----"),
    ("secret.openai_key", "an OpenAI/Anthropic-style API key (sk-...)",
     r"(?<![\w-])sk-(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
    ("secret.aws_access_key", "an AWS access key id (AKIA.../ASIA...)",
     r"\b(?:AKIA|ASIA|AGPA|AIDA)[0-9A-Z]{16}\b"),
    ("secret.github_token", "a GitHub token (ghp_/gho_/ghs_/github_pat_)",
     r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b"),
    ("secret.slack_token", "a Slack token (xox.-)", r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    ("secret.google_api_key", "a Google API key (AIza...)", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("secret.stripe_key", "a Stripe secret key", r"\b[rs]k_live_[A-Za-z0-9]{16,}\b"),
    ("secret.jwt", "a JSON web token",
     r"(?<![\w-])eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    ("secret.assignment", "a secret assigned inline (password/api_key/token = ...)",
     r"(?i:\b(?:api[_-]?key|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|password"
     r"|passwd)\b)\s*[:=]\s*['\"]?(?=[A-Za-z0-9/+_.-]{16,})(?=[^\s'\"]*\d)[A-Za-z0-9/+_.-]{16,}"),
)

# --- letter-spaced and leetspeak phrases ---------------------------------------

# "i g n o r e  p r e v i o u s", "1gn0r3 pr3v10u5", "ignore.previous.instructions":
# with everything but letters removed (after folding digits/symbols used as
# letters) a few unmistakable phrases still read the same. Only long phrases
# are listed, so they cannot be assembled by accident from ordinary words.
LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s",
                       "!": "i", "|": "l", "+": "t"})
NON_LETTERS = r"[^a-z]+"
_NOT_SQUASHED = "(?<!dont)(?<!donot)(?<!never)"
SQUASHED: tuple[tuple[str, str, str, str], ...] = (
    ("override.obfuscated", OVERRIDE, "an instruction override hidden by letter spacing or leetspeak",
     rf"{_NOT_SQUASHED}(?:ignore|disregard|forget|override|bypass)(?:all|allthe|the|your|allyour|any)?"
     r"(?:previous|prior|above|earlier|system|original)(?:instructions?|prompt|directives)"
     r"|(?:donot|dont|stop|never)(?:follow|obey)(?:your|the)(?:system|previous|prior|original)"
     r"(?:instructions?|prompt|rules)"),
    ("role.obfuscated", ROLE, "a role hijack hidden by letter spacing or leetspeak",
     r"(?:youarenow|pretendtobe(?:an?)?|actas(?:an?)?)(?:unrestricted|jailbroken|uncensored|unfiltered)"),
    ("leak.obfuscated", LEAK, "a system-prompt leak request hidden by letter spacing or leetspeak",
     r"(?<!howto)(?:reveal|print|show|showme|output|repeat|dump|leak|tellme)(?:your|the)(?:full|entire)?"
     r"systemprompt"
     r"|repeat(?:everything|allthetext|thetext|thewords)(?:above|before)"),
)


