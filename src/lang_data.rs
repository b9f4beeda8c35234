//! The files of `data/lang/` (the word lists and small rules of each
//! language), built into the binary as one folder and read once into one
//! typed value per language ([`LangData`], a field per kind of file) and
//! one for the files every language shares ([`Shared`]): the one place
//! every layer reads that knowledge from. A kind of file is a field, so a
//! misspelt kind does not compile; the tests below check that every file of
//! the folder is some field's and every field's file is in the folder.
//! The ingest's description labels (`parse::labels`) read `es/labels.txt`
//! here, below the translation that reads the rest; `translate::lang` holds
//! the files' examples test and the digest a translation's cache key carries.
//!
//! Not for: what the rules mean (their readers), the term base
//! (`translate::prepare::terms`, `data/terms/`) or the message catalogues (`i18n`).

use crate::lang::Lang;
use include_dir::{Dir, include_dir};
use std::sync::LazyLock;

/// The folder `data/lang/`, built in whole: a file added there is read
/// with no Rust line naming it (`build.rs` rebuilds when the folder changes).
static FOLDER: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/lang");

/// The lines of a data file that hold entries, trimmed: neither blank nor a
/// `#` comment. The folder's files and the lists of `data/translate/` and
/// `data/pii/` that are one entry a line read through it.
pub fn entries(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// One file of `data/lang/`: its path there and its data lines (neither
/// blank nor a `#` comment, trimmed). A kind a language has no file of
/// reads as an empty file (a language with no such rule).
#[derive(Debug, Default)]
pub struct DataFile {
    path: String,
    text: Option<&'static str>,
    lines: Vec<&'static str>,
}

impl DataFile {
    fn read(dir: &str, name: &str) -> DataFile {
        let path = if dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") };
        let text = FOLDER.get_file(&path).map(|f| f.contents_utf8().unwrap_or_else(|| panic!("data/lang/{path} is not UTF-8")));
        let lines = entries(text.unwrap_or_default()).collect();
        DataFile { path, text, lines }
    }

    /// Its path under `data/lang/` (`fr/elisions.tsv`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Whether the file is in the folder.
    pub fn exists(&self) -> bool {
        self.text.is_some()
    }

    /// The whole file, comments and all (empty when there is none).
    pub fn text(&self) -> &'static str {
        self.text.unwrap_or_default()
    }

    /// Its data lines.
    pub fn lines(&self) -> &[&'static str] {
        &self.lines
    }

    /// Whether it has no data line.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Whether `word` is a line of the list.
    pub fn has(&self, word: &str) -> bool {
        self.lines.contains(&word)
    }

    /// The tab-separated columns of each line, trimmed.
    pub fn rows(&self) -> impl Iterator<Item = Vec<&'static str>> + '_ {
        self.lines.iter().map(|l| l.split('\t').map(str::trim).collect())
    }
}

