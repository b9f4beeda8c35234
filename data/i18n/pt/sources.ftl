# The fixed words of the public "sources" page (`cityvibe sources export`), in Portuguese.
# Each message id must exist in every language (a test checks it).

sources-title = Fontes de dados
sources-intro = A CityVibe mostra eventos culturais publicados como dados abertos por estas entidades. Cada evento tem uma ligação para o original e cita a sua fonte e a sua licença.
sources-publisher = Editor
sources-dataset = Conjunto de dados
sources-licence = Licença
sources-attribution = Atribuição
sources-updated = Atualização
sources-pause = Pausa entre pedidos a
sources-status = Estado
sources-off = desativada (não é consultada)
sources-frequency-continuous = contínua
sources-frequency-hourly = de hora a hora
sources-frequency-daily = diária
sources-frequency-weekly = semanal
sources-frequency-monthly = mensal
sources-frequency-unstated = não indicada
