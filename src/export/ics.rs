//! iCalendar (RFC 5545) writer: CRLF line ends, content lines folded at 75
//! octets on character boundaries, TEXT values escaped, local times with
//! `TZID` and a matching `VTIMEZONE`, a stable `UID` and a `DTSTAMP` per event.
//!
//! Written by hand rather than with a builder crate: the `icalendar` crate
//! (used by the tests to parse what we write) emits no VTIMEZONE and works in
//! chrono, while every date here is a jiff civil time.

use super::{ExportEvent, Slot, location_line, slots};
use crate::model::{TZ_CANARY, TZ_MADRID};
use jiff::civil::DateTime;
use std::fmt::Write as _;

/// The longest content line, in octets, before folding (RFC 5545 §3.1).
pub const MAX_LINE_OCTETS: usize = 75;

/// Escape a TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and
/// newline; other control characters (but tab) are dropped.
pub fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("\\n");
                }
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push('\t'),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Fold one content line: at most 75 octets per physical line, never inside
/// a UTF-8 character; continuation lines start with one space. CRLF ends each.
pub fn fold(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + line.len() / 70 * 3 + 2);
    let mut rest = line;
    let mut limit = MAX_LINE_OCTETS;
    loop {
        if rest.len() <= limit {
            out.push_str(rest);
            out.push_str("\r\n");
            return out;
        }
        let mut cut = limit;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push_str(&rest[..cut]);
        out.push_str("\r\n ");
        rest = &rest[cut..];
        // The leading space counts against the next line's 75 octets.
        limit = MAX_LINE_OCTETS - 1;
    }
}

/// Time zones we describe with a VTIMEZONE (the rest are written in UTC).
fn vtimezone(tz: &str) -> Option<&'static str> {
    match tz {
        TZ_MADRID => Some(
            "BEGIN:VTIMEZONE\r\nTZID:Europe/Madrid\r\nX-LIC-LOCATION:Europe/Madrid\r\n\
             BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\nDTSTART:19700329T020000\r\n\
             RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\n\
             BEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\nDTSTART:19701025T030000\r\n\
             RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n",
        ),
        TZ_CANARY => Some(
            "BEGIN:VTIMEZONE\r\nTZID:Atlantic/Canary\r\nX-LIC-LOCATION:Atlantic/Canary\r\n\
             BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0000\r\nTZOFFSETTO:+0100\r\nTZNAME:WEST\r\nDTSTART:19700329T010000\r\n\
             RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\n\
             BEGIN:STANDARD\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0000\r\nTZNAME:WET\r\nDTSTART:19701025T020000\r\n\
             RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n",
        ),
        _ => None,
    }
}

fn ical_date(d: jiff::civil::Date) -> String {
    d.strftime("%Y%m%d").to_string()
}

fn ical_local(dt: DateTime) -> String {
    dt.strftime("%Y%m%dT%H%M%S").to_string()
}

/// `;TZID=…:local` for a described zone, else `:…Z` (UTC).
fn ical_time(dt: DateTime, tz: &str) -> String {
    if vtimezone(tz).is_some() {
        return format!(";TZID={tz}:{}", ical_local(dt));
    }
    match dt.in_tz(tz).or_else(|_| dt.in_tz(TZ_MADRID)) {
        Ok(z) => format!(":{}", z.timestamp().strftime("%Y%m%dT%H%M%SZ")),
        Err(_) => format!(":{}", ical_local(dt)),
    }
}

/// A UID stable across exports: the source and its event id, with anything
/// but letters, digits, `-`, `.` and `_` written as `=XX`.
pub fn uid(source: &str, id: &str) -> String {
    let mut s = String::new();
    for b in format!("{source}-{id}").bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_') {
            s.push(b as char);
        } else {
            let _ = write!(s, "={b:02X}");
        }
    }
    s + "@cityvibe.guide"
}

/// The whole calendar as one string (CRLF line ends).
pub fn write(events: &[ExportEvent], now: jiff::Timestamp) -> String {
    let mut out = String::new();
    line(&mut out, "BEGIN:VCALENDAR");
    line(&mut out, "VERSION:2.0");
    line(&mut out, &format!("PRODID:-//CityVibe//cityvibe {}//ES", env!("CARGO_PKG_VERSION")));
    line(&mut out, "CALSCALE:GREGORIAN");
    line(&mut out, "METHOD:PUBLISH");
    line(&mut out, "X-WR-CALNAME:CityVibe");
    line(&mut out, &format!("X-WR-TIMEZONE:{TZ_MADRID}"));
    let mut zones: Vec<&str> = events.iter().map(|x| x.shown.stored.time_zone.as_str()).filter(|tz| vtimezone(tz).is_some()).collect();
    zones.sort();
    zones.dedup();
    for tz in zones {
        out.push_str(vtimezone(tz).unwrap_or_default());
    }
    let stamp = now.strftime("%Y%m%dT%H%M%SZ").to_string();
    for x in events {
        vevent(&mut out, x, &stamp);
    }
    line(&mut out, "END:VCALENDAR");
    out
}

