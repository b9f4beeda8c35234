//! An apertium-apy server as the engine, over HTTP: `POST /translate` with
//! `langpair` and `q`.
//!
//! APy takes one `q` per request, so a batch travels as HTML: each text is a
//! `<p>…</p>`, which APy's HTML deformatter keeps as a format block and ends
//! as a sentence. The answer is cut at those blocks, and a count that does not
//! match is an error, never a shifted translation. Requests stay under
//! [`MAX_QUERY_BYTES`]: APy splits a longer `q` itself (at a space, possibly
//! mid-sentence) and stops after ten pieces, silently dropping the rest; a
//! longer text is split here at whitespace instead.
//!
//! Unknown-word marks are stripped as in the local backend: literal `*`, `#`,
//! `@` and `~` (with the word they start) travel inside HTML comments, which
//! APy passes through, so any bare one in the answer is a mark.
//!
//! Not for: the crawler's polite client. APy is CityVibe's own service, not a
//! source; it still gets CityVibe's one User-Agent (P1) and only scrubbed text.

use crate::lang::{Lang, SourceLang};
use crate::translate::engines::server;
use crate::translate::engines::stream::{self, KEEP_END, KEEP_START};
use crate::translate::engines::{PIVOT, PivotMemo, Translator, engine_codes, engine_lang, route, scrubbed};
use anyhow::{Context, Result, anyhow, bail};
use std::collections::BTreeSet;
use std::time::Duration;

/// APy splits a `q` longer than its pipe buffer (4096 bytes); stay below.
pub const MAX_QUERY_BYTES: usize = 3800;

/// How long one request may take.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

const MARKS: &[char] = &['*', '#', '@', '~'];

pub struct ApyTranslator {
    base_url: String,
    agent: ureq::Agent,
    /// Direct pairs the server offers, in its codes (ISO 639-3): `("spa", "eng")`.
    pairs: BTreeSet<(String, String)>,
    engine_id: String,
    pivot_memo: PivotMemo,
    silence: server::Silence,
}

impl ApyTranslator {
    /// Connects to the APy server at `base_url` (e.g. `http://127.0.0.1:2737`)
    /// and asks it which pairs it offers.
    pub fn new(base_url: &str) -> Result<Self> {
        Self::with_timeout(base_url, DEFAULT_REQUEST_TIMEOUT)
    }

    /// As [`ApyTranslator::new`], with a cap on each request.
    pub fn with_timeout(base_url: &str, timeout: Duration) -> Result<Self> {
        let mut apy = ApyTranslator {
            base_url: server::base_url(base_url, "apy_url")?,
            agent: server::agent(timeout),
            pairs: BTreeSet::new(),
            engine_id: "apertium-apy".to_string(),
            pivot_memo: PivotMemo::default(),
            silence: server::Silence::default(),
        };
        apy.pairs = apy.list_pairs()?;
        Ok(apy)
    }

    /// Names the engine behind the server for cache keys; APy does not say
    /// which Apertium it runs. The default is `apertium-apy`.
    pub fn with_engine_id(mut self, id: impl Into<String>) -> Self {
        self.engine_id = id.into();
        self
    }

    fn list_pairs(&self) -> Result<BTreeSet<(String, String)>> {
        let url = format!("{}/listPairs", self.base_url);
        let resp = self.agent.get(&url).call().with_context(|| format!("GET {url}"))?;
        let (status, json) = server::json_answer(resp, &format!("GET {url}"))?;
        if !status.is_success() {
            bail!("GET {url}: {status}");
        }
        let list = json["responseData"].as_array().ok_or_else(|| anyhow!("{url}: no responseData list"))?;
        Ok(list
            .iter()
            .filter_map(|p| Some((p["sourceLanguage"].as_str()?.to_string(), p["targetLanguage"].as_str()?.to_string())))
            .collect())
    }

    /// The server's langpair for `src` into `tgt` (`spa|eng`), if offered directly.
    fn langpair(&self, src: &str, tgt: &str) -> Option<String> {
        let (s, t) = (engine_codes(src)?[1], engine_codes(tgt)?[1]);
        self.pairs.contains(&(s.to_string(), t.to_string())).then(|| format!("{s}|{t}"))
    }

