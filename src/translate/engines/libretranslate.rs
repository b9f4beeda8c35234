//! A LibreTranslate server as the engine: `POST /translate` with a JSON body
//! `{q: [texts], source, target, format: "html"}`, as its API documents. A
//! neural engine honours no stream markup, so a kept span (a name, a term
//! already in the target language) travels as `<span translate="no"
//! id="kN">…</span>` and is put back byte for byte from our own copy; an answer
//! that lost one is an error (the texts stay pending), never a translated name.
//! In a batch, each text also carries a mark of its place (`<span
//! translate="no" id="iN">`): an answer that comes back in another text's
//! place, or without its mark, fails the batch, whose texts are then sent one
//! by one. A tag the engine made fails its answer too; what the answer says is
//! then checked as every engine's is (`answer`).
//!
//! Only scrubbed texts leave (P5), with the language pair and, when the
//! operator names one, the API key read from an environment variable.
//!
//! Not for: Apertium framing (`stream`, `apy`).

use crate::lang::{Lang, SourceLang};
use crate::translate::engines::server;
use crate::translate::engines::stream::{KEEP_END, KEEP_START};
use crate::translate::engines::{Translator, engine_lang, scrubbed};
use anyhow::{Context, Result, anyhow, bail};
use regex::Regex;
use serde_json::json;
use std::sync::LazyLock;
use std::time::Duration;

pub struct LibreTranslator {
    base_url: String,
    agent: ureq::Agent,
    api_key: Option<String>,
    engine_id: String,
    silence: server::Silence,
}

impl LibreTranslator {
    /// A client for the server at `base_url`; `api_key` as the server asks.
    pub fn new(base_url: &str, api_key: Option<String>, timeout: Duration) -> Result<Self> {
        let base_url = server::base_url(base_url, "libretranslate_url")?;
        Ok(LibreTranslator {
            engine_id: format!("libretranslate@{base_url}"),
            base_url,
            agent: server::agent(timeout),
            api_key,
            silence: server::Silence::default(),
        })
    }
}

/// A text as HTML, kept spans as untranslatable spans; the spans, in order.
pub(crate) fn to_html(text: &str) -> (String, Vec<String>) {
    let mut out = String::with_capacity(text.len() + 16);
    let mut kept = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            KEEP_START => {
                let span: String = chars.by_ref().take_while(|k| *k != KEEP_END).collect();
                out.push_str(&format!("<span translate=\"no\" id=\"k{}\">{}</span>", kept.len(), escape(&span)));
                kept.push(span);
            }
            KEEP_END => {}
            c => out.push_str(&escape(&c.to_string())),
        }
    }
    (out, kept)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The answer back as plain text, each kept span put back from `kept`.
pub(crate) fn from_html(html: &str, kept: &[String]) -> Result<String> {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut seen = vec![false; kept.len()];
    // Every `<` of the text went as `&lt;`: a bare one outside our spans is
    // markup the engine made, not ours to publish.
    let text = |segment: &str| -> Result<String> {
        if segment.contains('<') {
            bail!("the answer holds markup the text lacks");
        }
        Ok(htmlize::unescape(segment).into_owned())
    };
    while let Some(at) = rest.find("<span") {
        out.push_str(&text(&rest[..at])?);
        let tag_end = rest[at..].find('>').map(|i| at + i + 1).ok_or_else(|| anyhow!("unclosed tag in the answer"))?;
        let tag = &rest[at..tag_end];
        let close = rest[tag_end..].find("</span>").map(|i| tag_end + i).ok_or_else(|| anyhow!("unclosed span in the answer"))?;
        let n = tag.split("id=\"k").nth(1).and_then(|s| s.split('"').next()).and_then(|s| s.parse::<usize>().ok());
        match n.filter(|&n| n < kept.len()) {
            Some(n) => {
                out.push_str(&kept[n]);
                seen[n] = true;
            }
            None => out.push_str(&htmlize::unescape(&rest[tag_end..close])),
        }
        rest = &rest[close + "</span>".len()..];
    }
    out.push_str(&text(rest)?);
    if let Some(n) = seen.iter().position(|s| !s) {
        bail!("the answer lost a kept span ({:?})", kept[n]);
    }
    Ok(out)
}

/// The mark that goes before text `n` of a batch, so that an answer put against
/// another text is seen: a server that shifts its answers by one, with the
/// right count, would otherwise store each translation against the wrong event.
fn item_mark(n: usize) -> String {
    format!("<span translate=\"no\" id=\"i{n}\">{n}</span>")
}

