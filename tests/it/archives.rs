//! Solver archives (`smtcomp::archives`, `smtcomp archives fetch`): downloads
//! from a small HTTP server on 127.0.0.1 and `file://`, the hash check, safe
//! unpacking of zip / tar.gz / tar.xz / tar.bz2 (path escape, symlink escape,
//! caps), the manifest that makes a second call skip, and `generate` refusing
//! a missing or non-executable solver binary.

use crate::support::http::{serve, serve_stalling};
use crate::support::{root, smtcomp};
use sha2::{Digest, Sha256};
use smtcomp::archives::{
    Archive, ArchiveError, Limits, MANIFEST_FILE, Manifest, fetch_one, submission_archives,
};
use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One member of a test archive.
enum M<'a> {
    File(&'a str, &'a [u8], u32),
    Dir(&'a str),
    Link(&'a str, &'a str),
    Hard(&'a str, &'a str),
}

/// A ustar archive written byte by byte (the `tar` crate's builder refuses
/// `..` and absolute names, which the hostile cases need).
fn tar(members: &[M<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in members {
        let (name, kind, data, mode, link): (&str, u8, &[u8], u32, &str) = match m {
            M::File(n, d, mode) => (n, b'0', d, *mode, ""),
            M::Dir(n) => (n, b'5', b"", 0o755, ""),
            M::Link(n, t) => (n, b'2', b"", 0o777, t),
            M::Hard(n, t) => (n, b'1', b"", 0o644, t),
        };
        let mut h = [0u8; 512];
        h[..name.len()].copy_from_slice(name.as_bytes());
        let octal = |h: &mut [u8; 512], at: usize, len: usize, v: u64| {
            let s = format!("{v:0w$o}\0", w = len - 1);
            h[at..at + len].copy_from_slice(s.as_bytes());
        };
        octal(&mut h, 100, 8, u64::from(mode));
        octal(&mut h, 108, 8, 0);
        octal(&mut h, 116, 8, 0);
        octal(&mut h, 124, 12, data.len() as u64);
        octal(&mut h, 136, 12, 0);
        h[156] = kind;
        h[157..157 + link.len()].copy_from_slice(link.as_bytes());
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
        h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
        out.extend_from_slice(&h);
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.resize(out.len() + 1024, 0);
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zip(members: &[M<'_>]) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for m in members {
        match m {
            M::File(n, d, mode) => {
                let o = SimpleFileOptions::default()
                    .compression_method(zip::CompressionMethod::Deflated)
                    .unix_permissions(*mode);
                w.start_file(*n, o).unwrap();
                w.write_all(d).unwrap();
            }
            M::Dir(n) => w.add_directory(*n, SimpleFileOptions::default()).unwrap(),
            M::Link(n, t) => w.add_symlink(*n, *t, SimpleFileOptions::default()).unwrap(),
            M::Hard(..) => unreachable!("no hard links in zip"),
        }
    }
    w.finish().unwrap().into_inner()
}

/// The solver every good archive holds: an executable script, a data file, a
/// directory and a link inside.
fn good_members() -> Vec<M<'static>> {
    vec![
        M::Dir("solver/"),
        M::File("solver/run.sh", b"#!/bin/sh\necho unsat\n", 0o755),
        M::File("solver/README", b"read me\n", 0o644),
        M::Dir("solver/lib/"),
        M::Link("solver/latest", "run.sh"),
    ]
}

fn check_good(dir: &Path) {
    let run = dir.join("solver/run.sh");
    assert_eq!(std::fs::read(&run).unwrap(), b"#!/bin/sh\necho unsat\n");
    let mode = std::fs::metadata(&run).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o755, "the executable bit is kept");
    let readme = std::fs::metadata(dir.join("solver/README")).unwrap();
    assert_eq!(readme.permissions().mode() & 0o777, 0o644);
    assert!(dir.join("solver/lib").is_dir());
    assert_eq!(
        std::fs::read_link(dir.join("solver/latest")).unwrap(),
        Path::new("run.sh")
    );
}

fn limits() -> Limits {
    Limits {
        max_download_bytes: 1 << 20,
        max_unpacked_bytes: 1 << 20,
        max_members: 100,
        timeout: std::time::Duration::from_secs(30),
    }
}

/// No `.NAME.fetch-*` staging directory is left next to the destinations.
fn no_staging(parent: &Path) {
    if let Ok(rd) = std::fs::read_dir(parent) {
        for e in rd {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(!name.contains(".fetch-"), "staging left behind: {name}");
        }
    }
}

#[test]
fn zip_and_tar_gz_from_http_unpack_with_modes_links_and_a_manifest() {
    let z = zip(&good_members());
    let t = gzip(&tar(&good_members()));
    let server = serve(BTreeMap::from([
        ("/s.zip".to_string(), z.clone()),
        ("/s.tar.gz".to_string(), t.clone()),
    ]));
    let tmp = tempfile::tempdir().unwrap();
    for (path, bytes) in [("/s.zip", &z), ("/s.tar.gz", &t)] {
        let dest = tmp.path().join(format!("archives/{}", &path[1..]));
        let a = Archive::new(server.url(path), Some(sha256(bytes).to_uppercase()));
        let u = fetch_one(&a, &dest, &limits()).unwrap();
        assert!(!u.skipped && u.verified);
        assert_eq!(u.sha256, sha256(bytes));
        // Files and links, not directories: run.sh (21 bytes) + README (8 bytes).
        assert_eq!(
            u.files,
            ["solver/README", "solver/latest", "solver/run.sh"],
            "{path}"
        );
        assert_eq!(u.bytes, 21 + 8);
        check_good(&dest);
        let m = Manifest::read(&dest).unwrap();
        assert_eq!(m.url, a.url);
        assert_eq!(m.sha256, sha256(bytes));
        assert_eq!(m.expected_sha256.as_deref(), Some(sha256(bytes).as_str()));
        assert_eq!(m.files, u.files);
        assert!(dest.join(MANIFEST_FILE).is_file());
    }
    no_staging(&tmp.path().join("archives"));
    assert_eq!(server.hits(), 2);
}

#[test]
fn tar_xz_and_tar_bz2_unpack_too() {
    let plain = tar(&good_members());
    let mut xz = Vec::new();
    lzma_rs::xz_compress(&mut std::io::Cursor::new(&plain), &mut xz).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(&plain).unwrap();
    let bz = bz.finish().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for (name, bytes) in [("s.tar.xz", &xz), ("s.tar.bz2", &bz), ("s.tar", &plain)] {
        let file = tmp.path().join(name);
        std::fs::write(&file, bytes).unwrap();
        let a = Archive::new(format!("file://{}", file.display()), Some(sha256(bytes)));
        let dest = tmp.path().join(format!("out-{name}"));
        let u = fetch_one(&a, &dest, &limits()).unwrap();
        assert_eq!(u.files.len(), 3, "{name}");
        check_good(&dest);
    }
}

#[test]
fn file_urls_work_and_a_second_call_skips_an_unchanged_archive() {
    let tmp = tempfile::tempdir().unwrap();
    let bytes = gzip(&tar(&good_members()));
    let file = tmp.path().join("my solver.tar.gz");
    std::fs::write(&file, &bytes).unwrap();
    let url = format!("file://{}", file.display()).replace(' ', "%20");
    let dest = tmp.path().join("ex/archives/s");
    let a = Archive::new(url.clone(), Some(sha256(&bytes)));
    let first = fetch_one(&a, &dest, &limits()).unwrap();
    assert!(!first.skipped);
    check_good(&dest);
    // Unchanged URL and hash, every file present: skipped, same listing.
    let second = fetch_one(&a, &dest, &limits()).unwrap();
    assert!(second.skipped);
    assert_eq!(second.files, first.files);
    // A recorded file deleted: fetched again.
    std::fs::remove_file(dest.join("solver/README")).unwrap();
    assert!(!fetch_one(&a, &dest, &limits()).unwrap().skipped);
    assert!(dest.join("solver/README").is_file());
    // The same file named by its path (`Archive::local` encodes the space).
    let by_path = Archive::local(&file, Some(sha256(&bytes))).unwrap();
    assert_eq!(by_path.url, url);
    assert!(fetch_one(&by_path, &dest, &limits()).unwrap().skipped);
    // Without a hash nothing is known to be unchanged: fetched again, not verified.
    let unhashed = Archive::new(url, None);
    let u = fetch_one(&unhashed, &dest, &limits()).unwrap();
    assert!(!u.skipped && !u.verified);
    assert_eq!(u.sha256, sha256(&bytes));
}

#[test]
fn a_second_http_call_downloads_nothing_and_a_new_archive_replaces_the_old() {
    let v1 = gzip(&tar(&good_members()));
    let v2 = gzip(&tar(&[M::File(
        "solver/run.sh",
        b"#!/bin/sh\necho sat\n",
        0o755,
    )]));
    let server = serve(BTreeMap::from([
        ("/v1.tar.gz".to_string(), v1.clone()),
        ("/v2.tar.gz".to_string(), v2.clone()),
    ]));
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("archives/s");
    let a1 = Archive::new(server.url("/v1.tar.gz"), Some(sha256(&v1)));
    fetch_one(&a1, &dest, &limits()).unwrap();
    assert!(fetch_one(&a1, &dest, &limits()).unwrap().skipped);
    assert_eq!(server.hits(), 1, "the second call did not download");
    let a2 = Archive::new(server.url("/v2.tar.gz"), Some(sha256(&v2)));
    let u = fetch_one(&a2, &dest, &limits()).unwrap();
    assert_eq!(u.files, ["solver/run.sh"]);
    assert!(!dest.join("solver/README").exists(), "the old tree is gone");
    assert_eq!(server.hits(), 2);
}

#[test]
fn a_wrong_hash_unpacks_nothing_and_keeps_the_previous_tree() {
    let bytes = zip(&good_members());
    let server = serve(BTreeMap::from([("/s.zip".to_string(), bytes.clone())]));
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("archives/s");
    let wrong = "0".repeat(64);
    let a = Archive::new(server.url("/s.zip"), Some(wrong.clone()));
    let e = fetch_one(&a, &dest, &limits()).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, ArchiveError::Hash { .. }), "{msg}");
    assert!(msg.contains(&server.url("/s.zip")), "{msg}");
    assert!(
        msg.contains(&wrong) && msg.contains(&sha256(&bytes)),
        "{msg}"
    );
    assert!(!dest.exists(), "nothing unpacked");
    no_staging(&tmp.path().join("archives"));
    // A good tree stays as it was when a later fetch fails.
    let good = Archive::new(server.url("/s.zip"), Some(sha256(&bytes)));
    fetch_one(&good, &dest, &limits()).unwrap();
    let mut sha512_wrong = good.clone();
    sha512_wrong.sha512 = Some("a".repeat(128));
    let e = fetch_one(&sha512_wrong, &dest, &limits()).unwrap_err();
    assert!(e.to_string().contains("sha512 mismatch"), "{e}");
    check_good(&dest);
}

