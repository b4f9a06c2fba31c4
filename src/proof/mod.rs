//! Proof-exhibition wrapper and result interpreter (filled in by its own issue).
