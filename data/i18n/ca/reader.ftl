# The words a reader sees around an event, in Catalan: category labels,
# the attribution's label, the lines of an iCalendar event, licence names.
# Each message id must exist in every language (a test checks it).

## CityVibe's categories (Category::id after `category-`).
category-music = Música
category-theatre = Teatre
category-dance = Dansa
category-film = Cinema
category-exhibition = Exposicions
category-literature = Llibres i lectura
category-workshop = Cursos i tallers
category-talk = Conferències
category-family = Infantil i famílies
category-festival = Festes i festivals
category-sport = Esport
category-tour = Visites i rutes
category-other = Altres

## The attribution: a publisher's "Fuente: …" is shown with the reader's word.
## `source-label` of every language is a label recognised at the start of an attribution.
source-label = Font
source-attribution = Font: { $who }

## The lines an iCalendar event's description ends with.
ics-price = Preu: { $price }
ics-licence = Llicència: { $name } <{ $url }>
ics-original = Original: { $url }
ics-more-info = Més informació: { $url }
ics-dataset-page = Pàgina del conjunt de dades: { $url }

## Licence names, by their link (data/i18n/licences.tsv).
licence-cc-by-4 = Creative Commons Reconeixement 4.0 (CC BY 4.0)
licence-madrid-legal-notice = Avís legal de datos.madrid.es (reutilització lliure citant-ne la font)
licence-esmadrid-terms = Condicions d’ús de les dades obertes d’esMADRID (reutilització citant-ne la font; les fotografies no se cedeixen)
licence-gencat-open-information = Llicència oberta d’ús d’informació de la Generalitat de Catalunya (reutilització citant-ne la font)