/// Fetches `bytes` (through `file://`) and returns the error message.
fn refused(bytes: &[u8], limits: &Limits) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a");
    std::fs::write(&file, bytes).unwrap();
    let dest = tmp.path().join("ex/archives/s");
    let a = Archive::new(format!("file://{}", file.display()), Some(sha256(bytes)));
    let e = fetch_one(&a, &dest, limits).expect_err("must be refused");
    assert!(!dest.exists(), "nothing unpacked: {e}");
    no_staging(&tmp.path().join("ex/archives"));
    // Nothing escaped next to the archive or above the destination.
    for p in ["evil", "ex/evil", "ex/archives/evil"] {
        assert!(!tmp.path().join(p).exists(), "{p} written: {e}");
    }
    e.to_string()
}

#[test]
fn members_escaping_by_path_are_refused_naming_the_member() {
    let l = limits();
    for (name, why) in [
        ("../evil", "'..'"),
        ("solver/../../evil", "'..'"),
        ("/tmp/evil-absolute", "absolute"),
    ] {
        let members = [
            M::File("solver/ok", b"x", 0o644),
            M::File(name, b"pwned", 0o644),
        ];
        for (kind, bytes) in [("tar.gz", gzip(&tar(&members))), ("zip", zip(&members))] {
            let msg = refused(&bytes, &l);
            assert!(
                msg.contains(&format!("member '{name}'")) && msg.contains(why),
                "{kind}: {msg}"
            );
            assert!(msg.contains("nothing unpacked"), "{msg}");
        }
    }
    assert!(!Path::new("/tmp/evil-absolute").exists());
}

