//! All integration tests in one binary: one link of the library instead of
//! one per file (link time dominated the suite). Each file is a module.

#[path = "../common/mod.rs"]
mod common;
#[path = "../golden/check.rs"]
mod golden;

mod adapter_andalucia;
mod adapter_diba;
mod adapter_esmadrid;
mod adapter_gencat;
mod adapter_jcyl;
mod adapter_tools;

mod all_sources;
mod cli_foundation;
mod conformance;
mod crash_safety;
mod esmadrid_realdata;
mod feed_reading;
mod fetch_plan_all;
mod fuzz_drivers;
mod madrid_realdata;
mod no_error_dropped;
mod operator_audit;
mod operator_citation;
mod operator_completions;
mod operator_corrections;
mod operator_day;
mod operator_export;
mod operator_holdings;
mod operator_optout;
mod operator_runs;
mod operator_sources_export;
mod operator_switch;
mod operator_takedown;
mod paged_feeds;
mod polite_books;
mod polite_cli;
mod polite_client;
mod polite_ledger;
mod polite_ledger_faults;
mod polite_one_ledger;
mod polite_promises;
mod privacy_pii_everywhere;
mod privacy_pii_realdata;
mod privacy_takedown;
mod privacy_withdraw_guard;
mod reader_fields;
mod report_pages;
mod report_render;
mod report_shapes;
mod review_pending;
mod run_bounds;
mod safety_engine_answers;
mod safety_operator_input;
mod store_ingest;
mod store_typed_rows;
mod surface_docs;
mod surface_honest;
mod surface_lists;
mod surface_output;
mod surface_run;
mod surface_tools;
mod surface_walk;
mod translate_engine;
mod translate_memory;
mod translate_memory_gaps;
mod translate_memory_lang;
mod translate_names;
mod translate_neural;
mod translate_neural_fallback;
mod translate_neural_poison;
mod translate_pipeline;
mod translate_quality;
mod translate_status;
