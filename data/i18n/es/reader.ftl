# The words a reader sees around an event, in Spanish: category labels,
# the attribution's label, the lines of an iCalendar event, licence names.
# Each message id must exist in every language (a test checks it).

## CityVibe's categories (Category::id after `category-`).
category-music = Música
category-theatre = Teatro
category-dance = Danza
category-film = Cine
category-exhibition = Exposiciones
category-literature = Libros y lectura
category-workshop = Cursos y talleres
category-talk = Conferencias
category-family = Infantil y familias
category-festival = Fiestas y festivales
category-sport = Deporte
category-tour = Visitas y rutas
category-other = Otros

## The attribution: a publisher's "Fuente: …" is shown with the reader's word.
## `source-label` of every language is a label recognised at the start of an attribution.
source-label = Fuente
source-attribution = Fuente: { $who }

## The lines an iCalendar event's description ends with.
ics-price = Precio: { $price }
ics-licence = Licencia: { $name } <{ $url }>
ics-original = Original: { $url }
ics-more-info = Más información: { $url }
ics-dataset-page = Página del conjunto de datos: { $url }

## Licence names, by their link (data/i18n/licences.tsv).
licence-cc-by-4 = Creative Commons Atribución 4.0 (CC BY 4.0)
licence-madrid-legal-notice = Aviso legal de datos.madrid.es (reutilización libre citando la fuente)
licence-esmadrid-terms = Condiciones de uso de los datos abiertos de esMADRID (reutilización con cita de la fuente; las fotografías no se ceden)
licence-gencat-open-information = Licencia abierta de uso de información de la Generalitat de Catalunya (reutilización citando la fuente)
