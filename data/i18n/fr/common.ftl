# Interface words shared by every page and view, in French.
lang-es = espagnol
lang-ca = catalan
lang-gl = galicien
lang-en = anglais
lang-fr = français
lang-it = italien
lang-pt = portugais
