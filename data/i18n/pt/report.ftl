# The words of `cityvibe report`: the operator's status page and each
# host's public transparency page, in Portuguese.
# Each message id must exist in every language (a test checks it).
# Figures come in as arguments; numbers with decimals arrive already written
# with this language's decimal sign (report-decimal-sign).
# Zero is [0] wherever [one] is: the CLDR rules Fluent uses for pt put 0 in
# "one", which would read "Um código distinto" for no code (a test formats
# every message with 0).

report-decimal-sign = ,
report-site = CityVibe
report-language = Idioma
report-period = De { $from } a { $to }, hora de Madrid.
report-generated = Gerado pelo cityvibe em { $at }. Cada número vem do registo de pedidos e da base de dados.
report-table = Os números numa tabela
report-none = nenhum

## Operator status page

report-status-title = Estado da CityVibe
report-status-intro = O que fizeram as execuções { $days ->
    [0] dos últimos 0 dias
    [one] do último dia
   *[other] dos últimos { $days } dias
}.
report-runs-title = Execuções por fonte
report-runs-summary = { $runs ->
    [0] 0 execuções
    [one] Uma execução
   *[other] { $runs } execuções
} no período; { $problems ->
    [0] nenhuma fonte teve problemas.
    [one] uma linha de fonte teve um problema.
   *[other] { $problems } linhas de fonte tiveram problemas.
}
report-runs-details = Detalhe de cada execução
report-status-ok = correta
report-status-unchanged = sem alterações
report-status-skipped = omitida
report-status-anomaly = anomalia
report-status-failed = falhada
report-status-interrupted = interrompida
report-status-refused = recusada
report-status-disabled = desativada
report-events-title = Eventos ativos por dia
report-events-summary = Hoje há { $active ->
    [0] 0 eventos ativos
    [one] um evento ativo
   *[other] { $active } eventos ativos
} { $sources ->
    [0] de 0 fontes
    [one] de uma fonte
   *[other] de { $sources } fontes
}.
# "Active" is the store's word (not withdrawn), "current" the reader's (not ended).
report-events-current = { $current ->
    [0] Nenhum é atual: todos terminaram.
    [one] Um é atual (em curso ou por vir).
   *[other] { $current } são atuais (em curso ou por vir).
}
report-changes-title = Alterações por dia em { $source }
report-changes-summary = { $added } novos, { $updated } alterados e { $withdrawn } retirados no período.
report-series-active = ativos
report-series-added = novos
report-series-updated = alterados
report-series-withdrawn = retirados
report-coverage-title = Traduções por idioma
report-coverage-summary = { $pending ->
    [0] Nenhum texto aguarda tradução.
    [one] Um texto aguarda tradução.
   *[other] { $pending } textos aguardam tradução.
} { $failed ->
    [0] Nenhum texto ficou de parte por falhas.
    [one] Um texto ficou de parte depois de falhar várias vezes (volta a tentar-se mais tarde).
   *[other] { $failed } textos ficaram de parte depois de falhar várias vezes (volta a tentar-se mais tarde).
}
report-series-publisher = do editor
report-series-human = humana
report-series-machine = automática
report-series-pending = pendente
report-series-failed = de parte
report-host-requests-title = Pedidos por dia a { $host }
report-host-requests-summary = { $requests ->
    [0] 0 pedidos
    [one] Um pedido
   *[other] { $requests } pedidos
}; o limite é de { $cap } por dia.
report-problems-title = Últimos problemas
report-problems-none = Nenhum problema no período.
report-fix = Para corrigir:
report-hosts-title = Página pública de cada sítio
report-col-run = Execução
report-col-started = Início
report-col-source = Fonte
report-col-status = Estado
report-col-requests = Pedidos
report-col-message = Mensagem
report-col-day = Dia
report-col-language = Idioma
report-col-cap = Limite diário
report-col-code = Código
report-col-gap = Pausa
report-series-pauses = Pausas

## A host's public page