#[test]
fn symbolic_links_leaving_the_tree_or_written_through_are_refused() {
    let l = limits();
    // A link pointing outside (relative and absolute), in tar and zip.
    for target in ["../../..", "/etc", "a/../../x"] {
        let members = [M::Dir("solver/"), M::Link("solver/out", target)];
        for (kind, bytes) in [("tar.gz", gzip(&tar(&members))), ("zip", zip(&members))] {
            let msg = refused(&bytes, &l);
            assert!(
                msg.contains("member 'solver/out'") && msg.contains(target),
                "{kind} {target}: {msg}"
            );
        }
    }
    // A link inside the tree, then a member written through it.
    let through = [
        M::Dir("solver/"),
        M::Dir("solver/sub/"),
        M::Link("solver/d", "sub"),
        M::File("solver/d/x", b"x", 0o644),
    ];
    for (kind, bytes) in [("tar.gz", gzip(&tar(&through))), ("zip", zip(&through))] {
        let msg = refused(&bytes, &l);
        assert!(
            msg.contains("member 'solver/d/x'")
                && msg.contains("through the symbolic link 'solver/d'"),
            "{kind}: {msg}"
        );
    }
    // A file member over a link unpacked before it.
    let over = [M::Link("run", "solver"), M::File("run", b"x", 0o755)];
    let msg = refused(&gzip(&tar(&over)), &l);
    assert!(
        msg.contains("member 'run'") && msg.contains("overwrite the symbolic link"),
        "{msg}"
    );
    // Hard links must name an earlier regular file of the archive.
    let hard = [M::Hard("solver/h", "../../etc/passwd")];
    let msg = refused(&gzip(&tar(&hard)), &l);
    assert!(
        msg.contains("member 'solver/h'") && msg.contains("'..'"),
        "{msg}"
    );
}

