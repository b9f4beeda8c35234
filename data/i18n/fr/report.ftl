# The words of `cityvibe report`: the operator's status page and each
# host's public transparency page, in French.
# Each message id must exist in every language (a test checks it).
# Figures come in as arguments; numbers with decimals arrive already written
# with this language's decimal sign (report-decimal-sign).
# Zero is [0] wherever [one] is: French CLDR rules put 0 in "one", which would
# read "Un code distinct" for no code (a test formats every message with 0).

report-decimal-sign = ,
report-site = CityVibe
report-language = Langue
report-period = Du { $from } au { $to }, heure de Madrid.
report-generated = Produit par cityvibe le { $at }. Chaque chiffre vient du journal des requêtes et de la base de données.
report-table = Les chiffres dans un tableau
report-none = aucun

## Operator status page

report-status-title = État de CityVibe
report-status-intro = Ce qu’ont fait les exécutions { $days ->
    [0] des 0 derniers jours
    [one] du dernier jour
   *[other] des { $days } derniers jours
}.
report-runs-title = Exécutions par source
report-runs-summary = { $runs ->
    [0] 0 exécutions
    [one] Une exécution
   *[other] { $runs } exécutions
} sur la période ; { $problems ->
    [0] aucune source n’a eu de problème.
    [one] une ligne de source a eu un problème.
   *[other] { $problems } lignes de source ont eu des problèmes.
}
report-runs-details = Détail de chaque exécution
report-status-ok = réussie
report-status-unchanged = inchangée
report-status-skipped = sautée
report-status-anomaly = anomalie
report-status-failed = échouée
report-status-interrupted = interrompue
report-status-refused = refusée
report-status-disabled = désactivée
report-events-title = Événements actifs par jour
report-events-summary = Aujourd’hui, { $active ->
    [0] 0 événements actifs
    [one] un événement actif
   *[other] { $active } événements actifs
} { $sources ->
    [0] de 0 sources
    [one] d’une source
   *[other] de { $sources } sources
}.
# "Active" is the store's word (not withdrawn), "current" the reader's (not ended).
report-events-current = { $current ->
    [0] Aucun n’est actuel : tous sont terminés.
    [one] Un est actuel (en cours ou à venir).
   *[other] { $current } sont actuels (en cours ou à venir).
}
report-changes-title = Changements par jour dans { $source }
report-changes-summary = { $added } ajouts, { $updated } modifications et { $withdrawn } retraits sur la période.
report-series-active = actifs
report-series-added = ajouts
report-series-updated = modifications
report-series-withdrawn = retirés
report-coverage-title = Traductions par langue
report-coverage-summary = { $pending ->
    [0] Aucun texte n’attend de traduction.
    [one] Un texte attend sa traduction.
   *[other] { $pending } textes attendent leur traduction.
} { $failed ->
    [0] Aucun texte n’a été mis de côté après des échecs.
    [one] Un texte a été mis de côté après plusieurs échecs (il sera retenté plus tard).
   *[other] { $failed } textes ont été mis de côté après plusieurs échecs (ils seront retentés plus tard).
}
report-series-publisher = de l’éditeur
report-series-human = humaine
report-series-machine = automatique
report-series-pending = en attente
report-series-failed = mis de côté
report-host-requests-title = Requêtes par jour vers { $host }
report-host-requests-summary = { $requests ->
    [0] 0 requêtes
    [one] Une requête
   *[other] { $requests } requêtes
} ; la limite est de { $cap } par jour.
report-problems-title = Derniers problèmes
report-problems-none = Aucun problème sur la période.
report-fix = Pour corriger :
report-hosts-title = Page publique de chaque site
report-col-run = Exécution
report-col-started = Début
report-col-source = Source
report-col-status = État
report-col-requests = Requêtes
report-col-message = Message
report-col-day = Jour
report-col-language = Langue
report-col-cap = Limite quotidienne
report-col-code = Code
report-col-gap = Pause
report-series-pauses = Pauses

## A host's public page

