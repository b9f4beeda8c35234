# The words a reader sees around an event, in Portuguese: category labels,
# the attribution's label, the lines of an iCalendar event, licence names.
# Each message id must exist in every language (a test checks it).

## CityVibe's categories (Category::id after `category-`).
category-music = Música
category-theatre = Teatro
category-dance = Dança
category-film = Cinema
category-exhibition = Exposições
category-literature = Livros e leitura
category-workshop = Cursos e oficinas
category-talk = Conferências
category-family = Infantil e famílias
category-festival = Festas e festivais
category-sport = Desporto
category-tour = Visitas e roteiros
category-other = Outros

## The attribution: a publisher's "Fuente: …" is shown with the reader's word.
## `source-label` of every language is a label recognised at the start of an attribution.
source-label = Fonte
source-attribution = Fonte: { $who }

## The lines an iCalendar event's description ends with.
ics-price = Preço: { $price }
ics-licence = Licença: { $name } <{ $url }>
ics-original = Original: { $url }
ics-more-info = Mais informações: { $url }
ics-dataset-page = Página do conjunto de dados: { $url }

## Licence names, by their link (data/i18n/licences.tsv).
licence-cc-by-4 = Creative Commons Atribuição 4.0 (CC BY 4.0)
licence-madrid-legal-notice = Aviso legal de datos.madrid.es (reutilização livre citando a fonte)
licence-esmadrid-terms = Condições de utilização dos dados abertos do esMADRID (reutilização com citação da fonte; as fotografias não são cedidas)
licence-gencat-open-information = Licença aberta de utilização de informação da Generalitat de Catalunya (reutilização com citação da fonte)
