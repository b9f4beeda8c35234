# The fixed words of the public "sources" page (`cityvibe sources export`), in Italian.
# Each message id must exist in every language (a test checks it).

sources-title = Fonti dei dati
sources-intro = CityVibe mostra eventi culturali pubblicati come dati aperti da questi enti. Ogni evento rimanda alla pagina originale e ne cita la fonte e la licenza.
sources-publisher = Editore
sources-dataset = Dataset
sources-licence = Licenza
sources-attribution = Attribuzione
sources-updated = Aggiornamento
sources-pause = Pausa tra due richieste a
sources-status = Stato
sources-off = disattivata (non consultata)
sources-frequency-continuous = continuo
sources-frequency-hourly = ogni ora
sources-frequency-daily = quotidiano
sources-frequency-weekly = settimanale
sources-frequency-monthly = mensile
sources-frequency-unstated = non indicato