report-host-title = Ce que CityVibeBot a fait sur { $host }
report-host-intro = CityVibeBot rassemble des agendas culturels publiés en données ouvertes. Cette page résume chaque requête envoyée à { $host } { $days ->
    [0] ces 0 derniers jours
    [one] le dernier jour
   *[other] ces { $days } derniers jours
}, telle qu’il l’a consignée.
report-section-requests = Requêtes
report-day-title = Requêtes par jour
report-day-summary = { $requests ->
    [0] Aucune requête sur la période.
   *[other] { $requests ->
        [0] 0 requêtes
        [one] Une requête
       *[other] { $requests } requêtes
    } sur { $days ->
        [0] 0 jours
        [one] un jour
       *[other] { $days } jours
    } ; { $bytes } octets reçus.
}
report-series-full = réponse complète
report-series-not-modified = non modifié (304)
report-series-wait = attente (429/503)
report-series-other = autre code ou erreur
report-series-absent = fichier absent (normal)
report-series-elsewhere = depuis une autre base de données de cette machine
report-series-short = plus courte que promis
report-codes-title = Codes de réponse
report-codes-summary = { $codes ->
    [0] 0 codes distincts
    [one] Un code distinct
   *[other] { $codes } codes distincts
} ; { $not_modified ->
    [0] aucune réponse 304.
    [one] une réponse 304 (rien à télécharger ni à traiter).
   *[other] { $not_modified } réponses 304 (rien à télécharger ni à traiter).
}
report-code-error = pas de réponse
report-code-elsewhere = autre base de données
report-elsewhere = { $n ->
    [0] 0 de ces requêtes ont été envoyées depuis une autre base de données de cette machine : leurs réponses figurent dans le journal de cette base, pas ici.
    [one] Une de ces requêtes a été envoyée depuis une autre base de données de cette machine : sa réponse figure dans le journal de cette base, pas ici.
   *[other] { $n } de ces requêtes ont été envoyées depuis une autre base de données de cette machine : leurs réponses figurent dans le journal de cette base, pas ici.
}
report-saved = Les réponses 304 ont épargné environ { $bytes } octets : la taille de la dernière réponse complète de la même adresse.
report-gaps-title = Pause entre deux requêtes successives
report-gaps-chart-title = Pauses par durée
report-gaps-count = { $n ->
    [0] 0 pauses mesurées
    [one] Une pause mesurée
   *[other] { $n } pauses mesurées
} ; la barre rouge compte celles plus courtes que promis.
report-gaps-min = La pause la plus courte a été de { $min } s ; nous promettons au moins { $delay } s.
report-gaps-kept = Promesse tenue à chaque pause.
report-gaps-broken = { $n ->
    [0] 0 pauses ont été plus courtes que promis.
    [one] Une pause a été plus courte que promis.
   *[other] { $n } pauses ont été plus courtes que promis.
}
report-gaps-none = Moins de deux requêtes : aucune pause à mesurer.
report-backoff-title = Attentes demandées (Retry-After) et temporisation
report-backoff-none = Aucune réponse 429 ou 503 sur la période.
report-backoff-episode = { $at } : HTTP { $status } ; nous avons attendu { $wait } s avant de redemander ; la requête suivante est partie { $next } s plus tard.
report-backoff-gave-up = { $at } : HTTP { $status } ; après { $tries } essais, nous avons laissé ce site tranquille jusqu’à l’exécution suivante.
report-backoff-last = { $at } : HTTP { $status } ; nous n’avons pas redemandé pendant cette exécution.
report-hours-title = Horaires
report-hours-none = Aucune source de ce site n’est limitée à certaines heures.
report-hours-window = { $source } : seulement entre { $window }, heure de Madrid ; { $outside ->
    [0] aucune requête hors de ces heures.
    [one] une requête hors de ces heures.
   *[other] { $outside } requêtes hors de ces heures.
}
report-review-title = robots.txt et réserves de fouille de textes et de données (TDM)
report-review-manual = { $source } : une personne a lu robots.txt le { $date } avant d’écrire les adresses que nous demandons : il n’en interdit aucune à CityVibeBot, et nous attendons au moins { $delay } s entre deux requêtes.
report-review-note = Selon la personne qui l’a relu : { $note }
report-review-pending = { $source } : personne n’a encore lu le robots.txt de ce serveur ; aucune exécution ne lui envoie donc de requête, et cette page ne montre que ce qu’a reçu une copie de test du flux.
report-review-audit-absent = Dernière vérification avec `cityvibe audit` : { $at } ; il n’y a pas de { $path } (404), ce qui signifie aucune règle pour nous : ce n’est pas une erreur.
report-review-audit = Dernière vérification avec `cityvibe audit` : { $at } ; { $path } a répondu { $status }.
report-review-no-audit = robots.txt n’a pas été vérifié avec `cityvibe audit` sur la période.
report-review-crawl-delay = Crawl-delay lu la dernière fois : { $secs } s.
report-review-held = Nous n’envoyons rien à ce site tant que l’opérateur n’a pas levé la suspension : { $why }.
report-holdings-title = Ce que nous gardons de ce site
report-holdings-source = { $source } : { $active } événements actifs et { $withdrawn } retirés, sous la licence { $licence }.
report-holdings-linked = { $n ->
    [0] Aucun événement gardé ne renvoie à ce site.
    [one] Un événement gardé renvoie à ce site comme original.
   *[other] { $n } événements gardés renvoient à ce site comme original.
}
report-holdings-command = La liste complète, avec champs et dates : `cityvibe holdings { $host }`.
report-optout-title = Demander un retrait, ou que nous cessions nos visites
report-optout-takedown = Pour retirer un événement, envoyez son adresse d’origine via la page du robot, { $page } : il est effacé aussitôt et ne revient pas (`cityvibe takedown add`).
report-optout-off = Pour que nous ne demandions plus rien à { $host }, dites-le sur la même page : la source est désactivée d’une commande (`cityvibe source disable`), dès la requête suivante.
