//! The normalized event every adapter produces, whatever its feed looked like.
//!
//! Constructors require the key fields, so an event without a source id or a
//! title cannot exist. Nothing here knows about HTTP or SQLite.

use crate::lang::{Lang, SourceLang};
use jiff::civil::{Date, DateTime, Weekday};
use serde::{Deserialize, Serialize};

/// Europe/Madrid: the default time zone of every event.
pub const TZ_MADRID: &str = "Europe/Madrid";
/// Atlantic/Canary: used when the venue lies in the Canary Islands.
pub const TZ_CANARY: &str = "Atlantic/Canary";

/// At most this many occurrences are expanded per event.
pub const MAX_OCCURRENCES: usize = 400;
/// Recurrences are expanded at most this many days past their first day.
pub const HORIZON_DAYS: i64 = 366;

/// One event as CityVibe stores it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    pub source_event_id: String,
    pub title: String,
    pub description: String,
    /// The event page at the publisher: the original we link to (P19).
    pub url: Option<String>,
    pub schedule: Schedule,
    pub free: Option<bool>,
    pub price: Option<String>,
    pub audience: Option<String>,
    pub venue: Venue,
    /// CityVibe taxonomy, mapped by the adapter.
    pub categories: Vec<Category>,
    /// The publisher's own category labels, as given.
    pub source_categories: Vec<String>,
    /// Language of `title` and `description` (ISO 639-1): any code, the
    /// seven display languages named.
    pub lang: SourceLang,
    /// The publisher's own translations of title and description.
    pub translations: Vec<PublisherTranslation>,
}

impl Event {
    /// An event needs at least its id in the feed and a title.
    pub fn new(source_event_id: &str, title: &str, lang: &str) -> Result<Event, String> {
        let id = source_event_id.trim();
        let title = title.trim();
        if id.is_empty() {
            return Err("record has no id".into());
        }
        if title.is_empty() {
            return Err(format!("record {id} has no title"));
        }
        Ok(Event {
            source_event_id: id.to_string(),
            title: title.to_string(),
            description: String::new(),
            url: None,
            schedule: Schedule::default(),
            free: None,
            price: None,
            audience: None,
            venue: Venue::default(),
            categories: Vec::new(),
            source_categories: Vec::new(),
            lang: SourceLang::new(lang),
            translations: Vec::new(),
        })
    }

    /// The time zone of the event: the Canaries' own when the venue lies there.
    pub fn time_zone(&self) -> &'static str {
        match (self.venue.lat, self.venue.lon) {
            (Some(lat), Some(lon)) if in_canaries(lat, lon) => TZ_CANARY,
            _ => TZ_MADRID,
        }
    }
}

/// A publisher's own translation of an event's texts (never machine-made).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PublisherTranslation {
    pub lang: String,
    pub title: String,
    pub description: String,
}

/// When an event happens: the span as published and its expanded occurrences.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Schedule {
    /// First day and start time (local, in the event's time zone).
    pub start: Option<DateTime>,
    /// Last day and end time; `None` when the feed gives no end.
    pub end: Option<DateTime>,
    /// True when no time of day is known.
    pub all_day: bool,
    /// Weekdays of a weekly recurrence, empty when none.
    #[serde(serialize_with = "ser_weekdays")]
    pub weekdays: Vec<Weekday>,
    pub excluded: Vec<Date>,
    pub occurrences: Vec<Occurrence>,
}

/// serde: weekdays as their iCalendar codes (`["MO", "WE"]`), as stored.
pub fn ser_weekdays<S: serde::Serializer>(days: &[Weekday], s: S) -> Result<S::Ok, S::Error> {
    let names: Vec<&str> = days.iter().map(|d| weekday_code(*d)).collect();
    names.serialize(s)
}

/// iCalendar's two-letter weekday code.
pub fn weekday_code(d: Weekday) -> &'static str {
    match d {
        Weekday::Monday => "MO",
        Weekday::Tuesday => "TU",
        Weekday::Wednesday => "WE",
        Weekday::Thursday => "TH",
        Weekday::Friday => "FR",
        Weekday::Saturday => "SA",
        Weekday::Sunday => "SU",
    }
}

/// The weekday an iCalendar code names (`MO` … `SU`), as [`weekday_code`] writes it.
pub fn weekday_from_code(code: &str) -> Option<Weekday> {
    use Weekday::*;
    [Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday].into_iter().find(|d| weekday_code(*d) == code)
}

/// One concrete occurrence, in local time of the event's zone.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Occurrence {
    pub start: DateTime,
    pub end: Option<DateTime>,
}