/// One content line, folded.
fn line(out: &mut String, l: &str) {
    out.push_str(&fold(l));
}

/// One event's VEVENT, stamped `stamp`; nothing for an event without a date.
fn vevent(out: &mut String, x: &ExportEvent, stamp: &str) {
    let (e, s) = (&x.shown, &x.shown.stored);
    let all = slots(s);
    let Some(first) = all.first().copied() else { return };
    line(out, "BEGIN:VEVENT");
    line(out, &format!("UID:{}", uid(&s.source, &s.source_event_id)));
    line(out, &format!("DTSTAMP:{stamp}"));
    dates(out, s.all_day, &all, first, s.time_zone.as_str());
    let lang = escape_param(e.text_lang());
    line(out, &format!("SUMMARY;LANGUAGE={lang}:{}", escape_text(&e.title)));
    line(out, &format!("DESCRIPTION;LANGUAGE={lang}:{}", escape_text(&description(x))));
    if let Some(loc) = location_line(s) {
        line(out, &format!("LOCATION:{}", escape_text(&loc)));
    }
    if let (Some(lat), Some(lon)) = (s.lat, s.lon) {
        line(out, &format!("GEO:{lat:.6};{lon:.6}"));
    }
    if let Some(url) = s.url.as_deref().filter(|u| !u.contains(['\r', '\n', ' ', '"'])) {
        line(out, &format!("URL:{url}"));
    }
    if !e.category_labels.is_empty() {
        let cats: Vec<String> = e.category_labels.iter().map(|c| escape_text(c)).collect();
        line(out, &format!("CATEGORIES:{}", cats.join(",")));
    }
    line(out, "CLASS:PUBLIC");
    line(out, "TRANSP:TRANSPARENT");
    line(out, &format!("X-CITYVIBE-SOURCE:{}", escape_text(&s.source)));
    line(out, &format!("X-CITYVIBE-ATTRIBUTION:{}", escape_text(&e.attribution)));
    line(out, &format!("X-CITYVIBE-LICENSE:{}", escape_text(&e.licence)));
    line(out, &format!("X-CITYVIBE-LICENSE-URL:{}", escape_text(&s.licence_url)));
    line(out, "END:VEVENT");
}

/// DTSTART, DTEND and the RDATE of the other slots: whole days as dates,
/// else times in `tz` (or UTC when no VTIMEZONE of ours names it).
fn dates(out: &mut String, all_day: bool, all: &[Slot], first: Slot, tz: &str) {
    if all_day {
        let last = |s: &Slot| s.end.map_or(s.start.date(), |d| d.date());
        let end_day = last(&first).tomorrow().unwrap_or(first.start.date());
        line(out, &format!("DTSTART;VALUE=DATE:{}", ical_date(first.start.date())));
        line(out, &format!("DTEND;VALUE=DATE:{}", ical_date(end_day)));
        if all.len() > 1 {
            let days: Vec<String> = all[1..].iter().map(|s| ical_date(s.start.date())).collect();
            line(out, &format!("RDATE;VALUE=DATE:{}", days.join(",")));
        }
    } else {
        line(out, &format!("DTSTART{}", ical_time(first.start, tz)));
        if let Some(end) = first.end.filter(|end| *end > first.start) {
            line(out, &format!("DTEND{}", ical_time(end, tz)));
        }
        if all.len() > 1 {
            let utc = vtimezone(tz).is_none();
            let times: Vec<String> = all[1..]
                .iter()
                .map(|s| {
                    let t = ical_time(s.start, tz);
                    t.rsplit(':').next().unwrap_or_default().to_string()
                })
                .collect();
            let head = if utc { "RDATE".to_string() } else { format!("RDATE;TZID={tz}") };
            line(out, &format!("{head}:{}", times.join(",")));
        }
    }
}

