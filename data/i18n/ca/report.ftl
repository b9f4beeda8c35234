# The words of `cityvibe report`: the operator's status page and each
# host's public transparency page, in Catalan.
# Each message id must exist in every language (a test checks it).
# Figures come in as arguments; numbers with decimals arrive already written
# with this language's decimal sign (report-decimal-sign).

report-decimal-sign = ,
report-site = CityVibe
report-language = Idioma
report-period = Del { $from } al { $to }, hora de Madrid.
report-generated = Generat per cityvibe el { $at }. Cada xifra surt del registre de peticions i de la base de dades.
report-table = Les xifres en una taula
report-none = cap

## Operator status page

report-status-title = Estat de CityVibe
report-status-intro = El que van fer les execucions { $days ->
    [one] de l’últim dia
   *[other] dels últims { $days } dies
}.
report-runs-title = Execucions per font
report-runs-summary = { $runs ->
    [one] Una execució
   *[other] { $runs } execucions
} en el període; { $problems ->
    [0] cap font no va tenir problemes.
    [one] una línia de font va tenir un problema.
   *[other] { $problems } línies de font van tenir problemes.
}
report-runs-details = Detall de cada execució
report-status-ok = correcta
report-status-unchanged = sense canvis
report-status-skipped = omesa
report-status-anomaly = anomalia
report-status-failed = fallida
report-status-interrupted = interrompuda
report-status-refused = rebutjada
report-status-disabled = desactivada
report-events-title = Esdeveniments actius per dia
report-events-summary = Avui hi ha { $active ->
    [one] un esdeveniment actiu
   *[other] { $active } esdeveniments actius
} { $sources ->
    [one] d’una font
   *[other] de { $sources } fonts
}.
# "Active" is the store's word (not withdrawn), "current" the reader's (not ended).
report-events-current = { $current ->
    [0] Cap no és actual: tots han acabat.
    [one] Un és actual (en curs o per venir).
   *[other] { $current } són actuals (en curs o per venir).
}
report-changes-title = Canvis per dia a { $source }
report-changes-summary = { $added } altes, { $updated } canvis i { $withdrawn } retirades en el període.
report-series-active = actius
report-series-added = altes
report-series-updated = canvis
report-series-withdrawn = retirats
report-coverage-title = Traduccions per idioma
report-coverage-summary = { $pending ->
    [0] Cap text no espera traducció.
    [one] Un text espera traducció.
   *[other] { $pending } textos esperen traducció.
} { $failed ->
    [0] Cap text no ha quedat apartat per errors.
    [one] Un text ha quedat apartat després de fallar diverses vegades (es torna a provar més endavant).
   *[other] { $failed } textos han quedat apartats després de fallar diverses vegades (es tornen a provar més endavant).
}
report-series-publisher = de l’editor
report-series-human = humana
report-series-machine = automàtica
report-series-pending = pendent
report-series-failed = apartats
report-host-requests-title = Peticions per dia a { $host }
report-host-requests-summary = { $requests ->
    [one] Una petició
   *[other] { $requests } peticions
}; el límit és de { $cap } al dia.
report-problems-title = Últims problemes
report-problems-none = Cap problema en el període.
report-fix = Per arreglar-ho:
report-hosts-title = Pàgines públiques de cada lloc
report-col-run = Execució
report-col-started = Inici
report-col-source = Font
report-col-status = Estat
report-col-requests = Peticions
report-col-message = Missatge
report-col-day = Dia
report-col-language = Idioma
report-col-cap = Límit diari
report-col-code = Codi
report-col-gap = Pausa
report-series-pauses = Pauses

## A host's public page

