# The words a reader sees around an event, in Italian: category labels,
# the attribution's label, the lines of an iCalendar event, licence names.
# Each message id must exist in every language (a test checks it).

## CityVibe's categories (Category::id after `category-`).
category-music = Musica
category-theatre = Teatro
category-dance = Danza
category-film = Cinema
category-exhibition = Mostre
category-literature = Libri e lettura
category-workshop = Corsi e laboratori
category-talk = Conferenze
category-family = Bambini e famiglie
category-festival = Feste e festival
category-sport = Sport
category-tour = Visite e itinerari
category-other = Altro

## The attribution: a publisher's "Fuente: …" is shown with the reader's word.
## `source-label` of every language is a label recognised at the start of an attribution.
source-label = Fonte
source-attribution = Fonte: { $who }

## The lines an iCalendar event's description ends with.
ics-price = Prezzo: { $price }
ics-licence = Licenza: { $name } <{ $url }>
ics-original = Originale: { $url }
ics-more-info = Maggiori informazioni: { $url }
ics-dataset-page = Pagina del set di dati: { $url }

## Licence names, by their link (data/i18n/licences.tsv).
licence-cc-by-4 = Creative Commons Attribuzione 4.0 (CC BY 4.0)
licence-madrid-legal-notice = Note legali di datos.madrid.es (riutilizzo libero citando la fonte)
licence-esmadrid-terms = Condizioni d’uso dei dati aperti di esMADRID (riutilizzo citando la fonte; le fotografie non sono cedute)
licence-gencat-open-information = Licenza aperta d’uso delle informazioni della Generalitat de Catalunya (riutilizzo citando la fonte)
