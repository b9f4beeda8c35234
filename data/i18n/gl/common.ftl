# Interface words shared by every page and view, in Galician.
lang-es = castelán
lang-ca = catalán
lang-gl = galego
lang-en = inglés
lang-fr = francés
lang-it = italiano
lang-pt = portugués
