"""Attack patterns in languages other than English: Spanish, French, German, Portuguese, Italian
and Dutch here; Russian, Polish, Turkish, Chinese, Japanese, Korean, Arabic and Hindi in
:mod:`silcrow.safety._patterns_intl_more`.

Matched on the *native* form of a text (NFKC, invisible characters removed, case folded,
no look-alike folding, which would turn Cyrillic into Latin). Each pattern is a verb
and its object in the order the language puts them, with a bounded gap; written for
silcrow from how the phrases are said, not taken from any list.

The families, one pattern id ``intl.<family>.<lang>`` each:

- ``override``: ignore or forget the earlier instructions;
- ``leak``: reveal the system prompt or the hidden instructions;
- ``role``: "you are now X", without rules, filters or limits;
- ``never_refuse``: never refuse a request, said to the agent;
- ``mode``: a developer, god or jailbreak mode together with what makes it one (two answers,
  no rules): the bare switch is also a line of a phone's or a browser's setup notes;
- ``authority``: "I am your administrator / developer" with the agent's rules changed, or the
  agent's rules declared lifted;
- ``obey``: obey me, only me, only this note; remember that you obey;
- ``exfil``: send the conversation, its history or secrets to an address;
- ``hide``: do not tell the user;
- ``cant``: never say that you cannot. Also a motivational phrase ("never say you can't!"),
  so it is only held (:data:`INTL_HOLD`), unless the note has more of an attack in it.

Every pattern begins with literal words (the prefilter skips a pattern none of whose first
words occurs in a note), and every gap is bounded, so each is linear in the note's length.
Phrases a user says about their own day are left out on purpose: "the admin updated the
wiki's rules" names no "your rules"; "my dog only obeys me" is not said to the agent.
"""

from __future__ import annotations

import re
import unicodedata

from silcrow.safety._patterns import DECEPTION, EXFIL, LEAK, OVERRIDE, ROLE
from silcrow.safety._patterns_intl_more import MORE

_G = r"[^\n.!?。！？]{0,40}?"  # a short gap inside one sentence
_L = r"[^\n]{0,150}?"  # a gap inside one line, across sentences ("Ich bin dein Admin. Deine Regeln ...")
_A = "['\u2019]"  # an apostrophe, typed or typographic
_EMAIL_OR_URL = r"(?:https?://|@[\w-]{1,63}\.\w"  # a URL or an e-mail address; closed by the caller
# What an override asks to drop, per language.
_OBJ_ES = r"(?:instrucciones|indicaciones|reglas|directrices|órdenes|normas)"
_OBJ_FR = r"(?:instructions|consignes|règles|directives)"
_OBJ_DE = r"(?:anweisungen|instruktionen|regeln|vorgaben|richtlinien)"
_OBJ_PT = r"(?:instruções|instrucoes|regras|diretrizes|orientações)"
# "This address": where an attack sends what it takes (a conversation is sent to a web address, not
# mailed to a colleague; a password goes to neither).
_THIS_ES = r"\b(?:esta|la\s+siguiente)\s+(?:url|dirección|direccion)\b|\beste\s+(?:correo|enlace|servidor)\b"
_THIS_FR = r"\bcette\s+(?:adresse|url)\b|\bl['\u2019]adresse\s+suivante\b|\bce\s+(?:lien|serveur)\b"
_THIS_DE = r"\b(?:die\s+folgende|diese)\s+(?:adresse|url)\b|\bdiesen\s+(?:link|server)\b"
_THIS_PT = r"\b(?:este|o\s+seguinte)\s+(?:endereço|link|servidor)\b|\besta\s+url\b"
_THIS_IT = r"\b(?:questo|il\s+seguente)\s+(?:indirizzo|link|server)\b|\bquesta\s+url\b"

FAMILIES: dict[str, tuple[str, str]] = {
    "override": (OVERRIDE, "asks to ignore earlier instructions"),
    "leak": (LEAK, "asks to reveal the system prompt or hidden instructions"),
    "role": (ROLE, "asks the agent to act without rules or filters"),
    "never_refuse": (ROLE, "tells the agent never to refuse"),
    "mode": (ROLE, "invokes a developer, god or jailbreak mode"),
    "authority": (OVERRIDE, "claims authority over the agent's rules, or declares them lifted"),
    "obey": (OVERRIDE, "tells the agent to obey one person or one note"),
    "exfil": (EXFIL, "asks to send the conversation or secrets to an address"),
    "hide": (DECEPTION, "asks the agent to hide something from the user"),
    "cant": (ROLE, "tells the agent never to say it cannot"),
}
LANGUAGES = {
    "es": "Spanish", "fr": "French", "de": "German", "pt": "Portuguese", "it": "Italian", "nl": "Dutch",
    "ru": "Russian", "pl": "Polish", "tr": "Turkish", "zh": "Chinese", "ja": "Japanese", "ko": "Korean",
    "ar": "Arabic", "hi": "Hindi",
}