impl Schedule {
    /// Build a schedule from a first day, last day, optional start/end times,
    /// weekdays (empty: every day of the span when it is short, or a single
    /// span otherwise) and excluded days. Occurrences are expanded up to
    /// [`HORIZON_DAYS`] and [`MAX_OCCURRENCES`].
    ///
    /// How a span becomes occurrences: a span of days **with a start time**
    /// is one occurrence a day (a two-month exhibition open "De 10:00 a
    /// 14:00…" is about 60); the same span with no time and no weekdays is
    /// one long all-day occurrence; weekdays keep only those days.
    ///
    /// ```
    /// use cityvibe::model::Schedule;
    /// use jiff::civil::{date, time};
    /// let (first, last) = (date(2026, 12, 3), date(2027, 1, 3));
    /// let daily = Schedule::from_span(first, Some(last), Some(time(10, 0, 0, 0)), Some(time(14, 0, 0, 0)), vec![], vec![]);
    /// assert_eq!(daily.occurrences.len(), 32);
    /// assert_eq!(daily.occurrences[0].end, Some(date(2026, 12, 3).at(14, 0, 0, 0)));
    /// let long = Schedule::from_span(first, Some(last), None, None, vec![], vec![]);
    /// assert_eq!(long.occurrences.len(), 1);
    /// assert!(long.all_day);
    /// ```
    pub fn from_span(
        first: Date,
        last: Option<Date>,
        start_time: Option<jiff::civil::Time>,
        end_time: Option<jiff::civil::Time>,
        weekdays: Vec<Weekday>,
        excluded: Vec<Date>,
    ) -> Schedule {
        let last = last.filter(|l| *l >= first);
        let all_day = start_time.is_none();
        let t0 = start_time.unwrap_or(jiff::civil::Time::midnight());
        let start = first.to_datetime(t0);
        let end = last.or(end_time.map(|_| first)).map(|d| d.to_datetime(end_time.unwrap_or(jiff::civil::time(23, 59, 59, 0))));
        let mut occurrences = Vec::new();
        let one_day_end = |d: Date| day_end(d, start_time, end_time);
        match last {
            Some(last) if last > first && (!weekdays.is_empty() || start_time.is_some()) => {
                // A repeated event: one occurrence per matching day.
                let horizon = first.checked_add(jiff::Span::new().days(HORIZON_DAYS)).unwrap_or(last);
                occurrences = repeat(first, last.min(horizon), start_time, end_time, &weekdays, &excluded, MAX_OCCURRENCES);
            }
            Some(last) if last > first => {
                // An exhibition-like span with no time and no weekdays: one long occurrence.
                occurrences.push(Occurrence { start, end: Some(last.to_datetime(jiff::civil::time(23, 59, 59, 0))) });
            }
            _ => {
                if !excluded.contains(&first) {
                    occurrences.push(Occurrence { start, end: one_day_end(first) });
                }
            }
        }
        Schedule { start: Some(start), end, all_day, weekdays, excluded, occurrences }
    }
}

/// The end of one day's occurrence: the end time, when there is one after the start time.
fn day_end(d: Date, start_time: Option<jiff::civil::Time>, end_time: Option<jiff::civil::Time>) -> Option<DateTime> {
    end_time.filter(|et| start_time.is_none_or(|st| *et > st)).map(|et| d.to_datetime(et))
}

/// One occurrence per day from `from` to `to` that is one of `weekdays`
/// (any day when empty) and not excluded, at most `cap` of them.
fn repeat(
    from: Date,
    to: Date,
    start_time: Option<jiff::civil::Time>,
    end_time: Option<jiff::civil::Time>,
    weekdays: &[Weekday],
    excluded: &[Date],
    cap: usize,
) -> Vec<Occurrence> {
    let t0 = start_time.unwrap_or(jiff::civil::Time::midnight());
    let mut out = Vec::new();
    let mut day = from;
    while day <= to && out.len() < cap {
        if (weekdays.is_empty() || weekdays.contains(&day.weekday())) && !excluded.contains(&day) {
            out.push(Occurrence { start: day.to_datetime(t0), end: day_end(day, start_time, end_time) });
        }
        match day.tomorrow() {
            Ok(d) => day = d,
            Err(_) => break,
        }
    }
    out
}

