//! The fast integration tests: one binary for everything that needs no real
//! BenchExec run (library and CLI tests, golden files, property tests, real
//! solvers called directly). `cargo test --test it`; the BenchExec runs are in
//! `tests/e2e`. Helpers: `tests/support`.

#[path = "../support/mod.rs"]
mod support;

mod archives;
mod benchexec_demo;
mod benchexec_generate;
mod benchmarks_scan;
mod benchmarks_used;
mod cgroup_check;
mod cli_conventions;
mod competition_model;
mod edition_dispatch;
mod editions;
mod editions_rescore;
mod editions_select_2008;
mod editions_select_2008_cli;
mod export_website;
mod fuzz_props;
mod glibc_random;
mod guard;
mod hostile_cli;
mod ingest_anchor;
mod ingest_csv;
mod ingest_fixtures;
mod ingest_hostile;
mod ingest_manifest;
mod ingest_props;
mod ingest_stream;
mod ingest_synth;
mod inventory_cache;
mod json_output;
mod layering;
mod pipeline;
mod prepare;
mod proof_cvc5_summary;
mod proof_exhibition_summary;
mod report;
mod rules_select;
mod rules_text;
mod run_cache;
mod run_local;
mod scoring_golden;
mod scoring_published_cases;
mod scoring_published_cli;
mod scoring_replay;
mod scoring_replay_2023;
mod select_published;
mod select_test_run;
mod selection;
mod slurm;
mod submission_props;
mod submissions_cli;
mod test_solver;
mod typed_errors;
mod validate_cache;
mod validate_cores;
mod validate_models;
mod workspace;
mod workspace_selection;