_ES = {
    "override": rf"(?<!\bno\s)(?<!nunca\s)(?<!jamás\s)\b(?:ignora|ignore|ignorar|ignorá|olvida|olvide"
                r"|olvidar|olvídate|olvidate|olvidá|descarta|descarte"
                rf"|omite|omita)\b{_G}(?:\b(?:tus|todas\s+(?:las|tus))\s+(?:\w+\s+)?{_OBJ_ES}\b"
                rf"(?!\s+del?\s+(?!sistema|desarrollador|seguridad))|\b{_OBJ_ES}\s+(?:anteriores|previas"
                r"|originales|iniciales|recibidas|de\s+arriba|del\s+sistema|de\s+sistema|del\s+desarrollador"
                r"|que\s+te\s+(?:dieron|han\s+dado|dio)|que\s+recibiste)\b)|\b(?:olvida|olvide|olvídate\s+de"
                r"|olvidate\s+de)\s+todo\s+lo\s+(?:anterior|que\s+te\s+(?:dijeron|han\s+dicho))\b",
    "leak": rf"(?<!\bno\s)(?<!nunca\s)(?<!jamás\s)\b(?:revela|revele|revelar|muestra|muestre|muéstrame"
            r"|mostrame|dime|dame|imprime|imprima|repite"
            rf"|repita|comparte|escribe)\b{_G}\b(?:(?:prompt|(?:tu|su)\s+mensaje"
            r"|instrucciones)\s+(?:del?\s+)?sistema|(?:tus\s+)?instrucciones\s+(?:ocultas|secretas)"
            r"|tus\s+instrucciones\s+internas|prompt\s+(?:oculto|secreto|inicial))\b",
    "role": r"\b(?:ahora\s+eres|eres\s+ahora|partir\s+de\s+ahora,?\s+(?:eres|serás|vas\s+a\s+ser)"
            r"|desde\s+ahora,?\s+(?:eres|serás|vas\s+a\s+ser)|actúa\s+como|finge\s+(?:ser|que\s+eres)"
            r"|compórtate\s+como)\b[^\n]{0,100}?(?:\bsin\s+(?:ningun[oa]?\s+(?:de\s+)?)?(?:(?:las|tus"
            r"|sus)\s+)?(?:restricciones|restricción|límites|filtros?|reglas|normas|censura)\b"
            r"|\bno\s+tienes?\s+(?:ningun[oa]?\s+)?(?:reglas|filtros|límites|restricciones)\b)"
            # "sin límites de horario" limits something else; "sin reglas de ningún tipo" does not.
            r"(?!\s+(?:del|para|en|al)\b|\s+de\s+(?!ningún|ninguna|ningun|tipo))",
    "never_refuse": r"\b(?:nunca|jamás|jamas)\s+(?:te\s+)?(?:niegues|negarás|rechaces|rechazarás|rehúses"
                    r"|rehusarás)\b[^\n.!?]{0,20}?\b(?:ningun[ao]\s+(?:petición|solicitud|pregunta|orden"
                    r"|tarea)|responder|contestar)\b",
    "mode": rf"\bmodo\s+(?:de\s+)?(?:desarrollador|jailbreak|dan)\b{_L}(?:\bdos\s+respuestas\b|\bsin\s+"
            r"(?:filtros?|restricciones|reglas|censura|límites)\b|\bno\s+tiene\w*\s+(?:reglas|filtros"
            rf"|límites))|\bmodo\s+dios\b{_L}\bdos\s+respuestas\b"
            r"|\bmodo\s+(?:jailbreak|dan|sin\s+(?:filtros?|restricciones|censura))\s+(?:activad|habilitad)",
    "authority": rf"\b(?:soy|somos)\s+(?:(?:el|la|tu|su)\s+)?(?:administrador|administradora|desarrollador"
                 rf"|desarrolladora|creador|creadora|operador|admin)\b{_L}(?:\btus\s+(?:\w+\s+)?(?:reglas"
                 r"|instrucciones|directrices|restricciones|normas|políticas|filtros"
                 r"|limitaciones)\b[^\n.!?]{0,30}?\b(?:actualizad|cambiad|cambiaron|han\s+cambiado|modificad"
                 r"|levantad|eliminad|desactivad|suspendid|anulad|ya\s+no)|\bnueva\s+política\b"
                 r"|\bobedéceme\b)|\btus\s+(?:\w+\s+)?(?:reglas|instrucciones|directrices|restricciones"
                 r"|normas|limitaciones)\s+(?:han\s+sido\s+|fueron\s+|están\s+|quedan\s+"
                 r"|quedaron\s+)?(?:desactivad|eliminad|levantad|suspendid|anulad|revocad)",
    "obey": r"\bobedéceme\b|\bobedeceme\b|\bobedecerás\b|\b(?:siempre|solo|sólo"
            r"|únicamente)\s+(?:me\s+)?obedeces\b|\bobedece\s+(?:solo|sólo|únicamente)\s+(?:a\s+mí"
            r"|mis\s+órdenes|estas\s+órdenes|este\s+mensaje|este\s+texto|esta\s+nota)"
            r"|\bdebes\s+obedecer(?:me\b|\s+(?:solo|sólo|a\s+cualquier|a\s+todo|cualquier))",
    "exfil": r"(?<!\bno\s)(?<!nunca\s)(?<!jamás\s)\b(?:envía|envia|envíe|envie|manda|mande|reenvía|reenvia"
             r"|sube|suba|transmite|transmita|publica"
             r"|filtra)\w*\b[^\n]{0,80}?\b(?:(?:historial\s+(?:de\s+(?:la\s+)?(?:conversación|conversacion"
             r"|chat|mensajes)|del\s+usuario)|conversación|conversacion|memoria|memory\.md"
             r"|user\.md)\b[^\n]{0,80}?"
             r"(?:https?://|\bwebhook\b|" + _THIS_ES + r")|(?:contraseñas|claves\s+(?:de\s+)?(?:api|acceso)"
             r"|credenciales|tokens?|secretos|variables\s+de\s+entorno)\b[^\n]{0,80}?(?:https?://"
             r"|@[\w-]{1,63}\.\w|\bwebhook\b|" + _THIS_ES + "))",
    "hide": r"\b(?:no|nunca|jamás)\s+(?:(?:le|les|se\s+lo|se\s+la|lo)\s+)?(?:digas|cuentes|menciones|informes"
            r"|avises|reveles)\s+(?:nada|esto|eso|de\s+esto|sobre\s+esto|de\s+eso"
            r"|sobre\s+eso)\b[^\n]{0,20}?\b(?:al|a\s+los|a\s+tu)\s+usuarios?\b|\bno\s+se\s+lo\s+(?:digas"
            r"|cuentes|menciones)\s+(?:nunca\s+)?(?:al|a\s+tu)\s+usuario\b|\bsin\s+que\s+(?:el|los"
            r"|tu)\s+usuarios?\s+(?:lo\s+|se\s+)?(?:sepa|sepan|note|entere)",
    "cant": r"\b(?:nunca|jamás|no)\s+(?:digas|dirás)\s+(?:que\s+)?(?:no\s+puedes|lo\s+siento"
            r"|no\s+es\s+posible)",
}

