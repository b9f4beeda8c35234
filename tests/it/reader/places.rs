//! Places as they write themselves, on the real feeds through the binary (a
//! `--mirror` run, then the stored venues read back from the database):
//! gencat's towns, given only as URL slugs, by their official names
//! (Idescat's register, `data/places/catalonia-municipalities.tsv`); one
//! event "in different municipalities" not read as the last province's;
//! Andalucía's address field taken apart into venue, street and postal
//! code, the opening days it holds going to the schedule.
//!
//! Not for: the hours themselves (`reader::open_days`).
use crate::common;

use common::{cityvibe, place, sources_toml, workdir};
use std::collections::BTreeMap;
use std::path::Path;

const ANDALUCIA: &str = "andalucia_agenda/agenda-eventos-junta-andalucia_2026-01.json";
const ANDALUCIA_FEED: &str = "datos.juntadeandalucia.es/api/v0/schedule/all?format=json";
const GENCAT: &str = "gencat_agenda_cultural/rhpv-yr4f_agenda-cultural-catalunya_2022-11.json";
const GENCAT_FEED: &str = "analisi.transparenciacatalunya.cat/resource/rhpv-yr4f.json?$order=codi&$limit=1000&$offset=0";

/// One stored event's place and occurrences.
#[derive(Debug)]
struct Stored {
    venue: Option<String>,
    address: Option<String>,
    postal_code: Option<String>,
    locality: Option<String>,
    province: Option<String>,
    occurrences: String,
}

fn stored(source: &str, real: &Path, feed: &str) -> BTreeMap<String, Stored> {
    let dir = workdir(&sources_toml(&[source], ""));
    let mirror = dir.path().join("mirror");
    place(&mirror, feed, &std::fs::read(real).unwrap());
    let out = cityvibe(dir.path(), &["--mirror", mirror.to_str().unwrap(), "run", "--force", "--source", source, "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = rusqlite::Connection::open(dir.path().join("data/cityvibe.db")).unwrap();
    let mut st = conn
        .prepare("SELECT source_event_id, venue_name, address, postal_code, locality, province, occurrences FROM events WHERE source = ?1")
        .unwrap();
    st.query_map([source], |r| {
        Ok((
            r.get::<_, String>(0)?,
            Stored {
                venue: r.get(1)?,
                address: r.get(2)?,
                postal_code: r.get(3)?,
                locality: r.get(4)?,
                province: r.get(5)?,
                occurrences: r.get(6)?,
            },
        ))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

#[test]
fn gencat_towns_read_by_their_official_names() {
    let Some(real) = common::realdata(GENCAT) else { return };
    let by_id = stored("gencat", &real, GENCAT_FEED);
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&std::fs::read(&real).unwrap()).unwrap();
    // The slug of each id's last row (the one the store keeps) when the feed
    // gives it no `localitat`, and the town stored for it.
    let last: BTreeMap<&str, &serde_json::Value> = rows.iter().filter_map(|r| Some((r["codi"].as_str()?, r))).collect();
    let mut towns: BTreeMap<String, String> = BTreeMap::new();
    for r in last.values().filter(|r| r["localitat"].is_null()) {
        let (Some(path), Some(id)) = (r["comarca_i_municipi"].as_str(), r["codi"].as_str()) else { continue };
        let slug = path.split(',').next().unwrap().rsplit('/').next().unwrap().to_string();
        if let Some(town) = by_id.get(id).and_then(|e| e.locality.clone()) {
            towns.insert(slug, town);
        }
    }
    for (slug, official) in [
        ("l-espluga-de-francoli", "L'Espluga de Francolí"),
        ("palamos", "Palamós"),
        ("torroella-de-montgri", "Torroella de Montgrí"),
        ("sant-cugat-del-valles", "Sant Cugat del Vallès"),
        ("la-seu-d-urgell", "La Seu d'Urgell"),
    ] {
        assert_eq!(towns.get(slug).map(String::as_str), Some(official), "{slug}");
    }
    // No town keeps a slug's lost accent where the register has one.
    let unaccented: Vec<&String> = towns
        .values()
        .filter(|t| ["Francoli", "Palamos", "Montgri", "Valles", "Mataro", "Torello"].iter().any(|w| t.contains(w)))
        .collect();
    assert!(unaccented.is_empty(), "{unaccented:?}");
    // One event in several provinces, on a row per province: not the last province's.
    let several = &by_id["20210131004"];
    assert_eq!(several.locality.as_deref(), Some("Diferents municipis"), "{several:?}");
    assert_eq!(several.province, None, "{several:?}");
}

#[test]
fn andalucia_addresses_give_venue_street_and_postal_code_apart_and_their_days_to_the_schedule() {
    let Some(real) = common::realdata(ANDALUCIA) else { return };
    let by_id = stored("andalucia", &real, ANDALUCIA_FEED);

    let archive = &by_id["274504"];
    assert_eq!(archive.venue.as_deref(), Some("Archivo Histórico Provincial de Cádiz"));
    assert_eq!(archive.address.as_deref(), Some("C/ Cristobal Colón, 12"));
    assert_eq!(archive.postal_code.as_deref(), Some("11005"));
    let museum = &by_id["216613"];
    assert_eq!(museum.venue.as_deref(), Some("Patio de San Miguel. Museo de Jaén"));
    assert_eq!((museum.address.as_deref(), museum.postal_code.as_deref()), (Some("Paseo de la Estación, 27"), Some("23008")));

    // "Parque del Alamillo, Isla de la Cartuja, domingos y festivos durante todo el año": the venue, and Sundays only.
    let park = &by_id["477688"];
    assert_eq!(park.venue.as_deref(), Some("Parque del Alamillo, Isla de la Cartuja"));
    assert!(!park.address.as_deref().unwrap_or_default().contains("domingos"), "{park:?}");
    let starts: Vec<jiff::civil::DateTime> = serde_json::from_str::<Vec<serde_json::Value>>(&park.occurrences)
        .unwrap()
        .iter()
        .map(|o| o["start"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(starts.len() > 10, "{starts:?}");
    assert!(starts.iter().all(|s| s.weekday() == jiff::civil::Weekday::Sunday && s.hour() == 11), "{starts:?}");

    // Most events with an address have a venue; no stored address still holds its postal code.
    let with_address = by_id.values().filter(|e| e.address.is_some() || e.venue.is_some()).count();
    let with_venue = by_id.values().filter(|e| e.venue.is_some()).count();
    assert!(with_venue * 10 >= with_address * 8, "{with_venue} venues for {with_address} addresses");
    for (id, e) in &by_id {
        if let (Some(address), Some(code)) = (&e.address, &e.postal_code) {
            assert!(!address.contains(code.as_str()), "{id}: {address:?} still holds {code}");
        }
    }
}
