//! The on-disk artefacts that stages share, read and written here only: each
//! format belongs to no stage, so a stage that writes one and a stage that
//! reads it both depend on this layer, never on each other.
//!
//! * [`inventory`]: the benchmark inventory (`benchmarks-YYYY.json.gz`), and
//!   [`inventory_cache`], its binary cache keyed by content hash;
//! * [`results`]: the reference tool's results files (`results-*.json.gz`);
//! * [`prepared`]: a prepared track (`prepared.json`);
//! * [`generation`]: the generation manifest (`manifest.json`, `runs-manifest.json.gz`);
//! * [`runs_manifest`]: the flat per-run manifest that ingestion reads;
//! * [`core_validation`]: the core-validation manifest (`validation.json`);
//! * [`runtable`], [`verdict`], [`jsonl`]: the run table (`runs.jsonl.gz`),
//!   its records, their validation verdicts and the JSON Lines reader/writer,
//!   and [`table_identity`], the competition it was made under (its header line);
//! * [`answer_line`]: the rule that picks a run's answer from its output;
//! * [`datafile`]: JSON(.gz) data files, written atomically.

pub mod answer_line;
pub mod cache_file;
pub mod core_validation;
pub mod datafile;
pub mod generation;
pub mod inventory;
pub mod inventory_cache;
pub mod jsonl;
pub mod prepared;
pub mod results;
pub mod run_answer;
pub mod runline;
pub mod runs_manifest;
pub mod runtable;
pub mod table_identity;
pub mod verdict;
