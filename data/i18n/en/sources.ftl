# The fixed words of the public "sources" page (`cityvibe sources export`), in English.
# Each message id must exist in every language (a test checks it).

sources-title = Data sources
sources-intro = CityVibe shows cultural events published as open data by these organisations. Every event links to its original and credits its source and licence.
sources-publisher = Publisher
sources-dataset = Dataset
sources-licence = Licence
sources-attribution = Attribution
sources-updated = Updated
sources-pause = Pause between requests to
sources-status = Status
sources-off = switched off (not fetched)
sources-frequency-continuous = continuously
sources-frequency-hourly = hourly
sources-frequency-daily = daily
sources-frequency-weekly = weekly
sources-frequency-monthly = monthly
sources-frequency-unstated = not stated
