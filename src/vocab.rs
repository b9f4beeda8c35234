//! Typed vocabularies shared by the run, the store and the commands (issue
//! 14 item 3): a source's status in a run, and the translator the operator
//! chose. Each word has one spelling, kept here: the same text is stored in
//! SQLite, written in JSON and read back from sources.toml. Not for the
//! fetch log's outcomes (store/fetchlog.rs) or audit verdicts (audit/).

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};

/// What became of one source in one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceStatus {
    /// Fetched, parsed and stored.
    Ok,
    /// 304, or the same body as last time: nothing to store.
    Unchanged,
    /// The fetch or the parse failed; stored events kept.
    Failed,
    /// The host said no (401/403/451, a rights reservation), or the adapter is
    /// not reviewed (P3): nothing requested or kept.
    Refused,
    /// The feed looked broken (P20): nothing stored from it.
    Anomaly,
    /// Not attempted this run (outside its hours, daily cap, Retry-After).
    Skipped,
    /// Switched off by the operator.
    Disabled,
}

impl SourceStatus {
    pub const ALL: [SourceStatus; 7] = [
        SourceStatus::Ok,
        SourceStatus::Unchanged,
        SourceStatus::Failed,
        SourceStatus::Refused,
        SourceStatus::Anomaly,
        SourceStatus::Skipped,
        SourceStatus::Disabled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SourceStatus::Ok => "ok",
            SourceStatus::Unchanged => "unchanged",
            SourceStatus::Failed => "failed",
            SourceStatus::Refused => "refused",
            SourceStatus::Anomaly => "anomaly",
            SourceStatus::Skipped => "skipped",
            SourceStatus::Disabled => "disabled",
        }
    }

    /// A problem the operator must see: exit 1 and one stderr line.
    pub fn is_problem(self) -> bool {
        matches!(self, SourceStatus::Failed | SourceStatus::Refused | SourceStatus::Anomaly)
    }

    /// The source's data is current after this run.
    pub fn is_success(self) -> bool {
        matches!(self, SourceStatus::Ok | SourceStatus::Unchanged)
    }

    /// The host was not reached because of us (switched off, outside hours…).
    pub fn is_not_attempted(self) -> bool {
        matches!(self, SourceStatus::Skipped | SourceStatus::Disabled)
    }
}

impl std::fmt::Display for SourceStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `report.status == "ok"` reads as the stored word does.
impl PartialEq<&str> for SourceStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::str::FromStr for SourceStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SourceStatus::ALL.into_iter().find(|v| v.as_str() == s).ok_or_else(|| format!("unknown source status {s:?}"))
    }
}

impl ToSql for SourceStatus {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for SourceStatus {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        value.as_str()?.parse().map_err(|e: String| FromSqlError::Other(e.into()))
    }
}

/// The translation engine `[settings] translator` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Translator {
    /// The local `apertium` command (the default).
    #[default]
    Apertium,
    /// An Apertium APy server at `apy_url`.
    Apy,
    /// A LibreTranslate server at `libretranslate_url`.
    Libretranslate,
    /// An OpenAI-compatible chat-completions server at `openai_url`.
    Openai,
    /// No machine translation: originals and publishers' own translations only.
    None,
}

impl Translator {
    pub fn as_str(self) -> &'static str {
        match self {
            Translator::Apertium => "apertium",
            Translator::Apy => "apy",
            Translator::Libretranslate => "libretranslate",
            Translator::Openai => "openai",
            Translator::None => "none",
        }
    }
}

impl std::fmt::Display for Translator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_for_sql_json_and_text() {
        for s in SourceStatus::ALL {
            assert_eq!(s.as_str().parse::<SourceStatus>(), Ok(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(serde_json::to_value(Translator::Apy).unwrap(), "apy");
        assert!(toml::from_str::<std::collections::HashMap<String, Translator>>("t = \"deepl\"").is_err());
    }
}