_FR = {
    # "ignore" and "instructions" are English words too: a French determiner before the object
    # tells the languages apart ("ignore les instructions", not "ignore instructions inside").
    "override": rf"(?<!\bne\s)(?<!\bn')(?<!\bn\u2019)\b(?:ignore|ignorez|ignorer|oublie|oubliez|oublier"
                rf"|néglige|négligez)\b{_G}(?:\b(?:tes|vos|toutes\s+(?:les|tes|vos)"
                r"|l" + _A + r"ensemble\s+des)\s+(?:\w+\s+)?" + _OBJ_FR
                + r"\b(?!\s+d(?:e|u|es)\s+(?!système|développeur|sécurité|base))(?!\s+d" + _A + r")"
                r"|\b(?:les|ces|des)\s+" + _OBJ_FR + r"\s+(?:précédentes|antérieures|initiales|originales"
                r"|ci-dessus|du\s+système|système|du\s+développeur|reçues|qu" + _A + r"on\s+t" + _A
                + r"a\s+données)\b)",
    "leak": rf"(?<!\bne\s)(?<!\bn')(?<!\bn\u2019)\b(?:révèle|révélez|montre|montrez|affiche|affichez|donne"
            rf"|donnez|répète|répétez|dis|dites)\b{_G}"
            r"\b(?:(?:prompt|invite|(?:ton|votre)\s+message|instructions|consignes)\s+(?:du\s+|de\s+)?système"
            r"|message\s+système(?!\s+d)|instructions\s+(?:cachées|secrètes)|consignes\s+(?:cachées|secrètes)"
            r"|prompt\s+(?:caché|secret|initial))\b",
    "role": r"(?<!\bne\s)(?<!\bn')(?<!\bn\u2019)\b(?:tu\s+es\s+(?:maintenant|désormais|dorénavant)"
            r"|désormais,?\s+tu\s+es"
            r"|partir\s+de\s+maintenant,?"
            r"\s+tu\s+es|agis\s+comme|fais\s+semblant\s+d" + _A + r"être|comporte-toi\s+comme)\b[^\n]{0,100}?"
            r"(?:\bsans\s+(?:aucune?\s+)?(?:restrictions?|limites?|filtres?|règles?|censure)\b"
            r"|\bn" + _A + r"(?:a|as)\s+(?:plus\s+)?aucune?\s+(?:règles?|filtres?|limites?|restrictions?)\b"
            r"|\baucune\s+règle\b)(?!\s+(?:de|du|des|pour|sur|en)\b|\s+d" + _A + ")",
    "never_refuse": r"\btu\s+ne\s+(?:refuses|refuseras)\s+jamais\s+(?:aucune\s+|une\s+|de\s+)?(?:demande"
                    r"|requête|question|répondre)\b|\bne\s+(?:refuse"
                    r"|refusez)\s+jamais\s+(?:aucune\s+(?:demande|requête|question)|de\s+répondre)\b",
    "mode": rf"\bmode\s+(?:développeur|jailbreak|dan)\b{_L}(?:\bdeux\s+réponses\b|\bsans\s+"
            r"(?:aucune?\s+)?(?:filtres?|restrictions?|règles?|censure|limites?)\b"
            rf"|\baucune\s+(?:règle|restriction|limite)\b)|\bmode\s+dieu\b{_L}\bdeux\s+réponses\b"
            r"|\bmode\s+(?:jailbreak|dan)\s+(?:est\s+)?activé",
    "authority": rf"\bje\s+suis\s+(?:ton\s+|votre\s+|le\s+|l{_A})?(?:administrateur|administratrice"
                 r"|développeur"
                 rf"|développeuse|créateur|créatrice|opérateur|admin)\b{_L}(?:\b(?:tes|vos)\s+(?:\w+\s+)?"
                 r"(?:règles|consignes|instructions|directives|restrictions|limites"
                 r"|filtres)\b[^\n.!?]{0,30}?(?:mises?\s+à\s+jour|changé|modifiées|levées|supprimées"
                 r"|désactivées|annulées|suspendues"
                 r"|ne\s+s" + _A + r"appliquent\s+plus)|\bnouvelle\s+politique\b"
                 r"|\btu\s+dois\s+(?:m" + _A + r")?obéir)"
                 r"|\b(?:tes|vos)\s+(?:\w+\s+)?(?:règles|consignes|instructions|directives|restrictions"
                 r"|limites)\s+(?:ont\s+été|sont\s+(?:désormais\s+)?)\s*(?:levées|supprimées|désactivées"
                 r"|annulées|suspendues|révoquées)",
    "obey": r"\bobéis-moi\b|\bobéis\s+(?:uniquement|seulement)\s+(?:à\s+moi|à\s+ce\s+message"
            r"|à\s+cette\s+note)"
            r"|\btu\s+(?:m" + _A + r")?obéis\s+(?:toujours|désormais|uniquement|seulement)"
            r"|\btu\s+(?:m" + _A + r")?obéiras\b|\btu\s+dois\s+(?:m" + _A + r"obéir|obéir\s+(?:à\s+tout"
            r"|à\s+chaque|uniquement|seulement|à\s+moi))",
    "exfil": r"(?<!\bne\s)(?<!\bn')(?<!\bn\u2019)\b(?:envoie|envoyez|transmets|transmettez|transfère"
             r"|transférez|publie|téléverse|exfiltre)\b[^\n]{0,80}?\b(?:(?:historique\s+(?:de\s+la\s+"
             r"|des\s+)?(?:conversation|discussion|chat|messages)|conversation"
             r"|mémoire|memory\.md|user\.md)\b[^\n]{0,80}?(?:https?://|\bwebhook\b|" + _THIS_FR + r")"
             r"|(?:mots\s+de\s+passe|clés?\s+(?:d" + _A + r"api|d" + _A + r"accès|api)|identifiants|jetons?"
             r"|tokens?"
             r"|secrets|variables\s+d" + _A + r"environnement|fichier\s+de\s+configuration)\b[^\n]{0,80}?"
             r"(?:https?://|@[\w-]{1,63}\.\w|\bwebhook\b|" + _THIS_FR + "))",
    "hide": r"\bne\s+(?:le\s+|la\s+|l" + _A + r")(?:dis|dites|mentionne|mentionnez|signale|signalez|révèle"
            r"|révélez"
            r"|raconte)\s+(?:jamais\s+|pas\s+)(?:\w+\s+){0,2}?à\s+l" + _A + r"utilisat(?:eur|rice)"
            r"|\bne\s+(?:lui\s+|leur\s+)?(?:dis|dites|mentionne|mentionnez|signale|signalez|révèle|révélez"
            r"|raconte)"
            r"\s+(?:jamais\s+)?(?:rien|de\s+(?:tout\s+)?(?:ceci|cela|ça))\s+(?:\w+\s+){0,3}?à\s+l" + _A
            + r"utilisat(?:eur|rice)"
            r"|\b(?:discrètement|secrètement|en\s+secret)\s+(?:\w+\s+)?(?:envoie|transmets|copie|supprime)"
            r"|\b(?:envoie|transmets|copie)\s+(?:\w+\s+)?(?:discrètement|secrètement|en\s+secret)\b",
    "cant": r"\bne\s+(?:dis|dites)\s+jamais\s+(?:que\s+)?(?:tu\s+ne\s+peux\s+pas|vous\s+ne\s+pouvez\s+pas"
            r"|désolé)",
}

