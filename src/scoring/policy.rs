//! Scoring policies: the 2025 rules (the default) and `published-2025`, which
//! reproduces what the organizers' tool published. Every difference is one named
//! switch; [`SWITCHES`] documents each (and `docs/scoring.md` maps them to the
//! anchor specification's deviations, section 6.9, and page quirks, section 9.2).

use serde::Serialize;

/// How teams (for competitive divisions) are decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TeamRule {
    /// Rules section 6: teams from the submissions (a team is a submission's
    /// author set; a derived solver is never in its base solver's team); only
    /// competitive (author-submitted) solvers count.
    Submissions,
    /// Reference tool: `name.split("-")[0].lower()` over every solver with rows,
    /// competitive or not.
    NamePrefix,
}

/// A scoring policy: one field per switch (`true` = the reference tool's behaviour).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Policy {
    /// Policy name.
    pub name: String,
    /// Wrong answers keep their time scores (rules 7.1: w = c = 0 when e = 1). Dev. 1.
    pub wrong_answer_keeps_time: bool,
    /// Sequential ranking tie-breaks on wall time before CPU time (rules 7.2.2: CPU). Dev. 2.
    pub seq_ties_on_wall: bool,
    /// Teams by name prefix over all solvers (rules 6: submissions, competitive only). Dev. 6.
    pub name_prefix_teams: bool,
    /// Best overall, biggest lead and largest contribution include non-competitive
    /// solvers and divisions (rules 7.3: competitive only). Dev. 7.
    pub recognitions_include_non_competitive: bool,
    /// Largest contribution: the reference tool's VBS (empty-set time 0, rows of
    /// every solver with a correct answer, ratio of correct rows, skip when fewer than
    /// 3 solvers have correct answers) instead of rules 7.3.3 (1200 s default,
    /// competitive sound solvers, competitive solver/benchmark pairs). Dev. 7.
    pub anchor_largest_contribution: bool,
    /// An incremental error keeps n (rules 7.1.3: n = 0 when e = 1). Dev. 9.
    pub incremental_error_keeps_n: bool,
    /// Incremental time scores are the run's times even without any answer (rules
    /// 7.1: time until the last sat/unsat; 0 if none). Page quirk 6.3.
    pub incremental_time_always: bool,
    /// A timeout that carried an answer counts as a timeout (rules 7.1.2: the answer
    /// counts). Dev. 11.
    pub timeout_discards_answer: bool,
    /// A memory kill that carried an answer counts as a memout (2025 and 2023
    /// rules 7.1.2: a response counts "even when the solver process terminates
    /// abnormally"; 2015: if it terminated within the time limit). The
    /// organizers' tool maps BenchExec's `OUT OF MEMORY (…)` to OutOfMemory
    /// whatever the answer inside (anchor 4.1 table). 2008 rules: an abort
    /// "due to exhausting memory" scores as unknown.
    pub memout_discards_answer: bool,
    /// Status of unknown-status benchmarks is taken from sound solvers' answers, so
    /// an unsound solver contradicting them gets an error (rules 7.1.2 footnote 4:
    /// the answer is treated as correct). Anchor 6.2.
    pub unknown_status_from_sound_solvers: bool,
    /// The 24-second kind drops runs longer than 24 s (they become "abstained")
    /// instead of scoring them with T = 24 s (rules 7.2.3). Quirk 9.2 / 6.4.
    pub twentyfour_filters_rows: bool,
    /// Abstained = files of the group minus the solver's rows after the kind filter
    /// (so it includes other-status files in the sat/unsat kinds); solvers without
    /// rows vanish from a table. Rules: abstained = benchmarks of the kind in logics
    /// the solver did not enter. Quirk 6.5.
    pub abstained_total_minus_rows: bool,
    /// Sequential tables keep the solved/unsolved counters of the parallel run (not
    /// zeroed over the virtual CPU limit). Quirk 6.4.
    pub seq_counters_not_zeroed: bool,
    /// Kinds computed for every track (sat, unsat and 24 s for Incremental and
    /// Parallel; sequential for Incremental) instead of only those of rules 7.2.
    pub all_kinds_every_track: bool,
    /// Winners are also named in non-competitive divisions (rules 6: not run, no winner).
    pub winners_in_non_competitive: bool,
    /// An answer whose wall time is above the limit T keeps its time scores when
    /// BenchExec did not flag a timeout (rules 7.1: only a benchmark solved within
    /// T has time scores, so w = c = 0). Observed in the published pages.
    pub over_limit_answer_keeps_time: bool,
    /// The sat/unsat kinds take the track's status for every benchmark: every
    /// Unsat-Core benchmark is unsat and every Model-Validation benchmark is sat
    /// (rules 7.2.4/7.2.5: the benchmark's status). Anchor 6.2.
    pub track_status_for_uc_mv: bool,
    /// A returned core larger than the benchmark's assertion count gives a
    /// negative reduction n = N - core size (rules 7.1.4: the reduction, never
    /// below 0). Observed in the published pages (anchor 6.3).
    pub negative_core_reduction: bool,
}