    fn run(&self, langpair: &str, texts: &[String]) -> Result<Vec<String>> {
        let texts = &scrubbed(texts);
        // Each text: outer whitespace kept aside, the core cut into pieces
        // that fit a request, each piece one <p> block.
        let framed: Vec<stream::Framed> = texts.iter().map(|t| stream::frame(t)).collect();
        let pieces: Vec<Vec<(&str, &str)>> = framed.iter().map(|f| split_long(f.core)).collect();
        let blocks: Vec<String> = pieces.iter().flatten().map(|(p, _)| to_html_block(p)).collect();

        let mut translated: Vec<String> = Vec::with_capacity(blocks.len());
        let mut start = 0;
        while start < blocks.len() {
            let mut end = start + 1;
            let mut size = blocks[start].len();
            while end < blocks.len() && size + blocks[end].len() <= MAX_QUERY_BYTES {
                size += blocks[end].len();
                end += 1;
            }
            let q = blocks[start..end].concat();
            let out = self.request(langpair, &q)?;
            let got = split_blocks(&out).with_context(|| format!("APy {langpair}: texts {start}..{end}"))?;
            if got.len() != end - start {
                bail!("APy {langpair}: sent {} texts, got {} back", end - start, got.len());
            }
            translated.extend(got.into_iter().map(from_html_block));
            start = end;
        }

        let mut translated = translated.into_iter();
        Ok(framed
            .iter()
            .zip(&pieces)
            .map(|(f, pieces)| {
                let mut core = String::new();
                for (_, gap) in pieces {
                    core.push_str(&translated.next().unwrap_or_default());
                    core.push_str(gap);
                }
                format!("{}{core}{}", f.lead, f.trail)
            })
            .collect())
    }

    fn request(&self, langpair: &str, q: &str) -> Result<String> {
        let url = format!("{}/translate", self.base_url);
        // markUnknown=no would strip a `*` with a regex that also eats the
        // literal ones riding in comments; marks are stripped here instead.
        let post = |q: &str| {
            let form = [("langpair", langpair), ("q", q), ("markUnknown", "yes")];
            let resp = self.agent.post(&url).send_form(form).with_context(|| format!("POST {url} ({langpair})"))?;
            server::json_answer(resp, &format!("POST {url} ({langpair})"))
        };
        let (status, json) = self.silence.ask(|| post(q), || post(server::PROBE).map(drop))?;
        match json["responseData"]["translatedText"].as_str() {
            Some(text) if status.is_success() => Ok(text.to_string()),
            _ => {
                let why = server::explanation(json["explanation"].as_str().or(json["message"].as_str()), None);
                bail!("POST {url} ({langpair}): {status}: {why}")
            }
        }
    }
}

impl Translator for ApyTranslator {
    fn engine_id(&self) -> String {
        self.engine_id.clone()
    }

    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> Result<Vec<String>> {
        let (src, tgt) = (src.as_str(), tgt.as_str());
        engine_lang(src)?;
        let Some(route) = route(src, tgt, |s, t| self.langpair(s, t)) else {
            bail!("APy at {} offers no pair for {src}->{tgt}, directly or through {PIVOT}", self.base_url);
        };
        // The memo is lent out while `run` borrows the backend.
        let mut memo = std::mem::take(&mut self.pivot_memo);
        let out = route.follow(src, texts, &mut memo, |pair, texts| self.run(pair, texts));
        self.pivot_memo = memo;
        out
    }

    fn supports(&self, src: &SourceLang, tgt: Lang) -> bool {
        let (src, tgt) = (src.as_str(), tgt.as_str());
        route(src, tgt, |s, t| self.langpair(s, t)).is_some()
    }
}

/// Cuts `core` into pieces that fit one request, at whitespace where it can;
/// each piece comes with the whitespace that followed it.
fn split_long(core: &str) -> Vec<(&str, &str)> {
    // HTML escaping can grow a piece; leave room for it and the <p> tags.
    const LIMIT: usize = MAX_QUERY_BYTES / 2;
    if core.is_empty() {
        return Vec::new();
    }
    let mut pieces = Vec::new();
    let mut rest = core;
    while rest.len() > LIMIT {
        let mut cut = LIMIT;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (head, _) = rest.split_at(cut);
        let piece_end = head.rfind(char::is_whitespace).filter(|&i| i > 0).unwrap_or(cut);
        let piece = &rest[..piece_end];
        let after = &rest[piece_end..];
        let gap_len = after.len() - after.trim_start().len();
        pieces.push((piece, &after[..gap_len]));
        rest = &after[gap_len..];
    }
    if !rest.is_empty() {
        pieces.push((rest, ""));
    }
    pieces
}

