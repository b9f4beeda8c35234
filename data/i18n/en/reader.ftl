# The words a reader sees around an event, in English: category labels,
# the attribution's label, the lines of an iCalendar event, licence names.
# Each message id must exist in every language (a test checks it).

## CityVibe's categories (Category::id after `category-`).
category-music = Music
category-theatre = Theatre
category-dance = Dance
category-film = Film
category-exhibition = Exhibitions
category-literature = Books and reading
category-workshop = Courses and workshops
category-talk = Talks
category-family = Children and families
category-festival = Festivals
category-sport = Sport
category-tour = Tours and visits
category-other = Other

## The attribution: a publisher's "Fuente: …" is shown with the reader's word.
## `source-label` of every language is a label recognised at the start of an attribution.
source-label = Source
source-attribution = Source: { $who }

## The lines an iCalendar event's description ends with.
ics-price = Price: { $price }
ics-licence = Licence: { $name } <{ $url }>
ics-original = Original: { $url }
ics-more-info = More information: { $url }
ics-dataset-page = Dataset page: { $url }

## Licence names, by their link (data/i18n/licences.tsv).
licence-cc-by-4 = Creative Commons Attribution 4.0 (CC BY 4.0)
licence-madrid-legal-notice = datos.madrid.es legal notice (free reuse, citing the source)
licence-esmadrid-terms = esMADRID open data terms of use (reuse citing the source; photographs are not licensed)
licence-gencat-open-information = Generalitat de Catalunya open information licence (reuse citing the source)