_DE = {
    "override": rf"\b(?:ignoriere|ignorier|ignorieren|vergiss|vergessen|missachte"
                rf"|missachten)\b(?!\s+(?:niemals|nie|nicht|keinesfalls)\b){_G}"
                r"(?:\b(?:deine|dein|alle|sämtliche|bisherige|vorherige|vorige|frühere|ursprüngliche"
                r"|obige)\w{0,2}\s+"
                r"(?:\w+\s+)?\w{0,20}" + _OBJ_DE + r"\b(?!\s+(?:der|des|vom|von|für|zur|zum|beim|im)\b)"
                r"|\bsystem-?" + _OBJ_DE + r"\b)",
    "leak": rf"\b(?:zeige|zeig|verrate|verrat|gib|nenne|wiederhole|drucke)\b(?!\s+(?:niemals|nie|nicht"
            rf"|keinesfalls)\b){_G}"
            r"(?:system-?prompt|systemanweisungen|systemnachricht|system\s+prompt|versteckten?\s+anweisungen"
            r"|geheimen?\s+anweisungen)\b",
    "role": r"\b(?:du\s+bist\s+(?:jetzt|nun|ab\s+jetzt|ab\s+sofort)|ab\s+(?:jetzt|sofort)\s+bist\s+du"
            r"|tu\s+so,?\s+als|handle\s+als|verhalte\s+dich\s+wie"
            r"|spiele?\s+die\s+rolle)\b[^\n]{0,100}?(?:\bohne\s+(?:jegliche\s+"
            r"|irgendwelche\s+)?(?:einschränkungen|regeln|filter|grenzen|zensur|richtlinien)"
            r"|\buneingeschränkt|\bhast?\s+keine\s+(?:regeln|richtlinien|filter|grenzen"
            r"|einschränkungen))(?!\s+(?:bei|für|beim|im|in|der|des|von|auf)\b)",
    "never_refuse": r"(?<!ich\s)\b(?:verweigere|lehne)\s+(?:niemals|nie)\b[^\n.!?]{0,30}?\b(?:anfrage"
                    r"|anfragen|antwort|bitte)\b|\bdu\s+(?:verweigerst|lehnst)\s+(?:niemals"
                    r"|nie)\s+(?:eine\s+)?(?:antwort|anfrage|bitte)\b|\bweigere\s+dich\s+(?:niemals"
                    r"|nie)\b[^\n.!?]{0,30}?\b(?:zu\s+antworten|anfrage)",
    "mode": rf"\b(?:entwicklermodus|entwickler-modus|jailbreak(?:-modus|modus)|dan(?:-modus|modus)"
            rf"|modus\s+entwickler|mode\s+entwickler){_L}(?:\bzwei\s+antworten\b"
            r"|\bohne\s+(?:jegliche\s+)?(?:einschränkungen|regeln|filter|grenzen|zensur)|\bkeine\s+(?:regeln"
            r"|richtlinien|filter|grenzen|einschränkungen)"
            rf"|\bungefiltert)|\bgott-?modus{_L}\bzwei\s+antworten\b|\b(?:jailbreak|dan)(?:-modus"
            r"|modus)\s+(?:ist\s+)?(?:aktiviert|aktiv)\b",
    "authority": rf"\bich\s+bin\s+(?:dein|deine|der|die|ihr)\s+(?:\w+\s+)?(?:administrator|administratorin"
                 rf"|admin|entwickler|entwicklerin|systemadministrator|schöpfer"
                 rf"|betreiber)\b{_L}(?:\bdeine\s+(?:\w+\s+)?"
                 r"(?:regeln|richtlinien|anweisungen|einschränkungen|vorgaben"
                 r"|filter)\b[^\n.!?]{0,30}?(?:aktualisiert|geändert|aufgehoben|deaktiviert|entfernt"
                 r"|ausser\s+kraft|nicht\s+mehr)|\bneue\s+richtlinie|\bgehorche\b)"
                 r"|\bdeine\s+(?:\w+\s+)?(?:regeln|richtlinien|anweisungen|einschränkungen|vorgaben"
                 r"|filter)\s+(?:wurden|sind|gelten)\s+(?:\w+\s+)?(?:aufgehoben|deaktiviert|entfernt"
                 r"|abgeschaltet|ausser\s+kraft|nicht\s+mehr)",
    "obey": r"\bgehorche\s+(?:mir|nur|ab\s+jetzt|ab\s+sofort|ausschliesslich)\b|\bdu\s+gehorchst\s+(?:mir|nur"
            r"|immer|ab\s+jetzt)\b|\bdu\s+(?:mir\s+)?(?:immer|stets|nur|ab\s+jetzt)\s+(?:mir\s+)?gehorchst\b"
            r"|\bdu\s+musst\s+(?:mir|jeder\s+nachricht|jedem\s+befehl)\s+gehorchen\b|\b(?:folge"
            r"|befolge)\s+(?:ab\s+jetzt\s+|ab\s+sofort\s+)?(?:nur|ausschliesslich)\s+(?:noch\s+)?(?:mir"
            r"|meinen\s+befehlen|dieser\s+notiz|diesem\s+text)\b",
    "exfil": r"\b(?:schicke|schick|sende|übermittle|übertrage|lade|poste|leite)\b(?!\s+(?:niemals|nie|nicht"
             r"|keinesfalls)\b)[^\n]{0,80}?(?:(?:chatverlauf|gesprächsverlauf|unterhaltung|memory\.md"
             r"|user\.md)\b[^\n]{0,80}?(?:https?://"
             r"|\bwebhook\b|" + _THIS_DE + r")|(?:passwörter|zugangsdaten|api-?schlüssel|tokens?|geheimnisse"
             r"|umgebungsvariablen)\b(?!\s+(?:nie|niemals|nicht)\b)[^\n]{0,80}?(?:https?://|@[\w-]{1,63}\.\w"
             r"|\bwebhook\b|" + _THIS_DE + "))",
    "hide": r"\b(?:sag|sage|erzähl|erzähle|verrate|verrat)\s+(?:es\s+|das\s+|davon\s+)?(?:dem"
            r"|den)\s+(?:benutzer|nutzer|anwender|user)\w*\s+(?:davon\s+)?(?:nichts|nie|niemals|kein)\b"
            r"|\b(?:heimlich|unbemerkt)\s+(?:\w+\s+)?(?:schick|send|kopier|übermittel)",
    "cant": r"\bsag\w*\s+(?:niemals|nie)\b[^\n.!?]{0,20}?\b(?:dass\s+du\s+(?:etwas\s+)?nicht\s+(?:kannst"
            r"|darfst)|tut\s+mir\s+leid)",
}