#[test]
fn hard_links_to_earlier_files_are_copied() {
    let members = [
        M::File("solver/z3", b"binary", 0o755),
        M::Hard("solver/z3-copy", "solver/z3"),
    ];
    let bytes = gzip(&tar(&members));
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a.tgz");
    std::fs::write(&file, &bytes).unwrap();
    let dest = tmp.path().join("d");
    let a = Archive::new(format!("file://{}", file.display()), Some(sha256(&bytes)));
    let u = fetch_one(&a, &dest, &limits()).unwrap();
    assert_eq!(u.files, ["solver/z3", "solver/z3-copy"]);
    assert_eq!(
        std::fs::read(dest.join("solver/z3-copy")).unwrap(),
        b"binary"
    );
    // 6 bytes twice.
    assert_eq!(u.bytes, 12);
}

#[test]
fn zip_bombs_and_too_many_members_stop_at_the_caps() {
    let small = Limits {
        max_unpacked_bytes: 1 << 20,
        ..limits()
    };
    // 3 MiB of zeros deflate to a few KiB: the cap (1 MiB) names the member.
    let zeros = vec![0u8; 3 << 20];
    let bomb = [
        M::File("solver/ok", b"x", 0o644),
        M::File("solver/zeros.bin", &zeros, 0o644),
    ];
    let z = zip(&bomb);
    assert!(z.len() < 64 << 10, "compressed: {} bytes", z.len());
    for (kind, bytes) in [("zip", z), ("tar.gz", gzip(&tar(&bomb)))] {
        let msg = refused(&bytes, &small);
        assert!(
            msg.contains("member 'solver/zeros.bin'") && msg.contains("cap of 1048576 bytes"),
            "{kind}: {msg}"
        );
    }
    // Member count: the fourth of four members exceeds a cap of 3.
    let few = Limits {
        max_members: 3,
        ..limits()
    };
    let four = [
        M::Dir("a/"),
        M::File("a/1", b"1", 0o644),
        M::File("a/2", b"2", 0o644),
        M::File("a/3", b"3", 0o644),
    ];
    let msg = refused(&zip(&four), &few);
    assert!(
        msg.contains("member 'a/3'") && msg.contains("more than 3 members"),
        "{msg}"
    );
    // Download cap.
    let tiny = Limits {
        max_download_bytes: 100,
        ..limits()
    };
    let msg = refused(&zip(&good_members()), &tiny);
    assert!(
        msg.contains("download larger than the cap of 100 bytes"),
        "{msg}"
    );
}