report-host-title = O que o CityVibeBot fez em { $host }
report-host-intro = O CityVibeBot recolhe agendas culturais publicadas como dados abertos. Esta página resume cada pedido que fez a { $host } { $days ->
    [0] nos últimos 0 dias
    [one] no último dia
   *[other] nos últimos { $days } dias
}, tal como os registou.
report-section-requests = Pedidos
report-day-title = Pedidos por dia
report-day-summary = { $requests ->
    [0] Nenhum pedido no período.
   *[other] { $requests ->
        [0] 0 pedidos
        [one] Um pedido
       *[other] { $requests } pedidos
    } em { $days ->
        [0] 0 dias
        [one] um dia
       *[other] { $days } dias
    }; receberam-se { $bytes } bytes.
}
report-series-full = resposta completa
report-series-not-modified = sem alterações (304)
report-series-wait = espera (429/503)
report-series-other = outro código ou erro
report-series-absent = ficheiro inexistente (normal)
report-series-elsewhere = de outra base de dados desta máquina
report-series-short = mais curta do que o prometido
report-codes-title = Códigos de resposta
report-codes-summary = { $codes ->
    [0] 0 códigos distintos
    [one] Um código distinto
   *[other] { $codes } códigos distintos
}; { $not_modified ->
    [0] nenhuma resposta 304.
    [one] uma resposta 304 (nada a descarregar nem a processar).
   *[other] { $not_modified } respostas 304 (nada a descarregar nem a processar).
}
report-code-error = sem resposta
report-code-elsewhere = outra base de dados
report-elsewhere = { $n ->
    [0] 0 destes pedidos foram enviados de outra base de dados desta máquina: as suas respostas estão no registo dessa base de dados, não aqui.
    [one] Um destes pedidos foi enviado de outra base de dados desta máquina: a sua resposta está no registo dessa base de dados, não aqui.
   *[other] { $n } destes pedidos foram enviados de outra base de dados desta máquina: as suas respostas estão no registo dessa base de dados, não aqui.
}
report-saved = As respostas 304 pouparam cerca de { $bytes } bytes: o tamanho da última resposta completa do mesmo endereço.
report-gaps-title = Pausa entre dois pedidos seguidos
report-gaps-chart-title = Pausas por duração
report-gaps-count = { $n ->
    [0] 0 pausas medidas
    [one] Uma pausa medida
   *[other] { $n } pausas medidas
}; a barra vermelha conta as mais curtas do que o prometido.
report-gaps-min = A pausa mais curta foi de { $min } s; prometemos pelo menos { $delay } s.
report-gaps-kept = Promessa cumprida em cada pausa.
report-gaps-broken = { $n ->
    [0] 0 pausas foram mais curtas do que o prometido.
    [one] Uma pausa foi mais curta do que o prometido.
   *[other] { $n } pausas foram mais curtas do que o prometido.
}
report-gaps-none = Menos de dois pedidos: não há pausas a medir.
report-backoff-title = Esperas pedidas (Retry-After) e recuos
report-backoff-none = Nenhuma resposta 429 ou 503 no período.
report-backoff-episode = { $at }: HTTP { $status }; esperámos { $wait } s antes de voltar a perguntar; o pedido seguinte saiu { $next } s depois.
report-backoff-gave-up = { $at }: HTTP { $status }; após { $tries } tentativas deixámos este sítio em paz até à execução seguinte.
report-backoff-last = { $at }: HTTP { $status }; não voltámos a perguntar nesta execução.
report-hours-title = Horários
report-hours-none = Nenhuma fonte deste sítio está limitada a certas horas.
report-hours-window = { $source }: só entre { $window }, hora de Madrid; { $outside ->
    [0] nenhum pedido fora desse horário.
    [one] um pedido fora desse horário.
   *[other] { $outside } pedidos fora desse horário.
}
report-review-title = robots.txt e reservas de prospeção de textos e dados (TDM)
report-review-manual = { $source }: uma pessoa leu o robots.txt em { $date } antes de escrever os endereços que pedimos: não proíbe nenhum ao CityVibeBot, e esperamos pelo menos { $delay } s entre dois pedidos.
report-review-note = Nas palavras de quem o reviu: { $note }
report-review-pending = { $source }: ninguém leu ainda o robots.txt deste servidor, por isso nenhuma execução lhe envia pedidos; esta página mostra apenas o que recebeu uma cópia de teste do feed.
report-review-audit-absent = Última verificação com `cityvibe audit`: { $at }; não há { $path } (404), o que significa nenhuma regra para nós: não é um erro.
report-review-audit = Última verificação com `cityvibe audit`: { $at }; { $path } respondeu { $status }.
report-review-no-audit = O robots.txt não foi verificado com `cityvibe audit` no período.
report-review-crawl-delay = Crawl-delay lido da última vez: { $secs } s.
report-review-held = Não enviamos nada a este sítio até o operador levantar a suspensão: { $why }.
report-holdings-title = O que guardamos deste sítio
report-holdings-source = { $source }: { $active } eventos ativos e { $withdrawn } retirados, com a licença { $licence }.
report-holdings-linked = { $n ->
    [0] Nenhum evento guardado tem ligação para este sítio.
    [one] Um evento guardado tem ligação para este sítio como original.
   *[other] { $n } eventos guardados têm ligação para este sítio como original.
}
report-holdings-command = A lista completa, com campos e datas: `cityvibe holdings { $host }`.
report-optout-title = Pedir uma remoção, ou que deixemos de o visitar
report-optout-takedown = Para remover um evento, envie o seu endereço original pela página do bot, { $page }: é apagado de imediato e não volta (`cityvibe takedown add`).
report-optout-off = Para que não voltemos a pedir nada a { $host }, diga-o na mesma página: a fonte é desativada com um comando (`cityvibe source disable`), a partir do pedido seguinte.