/// The event's description, then its price, attribution, licence and link,
/// labelled in the reader's language.
fn description(x: &ExportEvent) -> String {
    let (e, s) = (&x.shown, &x.shown.stored);
    let mut description = e.description.trim().to_string();
    if !description.is_empty() {
        description.push_str("\n\n");
    }
    let words = crate::i18n::catalogue(e.lang);
    if let Some(price) = e.price.as_deref().filter(|p| !p.trim().is_empty()) {
        let _ = writeln!(description, "{}", words.text_with("ics-price", &[("price", price.into())]));
    }
    let licence = words.text_with("ics-licence", &[("name", e.licence.as_str().into()), ("url", s.licence_url.as_str().into())]);
    let _ = write!(description, "{}\n{licence}", e.attribution);
    if let Some(url) = &s.url {
        // Say what the link is: the event's page, more information, or the dataset.
        let label = match s.link {
            crate::model::LinkKind::EventPage => "ics-original",
            crate::model::LinkKind::MoreInformation => "ics-more-info",
            crate::model::LinkKind::DatasetPage => "ics-dataset-page",
        };
        let _ = write!(description, "\n{}", words.text_with(label, &[("url", url.as_str().into())]));
    }
    description
}

/// A parameter value: quoted when it holds `:`, `;` or `,`; `"` and controls dropped.
fn escape_param(s: &str) -> String {
    let clean: String = s.chars().filter(|c| *c != '"' && !c.is_control()).collect();
    if clean.contains([':', ';', ',']) { format!("\"{clean}\"") } else { clean }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_at_75_octets_on_char_boundaries() {
        let long = format!("DESCRIPTION:{}", "ñandú é ".repeat(40));
        let folded = fold(&long);
        assert!(folded.ends_with("\r\n"));
        for l in folded.trim_end_matches("\r\n").split("\r\n") {
            assert!(l.len() <= 75, "{} octets: {l}", l.len());
        }
        let unfolded = folded.trim_end_matches("\r\n").replace("\r\n ", "");
        assert_eq!(unfolded, long);
        assert_eq!(fold("SHORT:x"), "SHORT:x\r\n");
        // Exactly 75 octets: no fold.
        let exact = "X".repeat(75);
        assert_eq!(fold(&exact), format!("{exact}\r\n"));
    }

    #[test]
    fn escapes_text() {
        assert_eq!(escape_text("a,b;c\\d\ne\r\nf\u{7}"), "a\\,b\\;c\\\\d\\ne\\nf");
    }

    #[test]
    fn uids_are_plain() {
        assert_eq!(uid("madrid", "51000103"), "madrid-51000103@cityvibe.guide");
        assert_eq!(uid("diba", "a b;c"), "diba-a=20b=3Bc@cityvibe.guide");
    }
}

#[cfg(test)]
mod zone_tests {
    use super::*;
    use crate::export::ExportEvent;
    use crate::shown::ShownEvent;
    use crate::store::events::StoredEvent;

    fn event(tz: &str, occurrences: Vec<crate::model::Occurrence>) -> ExportEvent {
        ExportEvent::new(ShownEvent::in_its_language(StoredEvent {
            source_event_id: "x1".into(),
            title: "T".into(),
            description: String::new(),
            licence: "L".into(),
            attribution: "A".into(),
            start: Some(jiff::civil::date(2026, 12, 1).at(19, 0, 0, 0)),
            time_zone: tz.into(),
            occurrences,
            price: None,
            categories: Vec::new(),
            ..StoredEvent::sample()
        }))
    }

    #[test]
    fn canary_events_get_their_own_vtimezone_and_rdates() {
        let at = |day: i8, hour: i8| jiff::civil::date(2026, 12, day).at(hour, 0, 0, 0);
        let occ = vec![
            crate::model::Occurrence { start: at(1, 19), end: Some(at(1, 21)) },
            crate::model::Occurrence { start: at(3, 19), end: Some(at(3, 21)) },
        ];
        let ics = write(&[event(TZ_CANARY, occ)], jiff::Timestamp::UNIX_EPOCH);
        assert!(ics.contains("BEGIN:VTIMEZONE\r\nTZID:Atlantic/Canary\r\n"));
        assert!(!ics.contains("TZID:Europe/Madrid\r\n"), "no unused VTIMEZONE");
        assert!(ics.contains("DTSTART;TZID=Atlantic/Canary:20261201T190000\r\n"));
        assert!(ics.contains("DTEND;TZID=Atlantic/Canary:20261201T210000\r\n"));
        assert!(ics.contains("RDATE;TZID=Atlantic/Canary:20261203T190000\r\n"));
        assert!(ics.contains("DTSTAMP:19700101T000000Z\r\n"));
    }

    #[test]
    fn other_zones_are_written_in_utc() {
        let ics = write(&[event("America/New_York", Vec::new())], jiff::Timestamp::UNIX_EPOCH);
        assert!(ics.contains("DTSTART:20261202T000000Z\r\n"), "{ics}");
        assert!(!ics.contains("BEGIN:VTIMEZONE"));
    }
}
