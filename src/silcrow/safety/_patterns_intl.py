"""Instruction-override, prompt-leak and role-hijack patterns in Spanish, French, German,
Portuguese, Russian, Chinese, Japanese, Arabic and Hindi.

Matched on the *native* form of a text (NFKC, invisible characters removed, case folded,
no look-alike folding, which would turn Cyrillic into Latin). Each pattern is a verb
and its object in the order the language puts them, with a bounded gap; written for
silcrow from how the phrases are said, not taken from any list.
"""

from __future__ import annotations

from silcrow.safety._patterns import LEAK, OVERRIDE, ROLE

_G = r"[^\n.!?。！？]{0,40}?"  # a short gap inside one sentence

INTL: tuple[tuple[str, str, str, str], ...] = (
    # Spanish
    ("intl.override.es", OVERRIDE, "asks to ignore earlier instructions (Spanish)",
     rf"\b(?:ignora|ignore|ignorar|olvida|olvide|olvidar|descarta|descarte|omite|omita)\b{_G}"
     r"\b(?:instrucciones|indicaciones|reglas|directrices|órdenes)\b"),
    ("intl.leak.es", LEAK, "asks to reveal the system prompt (Spanish)",
     rf"\b(?:revela|revele|muestra|muestre|muéstrame|dime|imprime|repite|comparte)\b{_G}"
     r"\b(?:prompt|mensaje|instrucciones)\s+(?:del?\s+)?sistema\b"),
    ("intl.role.es", ROLE, "asks the agent to act without restrictions (Spanish)",
     r"\b(?:ahora\s+eres|actúa\s+como|finge\s+ser)\b[^\n]{0,40}?\b(?:sin\s+(?:restricciones|límites|filtros)"
     r"|libre)\b|\bsin\s+ninguna\s+restricción\b"),
    # French
    ("intl.override.fr", OVERRIDE, "asks to ignore earlier instructions (French)",
     # "ignore" and "instructions" are English words too: a French determiner before the object
     # tells the languages apart ("ignore les instructions", not "ignore instructions inside").
     rf"\b(?:ignore|ignorez|ignorer|oublie|oubliez|oublier|néglige|négligez)\b{_G}"
     r"\b(?:les|tes|vos|ces|des|toutes\s+les|l'ensemble\s+des)\s+(?:\w+\s+)?"
     r"(?:instructions|consignes|règles|directives)\b"),
    ("intl.leak.fr", LEAK, "asks to reveal the system prompt (French)",
     rf"\b(?:révèle|révélez|montre|montrez|affiche|affichez|donne|donnez|répète|répétez|dis|dites)\b{_G}"
     r"\b(?:prompt|invite|message|instructions|consignes)\s+(?:du\s+|de\s+)?système\b"),
    ("intl.role.fr", ROLE, "asks the agent to act without restrictions (French)",
     r"\b(?:tu\s+es\s+maintenant|agis\s+comme|fais\s+semblant\s+d'être)\b[^\n]{0,40}?"
     r"\bsans\s+(?:restrictions|limites|filtres)\b"),
    # German
    ("intl.override.de", OVERRIDE, "asks to ignore earlier instructions (German)",
     rf"\b(?:ignoriere|ignorier|ignorieren|vergiss|vergessen|missachte|missachten)\b{_G}"
     r"(?:anweisungen|instruktionen|regeln|vorgaben|richtlinien)\b"),
    ("intl.leak.de", LEAK, "asks to reveal the system prompt (German)",
     rf"\b(?:zeige|zeig|verrate|verrat|gib|nenne|wiederhole|drucke)\b{_G}"
     r"(?:system-?prompt|systemanweisungen|systemnachricht|system\s+prompt)\b"),
    ("intl.role.de", ROLE, "asks the agent to act without restrictions (German)",
     r"\b(?:du\s+bist\s+(?:jetzt|nun)|tu\s+so,?\s+als|handle\s+als)\b[^\n]{0,40}?"
     r"\b(?:ohne\s+(?:einschränkungen|regeln|filter|grenzen)|uneingeschränkt)"),
    # Portuguese
    ("intl.override.pt", OVERRIDE, "asks to ignore earlier instructions (Portuguese)",
     rf"\b(?:ignore|ignora|ignorar|esqueça|esquece|esquecer|desconsidere|desconsidera)\b{_G}"
     r"\b(?:instruções|instrucoes|regras|diretrizes|orientações)\b"),
    ("intl.leak.pt", LEAK, "asks to reveal the system prompt (Portuguese)",
     rf"\b(?:revele|revela|mostre|mostra|diga|imprima|repita|compartilhe)\b{_G}"
     r"\b(?:prompt|mensagem|instruções)\s+(?:do\s+)?sistema\b"),
    ("intl.role.pt", ROLE, "asks the agent to act without restrictions (Portuguese)",
     r"\b(?:agora\s+você\s+é|aja\s+como|finja\s+ser)\b[^\n]{0,40}?\bsem\s+(?:restrições|limites|filtros)\b"),
    # Russian
    ("intl.override.ru", OVERRIDE, "asks to ignore earlier instructions (Russian)",
     rf"(?:игнорируй|игнорируйте|проигнорируй|забудь|забудьте|не\s+обращай\s+внимания\s+на){_G}"
     r"(?:инструкци|указани|правил|директив)"),
    ("intl.leak.ru", LEAK, "asks to reveal the system prompt (Russian)",
     rf"(?:покажи|покажите|раскрой|раскройте|выведи|выведите|скажи|повтори|напиши){_G}"
     r"(?:системн\w*\s+(?:промпт|подсказк|инструкци|сообщени)|промпт)"),
    ("intl.role.ru", ROLE, "asks the agent to act without restrictions (Russian)",
     r"(?:теперь\s+ты|притворись|веди\s+себя\s+как)[^\n]{0,40}?(?:без\s+(?:ограничений|правил|фильтров))"),
    # Chinese
    ("intl.override.zh", OVERRIDE, "asks to ignore earlier instructions (Chinese)",
     r"(?:忽略|无视|無視|忽视|忘记|忘記|不要理会|不要理會)[^\n。！？]{0,12}?(?:指令|指示|说明|說明|规则|規則|提示)"),
    ("intl.leak.zh", LEAK, "asks to reveal the system prompt (Chinese)",
     r"(?:显示|顯示|透露|泄露|洩露|告诉我|告訴我|输出|輸出|打印|展示|重复|重複|给我看)[^\n。！？]{0,10}?"
     r"(?:系统提示|系統提示|系统指令|系統指令|系统消息|初始指令)"),
    ("intl.role.zh", ROLE, "asks the agent to act without restrictions (Chinese)",
     r"(?:你现在是|你現在是|假装你是|假裝你是|扮演)[^\n。！？]{0,20}?(?:没有任何限制|沒有任何限制|不受限制|无限制|無限制)"),
    # Japanese
    ("intl.override.ja", OVERRIDE, "asks to ignore earlier instructions (Japanese)",
     r"(?:指示|命令|ルール|指令|プロンプト)[^\n。！？]{0,12}?(?:を|は)?(?:すべて|全て)?\s*(?:無視|忘れ)"),
    ("intl.leak.ja", LEAK, "asks to reveal the system prompt (Japanese)",
     r"システム\s*(?:プロンプト|メッセージ|指示)[^\n。！？]{0,12}?(?:を|は)?\s*(?:表示|教え|見せ|出力|明か|開示"
     r"|繰り返|書き出)"),
    ("intl.role.ja", ROLE, "asks the agent to act without restrictions (Japanese)",
     r"(?:制限|フィルター|ルール)(?:の)?(?:ない|なし|無し|を解除)[^\n。！？]{0,20}?(?:として|モード|AI)"),
    # Arabic
    ("intl.override.ar", OVERRIDE, "asks to ignore earlier instructions (Arabic)",
     r"(?:تجاهل|انس|أهمل|اهمل|لا\s+تتبع)[^\n.!?؟]{0,30}?(?:التعليمات|الإرشادات|التوجيهات|القواعد|الأوامر)"),
    ("intl.leak.ar", LEAK, "asks to reveal the system prompt (Arabic)",
     r"(?:اكشف|أظهر|اظهر|اعرض|أخبرني|اطبع|كرر|شارك)[^\n.!?؟]{0,30}?(?:موجه|تعليمات|رسالة|تلقين)\s+النظام"),
    ("intl.role.ar", ROLE, "asks the agent to act without restrictions (Arabic)",
     r"(?:أنت\s+الآن|تظاهر|تصرف\s+ك)[^\n.!?؟]{0,40}?(?:بدون|دون)\s+(?:أي\s+)?(?:قيود|حدود|فلاتر)"),
    # Hindi
    ("intl.override.hi", OVERRIDE, "asks to ignore earlier instructions (Hindi)",
     r"(?:निर्देशों|निर्देश|नियमों|आदेशों)[^\n।!?]{0,30}?(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|नज़रअंदाज|भूल\s+जा|भूल\s+जाओ"
     r"|भूल\s+जाएं|मत\s+मानो)"),
    ("intl.leak.hi", LEAK, "asks to reveal the system prompt (Hindi)",
     r"(?:सिस्टम|सिस्टेम)\s+(?:प्रॉम्प्ट|प्रोम्प्ट|संदेश|निर्देश)[^\n।!?]{0,30}?(?:दिखाओ|दिखाएं|दिखाइए|बताओ|बताएं"
     r"|बताइए|प्रकट|साझा|लिखो)"),
    ("intl.role.hi", ROLE, "asks the agent to act without restrictions (Hindi)",
     r"(?:अब\s+तुम|अब\s+आप|दिखावा\s+करो)[^\n।!?]{0,40}?(?:बिना\s+(?:किसी\s+)?(?:प्रतिबंध|सीमा|नियम))"),
)