_PT = {
    "override": rf"(?<!\bnão\s)(?<!nunca\s)(?<!jamais\s)\b(?:ignore|ignora|ignorar|esqueça|esquece|esquecer"
                rf"|desconsidere|desconsidera)\b{_G}"
                rf"(?:\b(?:suas|tuas|todas\s+(?:as|suas|tuas))\s+(?:\w+\s+)?{_OBJ_PT}\b"
                rf"(?!\s+d[oa]s?\s+(?!sistema|desenvolvedor|segurança))|\b{_OBJ_PT}\s+(?:anteriores|prévias"
                r"|originais|iniciais|recebidas|do\s+sistema|de\s+sistema|do\s+desenvolvedor"
                r"|que\s+você\s+recebeu)\b)",
    "leak": rf"(?<!\bnão\s)(?<!nunca\s)(?<!jamais\s)\b(?:revele|revela|mostre|mostra|diga|imprima|repita"
            rf"|compartilhe|escreva)\b{_G}"
            r"\b(?:(?:prompt|(?:sua|tua)\s+mensagem|instruções)\s+(?:do\s+|de\s+)?sistema"
            r"|instruções\s+(?:ocultas|secretas|escondidas)|prompt\s+(?:oculto|secreto|inicial))\b",
    "role": r"(?<!\bnão\s)(?<!nunca\s)(?<!jamais\s)\b(?:agora\s+você\s+é|você\s+agora\s+é|agora\s+tu\s+és"
            r"|partir\s+de\s+agora,?\s+(?:você\s+)?(?:é"
            r"|será|vai\s+ser)|de\s+agora\s+em\s+diante,?\s+(?:você\s+)?(?:é|será)|aja\s+como|finja\s+(?:ser"
            r"|que\s+é)|comporte-se\s+como)\b[^\n]{0,100}?(?:\bsem\s+(?:nenhuma\s+|nenhum\s+"
            r"|qualquer\s+)?(?:restrições|restrição|limites|filtros?|regras|censura)\b"
            r"|\bnão\s+tem\s+(?:nenhuma\s+)?(?:regras|filtros|limites|restrições)\b)(?!\s+(?:do|da|dos|das"
            r"|para|no|na|em)\b|\s+de\s+(?!nenhum|nenhuma|qualquer|tipo))",
    "never_refuse": r"\b(?:nunca|jamais)\s+(?:se\s+)?(?:recuse|recusa|recusará|rejeite"
                    r"|negue)\b[^\n.!?]{0,20}?\b(?:nenhum\s+pedido|nenhuma\s+(?:pergunta|solicitação|ordem)"
                    r"|a\s+responder|responder)\b",
    "mode": rf"\bmodo\s+(?:de\s+)?(?:desenvolvedor|jailbreak|dan|manutenção)\b{_L}(?:\bduas\s+(?:respostas"
            r"|vezes)\b|\bsem\s+(?:nenhum\s+)?(?:filtros?|restrições|regras|censura|limites)\b"
            rf"|\bfiltro\s+(?:de\s+conteúdo\s+)?(?:fica\s+)?desligado)"
            rf"|\bmodo\s+deus\b{_L}\bduas\s+respostas\b",
    "authority": rf"\b(?:sou|eu\s+sou)\s+(?:(?:o|a|seu|sua|teu|tua)\s+)?(?:administrador|administradora"
                 rf"|desenvolvedor|desenvolvedora|criador|criadora|operador|admin)\b{_L}(?:\b(?:suas|tuas)\s+"
                 r"(?:\w+\s+)?(?:regras|instruções|diretrizes|restrições|políticas"
                 r"|limitações)\b[^\n.!?]{0,30}?(?:atualizad|alterad|mudaram|removid|suspens|desativad"
                 r"|cancelad|revogad|não\s+valem)|\bnova\s+política\b|\bobedeça\b)|\b(?:suas"
                 r"|tuas)\s+(?:\w+\s+)?(?:regras|instruções|diretrizes|restrições|limitações)\s+(?:foram"
                 r"|estão|agora\s+estão)\s+(?:\w+\s+)?(?:removidas|suspensas|desativadas|canceladas|revogadas"
                 r"|anuladas|levantadas)",
    "obey": r"\bobedeça(?:-me\b|\s+(?:a\s+mim|apenas|só|somente)\b)|(?<=\bme\s)obedeça\b|\b(?:você"
            r"|tu)\s+(?:sempre|só|apenas)\s+(?:me\s+)?obedece|\b(?:você|tu)\s+(?:me\s+)?obedecerá\b"
            r"|\bdeve\s+(?:me\s+)?obedecer\s+(?:a\s+mim|apenas|só|a\s+qualquer|a\s+toda|a\s+todo)",
    "exfil": r"(?<!\bnão\s)(?<!nunca\s)(?<!jamais\s)\b(?:envie|envia|mande|manda|encaminhe|encaminha"
             r"|transmita|publique|poste)\b[^\n]{0,80}?\b(?:(?:histórico|conversa|memória|memory\.md"
             r"|user\.md)\b[^\n]{0,80}?(?:https?://|\bwebhook\b|"
             + _THIS_PT + r")|(?:senhas|chaves\s+(?:de\s+)?(?:api|acesso)|credenciais|tokens?|segredos"
             r"|variáveis\s+de\s+ambiente)\b[^\n]{0,80}?(?:https?://|@[\w-]{1,63}\.\w|\bwebhook\b|" + _THIS_PT
             + "))",
    "hide": r"\b(?:não|nunca|jamais)\s+(?:lhe\s+|o\s+|a\s+)?(?:conte|diga|fale|mencione|informe|avise"
            r"|revele)\w*\s+(?:nada|isso|isto|sobre\s+isso|disso)\s+(?:\w+\s+){0,2}?(?:ao|aos"
            r"|para\s+o)\s+(?:usuário|usuários|utilizador|utilizadores)\b|\bsem\s+(?:contar"
            r"|dizer)\s+(?:nada\s+)?(?:ao|aos|para\s+o)\s+(?:usuário|utilizador)",
    "cant": r"\b(?:nunca|jamais|não)\s+(?:diga|digas|dirá)\s+(?:que\s+)?(?:não\s+(?:pode|consegue)|desculpe"
            r"|sinto\s+muito)",
}

