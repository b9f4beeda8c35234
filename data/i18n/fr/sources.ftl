# The fixed words of the public "sources" page (`cityvibe sources export`), in French.
# Each message id must exist in every language (a test checks it).

sources-title = Sources de données
sources-intro = CityVibe présente des événements culturels publiés en données ouvertes par ces organismes. Chaque événement renvoie à sa page d’origine et en cite la source et la licence.
sources-publisher = Éditeur
sources-dataset = Jeu de données
sources-licence = Licence
sources-attribution = Attribution
sources-updated = Mise à jour
sources-pause = Pause entre deux requêtes vers
sources-status = État
sources-off = désactivée (non consultée)
sources-frequency-continuous = en continu
sources-frequency-hourly = toutes les heures
sources-frequency-daily = quotidienne
sources-frequency-weekly = hebdomadaire
sources-frequency-monthly = mensuelle
sources-frequency-unstated = non précisée
