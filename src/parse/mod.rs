//! Shared helpers for adapters: text cleaning, PII scrubbing, tolerant types,
//! encodings and dates. Pure functions; no I/O beyond the readers handed in.
//!
//! The adapter writer's kit for what Spanish portals publish (each with
//! examples that run as doctests; docs/ADAPTERS.md walks through them):
//! - dates `dd/mm/yyyy` or `yyyy-mm-dd`: [`dates::parse_date`]; with a time: [`dates::parse_datetime`];
//! - times `19:00`, `19.30`, `20:00 h`: [`dates::parse_time`];
//! - a date-time's time when it is one (not midnight, not 23:59 as an end): [`dates::real_time`];
//! - the first time (and its end) in a sentence or a range such as
//!   "De 10:00 a 14:00 y de 17:00 a 20:00": [`occurrences::time_in_text`], [`occurrences::hours_in_text`];
//! - decimal-comma coordinates and amounts `40,4167`: [`number::decimal`];
//! - UTM metres (ETRS89) as degrees: [`geo::utm_etrs89_to_degrees`]; a source's region: [`geo::BoundingBox`];
//! - entities whose `;` became `.` (`&nbsp.`): [`text::repair_dotted_entities`];
//! - dates outside 1990 to ten years ahead (`0021`, `9999`) as record errors: [`dates::read_date`], [`dates::plausible`];
//! - category labels and audiences to the taxonomy: [`crate::model::Category::from_label`], [`category::add_audience`];
//! - price texts ("Gratuito", "5,50 euros"): [`price::free_from_text`];
//! - free-text opening hours in Spanish, Catalan or Galician ("Martes a sábado de 9 a 18 h.
//!   Domingos de 9 a 15 h. Lunes cerrado", "Inauguració, dia 14 de febrer a les 18.30 h"),
//!   over a span of days, as a schedule with no occurrence on a closed day:
//!   [`week_hours::hours_schedule`] (its halves [`week_hours::week_hours`] and
//!   [`week_hours::schedule`]; the words are data in `data/lang/LANG/hours.tsv`);
//! - a Catalan municipality's official name from a URL slug: [`places::catalan_town`];
//! - a span of days with a start time becomes one occurrence a day:
//!   [`crate::model::Schedule::from_span`].

pub mod category;
pub mod controls;
pub mod dates;
pub mod encoding;
pub mod geo;
pub mod labels;
pub mod loose;
pub mod loose_list;
pub mod number;
pub mod occurrences;
pub mod pii;
pub mod places;
pub mod price;
pub mod screened;
pub mod stored;
pub mod text;
pub mod week_hours;
pub mod xml;
