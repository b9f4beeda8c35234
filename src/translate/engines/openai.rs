//! An OpenAI-compatible chat-completions server as the engine: llama.cpp's
//! server, Ollama, vLLM or a hosted one, `POST /v1/chat/completions` with a
//! model and two messages, one text per request. The prompt asks for the house
//! style and for kept spans (`<span translate="no">`, as for LibreTranslate) to
//! stay as they are; the answer is checked to be a translation of the one text
//! asked, not chatter: every kept span back, no preamble, no extra paragraphs,
//! a plausible length. A failed check is an error: the text stays pending.
//!
//! Only scrubbed texts leave (P5), with the model's name and, when the
//! operator names one, the API key from an environment variable.
//!
//! Not for: batching (chat endpoints answer one conversation at a time).

use crate::lang::{Lang, SourceLang};
use crate::translate::engines::libretranslate::{from_html, to_html};
use crate::translate::engines::server;
use crate::translate::engines::{Translator, engine_lang, scrubbed};
use anyhow::{Context, Result, anyhow, bail};
use serde_json::json;
use std::time::Duration;

pub struct OpenAiTranslator {
    base_url: String,
    model: String,
    agent: ureq::Agent,
    api_key: Option<String>,
    silence: server::Silence,
}

fn language_name(code: &str) -> &'static str {
    match code {
        "es" => "Spanish",
        "ca" => "Catalan",
        "gl" => "Galician",
        "en" => "British English",
        "fr" => "French",
        "it" => "Italian",
        "pt" => "European Portuguese",
        _ => "the target language",
    }
}

impl OpenAiTranslator {
    pub fn new(base_url: &str, model: &str, api_key: Option<String>, timeout: Duration) -> Result<Self> {
        Ok(OpenAiTranslator {
            base_url: server::base_url(base_url, "openai_url")?,
            model: model.to_string(),
            agent: server::agent(timeout),
            api_key,
            silence: server::Silence::default(),
        })
    }

    fn prompt(src: &str, tgt: &str) -> String {
        format!(
            "You translate event listings for a tourism website from {} into {}. Answer with the translation of the user's text \
             and nothing else: no preamble, no notes, no quotes around it. Keep every <span translate=\"no\" id=\"…\">…</span> \
             element exactly as it is, in place. Keep line breaks. English titles use title case.",
            language_name(src),
            language_name(tgt)
        )
    }

    fn one(&self, src: &str, tgt: &str, text: &str) -> Result<String> {
        let (html, kept) = to_html(text);
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": Self::prompt(src, tgt)},
                {"role": "user", "content": html},
            ],
        });
        let url = format!("{}/v1/chat/completions", self.base_url);
        let post = |body: &serde_json::Value| {
            let mut req = self.agent.post(&url);
            if let Some(key) = &self.api_key {
                req = req.header("Authorization", &format!("Bearer {key}"));
            }
            let resp =
                req.header("Content-Type", "application/json").send(body.to_string().as_bytes()).with_context(|| format!("POST {url}"))?;
            server::json_answer(resp, &format!("POST {url}"))
        };
        let mut probe = body.clone();
        probe["messages"][1]["content"] = json!(server::PROBE);
        let (status, answer) = self.silence.ask(|| post(&body), || post(&probe).map(drop))?;
        if !status.is_success() {
            let said = answer["error"]["message"].as_str().or(answer["error"].as_str());
            bail!("POST {url}: {status}: {}", server::explanation(said, self.api_key.as_deref()));
        }
        let content =
            answer["choices"][0]["message"]["content"].as_str().ok_or_else(|| anyhow!("POST {url}: no choices[0].message.content"))?;
        check_is_translation(&html, content.trim())?;
        from_html(content.trim(), &kept)
    }
}

/// Whether `answer` reads as a translation of `asked` and nothing more.
fn check_is_translation(asked: &str, answer: &str) -> Result<()> {
    let lower = answer.to_lowercase();
    const PREAMBLES: &[&str] = &["here is", "here's", "sure", "translation:", "certainly", "i can", "as an ai", "note:"];
    if answer.is_empty() {
        bail!("the model answered nothing");
    }
    if PREAMBLES.iter().any(|p| lower.starts_with(p)) || lower.contains("\nnote:") {
        bail!("the model answered with chatter, not only a translation");
    }
    let (a, b) = (asked.chars().count().max(1) as f64, answer.chars().count() as f64);
    if b > a * 3.0 + 40.0 || b < a / 3.0 - 10.0 {
        bail!("the answer's length ({b}) is no translation of a text of {a} characters");
    }
    if answer.matches("\n\n").count() > asked.matches("\n\n").count() {
        bail!("the answer has more paragraphs than the text asked");
    }
    Ok(())
}

impl Translator for OpenAiTranslator {
    fn engine_id(&self) -> String {
        format!("openai:{}@{}", self.model, self.base_url)
    }

    fn translate(&mut self, src: &SourceLang, tgt: Lang, texts: &[String]) -> Result<Vec<String>> {
        let (src, tgt) = (src.as_str(), tgt.as_str());
        engine_lang(src)?;
        if src == tgt {
            return Ok(texts.to_vec());
        }
        scrubbed(texts).iter().map(|t| if t.trim().is_empty() { Ok(t.clone()) } else { self.one(src, tgt, t) }).collect()
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
    fn chatter_is_not_a_translation() {
        assert!(check_is_translation("Concierto de jazz", "Jazz Concert").is_ok());
        assert!(check_is_translation("Concierto de jazz", "Sure! Here is the translation: Jazz Concert").is_err());
        assert!(check_is_translation("Concierto", &"Concert ".repeat(40)).is_err());
        assert!(check_is_translation("Uno", "One\n\nNote: literal").is_err());
    }
}
