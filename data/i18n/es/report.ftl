# The words of `cityvibe report`: the operator's status page and each
# host's public transparency page, in Spanish.
# Each message id must exist in every language (a test checks it).
# Figures come in as arguments; numbers with decimals arrive already written
# with this language's decimal sign (report-decimal-sign).

report-decimal-sign = ,
report-site = CityVibe
report-language = Idioma
report-period = Del { $from } al { $to }, hora de Madrid.
report-generated = Generado por cityvibe el { $at }. Cada cifra sale del registro de peticiones y de la base de datos.
report-table = Las cifras en una tabla
report-none = ninguno

## Operator status page

report-status-title = Estado de CityVibe
report-status-intro = Lo que hicieron las ejecuciones de los últimos { $days ->
    [one] día
   *[other] { $days } días
}.
report-runs-title = Ejecuciones por fuente
report-runs-summary = { $runs ->
    [one] Una ejecución
   *[other] { $runs } ejecuciones
} en el periodo; { $problems ->
    [0] ninguna fuente tuvo problemas.
    [one] una fuente tuvo un problema.
   *[other] { $problems } líneas de fuente con problemas.
}
report-runs-details = Detalle de cada ejecución
report-status-ok = correcta
report-status-unchanged = sin cambios
report-status-skipped = omitida
report-status-anomaly = anomalía
report-status-failed = fallida
report-status-interrupted = interrumpida
report-status-refused = rechazada
report-status-disabled = desactivada
report-events-title = Eventos activos por día
report-events-summary = Hoy hay { $active ->
    [one] un evento activo
   *[other] { $active } eventos activos
} de { $sources ->
    [one] una fuente
   *[other] { $sources } fuentes
}.
# "Active" is the store's word (not withdrawn), "current" the reader's (not ended).
report-events-current = { $current ->
    [0] Ninguno es actual: todos han terminado.
    [one] Uno es actual (en curso o por venir).
   *[other] { $current } son actuales (en curso o por venir).
}
report-changes-title = Cambios por día en { $source }
report-changes-summary = { $added } altas, { $updated } cambios y { $withdrawn } retiradas en el periodo.
report-series-active = activos
report-series-added = altas
report-series-updated = cambios
report-series-withdrawn = retirados
report-coverage-title = Traducciones por idioma
report-coverage-summary = { $pending ->
    [0] Ningún texto espera traducción.
    [one] Un texto espera traducción.
   *[other] { $pending } textos esperan traducción.
} { $failed ->
    [0] Ningún texto quedó apartado por fallos.
    [one] Un texto quedó apartado tras fallar varias veces (se reintenta más tarde).
   *[other] { $failed } textos quedaron apartados tras fallar varias veces (se reintentan más tarde).
}
report-series-publisher = del editor
report-series-human = humana
report-series-machine = automática
report-series-pending = pendiente
report-series-failed = apartados
report-host-requests-title = Peticiones por día a { $host }
report-host-requests-summary = { $requests ->
    [one] Una petición
   *[other] { $requests } peticiones
}; el límite es de { $cap } al día.
report-problems-title = Últimos problemas
report-problems-none = Ningún problema en el periodo.
report-fix = Para arreglarlo:
report-hosts-title = Páginas públicas de cada sitio
report-col-run = Ejecución
report-col-started = Inicio
report-col-source = Fuente
report-col-status = Estado
report-col-requests = Peticiones
report-col-message = Mensaje
report-col-day = Día
report-col-language = Idioma
report-col-cap = Límite diario
report-col-code = Código
report-col-gap = Pausa
report-series-pauses = Pausas

## A host's public page

