//! A small order-preserving parallel map over a slice, with a progress bar on
//! a terminal and, when standard error is not a terminal (CI, `nohup`,
//! `tee`), a progress line at least every [`heartbeat_interval`] (30 s) for
//! work that lasts that long.

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

/// How often a [`Heartbeat`] speaks: 30 s, or `SMTCOMP_PROGRESS_INTERVAL`
/// seconds (tests).
pub fn heartbeat_interval() -> std::time::Duration {
    let s = std::env::var("SMTCOMP_PROGRESS_INTERVAL")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .unwrap_or(30.0);
    std::time::Duration::from_secs_f64(s)
}

/// Progress lines for piped output: every `interval`, one line
/// `LABEL: P of N done (X %) after T; R per minute, about E left` on the
/// sink, until dropped. Silent for work that ends within the first interval.
pub struct Heartbeat {
    done: std::sync::Arc<AtomicUsize>,
    stop: std::sync::Arc<(Mutex<bool>, std::sync::Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Heartbeat {
    /// Speaks on standard error when it is not a terminal; else a silent one.
    pub fn on_stderr(label: &str, len: usize) -> Heartbeat {
        if std::io::stderr().is_terminal() {
            return Heartbeat::silent();
        }
        Heartbeat::start(
            label,
            len,
            heartbeat_interval(),
            Box::new(std::io::stderr()),
        )
    }

    /// A heartbeat that never speaks.
    pub fn silent() -> Heartbeat {
        Heartbeat {
            done: Default::default(),
            stop: std::sync::Arc::new((Mutex::new(true), std::sync::Condvar::new())),
            thread: None,
        }
    }

    /// Starts one for `len` steps, writing to `sink` every `interval`.
    pub fn start(
        label: &str,
        len: usize,
        interval: std::time::Duration,
        mut sink: Box<dyn std::io::Write + Send>,
    ) -> Heartbeat {
        let done = std::sync::Arc::new(AtomicUsize::new(0));
        let stop = std::sync::Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        let (d, s, label) = (done.clone(), stop.clone(), label.to_string());
        let thread = std::thread::Builder::new()
            .name("heartbeat".into())
            .spawn(move || {
                use std::io::Write as _;
                let start = std::time::Instant::now();
                let (lock, cv) = &*s;
                let mut stopped = lock.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    // Stopped before this thread first took the lock: the
                    // notification is gone, waiting would last a whole interval.
                    if *stopped {
                        return;
                    }
                    let (g, _) = cv
                        .wait_timeout(stopped, interval)
                        .unwrap_or_else(|e| e.into_inner());
                    stopped = g;
                    if *stopped {
                        return;
                    }
                    let line =
                        progress_line(&label, d.load(Ordering::Relaxed), len, start.elapsed());
                    let _ = writeln!(sink, "{line}");
                    let _ = sink.flush();
                }
            })
            .ok();
        Heartbeat { done, stop, thread }
    }

    /// One more step done.
    pub fn inc(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// Sets the steps done.
    pub fn set(&self, done: usize) {
        self.done.store(done, Ordering::Relaxed);
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        let (lock, cv) = &*self.stop;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        cv.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `LABEL: P of N done (X %) after T; R per minute, about E left`.
pub fn progress_line(label: &str, done: usize, len: usize, elapsed: std::time::Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let pct = if len == 0 {
        100.0
    } else {
        100.0 * done as f64 / len as f64
    };
    let mut line = format!(
        "{label}: {done} of {len} done ({pct:.0} %) after {}",
        duration(secs)
    );
    if done > 0 && secs > 0.0 {
        let per_min = done as f64 / secs * 60.0;
        let left = (len.saturating_sub(done)) as f64 / (done as f64 / secs);
        line.push_str(&format!(
            "; {per_min:.1} per minute, about {} left",
            duration(left)
        ));
    }
    line
}

/// `1h02m`, `4m05s`, `12s`.
fn duration(secs: f64) -> String {
    let s = secs.round() as u64;
    match (s / 3600, (s % 3600) / 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, _) => format!("{h}h{m:02}m"),
    }
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
    let beat = Heartbeat::on_stderr(label, n);
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
                    beat.inc();
                }
            });
        }
    });
    bar.finish_and_clear();
    drop(beat);
    slots
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every slot is filled by a worker"))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// A sink the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_heartbeat_speaks_every_interval_and_stops_when_dropped() {
        let sink = Shared::default();
        let beat =
            super::Heartbeat::start("runs", 4, Duration::from_millis(50), Box::new(sink.clone()));
        beat.inc();
        std::thread::sleep(Duration::from_millis(180));
        drop(beat);
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!((2..=4).contains(&lines.len()), "{text}");
        assert!(
            lines[0].starts_with("runs: 1 of 4 done (25 %) after "),
            "{text}"
        );
        assert!(lines[0].contains(" per minute, about "), "{text}");
        let after = sink.0.lock().unwrap().len();
        std::thread::sleep(Duration::from_millis(120));
        assert_eq!(sink.0.lock().unwrap().len(), after, "silent once dropped");
        // Work that ends within the first interval says nothing.
        let quiet = Shared::default();
        drop(super::Heartbeat::start(
            "x",
            1,
            Duration::from_secs(5),
            Box::new(quiet.clone()),
        ));
        assert!(quiet.0.lock().unwrap().is_empty());
        // Dropped before its thread first waits: the stop is not lost (it
        // used to wait out a whole interval, here an hour).
        for _ in 0..20 {
            let t = std::time::Instant::now();
            drop(super::Heartbeat::start(
                "x",
                1,
                Duration::from_secs(3600),
                Box::new(Shared::default()),
            ));
            assert!(t.elapsed() < Duration::from_secs(60), "drop hung");
        }
    }

    #[test]
    fn progress_lines_give_rate_and_time_left() {
        assert_eq!(
            super::progress_line("runs", 3, 154, Duration::from_secs(300)),
            "runs: 3 of 154 done (2 %) after 5m00s; 0.6 per minute, about 4h11m left"
        );
        assert_eq!(
            super::progress_line("runs", 0, 2, Duration::from_secs(31)),
            "runs: 0 of 2 done (0 %) after 31s"
        );
    }

    #[test]
    fn keeps_order() {
        let v: Vec<u32> = (0..1000).collect();
        let out = super::map(&v, 4, "test", |x| x * 2);
        assert_eq!(out, v.iter().map(|x| x * 2).collect::<Vec<_>>());
        assert!(super::map(&Vec::<u32>::new(), 2, "t", |x| *x).is_empty());
    }
}
