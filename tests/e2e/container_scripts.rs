//! The competition-image scripts (`docker/<rundefinition>.sh` of
//! `benchexec-defs/`) with a stand-in container engine (`SMTCOMP_CONTAINER`):
//! it records the `run` options and runs the command on the host in the `-w`
//! directory. Real cvc5, our helper binaries: the Proof Exhibition script runs
//! the proof wrapper with the checker next to the solver and writes its proof
//! into the writable working directory; the solver's and the helper's
//! directories are mounted read-only. (A run in a real image with podman is
//! shown in docs/distributed.md: no image can be pulled in CI.)

use crate::support::{copy_tree, require_tool, root, work_dir};
use std::path::Path;
use std::process::Command;

const ENGINE: &str = r#"#!/usr/bin/env bash
# Stand-in engine: records the arguments, runs the command after the image in -w.
printf '%s\n' "$@" > "$RECORD"
[ "$1" = run ] || exit 125
shift
wd=
while [ $# -gt 0 ]; do
  case $1 in
    -v|--cpus|--memory|--network) shift 2 ;;
    -w) wd=$2; shift 2 ;;
    --rm|-i) shift ;;
    *) break ;;
  esac
done
shift  # the image
cd "$wd" && exec "$@"
"#;

fn run_script(exec: &Path, script: &str, bench: &Path, work: &Path) -> (i32, String, Vec<String>) {
    let record = work.with_extension("args");
    let engine = exec.join("../engine.sh");
    let smtcomp = crate::support::smtcomp_bin();
    let bin = smtcomp.parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("bash")
        .arg(exec.join("docker").join(script))
        .arg(bench)
        .env("SMTCOMP_CONTAINER", &engine)
        .env("SMTCOMP_WORKDIR", work)
        .env("RECORD", &record)
        .env("PATH", path)
        .output()
        .unwrap();
    let args = std::fs::read_to_string(&record)
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
        args,
    )
}

/// The value following `flag` for each occurrence.
fn values<'a>(args: &'a [String], flag: &str) -> Vec<&'a str> {
    args.windows(2)
        .filter(|w| w[0] == flag)
        .map(|w| w[1].as_str())
        .collect()
}

#[test]
fn image_scripts_mount_solver_helpers_and_a_writable_dir_and_pass_the_checker() {
    if require_tool("cvc5").is_none() {
        return;
    }
    let smtcomp = crate::support::smtcomp_bin();
    let bin = smtcomp.parent().unwrap();
    for helper in ["smtcomp-proof-wrapper", "smtcomp-trace-executor"] {
        assert!(
            bin.join(helper).is_file(),
            "{helper}: build the workspace first (cargo build --workspace)"
        );
    }
    let tmp = work_dir("container-scripts");
    let top = std::fs::canonicalize(tmp.path()).unwrap();
    copy_tree(
        &root().join("tests/data/prepared-demo"),
        &top.join("tests/data/prepared-demo"),
    );
    let exec = top.join("benchexec-defs");
    copy_tree(&root().join("benchexec-defs"), &exec);
    copy_tree(&root().join("demo/archives"), &exec.join("archives"));
    for f in walkdir::WalkDir::new(&exec)
        .into_iter()
        .filter_map(Result::ok)
    {
        if f.path().extension().is_some_and(|e| e == "sh")
            || f.path()
                .parent()
                .is_some_and(|p| p.ends_with("archives/cvc5"))
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(f.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    std::fs::write(top.join("engine.sh"), ENGINE).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            top.join("engine.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    let helpers = std::fs::canonicalize(bin).unwrap();
    let archive = exec.join("archives/cvc5");

    // Proof Exhibition: wrapper, solver, then the checker next to the solver.
    let work = top.join("work-proof");
    let bench = top.join("tests/data/prepared-demo/proof-exhibition/QF_UF/scrambled1.smt2");
    let (code, out, args) = run_script(&exec, "cvc5_2_ProofExhibition.sh", &bench, &work);
    assert_eq!(code, 0, "{out}\n{args:?}");
    assert!(out.lines().any(|l| l == "valid"), "{out}");
    assert!(
        work.join("proof.txt").is_file(),
        "no proof in the working dir"
    );
    let mounts = values(&args, "-v");
    for m in [
        format!("{0}:{0}:ro", exec.display()),
        format!("{0}:{0}:ro", archive.display()),
        format!("{0}:{0}:ro", helpers.display()),
        format!("{0}:{0}", work.display()),
        format!("{0}:{0}:ro", bench.display()),
    ] {
        assert!(mounts.contains(&m.as_str()), "{m} not mounted: {mounts:?}");
    }
    assert_eq!(values(&args, "-w"), [work.to_str().unwrap()]);
    assert_eq!(values(&args, "--memory"), ["2000m"]);
    let checker = archive.join("smtcomp_checker");
    assert_eq!(values(&args, "--checker"), [checker.to_str().unwrap()]);
    assert_eq!(
        values(&args, "--solver"),
        [archive.join("smtcomp_solver").to_str().unwrap()]
    );

    // Incremental: the trace executor from the helpers' directory, cvc5 by
    // name (the image's PATH).
    let work = top.join("work-inc");
    let bench = top.join("tests/data/prepared-demo/incremental/QF_LIA/scrambled1.smt2");
    let (code, out, args) = run_script(&exec, "cvc5_1_Incremental.sh", &bench, &work);
    assert_eq!(code, 0, "{out}\n{args:?}");
    assert!(
        out.lines().any(|l| l == "sat" || l == "unsat"),
        "no answer: {out}"
    );
    let mounts = values(&args, "-v");
    assert!(
        mounts.contains(&format!("{0}:{0}:ro", helpers.display()).as_str()),
        "{mounts:?}"
    );
    let tracer = helpers.join("smtcomp-trace-executor");
    assert!(
        args.iter().any(|a| a == tracer.to_str().unwrap()),
        "{args:?}"
    );
}
