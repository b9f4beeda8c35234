//! The ingest benchmark's generated feed (`benches/ingest/main.rs`): a
//! deterministic feed of N events in the real Madrid JSON-LD schema, with the
//! real feed's typography, recurrences and planted contact data, written at
//! bench time. For measuring only: not a fixture and not a test of parsing.

use crate::support::Rng;
use anyhow::{Context, Result};
use std::io::{BufWriter, Write};
use std::path::Path;

const CONTEXT: &str = r#"{
	"@context": {
		"c": "http://www.w3.org/2002/12/cal#",
		"dcterms": "http://purl.org/dc/terms/",
		"geo": "http://www.w3.org/2003/01/geo/wgs84_pos#",
		"loc": "http://purl.org/ctic/infraestructuras/localizacion#",
		"org": "http://purl.org/ctic/infraestructuras/organizacion#",
		"vcard": "http://www.w3.org/2006/vcard/ns#",
		"schema": "https://schema.org/",
		"title": "vcard:fn",
		"id": "dcterms:identifier",
		"relation": "dcterms:relation",
		"references": "dcterms:references",
		"address": "vcard:adr",
		"area": "loc:barrio",
		"district": "loc:distrito",
		"locality": "vcard:locality",
		"postal-code": "vcard:postal-code",
		"street-address": "vcard:street-address",
		"location": "vcard:geo",
		"latitude": "geo:lat",
		"longitude": "geo:long",
		"organization": "vcard:org",
		"organization-desc": "dcterms:description",
		"accesibility": "org:accesibilidad",
		"services": "org:servicios",
		"schedule": "org:horario",
		"organization-name": "vcard:organization-name",
		"description": "c:summary",
		"link": "c:url",
		"uid": "c:uid",
		"dtstart": "c:dtstart",
		"dtend": "c:dtend",
		"time": "c:time",
		"excluded-days": "c:exdate",
		"event-location": "c:location",
		"free": "schema:free",
		"price": "c:resource",
		"recurrence": "c:rrule",
		"days": "c:byday",
		"frequency": "c:freq",
		"interval": "c:interval",
		"audience": "dc:audience"
	},
	"@graph": [
"#;

/// (venue, street, postal code, district, barrio, lat, lon, entity id)
type Venue = (&'static str, &'static str, &'static str, &'static str, &'static str, f64, f64, u32);
const VENUES: &[Venue] = &[
    (
        "Centro Cultural San Francisco La Prensa (Carabanchel)",
        "CALLE ALISEDA 4",
        "28025",
        "Carabanchel",
        "PuertaBonita",
        40.376914,
        -3.741625,
        4703422,
    ),
    ("Fernán Gómez Centro Cultural de la Villa", "PLAZA COLON 4", "28001", "Salamanca", "Recoletos", 40.424972, -3.689948, 1915),
    ("Centro de Cultura Contemporánea Conde Duque", "CALLE CONDE DUQUE 9", "28015", "Centro", "Universidad", 40.427399, -3.710589, 1916),
    (
        "Auditorio y sala de exposiciones Paco de Lucía (Latina)",
        "AVENIDA AGUILAS 2",
        "28044",
        "Latina",
        "Aguilas",
        40.384514,
        -3.772531,
        139451,
    ),
    (
        "Biblioteca Pública Municipal Eugenio Trías. Casa de Fieras de El Retiro",
        "PASEO FISAC 2",
        "28009",
        "Retiro",
        "Jeronimos",
        40.417731,
        -3.680164,
        9370141,
    ),
    ("Centro Cultural Moncloa", "PLAZA MONCLOA 1", "28008", "Moncloa-Aravaca", "Arguelles", 40.434870, -3.718910, 7120),
    ("Centro Intergeneracional Ouka Leele", "CALLE ALCALA 211", "28028", "SalamancaSur", "Guindalera", 40.430052, -3.665103, 12546),
    ("Teatro Español", "CALLE PRINCIPE 25", "28012", "Centro", "Cortes", 40.414641, -3.700161, 2120),
    ("Matadero Madrid", "PASEO CHOPERA 14", "28045", "Arganzuela", "Legazpi", 40.391926, -3.697498, 1923),
    ("Centro Cultural Buenavista (Salamanca)", "AVENIDA TOREROS 5", "28028", "Salamanca", "Guindalera", 40.430830, -3.667420, 4702),
    ("Biblioteca Pública Municipal Iván de Vargas (Centro)", "CALLE SAN JUSTO 5", "28005", "Centro", "Palacio", 40.412800, -3.709120, 9234),
    (
        "Centro Sociocultural Clara del Rey (Chamartín)",
        "CALLE PADRE CLARET 11",
        "28002",
        "Chamartin",
        "Prosperidad",
        40.443570,
        -3.671250,
        3311,
    ),
    ("Espacio Abierto Quinta de los Molinos", "CALLE ALCALA 527", "28027", "SanBlas-Canillejas", "Simancas", 40.447420, -3.616400, 10555),
    (
        "Centro Cultural El Pozo del Tío Raimundo (Puente de Vallecas)",
        "AVENIDA GLORIETAS 19",
        "28053",
        "PuentedeVallecas",
        "Entrevias",
        40.377050,
        -3.652690,
        8810,
    ),
    ("Imprenta Municipal - Artes del Libro", "CALLE CONCEPCION JERONIMA 15", "28012", "Centro", "Embajadores", 40.413250, -3.706530, 1899),
    ("Museo de Historia de Madrid", "CALLE FUENCARRAL 78", "28004", "Centro", "Universidad", 40.425600, -3.700050, 1990),
];

const KINDS: &[&str] = &[
    "ProgramacionDestacadaAgendaCultura",
    "CursosTalleres",
    "TeatroPerformance",
    "CineActividadesAudiovisuales",
    "Exposiciones",
    "ConferenciasColoquios",
    "Musica",
    "ExcursionesItinerariosVisitas",
    "DanzaBaile",
    "CuentacuentosTiteresMarionetas",
    "RecitalesPresentacionesActosLiterarios",
    "ClubesLectura",
    "1ciudad21distritos",
    "ActividadesCalleArteUrbano",
    "ConcursosCertamenes",
    "CircoMagia",
    "Musica/JazzSoulFunkySwingReagge",
    "ActividadesDeportivas",
    "DanzaBaile/Flamenco",
    "Fiestas",
];

const AUDIENCES: &[&str] =
    &["Niños", "Mujeres", "Niños,Familias", "Familias", "Mayores", "Jovenes", "Jovenes,Familias,Mayores", "PropietariosdeAnimales"];

const DAY_SETS: &[&str] = &[
    "MO,TU,WE,TH,FR,SA,SU",
    "MO,TU,WE,TH,FR,SA,SU",
    "MO,TU,WE,TH,FR,SA,SU",
    "TU,WE,TH,FR,SA,SU",
    "TH",
    "TU",
    "MO",
    "MO,TU,WE,TH,FR,SA",
    "FR",
    "WE",
    "MO,TU,WE,TH,FR",
    "SA",
    "SA,SU",
    "MO,WE",
    "TU,TH",
];

const TIMES: &[&str] = &[
    "19:00", "19:00", "19:00", "18:00", "11:00", "12:00", "20:00", "10:00", "18:30", "17:00", "09:00", "17:30", "10:30", "19:30", "16:30",
    "13:00",
];

const TITLE_A: &[&str] = &[
    "Concierto",
    "Taller",
    "Club de lectura",
    "Ciclo de cine",
    "Exposición",
    "Visita guiada",
    "Cuentacuentos",
    "Recital",
    "Conferencia",
    "Espectáculo",
    "Encuentro",
    "Jornada",
    "Certamen",
    "Muestra",
    "Itinerario",
    "Teatro",
    "Danza",
    "Presentación del libro",
    "Coloquio",
    "Curso",
];
const TITLE_B: &[&str] = &[
    "de otoño",
    "en familia",
    "para mayores",
    "«La memoria del agua»",
    "de jazz",
    "de flamenco",
    "infantil",
    "'Madrid en verso'",
    "de mariposas urbanas",
    "por el Retiro",
    "sobre Galdós",
    "de títeres",
    "de chotis",
    "de fotografía",
    "intergeneracional",
    "de poesía",
    "de Navidad",
    "de música antigua",
    "«100 Libros juntas»",
    "de cerámica",
    "con Marga Melià",
    "del barrio",
    "de primavera",
    "de cine mudo",
];

const SENTENCES: &[&str] = &[
    "Tras compartir la lectura de casi cien libros a lo largo de una década, cinco mujeres jubiladas deciden celebrar el décimo aniversario de su club de lectura.",
    "Durante esta escapada, reflexionan sobre el impacto que estos encuentros han tenido en sus vidas y debaten sobre temas cotidianos y trascendentales.",
    "Duración: 80 min.",
    "Edad recomendada: a partir de 7 años.",
    "Entrada libre hasta completar aforo.",
    "Imprescindible inscripción previa.",
    "La asignación de plazas de la lista de espera se hará por riguroso orden de inscripción.",
    "Dada la gran demanda de inscripciones, se ruega confirmar la participación una semana antes o su anulación en caso necesario.",
    "¿Conoces la gran cantidad de especies de mariposas que hay en la ciudad? ¿Sabes qué mariposa merodea por tu jardín?",
    "Taller teórico-práctico en colaboración con el Observatorio de Mariposas Urbanas.",
    "La exposición reúne una selección de obras pictóricas, escultóricas y de collage de once artistas contemporáneos.",
    "El plazo de inscripción empieza un mes antes de la fecha de realización a las 10:00, salvo los lunes, que el centro cierra.",
    "Las inscripciones enviadas fuera del horario del centro no se tendrán en cuenta.",
    "Aforo máximo: 25 personas.",
    "Actividad gratuita; no se admiten núcleos familiares de más de 4 miembros.",
    "Con presentación a cargo de la autora y coloquio posterior con el público.",
    "Dirigida por Marga Melià; distintivo «Especialmente recomendada para el fomento de la igualdad de género».",
    "Un recorrido por la historia del barrio, sus calles, sus oficios y sus fiestas populares.",
    "Música en directo a cargo de la Banda Sinfónica Municipal de Madrid.",
    "Apertura de puertas media hora antes del inicio. Se ruega puntualidad.",
    "Las entradas pueden adquirirse en la taquilla del teatro de martes a domingo, de 11:30 a 14:00 y de 17:00 a 20:00 h.",
    "Accesible para personas con movilidad reducida; bucle magnético en la sala.",
    "Proyección en versión original subtitulada al castellano.",
    "Actividad incluida en el programa «1 ciudad, 21 distritos» del Ayuntamiento de Madrid.",
];

/// Typography of the real feed (per 1 000 events there: ~330 no-break
/// spaces, ~45 curly quotes, ~30 ellipses, ~25 narrow no-break spaces, ~25
/// dashes, ~15 bullets; byte-order marks and decomposed accents, rarer, are
/// added on their own in `description`).
const TYPOGRAPHY: &[&str] = &[
    "Duración:\u{a0}90\u{a0}min.",
    "Reservas:\u{a0}en taquilla\u{a0} /\u{a0} en la web.",
    "Organiza: Asociación Cultural l’Escena – entrada libre hasta completar aforo…",
    "Horario:\u{202f}de martes a domingo, de 10:00 a 14:00.",
    "• Sábado: visita guiada. • Domingo: taller infantil.",
    "Ciclo «Madrid en verso» — ‘Poesía en la plaza’.",
    "● Plazas limitadas.",
];

const EMAILS: &[&str] = &[
    "inforetiro@madrid.es",
    "taquilla.fernangomez@teatrofernangomez.es",
    "cclavapies@madrid.es",
    "reservas@mataderomadrid.org",
    "bibliotecas (arroba) madrid.es",
];
const PHONES: &[&str] =
    &["91 376 91 97", "917109263", "917 109 260 / 917 100 558", "+34 600 11 22 33", "91 318 47 33 /734", "(+34) 913 184 700"];

fn json_escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
}

/// A description of varied length: real-looking sentences, some contact data
/// (to be scrubbed), a few entities and tags, and now and then a raw line
/// break (the feed's quirk: not valid JSON, not escaped).
fn description(r: &mut Rng, out: &mut String) {
    if r.pct(22) {
        return;
    }
    // Mostly short, a long tail up to ~4 000 characters (like the real feed).
    let sentences = if r.pct(12) { 8 + r.below(25) } else { 1 + r.below(5) };
    for i in 0..sentences {
        if i > 0 {
            out.push_str(if r.pct(8) { "  " } else { " " });
        }
        let s = if r.pct(12) { *r.pick(TYPOGRAPHY) } else { *r.pick(SENTENCES) };
        if r.pct(3) {
            out.push_str("&lt;p&gt;");
            json_escape(out, s);
            out.push_str("&lt;/p&gt;");
        } else if r.pct(2) {
            out.push_str("<p>");
            json_escape(out, &s.replace("á", "&aacute;").replace("ó", "&oacute;"));
            out.push_str("</p>");
        } else {
            json_escape(out, s);
        }
    }
    if r.below(1000) < 3 {
        out.push_str(" Caf\u{e9} y tertulia (cafe\u{301} literario, con acento descompuesto).");
    }
    if r.below(1000) < 5 {
        out.push_str(" \u{feff}Programa sujeto a cambios.");
    }
    if r.below(1000) < 3 {
        // The feed's quirk: a raw line break inside the string, sometimes Windows-style.
        out.push_str(if r.pct(50) { "\n" } else { "\r\n" });
        out.push_str("Consulte la programación completa.");
    }
    if r.pct(7) {
        out.push_str(" Reservas en el correo ");
        out.push_str(r.pick::<&str>(EMAILS));
        out.push('.');
    }
    if r.pct(9) {
        out.push_str(" Información: teléfono ");
        out.push_str(r.pick::<&str>(PHONES));
        out.push('.');
    }
    if r.pct(2) {
        out.push_str(" Más información en https://www.madrid.es/cultura/agenda/imagen-cartel.jpg y en la web del centro.");
    }
}

fn date_str(d: (i32, u32, u32)) -> String {
    format!("{:04}-{:02}-{:02}", d.0, d.1, d.2)
}

/// Days since 2025-01-01 → (y, m, d), for 2025–2027.
fn civil(mut day: u32) -> (i32, u32, u32) {
    let mut y = 2025;
    loop {
        let len = if y % 4 == 0 { 366 } else { 365 };
        if day < len {
            break;
        }
        day -= len;
        y += 1;
    }
    let feb = if y % 4 == 0 { 29 } else { 28 };
    let months = [31, feb, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut m = 0;
    while day >= months[m] {
        day -= months[m];
        m += 1;
    }
    (y, m as u32 + 1, day + 1)
}

/// Write a feed of `n` events in the real feed's JSON-LD shape; its size in bytes.
pub fn generate(path: &Path, n: usize) -> Result<u64> {
    let file = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let mut r = Rng(0x00C1_7E5B_E4C4_0002);
    let mut rec = String::with_capacity(16 * 1024);
    w.write_all(CONTEXT.as_bytes())?;
    for i in 0..n {
        rec.clear();
        let id = 50_000_000 + i as u64 * 7;
        let title =
            format!("{} {}{}", r.pick(TITLE_A), r.pick(TITLE_B), if r.pct(30) { format!(" ({})", 1 + r.below(30)) } else { String::new() });
        let slug: String = title.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        let kind = *r.pick(KINDS);
        let (venue, street, cp, district, barrio, lat, lon, ent) = *r.pick(VENUES);
        // Start days weighted to the autumn, as in the October 2025 file.
        let start_day = if r.pct(80) { 273 + r.below(70) } else { 240 + r.below(300) } as u32;
        let recurring = r.pct(36);
        let (time, span) = if recurring {
            let span = match r.below(100) {
                0..25 => 1 + r.below(7),
                25..70 => 8 + r.below(24),
                70..87 => 32 + r.below(89),
                _ => 121 + r.below(180),
            };
            (if r.pct(40) { *r.pick(TIMES) } else { "" }, span as u32)
        } else {
            (if r.pct(85) { *r.pick(TIMES) } else { "" }, 0)
        };
        let start = civil(start_day);
        let end = civil(start_day + span);
        let start_time = if time.is_empty() { "00:00" } else { time };
        let end_time = if r.pct(1) { "22:59" } else { "23:59" };

        rec.push_str("\t{\n");
        rec.push_str(&format!("\t\t\"@id\": \"https://datos.madrid.es/egob/catalogo/tipo/evento/{id}-{slug}.json\",\n"));
        if r.pct(90) {
            rec.push_str(&format!("\t\t\"@type\": \"https://datos.madrid.es/egob/kos/actividades/{kind}\",\n"));
        }
        rec.push_str(&format!("\t\t\"id\": \"{id}\",\n\t\t\"title\": \""));
        json_escape(&mut rec, &title);
        rec.push_str("\",\n\t\t\"description\": \"");
        description(&mut r, &mut rec);
        let free = r.pct(74);
        rec.push_str(&format!("\",\n\t\t\"free\": {},\t\t\n\t\t\"price\": \"", free as u8));
        if !free && r.pct(40) {
            rec.push_str(&format!("{} euros", 2 + r.below(30)));
            if r.pct(2) {
                rec.push_str("\n(anticipada)");
            }
        }
        rec.push_str(&format!(
            "\",\n\t\t\"dtstart\": \"{} {start_time}:00.0\",\n\t\t\"dtend\": \"{} {end_time}:00.0\",\n\t\t\"time\": \"{time}\",\n\t\t\"excluded-days\": \"",
            date_str(start),
            date_str(end)
        ));
        if recurring && span > 7 && r.pct(15) {
            for k in 0..1 + r.below(4) {
                let d = civil(start_day + 1 + ((k as u32 * 7 + r.below(5) as u32) % span));
                rec.push_str(&format!("{}/{}/{};", d.2, d.1, d.0));
            }
        }
        rec.push_str("\",\n");
        if recurring {
            rec.push_str(&format!(
                "\t\t\"recurrence\": {{\n\t\t\t\"days\": \"{}\",\n\t\t\t\"frequency\": \"WEEKLY\",\n\t\t\t\"interval\": 1\n\t\t}},\n",
                r.pick(DAY_SETS)
            ));
        }
        if r.pct(31) {
            rec.push_str(&format!("\t\t\"audience\": \"{}\",\n", r.pick(AUDIENCES)));
        }
        let oid = r.next();
        rec.push_str(&format!(
            "\t\t\"uid\": \"{id}\",\n\t\t\"link\": \"http://www.madrid.es/sites/v/index.jsp?vgnextchannel=ca9671ee4a9eb410VgnVCM100000171f5a0aRCRD&vgnextoid={oid:016x}9910VgnVCM100000891ecb1aRCRD\",\n\t\t\"event-location\": \""
        ));
        json_escape(&mut rec, venue);
        if r.below(1000) < 3 {
            rec.push_str(".\nSala 2");
        }
        rec.push_str(&format!(
            "\",\n\t\t\"references\": {{\n\t\t\t\"@id\": \"http://www.madrid.es/sites/v/index.jsp?vgnextchannel=ca9671ee4a9eb410VgnVCM100000171f5a0aRCRD&vgnextoid={:016x}edd371910VgnVCM2000001f4a900aRCRD\"\n\t\t}}",
            r.next()
        ));
        if r.pct(90) {
            let jitter = |r: &mut Rng| (r.unit() - 0.5) * 0.002;
            let (la, lo) = (lat + jitter(&mut r), lon + jitter(&mut r));
            rec.push_str(&format!(
                ",\n\t\t\t\"relation\": {{\n\t\t\t\t\"@id\": \"https://datos.madrid.es/egob/catalogo/tipo/entidadesyorganismos/{ent}-centro.json\"\n\t\t\t}},\n\
                 \t\t\t\t\"address\": {{\n\t\t\t\t\t\"district\": {{\n\t\t\t\t\t\t\"@id\": \"https://datos.madrid.es/egob/kos/Provincia/Madrid/Municipio/Madrid/Distrito/{district}\"\n\t\t\t\t\t}},\n\
                 \t\t\t\t\t\t\"area\": {{\n\t\t\t\t\t\t\t\"@id\": \"https://datos.madrid.es/egob/kos/Provincia/Madrid/Municipio/Madrid/Distrito/{district}/Barrio/{barrio}\",\n\
                 \t\t\t\t\t\t\t\"locality\": \"MADRID\",\t\t\n\t\t\t\t\t\t\t\"postal-code\": \"{cp}\",\n\t\t\t\t\t\t\t\"street-address\": \"{street}\"\n\t\t\t\t\t}}\n\t\t\t\t}},\n\
                 \t\t\t\"location\": {{\n\t\t\t\t\"latitude\": {la},\n\t\t\t\t\"longitude\": {lo}\n\t\t\t}},\t\t \n\
                 \t\t\t\"organization\": {{\n\t\t\t\"organization-name\": \"{venue}\",\n\t\t\t\"accesibility\": \"1\"\n\t\t}}"
            ));
        }
        rec.push_str(if i + 1 < n { "\n\t},\n" } else { "\n\t}\n" });
        w.write_all(rec.as_bytes())?;
    }
    w.write_all(b"\t]\n}\n")?;
    w.flush()?;
    Ok(std::fs::metadata(path)?.len())
}