fn to_html_block(text: &str) -> String {
    fn escaped(c: char, out: &mut String) {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            // NUL and other controls would upset the engine.
            c if c.is_control() && !c.is_whitespace() => out.push(' '),
            c => out.push(c),
        }
    }
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str("<p>");
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            // A kept span (a name) rides in a comment, which APy passes through.
            KEEP_START => {
                out.push_str("<!--");
                for k in chars.by_ref().take_while(|k| *k != KEEP_END) {
                    escaped(k, &mut out);
                }
                out.push_str("-->");
            }
            KEEP_END => {}
            // A literal mark, with the word it starts (#fiesta, @teatro).
            c if MARKS.contains(&c) => {
                out.push_str("<!--");
                out.push(c);
                while let Some(n) = chars.clone().next().filter(|n| n.is_alphanumeric() || *n == '_') {
                    out.push(n);
                    chars.next();
                }
                out.push_str("-->");
            }
            c => escaped(c, &mut out),
        }
    }
    out.push_str("</p>");
    out
}

/// The contents of the `<p>` blocks of an answer, in order.
fn split_blocks(html: &str) -> Result<Vec<&str>> {
    let mut blocks = Vec::new();
    let mut rest = html.trim();
    while !rest.is_empty() {
        let Some(inner) = rest.strip_prefix("<p>") else {
            bail!("unexpected answer near {:?}", rest.chars().take(40).collect::<String>());
        };
        let end = inner.find("</p>").ok_or_else(|| anyhow!("unclosed block in answer"))?;
        blocks.push(&inner[..end]);
        rest = inner[end + 4..].trim_start();
    }
    Ok(blocks)
}

/// Plain text from one answered block: marks dropped, literal mark
/// characters taken out of their comments, entities decoded.
fn from_html_block(block: &str) -> String {
    let mut out = String::with_capacity(block.len());
    let mut rest = block;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after.find("-->").unwrap_or(after.len());
            out.push_str(&after[..end]);
            rest = after.get(end + 3..).unwrap_or("");
            continue;
        }
        if !MARKS.contains(&c) {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    htmlize::unescape(out.as_str()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_block_round_trip_keeps_literal_marks_and_drops_engine_marks() {
        let block = to_html_block("5 * estrellas & #tag <b>");
        assert_eq!(block, "<p>5 <!--*--> estrellas &amp; <!--#tag--> &lt;b&gt;</p>");
        let answer = "<p>5 <!--*--> stars &amp; <!--#tag--> fare# &lt;b&gt;</p>";
        let blocks = split_blocks(answer).unwrap();
        assert_eq!(from_html_block(blocks[0]), "5 * stars & #tag fare <b>");
    }

    #[test]
    fn kept_span_rides_in_a_comment() {
        let block = to_html_block("en \u{E000}Gloria Fuertes & Cía\u{E001}.");
        assert_eq!(block, "<p>en <!--Gloria Fuertes &amp; Cía-->.</p>");
        assert_eq!(from_html_block("in <!--Gloria Fuertes &amp; Cía-->."), "in Gloria Fuertes & Cía.");
    }

    #[test]
    fn split_blocks_rejects_stray_text() {
        assert!(split_blocks("<p>a</p>b<p>c</p>").is_err());
        assert_eq!(split_blocks("<p>a</p>\n<p></p>").unwrap(), vec!["a", ""]);
    }

    #[test]
    fn split_long_cuts_at_whitespace_and_keeps_the_gaps() {
        let word = "palabra ";
        let text = word.repeat(1000);
        let text = text.trim_end();
        let pieces = split_long(text);
        assert!(pieces.len() > 1);
        let rebuilt: String = pieces.iter().map(|(p, g)| format!("{p}{g}")).collect();
        assert_eq!(rebuilt, text);
        assert!(pieces.iter().all(|(p, _)| p.len() <= MAX_QUERY_BYTES / 2 && !p.ends_with(' ')));
    }
}