/// Metadata of one switch: name, what it does, reference.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SwitchInfo {
    /// Field name in [`Policy`].
    pub name: &'static str,
    /// What the reference tool does when the switch is on.
    pub what: &'static str,
    /// Anchor spec reference (deviation number or section).
    pub reference: &'static str,
}

/// Every switch, in documentation order.
pub const SWITCHES: [SwitchInfo; 18] = [
    SwitchInfo {
        name: "wrong_answer_keeps_time",
        what: "wrong answers keep their CPU/wall time scores",
        reference: "6.9 #1",
    },
    SwitchInfo {
        name: "seq_ties_on_wall",
        what: "sequential ranking breaks ties on wall time before CPU time",
        reference: "6.9 #2",
    },
    SwitchInfo {
        name: "name_prefix_teams",
        what: "competitive division = 2 name prefixes among all solvers",
        reference: "6.9 #6",
    },
    SwitchInfo {
        name: "recognitions_include_non_competitive",
        what: "best overall / biggest lead include non-competitive solvers and divisions",
        reference: "6.9 #7",
    },
    SwitchInfo {
        name: "anchor_largest_contribution",
        what: "largest contribution as the reference tool computes it (VBS empty set = 0, ratio of correct rows, all solvers)",
        reference: "6.9 #7, 6.8",
    },
    SwitchInfo {
        name: "incremental_error_keeps_n",
        what: "an incremental error does not zero n",
        reference: "6.9 #9",
    },
    SwitchInfo {
        name: "incremental_time_always",
        what: "incremental time scores = run times even without answers",
        reference: "6.3",
    },
    SwitchInfo {
        name: "timeout_discards_answer",
        what: "a timeout that carried an answer counts as a timeout",
        reference: "6.9 #11",
    },
    SwitchInfo {
        name: "memout_discards_answer",
        what: "a memout that carried an answer counts as a memout",
        reference: "4.1",
    },
    SwitchInfo {
        name: "unknown_status_from_sound_solvers",
        what: "unknown status resolved by sound solvers; contradicting it is an error",
        reference: "6.2",
    },
    SwitchInfo {
        name: "twentyfour_filters_rows",
        what: "24 s kind drops runs over 24 s (abstained) instead of scoring them 0",
        reference: "6.4, 9.2",
    },
    SwitchInfo {
        name: "abstained_total_minus_rows",
        what: "abstained = group files - rows after the kind filter; solvers without rows vanish",
        reference: "6.5",
    },
    SwitchInfo {
        name: "seq_counters_not_zeroed",
        what: "sequential solved/unsolved counters not zeroed over the CPU limit",
        reference: "6.4",
    },
    SwitchInfo {
        name: "all_kinds_every_track",
        what: "sat/unsat/24 s kinds for Incremental and Parallel, sequential for Incremental",
        reference: "6.4, 9.1",
    },
    SwitchInfo {
        name: "winners_in_non_competitive",
        what: "winners named in non-competitive divisions",
        reference: "6.5",
    },
    SwitchInfo {
        name: "over_limit_answer_keeps_time",
        what: "an answer after the time limit (wall > T, no timeout flagged) keeps its time scores",
        reference: "rules 7.1 (w, c only within T)",
    },
    SwitchInfo {
        name: "track_status_for_uc_mv",
        what: "sat/unsat kinds: every Unsat-Core benchmark is unsat, every Model-Validation benchmark sat",
        reference: "6.2",
    },
    SwitchInfo {
        name: "negative_core_reduction",
        what: "a core larger than the assertion count gives a negative reduction (not clamped at 0)",
        reference: "6.3",
    },
];

