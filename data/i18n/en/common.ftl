# Interface words shared by every page and view, in English.
lang-es = Spanish
lang-ca = Catalan
lang-gl = Galician
lang-en = English
lang-fr = French
lang-it = Italian
lang-pt = Portuguese
