# The words a reader sees around an event, in French: category labels,
# the attribution's label, the lines of an iCalendar event, licence names.
# Each message id must exist in every language (a test checks it).

## CityVibe's categories (Category::id after `category-`).
category-music = Musique
category-theatre = Théâtre
category-dance = Danse
category-film = Cinéma
category-exhibition = Expositions
category-literature = Livres et lecture
category-workshop = Cours et ateliers
category-talk = Conférences
category-family = Enfants et familles
category-festival = Fêtes et festivals
category-sport = Sport
category-tour = Visites et circuits
category-other = Autres

## The attribution: a publisher's "Fuente: …" is shown with the reader's word.
## `source-label` of every language is a label recognised at the start of an attribution.
source-label = Source
source-attribution = Source : { $who }

## The lines an iCalendar event's description ends with.
ics-price = Prix : { $price }
ics-licence = Licence : { $name } <{ $url }>
ics-original = Original : { $url }
ics-more-info = Plus d’informations : { $url }
ics-dataset-page = Page du jeu de données : { $url }

## Licence names, by their link (data/i18n/licences.tsv).
licence-cc-by-4 = Creative Commons Attribution 4.0 (CC BY 4.0)
licence-madrid-legal-notice = Mentions légales de datos.madrid.es (réutilisation libre avec citation de la source)
licence-esmadrid-terms = Conditions d’utilisation des données ouvertes d’esMADRID (réutilisation avec citation de la source ; les photographies ne sont pas cédées)
licence-gencat-open-information = Licence ouverte d’utilisation des informations de la Generalitat de Catalunya (réutilisation avec citation de la source)