_IT = {
    "override": rf"\b(?:ignora|ignori|ignorate|dimentica|dimentichi|dimenticate|scorda|tralascia)\b{_G}"
                r"\b(?:(?:istruzioni|indicazioni|regole|direttive)\s+(?:precedenti|di\s+sistema|del\s+sistema"
                r"|originali|iniziali|ricevute)|(?:le\s+)?tue\s+(?:istruzioni|regole|direttive))\b",
    "leak": rf"\b(?:rivela|rivelami|mostra|mostrami|dimmi|stampa|ripeti|condividi|scrivi|dammi)\b{_G}"
            r"\b(?:(?:prompt|messaggio|istruzioni)\s+(?:di\s+|del\s+)?sistema|istruzioni\s+(?:nascoste"
            r"|segrete)|prompt\s+(?:nascosto|segreto|iniziale))\b",
    "role": r"\b(?:ora\s+sei|adesso\s+sei|sei\s+ora|da\s+(?:ora|adesso)\s+in\s+poi,?\s+(?:sei|sarai)"
            r"|d" + _A + r"ora\s+in\s+poi,?\s+(?:sei|sarai)|comportati\s+come|fingi\s+di\s+essere"
            r"|fai\s+finta\s+di\s+essere|agisci\s+come)\b[^\n]{0,100}?(?:\bsenza\s+(?:alcuna\s+"
            r"|nessuna\s+)?(?:restrizioni|restrizione|limiti|filtri|regole|censura)\b"
            r"|\bnon\s+hai?\s+(?:nessuna\s+|alcuna\s+)?(?:regole|filtri|limiti|restrizioni)\b)(?!\s+(?:di|del"
            r"|della|dei|per|nel|nella|in)\b)",
    "never_refuse": r"\bnon\s+(?:rifiuterai|rifiutare|ti\s+rifiutare)\s+mai\b[^\n.!?]{0,20}?(?:richiest"
                    r"|domand|rispondere)",
    "mode": rf"\bmodalità\s+(?:sviluppatore|jailbreak|dan)\b{_L}(?:\bdue\s+risposte\b|\bsenza\s+(?:alcun\s+"
            r"|nessun\s+)?(?:filtri?|restrizioni|regole|censura|limiti)\b|\bnessuna\s+(?:regola"
            rf"|restrizione)\b)|\bmodalità\s+dio\b{_L}\bdue\s+risposte\b",
    "authority": rf"\bsono\s+(?:(?:il|la)\s+)?(?:(?:tuo|tua)\s+)?(?:amministratore|amministratrice"
                 rf"|sviluppatore|sviluppatrice|creatore|creatrice|operatore"
                 rf"|admin)\b{_L}(?:\btue\s+(?:\w+\s+)?(?:regole"
                 r"|istruzioni|direttive|restrizioni|linee\s+guida)\b[^\n.!?]{0,30}?(?:aggiornat|cambiat"
                 r"|modificat|rimoss|sospes|disattivat|revocat|annullat|tolte|non\s+valgono)"
                 r"|\bnuova\s+politica\b|\bobbedisci\b)|\btue\s+(?:\w+\s+)?(?:regole|istruzioni|direttive"
                 r"|restrizioni)\s+(?:sono\s+state|sono|vengono)\s+(?:\w+\s+)?(?:rimoss|sospes|disattivat"
                 r"|revocat|annullat|tolte)",
    "obey": r"\bobbediscimi\b|\bobbedisci\s+(?:a\s+me|solo|soltanto|unicamente)\b|(?<=\bmi\s)obbedirai\b"
            r"|\b(?:sempre|solo|soltanto)\s+(?:mi\s+)?obbedisci\b|\bdevi\s+(?:obbedirmi|obbedire\s+(?:a\s+me"
            r"|solo|soltanto|a\s+qualsiasi|a\s+ogni))",
    "exfil": r"\b(?:invia|inviami|manda|inoltra|trasmetti|carica|pubblica)\b[^\n]{0,80}?\b(?:(?:cronologia"
             r"|conversazione|memoria|memory\.md|user\.md)\b[^\n]{0,80}?(?:https?://|\bwebhook\b|" + _THIS_IT
             + r")|(?:password|chiavi\s+(?:api|di\s+accesso)|credenziali|token|segreti|variabili\s+d" + _A
             + r"ambiente)\b[^\n]{0,80}?(?:https?://|@[\w-]{1,63}\.\w|\bwebhook\b|" + _THIS_IT + "))",
    "hide": r"\bnon\s+(?:dirlo|dire|dirgli|raccontare|menzionare|rivelare)\s+(?:nulla\s+|niente\s+|mai\s+)*"
            r"(?:\w+\s+)?(?:all" + _A + r"utente|agli\s+utenti)\b|\bsenza\s+dirlo\s+all" + _A + r"utente\b",
    "cant": r"\bnon\s+dire\s+mai\s+(?:che\s+)?(?:non\s+puoi|mi\s+dispiace)"
            r"|\bmai\s+dire\s+(?:che\s+)?non\s+puoi",
}

