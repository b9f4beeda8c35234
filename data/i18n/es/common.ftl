# Interface words shared by every page and view, in Spanish.
# Each message id must exist in every language (a test checks it).
lang-es = español
lang-ca = catalán
lang-gl = gallego
lang-en = inglés
lang-fr = francés
lang-it = italiano
lang-pt = portugués
