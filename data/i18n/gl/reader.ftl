# The words a reader sees around an event, in Galician: category labels,
# the attribution's label, the lines of an iCalendar event, licence names.
# Each message id must exist in every language (a test checks it).

## CityVibe's categories (Category::id after `category-`).
category-music = Música
category-theatre = Teatro
category-dance = Danza
category-film = Cine
category-exhibition = Exposicións
category-literature = Libros e lectura
category-workshop = Cursos e obradoiros
category-talk = Conferencias
category-family = Infantil e familias
category-festival = Festas e festivais
category-sport = Deporte
category-tour = Visitas e rutas
category-other = Outros

## The attribution: a publisher's "Fuente: …" is shown with the reader's word.
## `source-label` of every language is a label recognised at the start of an attribution.
source-label = Fonte
source-attribution = Fonte: { $who }

## The lines an iCalendar event's description ends with.
ics-price = Prezo: { $price }
ics-licence = Licenza: { $name } <{ $url }>
ics-original = Orixinal: { $url }
ics-more-info = Máis información: { $url }
ics-dataset-page = Páxina do conxunto de datos: { $url }

## Licence names, by their link (data/i18n/licences.tsv).
licence-cc-by-4 = Creative Commons Recoñecemento 4.0 (CC BY 4.0)
licence-madrid-legal-notice = Aviso legal de datos.madrid.es (reutilización libre citando a fonte)
licence-esmadrid-terms = Condicións de uso dos datos abertos de esMADRID (reutilización citando a fonte; as fotografías non se ceden)
licence-gencat-open-information = Licenza aberta de uso de información da Generalitat de Catalunya (reutilización citando a fonte)
