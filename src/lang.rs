//! The seven display languages, one type: the code each is written with
//! (ISO 639-1: in sources.toml, `--lang`, the database and every export),
//! Apertium's names for it and its own name. `--lang` parses to it (clap's
//! `ValueEnum`), `[settings] languages` and a PO or XLIFF file's language are
//! read into it, and the translation, the model's labels, the store's view,
//! the exports, the report and the catalogues take it; a code is text only
//! where it is read or written (the database, a config, a feed, an engine's
//! mode). A language is added in one place.
//!
//! A source's language, [`SourceLang`], admits any code a feed gives
//! (Basque `eu`) and names the seven.
//!
//! Not for the words shown in a language (`i18n`, `data/i18n/`) nor for
//! which pairs an engine can translate (`translate::engines`).

use std::fmt;
use std::str::FromStr;

/// A display language. Its variants (and [`Lang::ALL`]) stand in CityVibe's
/// order of preference; languages compare as their codes do, so a map or a
/// sort keyed by language keeps the order it had when keyed by code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Lang {
    Es,
    Ca,
    Gl,
    En,
    Fr,
    It,
    Pt,
}

impl Lang {
    /// Every display language, in order of preference.
    pub const ALL: [Lang; 7] = [Lang::Es, Lang::Ca, Lang::Gl, Lang::En, Lang::Fr, Lang::It, Lang::Pt];

    /// Their codes, in the same order (what `&str` code compares with).
    pub const CODES: [&'static str; 7] = {
        let mut codes = [""; 7];
        let mut i = 0;
        while i < Lang::ALL.len() {
            codes[i] = Lang::ALL[i].as_str();
            i += 1;
        }
        codes
    };

    /// Its place in [`Lang::ALL`]: where a table read once per language
    /// keeps its value.
    pub fn index(self) -> usize {
        Lang::ALL.iter().position(|&l| l == self).expect("every language is in Lang::ALL")
    }

    /// The code it is stored and written with: `es`, `ca`, …
    pub const fn as_str(self) -> &'static str {
        match self {
            Lang::Es => "es",
            Lang::Ca => "ca",
            Lang::Gl => "gl",
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::It => "it",
            Lang::Pt => "pt",
        }
    }

    /// Apertium's names for it, most specific first: Debian's packages name
    /// some modes with ISO 639-1 codes (`es-gl`) and others with ISO 639-3
    /// (`spa-cat`).
    pub const fn apertium_codes(self) -> [&'static str; 2] {
        match self {
            Lang::Es => ["es", "spa"],
            Lang::Ca => ["ca", "cat"],
            Lang::Gl => ["gl", "glg"],
            Lang::En => ["en", "eng"],
            Lang::Fr => ["fr", "fra"],
            Lang::It => ["it", "ita"],
            Lang::Pt => ["pt", "por"],
        }
    }

    /// Its name in itself, as a language switcher shows it.
    pub const fn name(self) -> &'static str {
        match self {
            Lang::Es => "español",
            Lang::Ca => "català",
            Lang::Gl => "galego",
            Lang::En => "English",
            Lang::Fr => "français",
            Lang::It => "italiano",
            Lang::Pt => "português",
        }
    }

    /// The display language with this code, if it is one.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.as_str() == code)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Ord for Lang {
    fn cmp(&self, other: &Lang) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Lang {
    fn partial_cmp(&self, other: &Lang) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A language is its code where a stored or written code meets it
/// (`lang == "fr"`, `e.lang == lang`).
impl PartialEq<&str> for Lang {
    fn eq(&self, code: &&str) -> bool {
        self.as_str() == *code
    }
}

impl PartialEq<str> for Lang {
    fn eq(&self, code: &str) -> bool {
        self.as_str() == code
    }
}

impl PartialEq<String> for Lang {
    fn eq(&self, code: &String) -> bool {
        self.as_str() == code
    }
}

impl PartialEq<Lang> for String {
    fn eq(&self, lang: &Lang) -> bool {
        self == lang.as_str()
    }
}

impl PartialEq<Lang> for &str {
    fn eq(&self, lang: &Lang) -> bool {
        *self == lang.as_str()
    }
}

/// The languages a feed's originals may be written in that are no display
/// language: CityVibe translates from them (through `data/translate/routes.tsv`)
/// but never into them. Each with Apertium's names for it, most specific first.
pub const ORIGINAL_ONLY: &[(&str, [&str; 2])] = &[("eu", ["eu", "eus"])];

/// Apertium's names for an original language's code: a display language's
/// ([`Lang::apertium_codes`]) or one of [`ORIGINAL_ONLY`].
pub fn apertium_codes_of(code: &str) -> Option<[&'static str; 2]> {
    Lang::from_code(code).map(Lang::apertium_codes).or_else(|| ORIGINAL_ONLY.iter().find(|o| o.0 == code).map(|o| o.1))
}

/// The language a source's originals are written in: any code a feed or
/// its adapter gives (Basque `eu`, which CityVibe translates from but never
/// into), the seven display languages named. It is its code where it is
/// read or written (the database, an export, a cache key), and orders as
/// its code does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SourceLang(Code);

/// A display language, or any other code as written (never one of the
/// seven's: [`SourceLang::new`] names those).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Code {
    Display(Lang),
    Other(Box<str>),
}

impl SourceLang {
    /// The source language written `code`, a display language's named.
    pub fn new(code: &str) -> SourceLang {
        SourceLang(Lang::from_code(code).map_or_else(|| Code::Other(code.into()), Code::Display))
    }

