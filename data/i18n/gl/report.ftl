# The words of `cityvibe report`: the operator's status page and each
# host's public transparency page, in Galician.
# Each message id must exist in every language (a test checks it).
# Figures come in as arguments; numbers with decimals arrive already written
# with this language's decimal sign (report-decimal-sign).

report-decimal-sign = ,
report-site = CityVibe
report-language = Lingua
report-period = Do { $from } ao { $to }, hora de Madrid.
report-generated = Xerado por cityvibe o { $at }. Cada cifra sae do rexistro de peticións e da base de datos.
report-table = As cifras nunha táboa
report-none = ningún

## Operator status page

report-status-title = Estado de CityVibe
report-status-intro = O que fixeron as execucións { $days ->
    [one] do último día
   *[other] dos últimos { $days } días
}.
report-runs-title = Execucións por fonte
report-runs-summary = { $runs ->
    [one] Unha execución
   *[other] { $runs } execucións
} no período; { $problems ->
    [0] ningunha fonte tivo problemas.
    [one] unha liña de fonte tivo un problema.
   *[other] { $problems } liñas de fonte tiveron problemas.
}
report-runs-details = Detalle de cada execución
report-status-ok = correcta
report-status-unchanged = sen cambios
report-status-skipped = omitida
report-status-anomaly = anomalía
report-status-failed = fallida
report-status-interrupted = interrompida
report-status-refused = rexeitada
report-status-disabled = desactivada
report-events-title = Eventos activos por día
report-events-summary = Hoxe hai { $active ->
    [one] un evento activo
   *[other] { $active } eventos activos
} { $sources ->
    [one] dunha fonte
   *[other] de { $sources } fontes
}.
# "Active" is the store's word (not withdrawn), "current" the reader's (not ended).
report-events-current = { $current ->
    [0] Ningún é actual: todos remataron.
    [one] Un é actual (en curso ou por vir).
   *[other] { $current } son actuais (en curso ou por vir).
}
report-changes-title = Cambios por día en { $source }
report-changes-summary = { $added } altas, { $updated } cambios e { $withdrawn } retiradas no período.
report-series-active = activos
report-series-added = altas
report-series-updated = cambios
report-series-withdrawn = retirados
report-coverage-title = Traducións por lingua
report-coverage-summary = { $pending ->
    [0] Ningún texto agarda tradución.
    [one] Un texto agarda tradución.
   *[other] { $pending } textos agardan tradución.
} { $failed ->
    [0] Ningún texto quedou apartado por fallos.
    [one] Un texto quedou apartado tras fallar varias veces (téntase de novo máis tarde).
   *[other] { $failed } textos quedaron apartados tras fallar varias veces (téntanse de novo máis tarde).
}
report-series-publisher = do editor
report-series-human = humana
report-series-machine = automática
report-series-pending = pendente
report-series-failed = apartados
report-host-requests-title = Peticións por día a { $host }
report-host-requests-summary = { $requests ->
    [one] Unha petición
   *[other] { $requests } peticións
}; o límite é de { $cap } ao día.
report-problems-title = Últimos problemas
report-problems-none = Ningún problema no período.
report-fix = Para arranxalo:
report-hosts-title = Páxinas públicas de cada sitio
report-col-run = Execución
report-col-started = Inicio
report-col-source = Fonte
report-col-status = Estado
report-col-requests = Peticións
report-col-message = Mensaxe
report-col-day = Día
report-col-language = Lingua
report-col-cap = Límite diario
report-col-code = Código
report-col-gap = Pausa
report-series-pauses = Pausas

## A host's public page