/// A repeated span longer than [`HORIZON_DAYS`] (an exhibition open six days a
/// week from 2022 to 2027): its stored occurrences are the first
/// [`HORIZON_DAYS`] only, so that an unchanged feed stores the same row
/// whenever it is read. A reader at any moment gets its occurrences from
/// [`RepeatedSpan::around`] instead.
#[derive(Debug, Clone, PartialEq)]
pub struct RepeatedSpan {
    first: Date,
    last: Date,
    start_time: Option<jiff::civil::Time>,
    end_time: Option<jiff::civil::Time>,
    weekdays: Vec<Weekday>,
    excluded: Vec<Date>,
}

impl RepeatedSpan {
    /// The repeated span whose expansion the stored `occurrences` are, cut at
    /// the horizon; `None` for anything else (a short span, a single day, a
    /// schedule merged from several ranges, one corrected by the operator).
    pub fn of(
        start: Option<DateTime>,
        end: Option<DateTime>,
        all_day: bool,
        weekdays: &[Weekday],
        excluded: &[Date],
        occurrences: &[Occurrence],
    ) -> Option<RepeatedSpan> {
        let (start, end) = (start?, end?);
        let (first, last) = (start.date(), end.date());
        if first.checked_add(jiff::Span::new().days(HORIZON_DAYS)).is_ok_and(|h| last <= h) {
            return None;
        }
        let start_time = (!all_day).then(|| start.time());
        if weekdays.is_empty() && start_time.is_none() {
            return None; // one long occurrence, stored whole
        }
        let stored_end = occurrences.first().and_then(|o| o.end).map(|e| e.time());
        let feed_end = Some(end.time()).filter(|t| *t != jiff::civil::time(23, 59, 59, 0));
        [stored_end, feed_end, None].into_iter().find_map(|end_time| {
            let s = Schedule::from_span(first, Some(last), start_time, end_time, weekdays.to_vec(), excluded.to_vec());
            (s.occurrences == occurrences && s.start == Some(start)).then(|| RepeatedSpan {
                first,
                last,
                start_time,
                end_time,
                weekdays: weekdays.to_vec(),
                excluded: excluded.to_vec(),
            })
        })
    }

    /// The span's occurrences from a year before `today` to a year after it,
    /// within the span (before its start, its first two years; a year past
    /// its end, its last day).
    ///
    /// ```
    /// use cityvibe::model::{RepeatedSpan, Schedule};
    /// use jiff::civil::{Weekday, date};
    /// let s = Schedule::from_span(date(2022, 12, 14), Some(date(2027, 1, 1)), None, None, vec![Weekday::Tuesday], vec![]);
    /// let span = RepeatedSpan::of(s.start, s.end, s.all_day, &s.weekdays, &s.excluded, &s.occurrences).unwrap();
    /// let now = span.around(date(2026, 12, 2));
    /// assert_eq!(now.first().unwrap().start.date(), date(2025, 12, 2));
    /// assert_eq!(now.last().unwrap().start.date(), date(2026, 12, 29));
    /// ```
    pub fn around(&self, today: Date) -> Vec<Occurrence> {
        let days = |n: i64| jiff::Span::new().days(n);
        let from = today.checked_sub(days(HORIZON_DAYS)).unwrap_or(self.first).max(self.first).min(self.last);
        let to = from.checked_add(days(2 * HORIZON_DAYS)).unwrap_or(self.last).min(self.last);
        repeat(from, to, self.start_time, self.end_time, &self.weekdays, &self.excluded, 2 * MAX_OCCURRENCES)
    }

    /// The span's last day.
    pub fn last_day(&self) -> Date {
        self.last
    }
}

/// Where an event takes place.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Venue {
    pub name: Option<String>,
    pub address: Option<String>,
    pub postal_code: Option<String>,
    pub locality: Option<String>,
    pub province: Option<String>,
    pub district: Option<String>,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
}

impl Venue {
    /// Keep coordinates only when they lie in Spain (peninsula, Balearics,
    /// Canaries, Ceuta, Melilla); anything else is a feed error and dropped.
    pub fn set_coordinates(&mut self, lat: f64, lon: f64) -> bool {
        if in_spain(lat, lon) {
            self.lat = Some(lat);
            self.lon = Some(lon);
            true
        } else {
            self.lat = None;
            self.lon = None;
            false
        }
    }
}

/// What an event's link (`url`) leads to, as the reader is told (P19): the
/// event's own page, the publisher's "more information" link when the record
/// has no page of its own, or the dataset's page when it has neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    #[default]
    EventPage,
    MoreInformation,
    DatasetPage,
}

/// Whether a point lies within Spain's territory (generous bounding boxes).
pub fn in_spain(lat: f64, lon: f64) -> bool {
    let peninsula = (35.1..=43.9).contains(&lat) && (-9.4..=4.4).contains(&lon);
    peninsula || in_canaries(lat, lon)
}

