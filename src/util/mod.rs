//! Building blocks that know nothing of the competition: glibc `random()`,
//! escaping for every language we emit, process supervision and an
//! order-preserving parallel map.

pub mod bounded;
pub mod colour;
pub mod dirlock;
pub mod escape;
pub mod fault;
pub mod fxhash;
pub mod guard;
pub mod hugepages;
pub mod interrupt;
pub mod malloc;
pub mod parallel;
pub mod path_error;
pub mod process;
pub mod rng;
pub mod seekbuf;
pub mod writeback;