_NL = {
    "override": rf"\b(?:negeer|vergeet)\b{_G}\b(?:alle|je|jouw|vorige|eerdere|voorgaande|oorspronkelijke)\s+"
                r"(?:\w+\s+)?(?:instructies|regels|richtlijnen|opdrachten)\b(?!\s+(?:niet|van|voor|bij)\b)",
    "leak": rf"\b(?:toon|laat|geef|herhaal|onthul|print|vertel)\b{_G}\b(?:systeemprompt|systeem\s+prompt"
            r"|systeeminstructies|verborgen\s+instructies|systeembericht)",
    "role": r"\b(?:je\s+bent\s+nu|jij\s+bent\s+nu|vanaf\s+nu\s+ben\s+je|doe\s+alsof\s+je"
            r"|gedraag\s+je\s+als)\b[^\n]{0,80}?\bzonder\s+(?:enige\s+)?(?:beperkingen|regels|filters|grenzen"
            r"|censuur)\b(?!\s+(?:voor|bij|in|van|op)\b)",
    "never_refuse": r"\bweiger\s+(?:nooit|nimmer)\s+(?:een\s+)?(?:verzoek|vraag|opdracht|antwoord"
                    r"|te\s+antwoorden)|\bje\s+weigert\s+nooit\s+(?:een\s+)?(?:verzoek|vraag|opdracht)",
    "mode": rf"\b(?:ontwikkelaarsmodus|ontwikkelaarmodus|godmodus|god-modus|jailbreakmodus|jailbreak-modus"
            rf"|dan-modus)\b{_L}(?:\btwee\s+antwoorden\b|\bzonder\s+(?:enige\s+)?(?:beperkingen|regels"
            r"|filters|censuur)\b|\bgeen\s+(?:regels|beperkingen|filters)\b)",
    "authority": rf"\bik\s+ben\s+(?:je|jouw|de)\s+(?:systeem)?(?:beheerder|ontwikkelaar|admin|maker)\b{_L}"
                 r"\b(?:je|jouw)\s+(?:\w+\s+)?(?:regels|instructies|richtlijnen"
                 r"|beperkingen)\b[^\n.!?]{0,30}?(?:bijgewerkt|gewijzigd|opgeheven|uitgeschakeld|verwijderd)"
                 r"|\b(?:je|jouw)\s+(?:\w+\s+)?(?:regels|instructies|richtlijnen|beperkingen)\s+(?:zijn"
                 r"|werden)\s+(?:\w+\s+)?(?:opgeheven|uitgeschakeld|verwijderd|ingetrokken)\b",
    "obey": r"\bgehoorzaam\s+(?:mij|alleen|voortaan)\b|\bje\s+gehoorzaamt\s+(?:mij|alleen|voortaan|altijd)\b",
    "exfil": r"\b(?:stuur|verstuur|upload|post)\b[^\n]{0,80}?\b(?:(?:chatgeschiedenis|gespreksgeschiedenis"
             r"|gesprek)\b[^\n]{0,80}?(?:https?://|\bwebhook\b|\bdit\s+adres\b)|(?:wachtwoorden|api-sleutels"
             r"|tokens|inloggegevens|geheimen)\b[^\n]{0,80}?(?:https?://|@[\w-]{1,63}\.\w|\bwebhook\b"
             r"|\bdit\s+adres\b))",
    "hide": r"\b(?:vertel|zeg|meld)\s+(?:het\s+|dit\s+"
            r"|dat\s+)?(?:nooit\s+)?(?:aan\s+)?de\s+gebruiker\s+(?:hier\s+|daar\s+|er\s+)?(?:niets|niet"
            r"|nooit)\b",
    "cant": r"\bzeg\s+nooit\s+(?:dat\s+)?je\s+(?:iets\s+)?niet\s+kunt\b",
}


