//! A tiny HTTP/1.1 server on 127.0.0.1 for the archive tests: serves fixed
//! bodies by path (404 otherwise), counts requests, and stops by itself after
//! a bounded number of connections (each with read/write timeouts).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A running server.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// Requests answered so far.
    pub hits: Arc<AtomicUsize>,
}

impl Server {
    /// `base` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Requests answered so far.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

/// Serves `files` (path such as `/a.zip` -> body) for at most 64 connections.
pub fn serve(files: BTreeMap<String, Vec<u8>>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(64) {
            let Ok(mut s) = stream else { continue };
            let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
            let _ = s.set_write_timeout(Some(Duration::from_secs(10)));
            let mut req = Vec::new();
            let mut buf = [0u8; 1024];
            while !req.windows(4).any(|w| w == b"\r\n\r\n") && req.len() < 65536 {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => req.extend_from_slice(&buf[..n]),
                }
            }
            let line = String::from_utf8_lossy(&req);
            let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
            counter.fetch_add(1, Ordering::SeqCst);
            let (status, body) = match files.get(&path) {
                Some(b) => ("200 OK", b.as_slice()),
                None => ("404 Not Found", &b"not found\n"[..]),
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = s.write_all(head.as_bytes());
            let _ = s.write_all(body);
            let _ = s.flush();
        }
    });
    Server { base, hits }
}
