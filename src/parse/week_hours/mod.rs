//! Opening-hours and show-time texts, in the words of the feed's language,
//! read into what they say about days: groups of weekdays with a time each
//! ("Martes a sábado de 9 a 18 h. Domingos de 9 a 15 h. Lunes cerrado",
//! "Dissabte: 19 h  Diumenge: 11 h"), weekdays said to be closed, and dated
//! days ("Inauguració, dia 14 de febrer a les 18.30 h", "Cerrado 24 y 25 de
//! diciembre"); then a span of days with that reading into a schedule that
//! has no occurrence on a day the text closes or does not name.
//!
//! The entry point for an adapter is [`hours_schedule`] (text, language and
//! span in, schedule out); [`week_hours`] and [`schedule`] are its two
//! halves, and [`WeekHours::opening_hours`] writes a reading in
//! OpenStreetMap's `opening_hours` syntax (`Tu-Sa 09:00-18:00; Su,PH
//! 09:00-15:00; Mo off`), the form schema.org's `openingHours` takes and
//! the one the data files' examples are written in.
//!
//! The words (weekday and month names, "festivos", "cerrado", "durada",
//! "inauguració", the range word "a") are data: `data/lang/LANG/hours.tsv`,
//! each file with examples the tests run. The times are read here: `20.30
//! h`, `20 h`, `20h`, `19:30`, `de 9 a 20 h`, `d'11 a 14 h`, `12 i 17 h` (the
//! first one counts). Never a guessed day: a text that says nothing this
//! reader understands leaves the span as it is, with no time of day.
//! Not for: a plain time or the first time of a sentence
//! (`dates::parse_time`, `occurrences::hours_in_text`).

mod days;
mod reader;
mod reading;
mod words;

pub use days::{GUESS_NO_DAYS_BEYOND, schedule};
pub use reader::week_hours;
pub use reading::{DatedHours, DayHours, WeekHours};

use crate::model::Schedule;
use jiff::civil::Date;

/// An opening-hours text in `lang` over the span `first..=last` as a
/// schedule: [`week_hours`] then [`schedule`]. The one call an adapter makes
/// for a free-text hours field.
///
/// ```
/// use cityvibe::parse::week_hours::hours_schedule;
/// use jiff::civil::date;
/// // Saturdays only, never the other days of the span.
/// let s = hours_schedule("Sábados 10:30 horas", "es", date(2020, 3, 14), Some(date(2020, 4, 25)));
/// assert_eq!(s.occurrences.len(), 7);
/// assert!(s.occurrences.iter().all(|o| o.start.date().weekday() == jiff::civil::Weekday::Saturday));
/// ```
pub fn hours_schedule(text: &str, lang: &str, first: Date, last: Option<Date>) -> Schedule {
    schedule(first, last, &week_hours(text, lang))
}

/// The reading as the data files' examples write it: [`WeekHours::opening_hours`].
pub fn describe(hours: &WeekHours) -> String {
    hours.opening_hours()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real texts of the feeds, read as their words say.
    #[test]
    fn real_texts_read_as_their_words_say() {
        for (text, lang, want) in [
            (
                "Martes y sábados de 09:00 a 21:00. domingos y festivos de 09:00 a 15:00. Lunes cerrado (excepto víspera de festivo, con horario de festivo) Abierto todos los festivos, incluso los locales.Cerrado los días: 24, 25 y 31 de diciembre. 1 y 6 de enero",
                "es",
                "Tu,Sa 09:00-21:00; Su,PH 09:00-15:00; Mo off; Dec 24 off; Dec 25 off; Dec 31 off; Jan 01 off; Jan 06 off",
            ),
            (
                "Inauguració 22 d'agost a les 19 h  De dilluns a dissabte 9 a 13.30 h i 17 a 19.30 h Diumenge 9.30 a 13.30 h.",
                "ca",
                "Mo-Sa 09:00-13:30; Su 09:30-13:30; Aug 22 19:00",
            ),
        ] {
            assert_eq!(week_hours(text, lang).opening_hours(), want, "{text}");
        }
    }
}