report-host-title = O que CityVibeBot fixo en { $host }
report-host-intro = CityVibeBot recolle axendas culturais publicadas como datos abertos. Esta páxina resume cada petición que fixo a { $host } { $days ->
    [one] no último día
   *[other] nos últimos { $days } días
}, tal como as anotou.
report-section-requests = Peticións
report-day-title = Peticións por día
report-day-summary = { $requests ->
    [0] Ningunha petición no período.
   *[other] { $requests ->
        [one] Unha petición
       *[other] { $requests } peticións
    } en { $days ->
        [one] un día
       *[other] { $days } días
    }; recibíronse { $bytes } bytes.
}
report-series-full = resposta completa
report-series-not-modified = sen cambios (304)
report-series-wait = espera (429/503)
report-series-other = outro código ou erro
report-series-absent = non existe (normal)
report-series-elsewhere = desde outra base de datos desta máquina
report-series-short = máis curta do prometido
report-codes-title = Códigos de resposta
report-codes-summary = { $codes ->
    [one] Un código distinto
   *[other] { $codes } códigos distintos
}; { $not_modified ->
    [0] ningunha resposta 304.
    [one] unha resposta 304 (nada que descargar nin procesar).
   *[other] { $not_modified } respostas 304 (nada que descargar nin procesar).
}
report-code-error = sen resposta
report-code-elsewhere = outra base de datos
report-elsewhere = { $n ->
    [one] Unha destas peticións enviouse desde outra base de datos desta máquina: a súa resposta consta no rexistro desa base de datos, non aquí.
   *[other] { $n } destas peticións enviáronse desde outra base de datos desta máquina: as súas respostas constan no rexistro desa base de datos, non aquí.
}
report-saved = As respostas 304 aforraron uns { $bytes } bytes: o que pesou a última resposta completa do mesmo enderezo.
report-gaps-title = Pausa entre dúas peticións seguidas
report-gaps-chart-title = Pausas por duración
report-gaps-count = { $n ->
    [one] Unha pausa medida
   *[other] { $n } pausas medidas
}; a barra vermella conta as máis curtas do prometido.
report-gaps-min = A pausa máis curta foi de { $min } s; prometemos polo menos { $delay } s.
report-gaps-kept = Promesa cumprida en cada pausa.
report-gaps-broken = { $n ->
    [one] Unha pausa foi máis curta do prometido.
   *[other] { $n } pausas foron máis curtas do prometido.
}
report-gaps-none = Menos de dúas peticións: non hai pausas que medir.
report-backoff-title = Esperas pedidas (Retry-After) e retiradas
report-backoff-none = Ningunha resposta 429 nin 503 no período.
report-backoff-episode = { $at }: HTTP { $status }; agardamos { $wait } s antes de volver preguntar; a petición seguinte saíu { $next } s despois.
report-backoff-gave-up = { $at }: HTTP { $status }; tras { $tries } intentos deixamos este sitio en paz ata a seguinte execución.
report-backoff-last = { $at }: HTTP { $status }; non volvemos preguntar nesta execución.
report-hours-title = Horarios
report-hours-none = Ningunha fonte deste sitio ten horario restrinxido.
report-hours-window = { $source }: só entre { $window }, hora de Madrid; { $outside ->
    [0] ningunha petición fóra dese horario.
    [one] unha petición fóra dese horario.
   *[other] { $outside } peticións fóra dese horario.
}
report-review-title = robots.txt e reservas de minaría de textos (TDM)
report-review-manual = { $source }: unha persoa leu robots.txt o { $date } antes de escribir os enderezos que pedimos: non prohibe ningún a CityVibeBot, e agardamos polo menos { $delay } s entre dúas peticións.
report-review-note = En palabras de quen o revisou: { $note }
report-review-pending = { $source }: ninguén leu aínda o robots.txt deste servidor, así que ningunha execución lle envía peticións; esta páxina amosa só o que recibiu unha copia de proba do feed.
report-review-audit-absent = Última comprobación con `cityvibe audit`: { $at }; non hai { $path } (404), o que significa que non hai ningunha regra para nós: non é un erro.
report-review-audit = Última comprobación con `cityvibe audit`: { $at }; { $path } respondeu { $status }.
report-review-no-audit = Non se comprobou robots.txt con `cityvibe audit` no período.
report-review-crawl-delay = Crawl-delay lido a última vez: { $secs } s.
report-review-held = Non enviamos nada a este sitio ata que o operador levante a retención: { $why }.
report-holdings-title = O que gardamos deste sitio
report-holdings-source = { $source }: { $active } eventos activos e { $withdrawn } retirados, con licenza { $licence }.
report-holdings-linked = { $n ->
    [0] Ningún evento gardado ligazona a este sitio.
    [one] Un evento gardado ligazona a este sitio como orixinal.
   *[other] { $n } eventos gardados ligazonan a este sitio como orixinal.
}
report-holdings-command = A lista completa, con campos e datas: `cityvibe holdings { $host }`.
report-optout-title = Pedir unha retirada ou que deixemos de visitalo
report-optout-takedown = Para retirar un evento, envíe o seu enderezo orixinal pola páxina do bot, { $page }: bórrase no momento e non volve (`cityvibe takedown add`).
report-optout-off = Para que non volvamos pedir nada a { $host }, dígao na mesma páxina: a fonte desactívase cunha orde (`cityvibe source disable`) e vale dende a seguinte petición.