    /// The code it is stored and written with: `es`, `eu`, …
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Code::Display(lang) => lang.as_str(),
            Code::Other(code) => code,
        }
    }

    /// The display language it is, if it is one.
    pub fn lang(&self) -> Option<Lang> {
        match self.0 {
            Code::Display(lang) => Some(lang),
            Code::Other(_) => None,
        }
    }

    /// Apertium's names for it ([`apertium_codes_of`]).
    pub fn apertium_codes(&self) -> Option<[&'static str; 2]> {
        apertium_codes_of(self.as_str())
    }
}

impl From<&str> for SourceLang {
    fn from(code: &str) -> SourceLang {
        SourceLang::new(code)
    }
}

impl From<Lang> for SourceLang {
    fn from(lang: Lang) -> SourceLang {
        SourceLang(Code::Display(lang))
    }
}

impl fmt::Display for SourceLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Ord for SourceLang {
    fn cmp(&self, other: &SourceLang) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for SourceLang {
    fn partial_cmp(&self, other: &SourceLang) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A source language is its code where a stored or written code meets it.
impl PartialEq<&str> for SourceLang {
    fn eq(&self, code: &&str) -> bool {
        self.as_str() == *code
    }
}

impl PartialEq<str> for SourceLang {
    fn eq(&self, code: &str) -> bool {
        self.as_str() == code
    }
}

impl PartialEq<Lang> for SourceLang {
    fn eq(&self, lang: &Lang) -> bool {
        self.lang() == Some(*lang)
    }
}

impl PartialEq<SourceLang> for Lang {
    fn eq(&self, src: &SourceLang) -> bool {
        src == self
    }
}

impl serde::Serialize for SourceLang {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for SourceLang {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SourceLang, D::Error> {
        Ok(SourceLang::new(&String::deserialize(d)?))
    }
}

impl rusqlite::ToSql for SourceLang {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
}

impl rusqlite::types::FromSql for SourceLang {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<SourceLang> {
        value.as_str().map(SourceLang::new)
    }
}

impl FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        Lang::from_code(s).ok_or_else(|| format!("{s:?} is not a display language (use one of {})", Lang::CODES.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// The codes every stored row, config and export has always used read
    /// back as their language, in the order they were listed in.
    #[test]
    fn the_seven_codes_read_back_in_their_order() {
        assert_eq!(Lang::CODES, ["es", "ca", "gl", "en", "fr", "it", "pt"]);
        for (code, lang) in Lang::CODES.into_iter().zip(Lang::ALL) {
            assert_eq!(code.parse::<Lang>(), Ok(lang));
            assert_eq!(lang.to_string(), code);
            // clap's spelling of `--lang` values is the stored code.
            assert_eq!(<Lang as ValueEnum>::from_str(code, false), Ok(lang), "{code}");
            assert_eq!(lang.to_possible_value().unwrap().get_name(), code);
            assert_eq!(lang.apertium_codes()[0], code);
        }
        assert_eq!(Lang::value_variants(), Lang::ALL);
        // Equal to its code, and to no other, either way round.
        let (code, stored) = ("fr", String::from("fr"));
        assert_eq!(Lang::Fr, code);
        assert_eq!(code, Lang::Fr);
        assert_eq!(Lang::Fr, stored);
        assert_eq!(stored, Lang::Fr);
        for other in ["fra", "FR", "ca"] {
            assert_ne!(Lang::Fr, other);
            assert_ne!(other, Lang::Fr);
        }
        // Ordered as the codes are.
        let mut sorted = Lang::ALL;
        sorted.sort();
        assert_eq!(sorted.map(Lang::as_str), ["ca", "en", "es", "fr", "gl", "it", "pt"]);
        for bad in ["", "de", "ES", "es-ES", "spa"] {
            assert!(bad.parse::<Lang>().is_err(), "{bad:?}");
        }
    }

    /// A source's language admits any code a feed gives and names the
    /// seven; it is written, stored and ordered as its code, as the
    /// `String` it replaced was.
    #[test]
    fn a_source_language_is_any_code_and_names_the_seven() {
        for (code, lang) in Lang::CODES.into_iter().zip(Lang::ALL) {
            let src = SourceLang::new(code);
            assert_eq!((src.lang(), src.as_str(), src.to_string()), (Some(lang), code, code.to_string()));
            assert_eq!(src, SourceLang::from(lang));
            assert_eq!(src, lang);
            assert_eq!(src.apertium_codes(), Some(lang.apertium_codes()));
        }
        let basque = SourceLang::new("eu");
        assert_eq!((basque.lang(), basque.as_str(), basque.apertium_codes()), (None, "eu", Some(["eu", "eus"])));
        assert_eq!(basque, "eu");
        for odd in ["", "de", "ES"] {
            assert_eq!((SourceLang::new(odd).as_str(), SourceLang::new(odd).lang()), (odd, None));
        }
        let mut sorted: Vec<SourceLang> = ["pt", "eu", "es", "ca", "gl"].map(SourceLang::new).into();
        sorted.sort();
        assert_eq!(sorted.iter().map(SourceLang::as_str).collect::<Vec<_>>(), ["ca", "es", "eu", "gl", "pt"]);
        assert_eq!(serde_json::to_string(&basque).unwrap(), "\"eu\"");
        assert_eq!(serde_json::from_str::<SourceLang>("\"es\"").unwrap(), Lang::Es);
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let back: SourceLang = conn.query_row("SELECT ?1", [&basque], |r| r.get(0)).unwrap();
        assert_eq!(back, basque);
        let stored: String = conn.query_row("SELECT ?1", [SourceLang::from(Lang::Ca)], |r| r.get(0)).unwrap();
        assert_eq!(stored, "ca");
    }
}