report-host-title = El que CityVibeBot ha fet a { $host }
report-host-intro = CityVibeBot recull agendes culturals publicades com a dades obertes. Aquesta pàgina resumeix cada petició que va fer a { $host } { $days ->
    [one] l’últim dia
   *[other] els últims { $days } dies
}, tal com les va anotar.
report-section-requests = Peticions
report-day-title = Peticions per dia
report-day-summary = { $requests ->
    [0] Cap petició en el període.
   *[other] { $requests ->
        [one] Una petició
       *[other] { $requests } peticions
    } en { $days ->
        [one] un dia
       *[other] { $days } dies
    }; es van rebre { $bytes } bytes.
}
report-series-full = resposta completa
report-series-not-modified = sense canvis (304)
report-series-wait = espera (429/503)
report-series-other = un altre codi o error
report-series-absent = no existeix (normal)
report-series-elsewhere = des d’una altra base de dades d’aquesta màquina
report-series-short = més curta del que vam prometre
report-codes-title = Codis de resposta
report-codes-summary = { $codes ->
    [one] Un codi diferent
   *[other] { $codes } codis diferents
}; { $not_modified ->
    [0] cap resposta 304.
    [one] una resposta 304 (res a baixar ni a processar).
   *[other] { $not_modified } respostes 304 (res a baixar ni a processar).
}
report-code-error = sense resposta
report-code-elsewhere = una altra base de dades
report-elsewhere = { $n ->
    [one] Una d’aquestes peticions es va enviar des d’una altra base de dades d’aquesta màquina: la seva resposta consta al registre d’aquella base de dades, no aquí.
   *[other] { $n } d’aquestes peticions es van enviar des d’una altra base de dades d’aquesta màquina: les seves respostes consten al registre d’aquella base de dades, no aquí.
}
report-saved = Les respostes 304 van estalviar uns { $bytes } bytes: el que va pesar l’última resposta completa de la mateixa adreça.
report-gaps-title = Pausa entre dues peticions seguides
report-gaps-chart-title = Pauses per durada
report-gaps-count = { $n ->
    [one] Una pausa mesurada
   *[other] { $n } pauses mesurades
}; la barra vermella compta les més curtes del que es va prometre.
report-gaps-min = La pausa més curta va ser de { $min } s; prometem almenys { $delay } s.
report-gaps-kept = Promesa complerta a cada pausa.
report-gaps-broken = { $n ->
    [one] Una pausa va ser més curta del que vam prometre.
   *[other] { $n } pauses van ser més curtes del que vam prometre.
}
report-gaps-none = Menys de dues peticions: no hi ha pauses per mesurar.
report-backoff-title = Esperes demanades (Retry-After) i retirades
report-backoff-none = Cap resposta 429 ni 503 en el període.
report-backoff-episode = { $at }: HTTP { $status }; vam esperar { $wait } s abans de tornar a preguntar; la petició següent va sortir { $next } s després.
report-backoff-gave-up = { $at }: HTTP { $status }; després de { $tries } intents vam deixar aquest lloc en pau fins a la següent execució.
report-backoff-last = { $at }: HTTP { $status }; no vam tornar a preguntar en aquesta execució.
report-hours-title = Horaris
report-hours-none = Cap font d’aquest lloc no té l’horari restringit.
report-hours-window = { $source }: només entre { $window }, hora de Madrid; { $outside ->
    [0] cap petició fora d’aquest horari.
    [one] una petició fora d’aquest horari.
   *[other] { $outside } peticions fora d’aquest horari.
}
report-review-title = robots.txt i reserves de mineria de textos (TDM)
report-review-manual = { $source }: una persona va llegir robots.txt el { $date } abans d’escriure les adreces que demanem: no en prohibeix cap a CityVibeBot, i esperem almenys { $delay } s entre dues peticions.
report-review-note = En paraules de qui el va revisar: { $note }
report-review-pending = { $source }: encara ningú no ha llegit el robots.txt d’aquest servidor, així que cap execució no li envia peticions; aquesta pàgina mostra només el que va rebre una còpia de prova del feed.
report-review-audit-absent = Darrera comprovació amb `cityvibe audit`: { $at }; no hi ha { $path } (404), cosa que vol dir que no hi ha cap regla per a nosaltres: no és un error.
report-review-audit = Última comprovació amb `cityvibe audit`: { $at }; { $path } va respondre { $status }.
report-review-no-audit = No es va comprovar robots.txt amb `cityvibe audit` en el període.
report-review-crawl-delay = Crawl-delay llegit l’última vegada: { $secs } s.
report-review-held = No enviem res a aquest lloc fins que l’operador aixequi la retenció: { $why }.
report-holdings-title = El que guardem d’aquest lloc
report-holdings-source = { $source }: { $active } esdeveniments actius i { $withdrawn } retirats, amb llicència { $licence }.
report-holdings-linked = { $n ->
    [0] Cap esdeveniment guardat no enllaça amb aquest lloc.
    [one] Un esdeveniment guardat enllaça amb aquest lloc com a original.
   *[other] { $n } esdeveniments guardats enllacen amb aquest lloc com a original.
}
report-holdings-command = La llista completa, amb camps i dates: `cityvibe holdings { $host }`.
report-optout-title = Demanar una retirada o que deixem de visitar-vos
report-optout-takedown = Per retirar un esdeveniment, envieu-ne l’adreça original per la pàgina del bot, { $page }: s’esborra de seguida i no torna (`cityvibe takedown add`).
report-optout-off = Perquè no tornem a demanar res a { $host }, digueu-ho a la mateixa pàgina: la font es desactiva amb una ordre (`cityvibe source disable`) i val des de la petició següent.