/// Whether a point lies in the Canary Islands.
pub fn in_canaries(lat: f64, lon: f64) -> bool {
    (27.5..=29.5).contains(&lat) && (-18.3..=-13.3).contains(&lon)
}

/// CityVibe's own taxonomy: a dozen entries, labelled in all seven languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Music,
    Theatre,
    Dance,
    Film,
    Exhibition,
    Literature,
    Workshop,
    Talk,
    Family,
    Festival,
    Sport,
    Tour,
    Other,
}

impl Category {
    pub const ALL: [Category; 13] = [
        Category::Music,
        Category::Theatre,
        Category::Dance,
        Category::Film,
        Category::Exhibition,
        Category::Literature,
        Category::Workshop,
        Category::Talk,
        Category::Family,
        Category::Festival,
        Category::Sport,
        Category::Tour,
        Category::Other,
    ];

    /// The stable id stored in the database.
    pub fn id(self) -> &'static str {
        match self {
            Category::Music => "music",
            Category::Theatre => "theatre",
            Category::Dance => "dance",
            Category::Film => "film",
            Category::Exhibition => "exhibition",
            Category::Literature => "literature",
            Category::Workshop => "workshop",
            Category::Talk => "talk",
            Category::Family => "family",
            Category::Festival => "festival",
            Category::Sport => "sport",
            Category::Tour => "tour",
            Category::Other => "other",
        }
    }

    pub fn from_id(id: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The label in one of the seven display languages, from the reader
    /// catalogue (`data/i18n/LANG/reader.ftl`, `category-ID`).
    pub fn label(self, lang: Lang) -> String {
        crate::i18n::catalogue(lang).text(&format!("category-{}", self.id()))
    }

    /// The labels of categories in `lang`.
    pub fn labels(categories: &[Category], lang: Lang) -> Vec<String> {
        categories.iter().map(|c| c.label(lang)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::{date, time};

    #[test]
    fn event_without_id_or_title_cannot_exist() {
        assert!(Event::new("", "Concierto", "es").is_err());
        assert!(Event::new("12", "  ", "es").is_err());
        assert!(Event::new("12", "Concierto", "es").is_ok());
    }

    #[test]
    fn weekly_recurrence_skips_excluded_days() {
        let s = Schedule::from_span(
            date(2026, 12, 1),
            Some(date(2026, 12, 31)),
            Some(time(18, 0, 0, 0)),
            None,
            vec![Weekday::Tuesday],
            vec![date(2026, 12, 8)],
        );
        let days: Vec<_> = s.occurrences.iter().map(|o| o.start.date()).collect();
        assert_eq!(days, vec![date(2026, 12, 1), date(2026, 12, 15), date(2026, 12, 22), date(2026, 12, 29)]);
    }

    #[test]
    fn long_recurrence_is_capped_at_horizon() {
        let s = Schedule::from_span(date(2026, 1, 1), Some(date(2030, 1, 1)), Some(time(10, 0, 0, 0)), None, vec![], vec![]);
        assert!(s.occurrences.len() <= MAX_OCCURRENCES);
        let last = s.occurrences.last().unwrap().start.date();
        assert!(last <= date(2027, 1, 2), "{last}");
    }

    #[test]
    fn coordinates_outside_spain_are_dropped() {
        let mut v = Venue::default();
        assert!(!v.set_coordinates(48.85, 2.35)); // Paris
        assert_eq!(v.lat, None);
        assert!(v.set_coordinates(28.1, -15.4)); // Las Palmas
        assert!(in_canaries(28.1, -15.4));
    }

    /// The stored spellings read back as the values that wrote them.
    #[test]
    fn weekday_codes_and_category_ids_read_back() {
        for d in [Weekday::Monday, Weekday::Wednesday, Weekday::Sunday] {
            assert_eq!(weekday_from_code(weekday_code(d)), Some(d));
        }
        assert_eq!(weekday_from_code("Mo"), None);
        for c in Category::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), c.id());
            assert_eq!(serde_json::from_value::<Category>(c.id().into()).unwrap(), c);
        }
    }

    #[test]
    fn every_category_has_seven_labels() {
        for c in Category::ALL {
            for l in crate::lang::Lang::ALL {
                assert!(!c.label(l).is_empty());
                assert!(crate::i18n::catalogue(l).has(&format!("category-{}", c.id())), "{l} lacks {}", c.id());
            }
        }
    }
}
