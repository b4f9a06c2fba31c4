//! Our `random()` against the C library's own, for several seeds and many values.
//! Compiles a tiny C program with the system compiler (`cc`, needed to link Rust anyway).

use smtcomp::select::GlibcRandom;
use std::process::Command;

#[test]
fn matches_the_system_glibc_for_many_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("r.c");
    let bin = dir.path().join("r");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#include <stdlib.h>\n\
         int main(int c, char **v) {\n\
           srandom((unsigned) strtoul(v[1], 0, 10));\n\
           long n = atol(v[2]);\n\
           for (long i = 0; i < n; i++) printf(\"%ld\\n\", random());\n\
           return 0;\n}\n",
    )
    .unwrap();
    let status = Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&bin)
        .arg(&src)
        .status();
    let status = status.expect("cc must be installed (it is the linker Rust uses)");
    assert!(status.success());
    for seed in [
        0u32, 1, 42, 2024, 12345, 757067271, 2147483647, 2147483648, 3000000000, 4294967295,
    ] {
        let out = Command::new(&bin)
            .arg(seed.to_string())
            .arg("20000")
            .output()
            .unwrap();
        let expected: Vec<u32> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(expected.len(), 20000);
        let mut g = GlibcRandom::new(seed);
        for (k, want) in expected.iter().enumerate() {
            assert_eq!(g.next_random(), *want, "seed {seed}, value {k}");
        }
    }
}
