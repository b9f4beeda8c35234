# Interface words shared by every page and view, in Portuguese.
lang-es = espanhol
lang-ca = catalão
lang-gl = galego
lang-en = inglês
lang-fr = francês
lang-it = italiano
lang-pt = português
