//! The interface words a reader sees (labels, licence names, page text), per
//! display language, from Fluent message catalogues.
//!
//! The catalogues are `data/i18n/LANG/DOMAIN.ftl`, built into the binary: a
//! translator edits them and no Rust changes. Every message exists in every
//! language (a test checks it); a message missing at run time falls back to
//! the Spanish catalogue, then to its id, so a gap shows but never panics.
//!
//! Not for: event texts, which the translation pipeline (`translate`) turns
//! into the display languages, nor for the operator's CLI messages.

use crate::lang::Lang;
use std::sync::OnceLock;

use fluent_bundle::FluentResource;
use fluent_bundle::concurrent::FluentBundle;
pub use fluent_bundle::{FluentArgs, FluentValue};

/// The catalogue files, one per (language, domain). A new domain is a new
/// name here and one `.ftl` file per language under `data/i18n/`.
macro_rules! catalogue_files {
    ($($domain:literal),* $(,)?) => {
        &[$(
            ("es", $domain, include_str!(concat!("../data/i18n/es/", $domain, ".ftl"))),
            ("ca", $domain, include_str!(concat!("../data/i18n/ca/", $domain, ".ftl"))),
            ("gl", $domain, include_str!(concat!("../data/i18n/gl/", $domain, ".ftl"))),
            ("en", $domain, include_str!(concat!("../data/i18n/en/", $domain, ".ftl"))),
            ("fr", $domain, include_str!(concat!("../data/i18n/fr/", $domain, ".ftl"))),
            ("it", $domain, include_str!(concat!("../data/i18n/it/", $domain, ".ftl"))),
            ("pt", $domain, include_str!(concat!("../data/i18n/pt/", $domain, ".ftl"))),
        )*]
    };
}

/// (language, domain, Fluent source) of every shipped catalogue file.
pub const FILES: &[(&str, &str, &str)] = catalogue_files!["common", "reader", "report", "sources"];

/// The language whose catalogue answers when another lacks a message.
const FALLBACK: Lang = Lang::Es;

/// One language's messages.
pub struct Catalogue {
    lang: Lang,
    bundle: FluentBundle<FluentResource>,
}

/// The catalogue of `lang`.
pub fn catalogue(lang: Lang) -> &'static Catalogue {
    static ALL: OnceLock<Vec<Catalogue>> = OnceLock::new();
    let all = ALL.get_or_init(|| Lang::ALL.into_iter().map(Catalogue::build).collect());
    all.iter().find(|c| c.lang == lang).expect("every display language has a catalogue")
}

/// The catalogue of a stored language code: a code that is no display
/// language gets the Spanish one.
pub fn catalogue_of(code: &str) -> &'static Catalogue {
    catalogue(Lang::from_code(code).unwrap_or(FALLBACK))
}

impl Catalogue {
    fn build(lang: Lang) -> Catalogue {
        let langid = lang.as_str().parse().expect("a display language is a valid language identifier");
        let mut bundle = FluentBundle::new_concurrent(vec![langid]);
        // Plain text out: no Unicode isolation marks around arguments, which
        // would show as stray characters in a terminal, a CSV or an ICS line.
        bundle.set_use_isolating(false);
        for (file_lang, domain, source) in FILES {
            if *file_lang != lang.as_str() {
                continue;
            }
            let resource = FluentResource::try_new((*source).to_string())
                .unwrap_or_else(|(_, errors)| panic!("data/i18n/{lang}/{domain}.ftl does not parse: {errors:?}"));
            bundle.add_resource(resource).unwrap_or_else(|errors| panic!("data/i18n/{lang}/{domain}.ftl repeats a message: {errors:?}"));
        }
        Catalogue { lang, bundle }
    }

    /// The language this catalogue speaks.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Whether this language's own catalogue has the message (`id` or
    /// `id.attribute`).
    pub fn has(&self, id: &str) -> bool {
        self.pattern(id).is_some()
    }

    /// The message without arguments.
    pub fn text(&self, id: &str) -> String {
        self.format(id, None)
    }

