# The fixed words of the public "sources" page (`cityvibe sources export`), in Spanish.
# Each message id must exist in every language (a test checks it).

sources-title = Fuentes de datos
sources-intro = CityVibe muestra eventos culturales publicados como datos abiertos por estas entidades. Cada evento enlaza a su original y cita su fuente y su licencia.
sources-publisher = Editor
sources-dataset = Conjunto de datos
sources-licence = Licencia
sources-attribution = Atribución
sources-updated = Actualización
sources-pause = Pausa entre peticiones a
sources-status = Estado
sources-off = desactivada (no se consulta)
sources-frequency-continuous = continua
sources-frequency-hourly = cada hora
sources-frequency-daily = diaria
sources-frequency-weekly = semanal
sources-frequency-monthly = mensual
sources-frequency-unstated = no indicada
