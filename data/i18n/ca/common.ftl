# Interface words shared by every page and view, in Catalan.
lang-es = castellà
lang-ca = català
lang-gl = gallec
lang-en = anglès
lang-fr = francès
lang-it = italià
lang-pt = portuguès
