//! `smtcomp-mock-solver`: a scripted mock SMT solver for the trace-executor
//! tests and benchmark (a test helper, not shipped with the competition).
//!
//! It reads commands from stdin with the project's own command reader and
//! answers `success`, or for `check-sat`/`check-sat-assuming` the next entry
//! of `--answers`. Options (all optional; RAW texts understand `\n`, `\r`,
//! `\t`, `\\` and `\xNN`, and may end in an action `@exit`, `@hang`,
//! `@abort` or `@sleep:MS`):
//!
//! * `--answers a,b,c`   answers to queries 1, 2, 3 (default `sat`)
//! * `--eol RAW`         line terminator (default `\n`)
//! * `--on-cmd K=RAW`    exact output for command K (0 is the handshake)
//! * `--on-query Q=RAW`  exact output for query Q (1-based)
//! * `--ignore-exit`     keep running after `(exit)`
//! * `--hang-at-eof`     sleep forever when stdin ends
//! * `--ignore-term`     ignore SIGTERM
//! * `--log FILE`        one line per command: `index<TAB>early<TAB>text`
//!   (`early` is 1 if bytes of a later command had arrived before answering)
//! * `--raw-log FILE`    every byte received
//! * `--pid-file FILE`   write our pid
//! * `--grandchild-pid-file FILE`  start `sleep 1000` sharing our stdout
//! * `--stderr TEXT`     write TEXT to stderr for every command
//! * `--flood N`         write N blank lines to stdout before reading a command
//! * `--delay-ms MS`     sleep before answering each query
//! * `--fast`            line mode: one command per line, minimal work
//! * `--fd-file FILE`    write our open descriptors (one per line)
//! * `--args-file FILE`  write our argv (one per line) and exit
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, Read, Write};
use std::time::Duration;

use smtcomp_smtlib::{CommandKind, CommandReader};

#[derive(Default)]
struct Script {
    answers: Vec<Vec<u8>>,
    eol: Vec<u8>,
    on_cmd: Vec<(u64, Vec<u8>)>,
    on_query: Vec<(u64, Vec<u8>)>,
    ignore_exit: bool,
    hang_at_eof: bool,
    log: Option<File>,
    stderr: Option<Vec<u8>>,
    flood: usize,
    delay_ms: u64,
}

fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            i += 1;
            match b[i] {
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'x' if i + 2 < b.len() => {
                    let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("3f");
                    out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                    i += 2;
                }
                c => out.push(c),
            }
        } else {
            out.push(b[i]);
        }
        i += 1;
    }
    out
}

fn indexed(v: &str) -> (u64, Vec<u8>) {
    let (k, raw) = v.split_once('=').expect("K=RAW");
    (k.parse().expect("index"), unescape(raw))
}

fn sleep_forever() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(1000));
    }
}

/// Writes `raw` to stdout, then performs its trailing action, if any.
fn emit(raw: &[u8]) {
    let text = String::from_utf8_lossy(raw).into_owned();
    let (body, action) = match text.rfind('@') {
        Some(i)
            if ["@exit", "@hang", "@abort", "@sleep:"]
                .iter()
                .any(|a| text[i..].starts_with(a)) =>
        {
            (&raw[..i], Some(text[i..].to_string()))
        }
        _ => (raw, None),
    };
    let mut out = io::stdout().lock();
    let _ = out.write_all(body);
    let _ = out.flush();
    match action.as_deref() {
        Some("@exit") => std::process::exit(0),
        Some("@hang") => sleep_forever(),
        Some("@abort") => std::process::abort(),
        Some(a) if a.starts_with("@sleep:") => {
            std::thread::sleep(Duration::from_millis(a[7..].parse().unwrap_or(0)));
        }
        _ => {}
    }
}

/// Stdin with a tee to the raw log.
struct Input {
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    raw_log: Option<File>,
}