#[test]
fn unreachable_unknown_and_corrupt_archives_are_named() {
    let server = serve(BTreeMap::from([(
        "/junk.zip".to_string(),
        b"<html>not an archive</html>".to_vec(),
    )]));
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("d");
    let missing = Archive::new(server.url("/missing.zip"), None);
    let msg = fetch_one(&missing, &dest, &limits())
        .unwrap_err()
        .to_string();
    assert!(
        msg.starts_with(&format!("{}: cannot download", missing.url)) && msg.contains("404"),
        "{msg}"
    );
    let junk = Archive::new(server.url("/junk.zip"), None);
    let msg = fetch_one(&junk, &dest, &limits()).unwrap_err().to_string();
    assert!(
        msg.contains("not a zip, tar.gz, tar.xz, tar.bz2 or tar archive"),
        "{msg}"
    );
    let ftp = Archive::new("ftp://example.org/x.zip", None);
    let msg = fetch_one(&ftp, &dest, &limits()).unwrap_err().to_string();
    assert!(msg.contains("only http://, https:// and file://"), "{msg}");
    assert!(!dest.exists());
}

#[test]
fn a_stalled_download_ends_at_the_timeout() {
    // The server pauses 60 s in the middle of the body; the timeout is 1 s. Without
    // a working timeout the fetch would wait and then succeed (the hash matches).
    let bytes = zip(&good_members());
    let server = serve_stalling(bytes.clone(), std::time::Duration::from_secs(60));
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("d");
    let a = Archive::new(server.url("/s.zip"), Some(sha256(&bytes)));
    let quick = Limits {
        timeout: std::time::Duration::from_secs(1),
        ..limits()
    };
    let msg = fetch_one(&a, &dest, &quick).unwrap_err().to_string();
    assert!(
        msg.starts_with(&format!("{}: cannot download", a.url)),
        "{msg}"
    );
    assert!(
        msg.to_lowercase().contains("timeout") || msg.contains("timed out"),
        "{msg}"
    );
    assert!(!dest.exists());
    no_staging(tmp.path());
}

/// A submission whose archive is at `url` (hash `sha`), running `run.sh` from it.
fn submission(name: &str, url: &str, sha: &str, binary: &str) -> String {
    format!(
        r#"{{"name": "{name}", "contributors": ["A"], "contacts": ["A <a@b.org>"],
  "archive": {{"url": "{url}", "h": {{"sha256": "{sha}"}}}}, "website": "https://example.org",
  "system_description": "https://example.org", "command": ["{binary}"],
  "solver_type": "Standalone", "participations": [{{"tracks": ["SingleQuery"], "logics": "QF_.*"}}],
  "seed": 1, "competitive": false, "final": false}}"#
    )
}

#[test]
fn cli_fetches_every_submission_and_skips_on_the_second_call() {
    let good = gzip(&tar(&good_members()));
    let server = serve(BTreeMap::from([("/good.tar.gz".to_string(), good.clone())]));
    let tmp = tempfile::tempdir().unwrap();
    let subs = tmp.path().join("subs");
    std::fs::create_dir_all(&subs).unwrap();
    std::fs::write(
        subs.join("a.json"),
        submission(
            "Solver A",
            &server.url("/good.tar.gz"),
            &sha256(&good),
            "solver/run.sh",
        ),
    )
    .unwrap();
    let ex = tmp.path().join("ex");
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let (code, out, err) = smtcomp(&["archives", "fetch", &p(&subs), &p(&ex)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "Solver A: archives/Solver_A: unpacked 3 files, 29 bytes from {} (sha256 {}, checked)",
            server.url("/good.tar.gz"),
            sha256(&good)
        )),
        "{out}"
    );
    assert!(
        out.ends_with("1 archives: 1 unpacked, 0 unchanged, 0 failed\n"),
        "{out}"
    );
    check_good(&ex.join("archives/Solver_A"));
    let (code, out, _) = smtcomp(&["archives", "fetch", &p(&subs), &p(&ex)]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Solver A: archives/Solver_A: unchanged (3 files"),
        "{out}"
    );
    assert_eq!(server.hits(), 1);
    // A second submission with a wrong hash: exit 1, named; the first is skipped.
    std::fs::write(
        subs.join("b.json"),
        submission("B", &server.url("/good.tar.gz"), &"1".repeat(64), "run.sh"),
    )
    .unwrap();
    let (code, out, err) = smtcomp(&["archives", "fetch", &p(&subs), &p(&ex)]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("error: B: archives/B: ") && err.contains("sha256 mismatch"),
        "{err}"
    );
    assert!(
        out.ends_with("2 archives: 0 unpacked, 1 unchanged, 1 failed\n"),
        "{out}"
    );
    assert!(!ex.join("archives/B").exists());
}

