# The fixed words of the public "sources" page (`cityvibe sources export`), in Galician.
# Each message id must exist in every language (a test checks it).

sources-title = Fontes de datos
sources-intro = CityVibe mostra eventos culturais publicados como datos abertos por estas entidades. Cada evento leva unha ligazón ao orixinal e cita a súa fonte e a súa licenza.
sources-publisher = Editor
sources-dataset = Conxunto de datos
sources-licence = Licenza
sources-attribution = Atribución
sources-updated = Actualización
sources-pause = Pausa entre peticións a
sources-status = Estado
sources-off = desactivada (non se consulta)
sources-frequency-continuous = continua
sources-frequency-hourly = cada hora
sources-frequency-daily = diaria
sources-frequency-weekly = semanal
sources-frequency-monthly = mensual
sources-frequency-unstated = non indicada
