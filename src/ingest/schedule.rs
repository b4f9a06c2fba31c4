//! Largest-first scheduling of the input files on the rayon pool.
//!
//! Reading a file costs about its size. `par_iter` splits the inputs by
//! halves in path order, so a big file that comes late in that order starts
//! late and runs alone at the end while the other cores idle (a competition's
//! result files differ in size by orders of magnitude). Here the files are
//! handed out one at a time from a queue sorted by decreasing size (the
//! longest-processing-time-first rule): the biggest start first and the small
//! ones fill the gaps. The results are returned in input order, so nothing
//! downstream depends on the schedule.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The order in which to start the items: decreasing `sizes`, ties in index
/// order (deterministic, though only the timing depends on it).
pub fn largest_first(sizes: &[u64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by(|&a, &b| sizes[b].cmp(&sizes[a]).then(a.cmp(&b)));
    order
}

/// Runs `work(i)` for every `i` in `order` on the rayon pool (one item per
/// pull, as many workers as pool threads) and returns the results indexed by
/// `i` (`order` must be a permutation of `0..order.len()`).
///
/// After the first error no further item is started; the error returned is
/// the one of the smallest index among the items that failed.
pub fn run_in_order<R: Send, E: Send>(
    order: &[usize],
    work: impl Fn(usize) -> Result<R, E> + Sync,
) -> Result<Vec<R>, E> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let done: Mutex<Vec<(usize, Result<R, E>)>> = Mutex::new(Vec::with_capacity(order.len()));
    let worker = || {
        let mut mine = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            let r = work(i);
            if r.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
            mine.push((i, r));
        }
        // A poisoned lock only means another worker panicked (and the scope
        // re-raises that panic): the data is still consistent.
        done.lock()
            .unwrap_or_else(|p| p.into_inner())
            .append(&mut mine);
    };
    let workers = rayon::current_num_threads().clamp(1, order.len().max(1));
    rayon::scope(|s| {
        for _ in 0..workers {
            s.spawn(|_| worker());
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|p| p.into_inner());
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn biggest_first_ties_in_index_order() {
        // sizes 5, 9, 5, 0, 9 -> 9 (index 1), 9 (4), 5 (0), 5 (2), 0 (3)
        assert_eq!(largest_first(&[5, 9, 5, 0, 9]), vec![1, 4, 0, 2, 3]);
        assert!(largest_first(&[]).is_empty());
    }

    #[test]
    fn results_come_back_in_index_order() {
        let order = largest_first(&[1, 7, 3, 7, 2, 0, 9]);
        let got = run_in_order(&order, |i| Ok::<_, ()>(i * 10)).unwrap();
        assert_eq!(got, vec![0, 10, 20, 30, 40, 50, 60]);
        let none: Vec<usize> = run_in_order(&[], Ok::<_, ()>).unwrap();
        assert!(none.is_empty());
    }

    #[test]
    fn an_error_is_returned_and_stops_the_queue() {
        // One pool thread: items run in `order` (2, 0, 1, 3); item 0 fails, so
        // item 1 and 3 are never started.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let started = AtomicUsize::new(0);
        let got = pool.install(|| {
            run_in_order(&[2, 0, 1, 3], |i| {
                started.fetch_add(1, Ordering::Relaxed);
                if i == 0 {
                    Err(format!("item {i}"))
                } else {
                    Ok(i)
                }
            })
        });
        assert_eq!(got, Err("item 0".to_string()));
        assert_eq!(started.load(Ordering::Relaxed), 2);
    }
}
