//! A small order-preserving parallel map over a slice, with a progress bar that
//! shows on a terminal and stays quiet when output is piped.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The default number of worker threads: the machine's parallelism.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A progress bar for `len` steps labelled `label`: drawn on a terminal, hidden
/// when stderr is piped.
pub fn progress_bar(len: usize, label: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(len as u64),
        if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(&format!("{label} {{pos}}/{{len}} [{{bar:40}}] {{eta}}"))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Applies `f` to every item on `jobs` threads; results are in item order.
/// `label` names the work on the progress bar (drawn only on a terminal).
pub fn map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    label: &str,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let n = items.len();
    let bar = progress_bar(n, label);
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<R>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, n.max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let r = f(&items[i]);
                    slots.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    slots
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every slot is filled by a worker"))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_order() {
        let v: Vec<u32> = (0..1000).collect();
        let out = super::map(&v, 4, "test", |x| x * 2);
        assert_eq!(out, v.iter().map(|x| x * 2).collect::<Vec<_>>());
        assert!(super::map(&Vec::<u32>::new(), 2, "t", |x| *x).is_empty());
    }
}
