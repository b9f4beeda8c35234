# The words of `cityvibe report`: the operator's status page and each
# host's public transparency page, in Italian.
# Each message id must exist in every language (a test checks it).
# Figures come in as arguments; numbers with decimals arrive already written
# with this language's decimal sign (report-decimal-sign).

report-decimal-sign = ,
report-site = CityVibe
report-language = Lingua
report-period = Dal { $from } al { $to }, ora di Madrid.
report-generated = Generato da cityvibe il { $at }. Ogni cifra viene dal registro delle richieste e dalla base di dati.
report-table = Le cifre in una tabella
report-none = nessuno

## Operator status page

report-status-title = Stato di CityVibe
report-status-intro = Che cosa hanno fatto le esecuzioni { $days ->
    [one] dell’ultimo giorno
   *[other] degli ultimi { $days } giorni
}.
report-runs-title = Esecuzioni per fonte
report-runs-summary = { $runs ->
    [one] Un’esecuzione
   *[other] { $runs } esecuzioni
} nel periodo; { $problems ->
    [0] nessuna fonte ha avuto problemi.
    [one] una riga di fonte ha avuto un problema.
   *[other] { $problems } righe di fonte hanno avuto problemi.
}
report-runs-details = Dettaglio di ogni esecuzione
report-status-ok = riuscita
report-status-unchanged = invariata
report-status-skipped = saltata
report-status-anomaly = anomalia
report-status-failed = fallita
report-status-interrupted = interrotta
report-status-refused = rifiutata
report-status-disabled = disattivata
report-events-title = Eventi attivi per giorno
report-events-summary = Oggi ci sono { $active ->
    [one] un evento attivo
   *[other] { $active } eventi attivi
} { $sources ->
    [one] da una fonte
   *[other] da { $sources } fonti
}.
# "Active" is the store's word (not withdrawn), "current" the reader's (not ended).
report-events-current = { $current ->
    [0] Nessuno è attuale: sono tutti finiti.
    [one] Uno è attuale (in corso o in arrivo).
   *[other] { $current } sono attuali (in corso o in arrivo).
}
report-changes-title = Cambiamenti per giorno in { $source }
report-changes-summary = { $added } aggiunti, { $updated } modificati e { $withdrawn } ritirati nel periodo.
report-series-active = attivi
report-series-added = aggiunti
report-series-updated = modificati
report-series-withdrawn = ritirati
report-coverage-title = Traduzioni per lingua
report-coverage-summary = { $pending ->
    [0] Nessun testo attende la traduzione.
    [one] Un testo attende la traduzione.
   *[other] { $pending } testi attendono la traduzione.
} { $failed ->
    [0] Nessun testo è stato messo da parte per errori.
    [one] Un testo è stato messo da parte dopo vari errori (si riprova più tardi).
   *[other] { $failed } testi sono stati messi da parte dopo vari errori (si riprova più tardi).
}
report-series-publisher = dell’editore
report-series-human = umana
report-series-machine = automatica
report-series-pending = in attesa
report-series-failed = messi da parte
report-host-requests-title = Richieste per giorno a { $host }
report-host-requests-summary = { $requests ->
    [one] Una richiesta
   *[other] { $requests } richieste
}; il limite è di { $cap } al giorno.
report-problems-title = Ultimi problemi
report-problems-none = Nessun problema nel periodo.
report-fix = Per risolverlo:
report-hosts-title = Pagina pubblica di ogni sito
report-col-run = Esecuzione
report-col-started = Inizio
report-col-source = Fonte
report-col-status = Stato
report-col-requests = Richieste
report-col-message = Messaggio
report-col-day = Giorno
report-col-language = Lingua
report-col-cap = Limite giornaliero
report-col-code = Codice
report-col-gap = Pausa
report-series-pauses = Pause

## A host's public page