/// A typed value of a folder's files: a struct with a field per kind of
/// file, the kinds' file names, and the reading of them.
macro_rules! kinds {
    ($(#[$head:meta])* $name:ident { $( $(#[$doc:meta])* $field:ident: $file:literal, )* }) => {
        $(#[$head])*
        #[derive(Debug, Default)]
        pub struct $name {
            $( $(#[$doc])* pub $field: DataFile, )*
        }

        impl $name {
            /// The file name of each kind, in the order of the fields.
            pub const FILE_NAMES: &'static [&'static str] = &[$($file),*];

            /// The files of `dir` under `data/lang/` (`""`: the folder itself).
            fn read(dir: &str) -> $name {
                $name { $( $field: DataFile::read(dir, $file), )* }
            }

            /// Every kind's file, there or not, in the order of the fields.
            pub fn kinds(&self) -> [&DataFile; $name::FILE_NAMES.len()] {
                [$(&self.$field),*]
            }

            /// The files that are there, in the order of the fields.
            pub fn files(&self) -> impl Iterator<Item = &DataFile> {
                self.kinds().into_iter().filter(|f| f.exists())
            }
        }
    };
}

kinds! {
    /// One language's files, `data/lang/LANG/`.
    LangData {
        /// Spanish: the small words that join the words of a name ("del", "de la").
        connectors: "connectors.txt",
        /// Articles, prepositions and the like: Spanish ones never start a
        /// kept name; a target's go back to lower case mid-sentence.
        function_words: "function-words.txt",
        /// A target's articles that open a name ("Théâtre La Faràndula"):
        /// before a capitalised word they keep their capital.
        name_articles: "name-articles.txt",
        /// Spanish: place names kept as the publisher wrote them.
        gazetteer: "gazetteer.txt",
        /// Spanish: given names, a person's name starts with one.
        given_names: "given-names.txt",
        /// Spanish: the labels a description's parts open with ("Horario:").
        labels: "labels.txt",
        /// Spanish: capitalised words that do not start a name.
        not_name_starts: "not-name-starts.txt",
        /// Spanish: towns whose name is an ordinary word in a dictionary
        /// ("Granada"), a name wherever it is capitalised.
        town_words: "town-words.txt",
        /// Spanish: names that open with an article ("La Casa Encendida").
        article_names: "article-names.tsv",
        /// Spanish: the venue words a kept span may open with, with their gender.
        venue_heads: "venue-heads.tsv",
        /// Originals (Spanish, Catalan): the generic words a public body's
        /// name opens with ("Departament"), which the engine translates.
        body_heads: "body-heads.txt",
        /// Originals (Spanish, Catalan): the adjectives put before their
        /// noun, which at a sentence's start head the kept name after them.
        leading_adjectives: "leading-adjectives.txt",
        /// Spanish: words an engine joins across a kept span's edge.
        joined_across_spans: "joined-across-spans.tsv",
        /// Originals (Catalan "a", Spanish "en"): the word a locative before
        /// the event's kept place is sent as, per target language.
        locatives: "locatives.tsv",
        /// Spanish: the articles right after which a text sent plain keeps
        /// a name the engine knows ("en el Cairo").
        articles_before_names: "articles-before-names.txt",
        /// Spanish: demonstratives and possessives a term is not put in
        /// after, with the target languages whose engine breaks each.
        determiners: "determiners.tsv",
        /// Spanish: a word alone between two kept names that some routes
        /// drop or move, with the target languages that keep the three as one.
        name_joins: "name-joins.tsv",
        /// Set phrases of prices and audiences (`translate::phrases`).
        phrases: "phrases.tsv",
        /// English: words after which a noun is general ("history of the cinema").
        general_after: "general-after.txt",
        /// English: nouns that take no article when general.
        general_nouns: "general-nouns.txt",
        /// English: event nouns a compound is put in front of.
        compound_heads: "compound-heads.txt",
        /// English: performance nouns.
        performer_heads: "performer-heads.txt",
        /// English: the small words of title case.
        small_words: "small-words.txt",
        /// Where an adjective stands.
        word_order: "word-order.txt",
        /// Words an engine gets wrong the same way every time.
        engine_words: "engine-words.tsv",
        /// How edition ordinals are written.
        ordinals: "ordinals.tsv",
        /// How punctuation is set.
        punctuation: "punctuation.tsv",
        /// Preposition + article pairs joined.
        contractions: "contractions.tsv",
        /// Catalan: the contracted prepositions after which Apertium moves a stop.
        contracted_prepositions: "contracted-prepositions.txt",
        /// Words elided before a vowel.
        elisions: "elisions.tsv",
        /// Italian: the forms an article takes before the word it stands
        /// before ("lo spettacolo", "degli alunni").
        article_forms: "article-forms.tsv",
        /// French: words whose h is aspiré.
        h_aspire: "h-aspire.txt",
        /// Places with an established name in the language ("Barcelone").
        exonyms: "exonyms.tsv",
        /// Short words Apertium moves from after a kept span to before it.
        moved_words: "moved-words.txt",
        /// How titles are cased.
        titles: "titles.txt",
        /// Nouns the term base puts in whose gender is not the Spanish
        /// word's, and the forms of the articles.
        genders: "genders.tsv",
        /// French: subject pronouns.
        subject_pronouns: "subject-pronouns.txt",
        /// English: adverbs that stand between a kept name and the verb it
        /// is the subject of ("Pepa Plana always it has claimed").
        adverbs: "adverbs.txt",
        /// English: relative pronouns that stand between a kept name and
        /// the verb it is the subject of ("Madrid that it still conserves").
        relatives: "relatives.txt",
        /// French: a relative Apertium fuses with a subject pronoun it put
        /// in after a kept span ("qu'ils dansent"), and the relative written
        /// once the pronoun goes ("qui").
        elided_relatives: "elided-relatives.tsv",
        /// The pronouns Apertium writes through Catalan for an article it
        /// read as one before a kept span ("celle \[X\]"), with the article.
        span_pronouns: "span-pronouns.tsv",
        /// French: the openings a moved pronoun goes back into.
        pronoun_openings: "pronoun-openings.tsv",
        /// French: the letters of the Roman numerals Apertium writes as a word.
        roman_numerals: "roman-numerals.txt",
        /// Letters inside words Apertium writes wrongly.
        engine_endings: "engine-endings.tsv",
        /// The fields sent to Apertium as they are.
        plain: "plain.txt",
        /// The words of weekly opening hours.
        hours: "hours.tsv",
        /// The month names written in lower case in a date, and what shows one.
        months: "months.tsv",
        /// Dates, ranges of days, hours and prices an engine wrote word for word, as the language writes them.
        dates: "dates.tsv",
    }
}

kinds! {
    /// The files of `data/lang/` itself, every language's.
    Shared {
        /// Garbled forms of an engine's output (`translate::finish::garble`).
        garbled: "garbled.tsv",
        /// The letters a word opens with that a word before it elides before.
        vowels: "vowels.txt",
    }
}

/// How a caller names a language to [`of`]: a [`Lang`], or its code as
/// text (a code that is no display language has no data).
pub trait LangCode {
    fn code(&self) -> &str;
}

impl LangCode for Lang {
    fn code(&self) -> &str {
        self.as_str()
    }
}

impl LangCode for str {
    fn code(&self) -> &str {
        self
    }
}

impl LangCode for String {
    fn code(&self) -> &str {
        self
    }
}

impl<T: LangCode + ?Sized> LangCode for &T {
    fn code(&self) -> &str {
        (**self).code()
    }
}

/// The folder read: each display language's files, in [`Lang::ALL`]'s
/// order, the shared ones, and the empty value of any other code.
struct Folder {
    langs: Vec<LangData>,
    shared: Shared,
    none: LangData,
}

static READ: LazyLock<Folder> = LazyLock::new(|| Folder {
    langs: Lang::ALL.iter().map(|l| LangData::read(l.as_str())).collect(),
    shared: Shared::read(""),
    none: LangData::default(),
});

/// The files of `lang` (all empty for a code that is no display language).
pub fn of(lang: impl LangCode) -> &'static LangData {
    match Lang::ALL.iter().position(|l| l.as_str() == lang.code()) {
        Some(i) => &READ.langs[i],
        None => &READ.none,
    }
}

/// The files every language shares.
pub fn shared() -> &'static Shared {
    &READ.shared
}

/// Every file of the folder, the shared ones first, then each language's.
pub fn files() -> impl Iterator<Item = &'static DataFile> {
    shared().files().chain(READ.langs.iter().flat_map(LangData::files))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every path of the folder, `LANG/NAME` or `NAME`.
    fn folder_paths() -> BTreeSet<String> {
        fn walk(dir: &Dir<'static>, out: &mut BTreeSet<String>) {
            for f in dir.files() {
                out.insert(f.path().to_string_lossy().replace('\\', "/"));
            }
            for d in dir.dirs() {
                walk(d, out);
            }
        }
        let mut out = BTreeSet::new();
        walk(&FOLDER, &mut out);
        out
    }

    /// A file of `data/lang/` that no field reads (a misspelt name, a
    /// language with no code) fails here, as does a field whose file is in
    /// no language's folder: nothing is silently empty.
    #[test]
    fn every_file_of_the_folder_is_a_field_and_every_field_a_file() {
        let read: BTreeSet<String> = files().map(|f| f.path().to_string()).collect();
        let unread: Vec<String> = folder_paths().into_iter().filter(|p| !read.contains(p)).collect();
        assert!(unread.is_empty(), "files of data/lang/ no field of lang_data reads: {unread:?}");
        for (k, name) in LangData::FILE_NAMES.iter().enumerate() {
            assert!(READ.langs.iter().any(|l| l.kinds()[k].exists()), "no language has data/lang/LANG/{name}");
        }
        for f in shared().kinds() {
            assert!(f.exists(), "data/lang/{} is missing", f.path());
        }
        assert_eq!(LangData::FILE_NAMES.iter().collect::<BTreeSet<_>>().len(), LangData::FILE_NAMES.len(), "a kind listed twice");
    }

    #[test]
    fn lists_and_rows_read_as_the_files_say() {
        assert!(of("es").connectors.has("del"));
        assert!(of(Lang::It).contractions.rows().any(|r| r == ["in", "il", "nel"]));
        assert_eq!(of("fr").elisions.path(), "fr/elisions.tsv");
        assert!(of("fr").elisions.lines().iter().all(|l| !l.starts_with('#') && !l.is_empty()));
        // A language with no file of a kind, and a code that is no language, read empty.
        assert!(!of("en").elisions.exists() && of("en").elisions.is_empty());
        assert!(of("xx").connectors.is_empty() && of("xx").files().next().is_none());
        assert!(shared().garbled.exists());
    }
}
