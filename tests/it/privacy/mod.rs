//! The privacy wing (P5, P18): no contact data reaches the database, a log, an
//! export, a page or an engine, in any form, from a feed or from what an operator
//! hands in; takedown ids. Not the engines' answers (translation/answers_checked).

mod error_messages;
mod operator_input;
mod pii_disguised;
mod pii_everywhere;
pub(crate) mod pii_forms;
mod pii_realdata;
mod takedown;
