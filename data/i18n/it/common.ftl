# Interface words shared by every page and view, in Italian.
lang-es = spagnolo
lang-ca = catalano
lang-gl = galiziano
lang-en = inglese
lang-fr = francese
lang-it = italiano
lang-pt = portoghese