report-host-title = Che cosa ha fatto CityVibeBot su { $host }
report-host-intro = CityVibeBot raccoglie agende culturali pubblicate come dati aperti. Questa pagina riassume ogni richiesta inviata a { $host } { $days ->
    [one] nell’ultimo giorno
   *[other] negli ultimi { $days } giorni
}, così come l’ha registrata.
report-section-requests = Richieste
report-day-title = Richieste per giorno
report-day-summary = { $requests ->
    [0] Nessuna richiesta nel periodo.
   *[other] { $requests ->
        [one] Una richiesta
       *[other] { $requests } richieste
    } in { $days ->
        [one] un giorno
       *[other] { $days } giorni
    }; ricevuti { $bytes } byte.
}
report-series-full = risposta completa
report-series-not-modified = non modificato (304)
report-series-wait = attesa (429/503)
report-series-other = altro codice o errore
report-series-absent = file assente (normale)
report-series-elsewhere = da un altro database di questa macchina
report-series-short = più breve del promesso
report-codes-title = Codici di risposta
report-codes-summary = { $codes ->
    [one] Un codice distinto
   *[other] { $codes } codici distinti
}; { $not_modified ->
    [0] nessuna risposta 304.
    [one] una risposta 304 (niente da scaricare né da elaborare).
   *[other] { $not_modified } risposte 304 (niente da scaricare né da elaborare).
}
report-code-error = nessuna risposta
report-code-elsewhere = altro database
report-elsewhere = { $n ->
    [one] Una di queste richieste è partita da un altro database di questa macchina: la sua risposta è nel registro di quel database, non qui.
   *[other] { $n } di queste richieste sono partite da un altro database di questa macchina: le loro risposte sono nel registro di quel database, non qui.
}
report-saved = Le risposte 304 hanno risparmiato circa { $bytes } byte: il peso dell’ultima risposta completa dallo stesso indirizzo.
report-gaps-title = Pausa tra due richieste consecutive
report-gaps-chart-title = Pause per durata
report-gaps-count = { $n ->
    [one] Una pausa misurata
   *[other] { $n } pause misurate
}; la barra rossa conta quelle più brevi del promesso.
report-gaps-min = La pausa più breve è stata di { $min } s; promettiamo almeno { $delay } s.
report-gaps-kept = Promessa mantenuta a ogni pausa.
report-gaps-broken = { $n ->
    [one] Una pausa è stata più breve del promesso.
   *[other] { $n } pause sono state più brevi del promesso.
}
report-gaps-none = Meno di due richieste: nessuna pausa da misurare.
report-backoff-title = Attese richieste (Retry-After) e rallentamenti
report-backoff-none = Nessuna risposta 429 o 503 nel periodo.
report-backoff-episode = { $at }: HTTP { $status }; abbiamo atteso { $wait } s prima di chiedere di nuovo; la richiesta successiva è partita { $next } s dopo.
report-backoff-gave-up = { $at }: HTTP { $status }; dopo { $tries } tentativi abbiamo lasciato in pace questo sito fino all’esecuzione successiva.
report-backoff-last = { $at }: HTTP { $status }; non abbiamo chiesto di nuovo in questa esecuzione.
report-hours-title = Orari
report-hours-none = Nessuna fonte di questo sito è limitata a certi orari.
report-hours-window = { $source }: solo tra { $window }, ora di Madrid; { $outside ->
    [0] nessuna richiesta fuori da quell’orario.
    [one] una richiesta fuori da quell’orario.
   *[other] { $outside } richieste fuori da quell’orario.
}
report-review-title = robots.txt e riserve di estrazione di testo e dati (TDM)
report-review-manual = { $source }: una persona ha letto robots.txt il { $date } prima di scrivere gli indirizzi che chiediamo: non ne vieta nessuno a CityVibeBot, e attendiamo almeno { $delay } s tra due richieste.
report-review-note = Nelle parole di chi l’ha letto: { $note }
report-review-pending = { $source }: nessuno ha ancora letto il robots.txt di questo server, quindi nessuna esecuzione gli invia richieste; questa pagina mostra solo ciò che ha ricevuto una copia di prova del feed.
report-review-audit-absent = Ultimo controllo con `cityvibe audit`: { $at }; non c’è { $path } (404), il che significa nessuna regola per noi: non è un errore.
report-review-audit = Ultimo controllo con `cityvibe audit`: { $at }; { $path } ha risposto { $status }.
report-review-no-audit = robots.txt non è stato controllato con `cityvibe audit` nel periodo.
report-review-crawl-delay = Crawl-delay letto l’ultima volta: { $secs } s.
report-review-held = Non inviamo nulla a questo sito finché l’operatore non revoca la sospensione: { $why }.
report-holdings-title = Che cosa conserviamo di questo sito
report-holdings-source = { $source }: { $active } eventi attivi e { $withdrawn } ritirati, con licenza { $licence }.
report-holdings-linked = { $n ->
    [0] Nessun evento conservato rimanda a questo sito.
    [one] Un evento conservato rimanda a questo sito come originale.
   *[other] { $n } eventi conservati rimandano a questo sito come originale.
}
report-holdings-command = L’elenco completo, con campi e date: `cityvibe holdings { $host }`.
report-optout-title = Chiedere una rimozione, o che smettiamo di visitarvi
report-optout-takedown = Per rimuovere un evento, inviate il suo indirizzo originale dalla pagina del bot, { $page }: viene cancellato subito e non ritorna (`cityvibe takedown add`).
report-optout-off = Perché non chiediamo più nulla a { $host }, ditelo sulla stessa pagina: la fonte si disattiva con un comando (`cityvibe source disable`), dalla richiesta successiva.