#[test]
fn participations_with_their_own_archive_get_their_own_directory() {
    let comp =
        smtcomp::model::Competition::from_path(&root().join("demo/competition.toml")).unwrap();
    let text = r#"{"name": "S", "contributors": ["A"], "contacts": ["A <a@b.org>"],
  "archive": {"url": "https://example.org/main.zip", "h": {"sha256": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}},
  "website": "https://example.org", "system_description": "https://example.org",
  "command": ["bin/s"], "solver_type": "Standalone",
  "participations": [
    {"tracks": ["SingleQuery"], "logics": "QF_.*"},
    {"tracks": ["Incremental"], "logics": "QF_.*",
     "archive": {"url": "https://example.org/inc.zip"}},
    {"tracks": ["UnsatCore"], "logics": "QF_.*"}],
  "seed": 1, "competitive": false, "final": false}"#;
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("s.json");
    std::fs::write(&f, text).unwrap();
    let loaded = smtcomp::submission::load_set(&[f], &comp);
    let sub = loaded[0].submission.as_ref().expect("loads");
    let got: Vec<(String, String, Vec<usize>)> = submission_archives(sub)
        .into_iter()
        .map(|a| (a.archive.url, a.dir, a.participations))
        .collect();
    assert_eq!(
        got,
        [
            (
                "https://example.org/main.zip".into(),
                "archives/S".into(),
                vec![0, 2]
            ),
            (
                "https://example.org/inc.zip".into(),
                "archives/S@1".into(),
                vec![1]
            ),
        ]
    );
    // `@` never comes out of a cleaned-up name: solver `S-1`'s own directory
    // is `archives/S-1`, never this participation's.
    assert_eq!(smtcomp::util::escape::sanitize("S@1"), "S_1");
}