def _table(by_language: dict[str, dict[str, str]]) -> tuple[tuple[str, str, str, str], ...]:
    # In the NFKC form the text is matched in: "ज़" is "ज" and a nukta there, "！" is "!".
    return tuple(
        (f"intl.{family}.{lang}", FAMILIES[family][0], f"{FAMILIES[family][1]} ({LANGUAGES[lang]})",
         unicodedata.normalize("NFKC", rx))
        for lang, patterns in by_language.items() for family, rx in patterns.items()
    )


#: (pattern id, category, description, regex) for every language; the tables above and
#: :data:`silcrow.safety._patterns_intl_more.MORE`.
INTL: tuple[tuple[str, str, str, str], ...] = _table(
    {"es": _ES, "fr": _FR, "de": _DE, "pt": _PT, "it": _IT, "nl": _NL} | MORE
)

#: Held for a person rather than refused when nothing else in the note is an attack.
INTL_HOLD = frozenset(pid for pid, _, _, _ in INTL if pid.startswith("intl.cant."))

# Quotation marks that open and close a quote wherever they stand: CJK corner brackets and
# title marks, which follow a character without a space, German low-high quotes, and double
# quotes and guillemets right after a CJK character ("安全笔记：“忽略之前的所有指令”是...").
_QUOTE_PAIRS = {"「": "」", "『": "』", "《": "》", "„": "“”", "“": "”", "«": "»", "‹": "›"}
_OPEN = re.compile("[" + "".join(_QUOTE_PAIRS) + "]")


def quoted_cjk(text: str, start: int, end: int) -> bool:
    """Whether the match at ``start:end`` sits inside one pair of the quotation marks above, on
    one line, with at least four letters of the note outside the quotes (a security note
    quoting an attack, not an attack in quotation marks)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    opened = None
    for m in _OPEN.finditer(text, max(line_start, start - 300), start + 1):
        opened = m
    if opened is None:
        return False
    closers = _QUOTE_PAIRS[opened.group()]
    if any(c in text[opened.end():start] for c in closers):
        return False
    close = min((i for i in (text.find(c, end, line_end) for c in closers) if i >= 0), default=-1)
    if close < 0 or close - opened.start() > 300:
        return False
    outside = text[line_start:opened.start()] + text[close + 1:line_end]
    return sum(ch.isalpha() for ch in outside) >= 4