impl Read for Input {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.len {
            let n = io::stdin().lock().read(&mut self.buf)?;
            if let Some(log) = self.raw_log.as_mut() {
                log.write_all(&self.buf[..n])?;
            }
            self.pos = 0;
            self.len = n;
        }
        Ok(&self.buf[self.pos..self.len])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

impl Input {
    /// True if non-whitespace input is already available (without blocking).
    fn early_bytes(&mut self) -> bool {
        loop {
            while self.pos < self.len {
                if !self.buf[self.pos].is_ascii_whitespace() {
                    return true;
                }
                self.pos += 1;
            }
            let mut fd = libc::pollfd {
                fd: 0,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: polling stdin with a valid pollfd.
            let ready = unsafe { libc::poll(&mut fd, 1, 0) } > 0 && fd.revents & libc::POLLIN != 0;
            if !ready || self.fill_buf().map_or(true, |b| b.is_empty()) {
                return false;
            }
        }
    }
}

fn main() {
    let mut script = Script {
        eol: b"\n".to_vec(),
        ..Script::default()
    };
    let mut raw_log = None;
    let mut fast = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().expect("option value");
        match a.as_str() {
            "--answers" => script.answers = val().split(',').map(unescape).collect(),
            "--eol" => script.eol = unescape(&val()),
            "--on-cmd" => script.on_cmd.push(indexed(&val())),
            "--on-query" => script.on_query.push(indexed(&val())),
            "--ignore-exit" => script.ignore_exit = true,
            "--hang-at-eof" => script.hang_at_eof = true,
            // SAFETY: ignoring a signal.
            "--ignore-term" => unsafe {
                libc::signal(libc::SIGTERM, libc::SIG_IGN);
            },
            "--log" => {
                script.log = Some(
                    OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(val())
                        .unwrap(),
                )
            }
            "--raw-log" => raw_log = Some(File::create(val()).unwrap()),
            "--pid-file" => std::fs::write(val(), std::process::id().to_string()).unwrap(),
            "--grandchild-pid-file" => {
                // The sleeper outlives us on purpose (it tests group kills).
                #[allow(clippy::zombie_processes)]
                let child = std::process::Command::new("sleep")
                    .arg("1000")
                    .spawn()
                    .unwrap();
                std::fs::write(val(), child.id().to_string()).unwrap();
            }
            "--stderr" => script.stderr = Some(unescape(&val())),
            "--flood" => script.flood = val().parse().unwrap(),
            "--delay-ms" => script.delay_ms = val().parse().unwrap(),
            "--fast" => fast = true,
            "--fd-file" => {
                let mut fds: Vec<String> = std::fs::read_dir("/proc/self/fd")
                    .unwrap()
                    .flatten()
                    .filter(|e| {
                        let target = std::fs::read_link(e.path()).unwrap_or_default();
                        !target.starts_with("/proc/")
                    })
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect();
                fds.sort();
                std::fs::write(val(), fds.join("\n") + "\n").unwrap();
            }
            "--args-file" => {
                let all: Vec<String> = std::env::args().collect();
                std::fs::write(val(), all.join("\n") + "\n").unwrap();
                std::process::exit(0);
            }
            other => panic!("mock_solver: unknown option {other}"),
        }
    }
    if fast {
        fast_loop();
    }
    let input = Input {
        buf: vec![0; 1 << 16],
        pos: 0,
        len: 0,
        raw_log,
    };
    let mut reader = CommandReader::new(input);
    let (mut index, mut query) = (0u64, 0u64);
    loop {
        if script.flood > 0 {
            let mut out = io::stdout().lock();
            let _ = out.write_all(&vec![b'\n'; script.flood]);
            let _ = out.flush();
        }
        let (kind, text) = match reader.next_command() {
            Ok(Some(c)) => (c.kind, c.text.to_vec()),
            Ok(None) | Err(_) => {
                if script.hang_at_eof {
                    sleep_forever();
                }
                std::process::exit(0);
            }
        };
        let early = reader.get_mut().early_bytes();
        if let Some(log) = script.log.as_mut() {
            let shown = String::from_utf8_lossy(&text).replace('\n', "\\n");
            let _ = writeln!(log, "{index}\t{}\t{shown}", u8::from(early));
        }
        if let Some(e) = &script.stderr {
            let _ = io::stderr().write_all(e);
        }
        let special = script
            .on_cmd
            .iter()
            .find(|(k, _)| *k == index)
            .map(|(_, r)| r.clone());
        let is_query = matches!(kind, CommandKind::CheckSat | CommandKind::CheckSatAssuming);
        if is_query {
            query += 1;
            std::thread::sleep(Duration::from_millis(script.delay_ms));
        }
        let special = special.or_else(|| {
            is_query
                .then(|| {
                    script
                        .on_query
                        .iter()
                        .find(|(q, _)| *q == query)
                        .map(|(_, r)| r.clone())
                })
                .flatten()
        });
        match special {
            Some(raw) => emit(&raw),
            None => {
                let word = if is_query {
                    script
                        .answers
                        .get(query as usize - 1)
                        .cloned()
                        .unwrap_or_else(|| b"sat".to_vec())
                } else {
                    b"success".to_vec()
                };
                let mut line = word;
                line.extend_from_slice(&script.eol);
                emit(&line);
            }
        }
        if kind == CommandKind::Exit && !script.ignore_exit {
            std::process::exit(0);
        }
        index += 1;
    }
}

/// Line mode for throughput measurements: one command per line.
fn fast_loop() -> ! {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).unwrap_or(0) == 0 {
            std::process::exit(0);
        }
        let reply: &[u8] = if line.starts_with(b"(check-sat") {
            b"sat\n"
        } else if line.starts_with(b"(exit") {
            std::process::exit(0);
        } else {
            b"success\n"
        };
        let _ = out.write_all(reply);
        let _ = out.flush();
    }
}
