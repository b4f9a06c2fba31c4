//! Placeholder for the transformation.