report-host-title = Lo que CityVibeBot ha hecho en { $host }
report-host-intro = CityVibeBot recoge agendas culturales publicadas como datos abiertos. Esta página resume cada petición que hizo a { $host } en los últimos { $days ->
    [one] día
   *[other] { $days } días
}, tal como las anotó.
report-section-requests = Peticiones
report-day-title = Peticiones por día
report-day-summary = { $requests ->
    [0] Ninguna petición en el periodo.
   *[other] { $requests ->
        [one] Una petición
       *[other] { $requests } peticiones
    } en { $days ->
        [one] un día
       *[other] { $days } días
    }; se recibieron { $bytes } bytes.
}
report-series-full = respuesta completa
report-series-not-modified = sin cambios (304)
report-series-wait = espera (429/503)
report-series-other = otro código o error
report-series-absent = no existe (normal)
report-series-elsewhere = desde otra base de datos de esta máquina
report-series-short = más corta de lo prometido
report-codes-title = Códigos de respuesta
report-codes-summary = { $codes ->
    [one] Un código distinto
   *[other] { $codes } códigos distintos
}; { $not_modified ->
    [0] ninguna respuesta 304.
    [one] una respuesta 304 (nada que descargar ni procesar).
   *[other] { $not_modified } respuestas 304 (nada que descargar ni procesar).
}
report-code-error = sin respuesta
report-code-elsewhere = otra base de datos
report-elsewhere = { $n ->
    [one] Una de estas peticiones se envió desde otra base de datos de esta máquina: su respuesta consta en el registro de esa base de datos, no aquí.
   *[other] { $n } de estas peticiones se enviaron desde otra base de datos de esta máquina: sus respuestas constan en el registro de esa base de datos, no aquí.
}
report-saved = Las respuestas 304 ahorraron unos { $bytes } bytes: lo que pesó la última respuesta completa de la misma dirección.
report-gaps-title = Pausa entre dos peticiones seguidas
report-gaps-chart-title = Pausas por duración
report-gaps-count = { $n ->
    [one] Una pausa medida
   *[other] { $n } pausas medidas
}; la barra roja cuenta las más cortas de lo prometido.
report-gaps-min = La pausa más corta fue de { $min } s; prometemos al menos { $delay } s.
report-gaps-kept = Promesa cumplida en cada pausa.
report-gaps-broken = { $n ->
    [one] Una pausa fue más corta de lo prometido.
   *[other] { $n } pausas fueron más cortas de lo prometido.
}
report-gaps-none = Menos de dos peticiones: no hay pausas que medir.
report-backoff-title = Esperas pedidas (Retry-After) y retiradas
report-backoff-none = Ninguna respuesta 429 ni 503 en el periodo.
report-backoff-episode = { $at }: HTTP { $status }; esperamos { $wait } s antes de volver a preguntar; la petición siguiente salió { $next } s después.
report-backoff-gave-up = { $at }: HTTP { $status }; tras { $tries } intentos dejamos este sitio en paz hasta la siguiente ejecución.
report-backoff-last = { $at }: HTTP { $status }; no volvimos a preguntar en esta ejecución.
report-hours-title = Horarios
report-hours-none = Ninguna fuente de este sitio tiene horario restringido.
report-hours-window = { $source }: solo entre { $window }, hora de Madrid; { $outside ->
    [0] ninguna petición fuera de ese horario.
    [one] una petición fuera de ese horario.
   *[other] { $outside } peticiones fuera de ese horario.
}
report-review-title = robots.txt y reservas de minería de textos (TDM)
report-review-manual = { $source }: una persona leyó robots.txt el { $date } antes de escribir las direcciones que pedimos: no prohíbe ninguna a CityVibeBot, y esperamos al menos { $delay } s entre dos peticiones.
report-review-note = En palabras de quien lo revisó: { $note }
report-review-pending = { $source }: nadie ha leído todavía el robots.txt de este servidor, así que ninguna ejecución le envía peticiones; esta página muestra solo lo que recibió una copia de prueba del feed.
report-review-audit-absent = Última comprobación con `cityvibe audit`: { $at }; no hay { $path } (404), lo que significa que no hay ninguna regla para nosotros: no es un error.
report-review-audit = Última comprobación con `cityvibe audit`: { $at }; { $path } respondió { $status }.
report-review-no-audit = No se comprobó robots.txt con `cityvibe audit` en el periodo.
report-review-crawl-delay = Crawl-delay leído la última vez: { $secs } s.
report-review-held = No enviamos nada a este sitio hasta que el operador levante la retención: { $why }.
report-holdings-title = Lo que guardamos de este sitio
report-holdings-source = { $source }: { $active } eventos activos y { $withdrawn } retirados, con licencia { $licence }.
report-holdings-linked = { $n ->
    [0] Ningún evento guardado enlaza a este sitio.
    [one] Un evento guardado enlaza a este sitio como original.
   *[other] { $n } eventos guardados enlazan a este sitio como original.
}
report-holdings-command = La lista completa, con campos y fechas: `cityvibe holdings { $host }`.
report-optout-title = Pedir una retirada o que dejemos de visitarle
report-optout-takedown = Para retirar un evento, envíe su dirección original por la página del bot, { $page }: se borra al momento y no vuelve (`cityvibe takedown add`).
report-optout-off = Para que no volvamos a pedir nada a { $host }, dígalo en la misma página: la fuente se desactiva con una orden (`cityvibe source disable`) y vale desde la siguiente petición.