#[test]
fn solver_names_that_clean_up_to_one_directory_are_an_error() {
    let comp =
        smtcomp::model::Competition::from_path(&root().join("demo/competition.toml")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let sub = |name: &str| {
        format!(
            r#"{{"name": "{name}", "contributors": ["A"], "contacts": ["A <a@b.org>"],
  "archive": {{"url": "https://example.org/main.zip"}},
  "website": "https://example.org", "system_description": "https://example.org",
  "command": ["bin/s"], "solver_type": "Standalone",
  "participations": [{{"tracks": ["SingleQuery"], "logics": "QF_.*"}}],
  "seed": 1, "competitive": false, "final": false}}"#
        )
    };
    std::fs::write(tmp.path().join("a.json"), sub("Solver A")).unwrap();
    std::fs::write(tmp.path().join("b.json"), sub("Solver_A")).unwrap();
    let loaded = smtcomp::submission::load_set(&[tmp.path().to_path_buf()], &comp);
    let problems: Vec<String> = loaded
        .iter()
        .flat_map(|l| l.problems.iter().map(|p| p.to_string()))
        .collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("solver names 'Solver A' (in ")
                && p.contains("and 'Solver_A' give the same directory and file name 'Solver_A'")),
        "{problems:#?}"
    );
    assert!(smtcomp::submission::usable(&loaded).is_err());
    let (code, _, err) = smtcomp(&["submissions", "validate", tmp.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
}

/// `generate` with the demo competition and prepared set; (exit code, stderr).
fn generate(subs: &Path, ex: &Path, extra: &[&str]) -> (i32, String) {
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let competition = p(&root().join("demo/competition.toml"));
    let prepared = p(&root().join("tests/data/prepared-demo"));
    let mut args = vec!["--competition", &competition, "generate", "--submissions"];
    let (subs, ex) = (p(subs), p(ex));
    // The demo submissions form one team per division here: generate them anyway.
    args.extend([
        subs.as_str(),
        "--prepared",
        &prepared,
        "--out",
        &ex,
        "--include-non-competitive",
    ]);
    args.extend(extra);
    let (code, _, err) = smtcomp(&args);
    (code, err)
}

#[test]
fn generate_fails_when_a_solver_binary_is_missing_or_not_executable() {
    let tmp = tempfile::tempdir().unwrap();
    let subs = tmp.path().join("subs");
    std::fs::create_dir_all(&subs).unwrap();
    let url = "https://example.org/s.tar.gz";
    std::fs::write(
        subs.join("s.json"),
        submission("My Solver", url, &"a".repeat(64), "solver/run.sh"),
    )
    .unwrap();
    let ex = tmp.path().join("ex");
    let bin = ex.join("archives/My_Solver/solver/run.sh");
    let (code, err) = generate(&subs, &ex, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "error: solver 'My Solver', participation 0: command [\"solver/run.sh\"]: binary {}: not found",
            ex.canonicalize().unwrap().join("archives/My_Solver/solver/run.sh").display()
        )) && err.contains("smtcomp archives fetch --submissions DIR --exec EXECDIR"),
        "{err}"
    );
    assert!(err.contains("nothing generated"), "{err}");
    assert!(!ex.join("manifest.json").exists(), "nothing generated");
    // There but not executable.
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::write(&bin, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, err) = generate(&subs, &ex, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("run.sh: not executable (mode 644)"), "{err}");
    // Executable: generated. `--no-binary-check` generates without it.
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, err) = generate(&subs, &ex, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(ex.join("manifest.json").is_file());
    std::fs::remove_file(&bin).unwrap();
    let (code, err) = generate(&subs, &tmp.path().join("ex2"), &["--no-binary-check"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn cli_json_names_every_archive_with_its_status() {
    let good = gzip(&tar(&good_members()));
    let server = serve(BTreeMap::from([("/good.tar.gz".to_string(), good.clone())]));
    let tmp = tempfile::tempdir().unwrap();
    let subs = tmp.path().join("subs");
    std::fs::create_dir_all(&subs).unwrap();
    let url = server.url("/good.tar.gz");
    std::fs::write(
        subs.join("a.json"),
        submission("Solver A", &url, &sha256(&good), "solver/run.sh"),
    )
    .unwrap();
    std::fs::write(
        subs.join("b.json"),
        submission("B", &url, &"1".repeat(64), "run.sh"),
    )
    .unwrap();
    let ex = tmp.path().join("ex");
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let args = [
        "archives",
        "fetch",
        "--submissions",
        &p(&subs),
        "--exec",
        &p(&ex),
        "--json",
    ];
    let (code, out, err) = smtcomp(&args);
    // B's hash is wrong: exit 1, the error on stderr as without --json.
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("error: B: archives/B: "), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect(&out);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "exec",
            "archives",
            "unpacked",
            "unchanged",
            "failed",
            "results"
        ]
    );
    assert_eq!(v["exec"], p(&ex));
    assert_eq!(
        (
            &v["archives"],
            &v["unpacked"],
            &v["unchanged"],
            &v["failed"]
        ),
        (&2.into(), &1.into(), &0.into(), &1.into())
    );
    // Submissions in file order: a.json (Solver A), then b.json (B).
    let r = &v["results"];
    assert_eq!(r[0]["solver"], "Solver A");
    assert_eq!(r[0]["dir"], "archives/Solver_A");
    assert_eq!(r[0]["status"], "unpacked");
    assert_eq!(r[0]["files"], 3);
    assert_eq!(r[0]["bytes"], 29);
    assert_eq!(r[0]["sha256"], sha256(&good));
    assert_eq!(r[0]["verified"], true);
    assert_eq!(r[1]["solver"], "B");
    assert_eq!(r[1]["status"], "failed");
    assert!(
        r[1]["error"].as_str().unwrap().contains("sha256 mismatch"),
        "{r}"
    );
    // Second call: A unchanged.
    let (_, out, _) = smtcomp(&args);
    let v: serde_json::Value = serde_json::from_str(&out).expect(&out);
    assert_eq!(v["unchanged"], 1);
    assert_eq!(v["results"][0]["status"], "unchanged");
}