impl Policy {
    /// The 2025 rules (the default).
    pub fn rules() -> Policy {
        Policy {
            name: "rules".into(),
            wrong_answer_keeps_time: false,
            seq_ties_on_wall: false,
            name_prefix_teams: false,
            recognitions_include_non_competitive: false,
            anchor_largest_contribution: false,
            incremental_error_keeps_n: false,
            incremental_time_always: false,
            timeout_discards_answer: false,
            memout_discards_answer: false,
            unknown_status_from_sound_solvers: false,
            twentyfour_filters_rows: false,
            abstained_total_minus_rows: false,
            seq_counters_not_zeroed: false,
            all_kinds_every_track: false,
            winners_in_non_competitive: false,
            over_limit_answer_keeps_time: false,
            track_status_for_uc_mv: false,
            negative_core_reduction: false,
        }
    }

    /// What the organizers' tool published in 2025 (every switch on).
    pub fn published_2025() -> Policy {
        let mut p = Policy::rules();
        p.name = "published-2025".into();
        for s in SWITCHES {
            p.set(s.name, true);
        }
        p
    }

    /// The policy called `name` (`rules` or `published-2025`).
    pub fn named(name: &str) -> Option<Policy> {
        match name {
            "rules" | "default" | "rules-2025" => Some(Policy::rules()),
            "published-2025" => Some(Policy::published_2025()),
            _ => None,
        }
    }

    /// The value of switch `name` (`None` for an unknown name).
    pub fn get(&self, name: &str) -> Option<bool> {
        Some(match name {
            "wrong_answer_keeps_time" => self.wrong_answer_keeps_time,
            "seq_ties_on_wall" => self.seq_ties_on_wall,
            "name_prefix_teams" => self.name_prefix_teams,
            "recognitions_include_non_competitive" => self.recognitions_include_non_competitive,
            "anchor_largest_contribution" => self.anchor_largest_contribution,
            "incremental_error_keeps_n" => self.incremental_error_keeps_n,
            "incremental_time_always" => self.incremental_time_always,
            "timeout_discards_answer" => self.timeout_discards_answer,
            "memout_discards_answer" => self.memout_discards_answer,
            "unknown_status_from_sound_solvers" => self.unknown_status_from_sound_solvers,
            "twentyfour_filters_rows" => self.twentyfour_filters_rows,
            "abstained_total_minus_rows" => self.abstained_total_minus_rows,
            "seq_counters_not_zeroed" => self.seq_counters_not_zeroed,
            "all_kinds_every_track" => self.all_kinds_every_track,
            "winners_in_non_competitive" => self.winners_in_non_competitive,
            "over_limit_answer_keeps_time" => self.over_limit_answer_keeps_time,
            "track_status_for_uc_mv" => self.track_status_for_uc_mv,
            "negative_core_reduction" => self.negative_core_reduction,
            _ => return None,
        })
    }

    /// Sets switch `name`; returns false for an unknown name.
    pub fn set(&mut self, name: &str, value: bool) -> bool {
        let f = match name {
            "wrong_answer_keeps_time" => &mut self.wrong_answer_keeps_time,
            "seq_ties_on_wall" => &mut self.seq_ties_on_wall,
            "name_prefix_teams" => &mut self.name_prefix_teams,
            "recognitions_include_non_competitive" => {
                &mut self.recognitions_include_non_competitive
            }
            "anchor_largest_contribution" => &mut self.anchor_largest_contribution,
            "incremental_error_keeps_n" => &mut self.incremental_error_keeps_n,
            "incremental_time_always" => &mut self.incremental_time_always,
            "timeout_discards_answer" => &mut self.timeout_discards_answer,
            "memout_discards_answer" => &mut self.memout_discards_answer,
            "unknown_status_from_sound_solvers" => &mut self.unknown_status_from_sound_solvers,
            "twentyfour_filters_rows" => &mut self.twentyfour_filters_rows,
            "abstained_total_minus_rows" => &mut self.abstained_total_minus_rows,
            "seq_counters_not_zeroed" => &mut self.seq_counters_not_zeroed,
            "all_kinds_every_track" => &mut self.all_kinds_every_track,
            "winners_in_non_competitive" => &mut self.winners_in_non_competitive,
            "over_limit_answer_keeps_time" => &mut self.over_limit_answer_keeps_time,
            "track_status_for_uc_mv" => &mut self.track_status_for_uc_mv,
            "negative_core_reduction" => &mut self.negative_core_reduction,
            _ => return false,
        };
        *f = value;
        true
    }

    /// How teams are decided under this policy.
    pub fn team_rule(&self) -> TeamRule {
        if self.name_prefix_teams {
            TeamRule::NamePrefix
        } else {
            TeamRule::Submissions
        }
    }
}

impl Default for Policy {
    fn default() -> Self {
        Policy::rules()
    }
}