static ITEM_MARK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"<span[^<>]*\bid="i([0-9]+)"[^<>]*>[^<]*</span>\s*"#).expect("item mark regex"));

/// Answer `n` of a batch without its mark, if it carries the mark of text
/// `n` and no other.
fn unmarked(answer: &str, n: usize) -> Result<String> {
    let marks: Vec<_> = ITEM_MARK.captures_iter(answer).collect();
    match marks.as_slice() {
        [one] if one[1].parse::<usize>().ok() == Some(n) => Ok(ITEM_MARK.replace(answer, "").into_owned()),
        [one] => bail!("answer {} came back in the place of text {}: the server's answers are out of order", &one[1], n),
        _ => bail!("answer {n} lost the mark of its text (or has several): it cannot be told whose it is"),
    }
}

impl Translator for LibreTranslator {
    fn engine_id(&self) -> String {
        self.engine_id.clone()
    }

    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> Result<Vec<String>> {
        let (src, tgt) = (src.as_str(), tgt.as_str());
        engine_lang(src)?;
        if src == tgt || texts.is_empty() {
            return Ok(texts.to_vec());
        }
        let texts = scrubbed(texts);
        let (mut html, kept): (Vec<String>, Vec<Vec<String>>) = texts.iter().map(|t| to_html(t)).unzip();
        let marked = texts.len() > 1;
        if marked {
            for (n, h) in html.iter_mut().enumerate() {
                h.insert_str(0, &item_mark(n));
            }
        }
        let mut body = json!({"q": html, "source": src, "target": tgt, "format": "html"});
        if let Some(key) = &self.api_key {
            body["api_key"] = json!(key);
        }
        let url = format!("{}/translate", self.base_url);
        let post = |body: &serde_json::Value| {
            let resp = self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.to_string().as_bytes())
                .with_context(|| format!("POST {url} ({src}->{tgt})"))?;
            server::json_answer(resp, &format!("POST {url}"))
        };
        let mut probe = body.clone();
        probe["q"] = json!([server::PROBE]);
        let (status, answer) = self.silence.ask(|| post(&body), || post(&probe).map(drop))?;
        if !status.is_success() {
            bail!("POST {url} ({src}->{tgt}): {status}: {}", server::explanation(answer["error"].as_str(), self.api_key.as_deref()));
        }
        let list = answer["translatedText"].as_array().ok_or_else(|| anyhow!("POST {url}: no translatedText list"))?;
        if list.len() != texts.len() {
            bail!("POST {url}: sent {} texts, got {} back", texts.len(), list.len());
        }
        let answer = |n: usize, t: &serde_json::Value| -> Result<String> {
            let t = t.as_str().unwrap_or_default();
            if marked { from_html(&unmarked(t, n)?, &kept[n]) } else { from_html(t, &kept[n]) }
        };
        list.iter().enumerate().map(|(n, t)| answer(n, t)).collect()
    }

    fn supports(&self, src: &SourceLang, _tgt: Lang) -> bool {
        // Every target is a `Lang`, which the engine knows.
        engine_lang(src.as_str()).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_spans_ride_as_untranslatable_spans_and_come_back_byte_for_byte() {
        let (html, kept) = to_html("Cine de \u{E000}Eloy de la Iglesia\u{E001} & más <b>");
        assert_eq!(html, "Cine de <span translate=\"no\" id=\"k0\">Eloy de la Iglesia</span> &amp; más &lt;b&gt;");
        let back = from_html("Films by <span translate=\"no\" id=\"k0\">Eloy of the Church</span> &amp; more", &kept).unwrap();
        assert_eq!(back, "Films by Eloy de la Iglesia & more");
        assert!(from_html("Films by Eloy of the Church", &kept).is_err());
        assert!(from_html("<b>Films</b> by <span translate=\"no\" id=\"k0\">x</span>", &kept).is_err());
    }

    #[test]
    fn an_answer_in_the_wrong_place_is_seen() {
        let mark = |n: usize, s: &str| format!("{}{s}", item_mark(n));
        assert_eq!(unmarked(&mark(1, "Concert"), 1).unwrap(), "Concert");
        assert!(unmarked(&mark(0, "Concert"), 1).is_err());
        assert!(unmarked("Concert", 1).is_err());
    }
}
