# The fixed words of the public "sources" page (`cityvibe sources export`), in Catalan.
# Each message id must exist in every language (a test checks it).

sources-title = Fonts de dades
sources-intro = CityVibe mostra esdeveniments culturals publicats com a dades obertes per aquestes entitats. Cada esdeveniment enllaça amb l’original i en cita la font i la llicència.
sources-publisher = Editor
sources-dataset = Conjunt de dades
sources-licence = Llicència
sources-attribution = Atribució
sources-updated = Actualització
sources-pause = Pausa entre peticions a
sources-status = Estat
sources-off = desactivada (no es consulta)
sources-frequency-continuous = contínua
sources-frequency-hourly = cada hora
sources-frequency-daily = diària
sources-frequency-weekly = setmanal
sources-frequency-monthly = mensual
sources-frequency-unstated = no indicada