    /// The message with its arguments, each a string or a number.
    pub fn text_with(&self, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(*name, value.clone());
        }
        self.format(id, Some(&fluent_args))
    }

    /// The message `id` (or `id.attribute`) formatted with `args`: this
    /// language's, else Spanish, else the id itself.
    pub fn format(&self, id: &str, args: Option<&FluentArgs>) -> String {
        if self.has(id) || self.lang == FALLBACK {
            return self.format_own(id, args);
        }
        catalogue(FALLBACK).format_own(id, args)
    }

    fn format_own(&self, id: &str, args: Option<&FluentArgs>) -> String {
        let Some(pattern) = self.pattern(id) else {
            return id.to_string();
        };
        let mut errors = Vec::new();
        self.bundle.format_pattern(pattern, args, &mut errors).into_owned()
    }

    fn pattern(&self, id: &str) -> Option<&fluent_syntax::ast::Pattern<&str>> {
        let (message, attribute) = match id.split_once('.') {
            Some((message, attribute)) => (message, Some(attribute)),
            None => (id, None),
        };
        let message = self.bundle.get_message(message)?;
        match attribute {
            Some(attribute) => Some(message.get_attribute(attribute)?.value()),
            None => message.value(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn ids(lang: Lang, domain: &str) -> BTreeSet<String> {
        let (_, _, source) = FILES.iter().find(|(l, d, _)| *l == lang && *d == domain).unwrap();
        let resource = FluentResource::try_new((*source).to_string()).unwrap();
        resource
            .entries()
            .filter_map(|entry| match entry {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_language_has_every_message_of_every_domain() {
        let domains: BTreeSet<&str> = FILES.iter().map(|(_, d, _)| *d).collect();
        for domain in domains {
            let spanish = ids(Lang::Es, domain);
            for lang in Lang::ALL {
                assert_eq!(ids(lang, domain), spanish, "data/i18n/{lang}/{domain}.ftl has other messages than es");
            }
        }
    }

    /// Every variable a select expression of `pattern` reads with a `[one]` variant.
    fn counted_vars<'s>(pattern: &fluent_syntax::ast::Pattern<&'s str>, out: &mut BTreeSet<&'s str>) {
        use fluent_syntax::ast::{Expression, InlineExpression, PatternElement, VariantKey};
        for element in &pattern.elements {
            let PatternElement::Placeable { expression } = element else { continue };
            if let Expression::Select { selector: InlineExpression::VariableReference { id }, variants } = expression {
                if variants.iter().any(|v| matches!(v.key, VariantKey::Identifier { name: "one" })) {
                    out.insert(id.name);
                }
                for v in variants {
                    counted_vars(&v.value, out);
                }
            }
        }
    }

    #[test]
    fn zero_never_reads_as_one_in_any_language() {
        // French and Portuguese put 0 in CLDR's "one": "Un code distinct" for no code.
        for lang in Lang::ALL {
            for (_, domain, source) in FILES.iter().filter(|(l, _, _)| *l == lang.as_str()) {
                let resource = FluentResource::try_new((*source).to_string()).unwrap();
                for entry in resource.entries() {
                    let fluent_syntax::ast::Entry::Message(m) = entry else { continue };
                    let Some(pattern) = &m.value else { continue };
                    let mut vars = BTreeSet::new();
                    counted_vars(pattern, &mut vars);
                    for var in &vars {
                        let said = |n: u64| {
                            let mut args = FluentArgs::new();
                            for other in &vars {
                                args.set(*other, FluentValue::from(2));
                            }
                            args.set(*var, FluentValue::from(n));
                            // Arguments the message reads without counting them.
                            for name in ["host", "cap", "bytes", "min", "delay", "source", "window", "licence", "from", "to", "at"] {
                                if !vars.contains(name) {
                                    args.set(name, FluentValue::from("x"));
                                }
                            }
                            catalogue(lang).format(m.id.name, Some(&args))
                        };
                        assert_ne!(said(0), said(1), "data/i18n/{lang}/{domain}.ftl: {} says the same for 0 and 1 {var}", m.id.name);
                    }
                }
            }
        }
    }

    #[test]
    fn a_message_is_said_in_the_readers_language() {
        assert_eq!(catalogue(Lang::En).text("lang-es"), "Spanish");
        assert_eq!(catalogue(Lang::Fr).text("lang-es"), "espagnol");
        assert_eq!(catalogue(Lang::Es).text("lang-ca"), "catalán");
    }

    #[test]
    fn an_unknown_language_or_message_never_panics() {
        assert_eq!(catalogue_of("xx").lang(), "es");
        assert_eq!(catalogue(Lang::En).text("no-such-message"), "no-such-message");
    }
}
