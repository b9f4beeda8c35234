//! CSV (RFC 4180, UTF-8, a header row, an optional byte-order mark): one
//! row per event, each with the link to the original, the licence and the
//! attribution (P19), and every occurrence in one column.

use super::ExportEvent;

pub const HEADER: [&str; 28] = [
    "source",
    "source_event_id",
    "title",
    "description",
    "lang",
    "text_origin",
    "start",
    "end",
    "occurrences",
    "all_day",
    "time_zone",
    "venue",
    "address",
    "postal_code",
    "locality",
    "province",
    "lat",
    "lon",
    "free",
    "price",
    "categories",
    "url",
    "licence",
    "licence_url",
    "attribution",
    "publisher",
    "dataset_page",
    "category_labels",
];

/// Every occurrence, `START/END` (or `START`) in the event's civil time, joined
/// by `; `: a one-row-per-event file loses no date.
fn occurrences(e: &crate::store::events::StoredEvent) -> String {
    super::slots(e)
        .iter()
        .map(|s| match s.end {
            Some(end) => format!("{}/{}", s.start, end),
            None => s.start.to_string(),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// csv's own error hides an I/O error (a closed pipe) from anyhow's chain: unwrap it.
fn io_error(e: csv::Error) -> anyhow::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(io) => io.into(),
        other => anyhow::anyhow!("writing CSV: {other:?}"),
    }
}

/// Write the CSV; with `bom`, a UTF-8 byte-order mark first, so spreadsheet
/// programs that guess the encoding read accents right.
pub fn write<W: std::io::Write>(mut out: W, events: &[ExportEvent], bom: bool) -> anyhow::Result<()> {
    if bom {
        out.write_all("\u{feff}".as_bytes())?;
    }
    write_records(out, events).map_err(io_error)
}

fn write_records<W: std::io::Write>(out: W, events: &[ExportEvent]) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(HEADER)?;
    let s = |v: &Option<String>| v.clone().unwrap_or_default();
    let f = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
    let civil = |t: Option<jiff::civil::DateTime>| t.map(|t| t.to_string()).unwrap_or_default();
    for x in events {
        // As shown: the texts, their language and maker, the price, the
        // licence, the attribution and the labels; the rest as stored.
        let (e, st) = (&x.shown, &x.shown.stored);
        w.write_record([
            st.source.clone(),
            st.source_event_id.clone(),
            e.title.clone(),
            e.description.clone(),
            e.text_lang().to_string(),
            e.origin.to_string(),
            civil(st.start),
            civil(st.end),
            occurrences(st),
            st.all_day.to_string(),
            st.time_zone.clone(),
            s(&st.venue),
            s(&st.address),
            s(&st.postal_code),
            s(&st.locality),
            s(&st.province),
            f(st.lat),
            f(st.lon),
            st.free.map(|b| b.to_string()).unwrap_or_default(),
            s(&e.price),
            st.categories.iter().map(|c| c.id()).collect::<Vec<_>>().join(";"),
            s(&st.url),
            e.licence.clone(),
            st.licence_url.clone(),
            e.attribution.clone(),
            x.publisher.clone(),
            x.dataset_page.clone(),
            e.category_labels.join(";"),
        ])?;
    }
    w.flush()?;
    Ok(())
}
