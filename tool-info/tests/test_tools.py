"""Unit tests of the tool-info modules on recorded solver / executor / wrapper outputs."""

import json
import os

import pytest
from benchexec import result
from benchexec.tools.template import BaseTool2
from benchexec.util import ProcessExitCode

from tools import smtcomp_incremental, smtcomp_proof, smtcomp_tool

HERE = os.path.dirname(os.path.abspath(__file__))


def output(name):
    with open(os.path.join(HERE, "outputs", name), encoding="utf-8") as f:
        return BaseTool2.RunOutput(f.read().splitlines())


def run(name, value=0, signal=None, reason=None):
    code = ProcessExitCode.create(value=None if signal else value, signal=signal)
    return BaseTool2.Run(["solver"], code, output(name), reason)


@pytest.mark.parametrize(
    "log,expected",
    [
        ("z3-sat.log", result.RESULT_TRUE_PROP),
        ("printsuccess-unsat.log", result.RESULT_FALSE_PROP),
        ("cvc5-core.log", result.RESULT_FALSE_PROP),
        ("z3-model.log", result.RESULT_TRUE_PROP),
        ("unknown.log", result.RESULT_UNKNOWN),
        ("error-first.log", result.RESULT_ERROR),
        ("cvc5-sigterm.log", result.RESULT_UNKNOWN),
    ],
)
def test_file_based_first_meaningful_line_decides(log, expected):
    assert smtcomp_tool.Tool().determine_result(run(log)) == expected


def test_file_based_leaves_signals_to_benchexec():
    # unknown/ERROR are refined by BenchExec (signal 9 -> KILLED BY SIGNAL 9, timeouts).
    status = smtcomp_tool.Tool().determine_result(run("cvc5-sigterm.log", signal=15, reason="cputime"))
    assert status in result.RESULT_LIST_OTHER


def test_unsat_core_size_and_model_presence():
    tool = smtcomp_tool.Tool()
    assert tool.get_value_from_output(output("cvc5-core.log"), "unsat-core") == 2
    assert tool.get_value_from_output(output("z3-core.log"), "unsat-core") == 3
    assert tool.get_value_from_output(output("z3-model.log"), "model") == "yes"
    assert tool.get_value_from_output(output("z3-model.log"), "unsat-core") is None
    assert tool.get_value_from_output(output("z3-sat.log"), "model") is None
    assert tool.get_value_from_output(output("cvc5-core.log"), "model") is None


def test_file_based_cmdline_appends_the_benchmark_and_rejects_no_command():
    tool = smtcomp_tool.Tool()
    task = BaseTool2.Task(["b/x.smt2"], None, None, None)
    limits = BaseTool2.ResourceLimits()
    assert tool.cmdline("/usr/bin/env", ["/opt/s p/z3", "-smt2", ""], task, limits)[-1] == "b/x.smt2"
    assert tool.cmdline("/usr/bin/env", ["/opt/z3", "-smt2"], task, limits) == ["/opt/z3", "-smt2", "b/x.smt2"]
    with pytest.raises(Exception):
        tool.cmdline("/usr/bin/env", [], task, limits)


def test_bare_solver_name_is_resolved_on_path(tmp_path, monkeypatch):
    exe = tmp_path / "mysolver"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    task = BaseTool2.Task(["x.smt2"], None, None, None)
    line = smtcomp_tool.Tool().cmdline("env", ["mysolver", "-q"], task, BaseTool2.ResourceLimits())
    assert line == [str(exe), "-q", "x.smt2"]


def test_incremental_done_and_counts():
    tool = smtcomp_incremental.Tool()
    assert tool.determine_result(run("inc-done.log")) == result.RESULT_DONE
    out = output("inc-done.log")
    assert tool.get_value_from_output(out, "correct") == 3
    assert tool.get_value_from_output(out, "wrong") == 0
    assert tool.get_value_from_output(out, "last-answer-time") == "0.003500"


def test_incremental_wrong_and_bad_are_errors():
    tool = smtcomp_incremental.Tool()
    assert tool.determine_result(run("inc-wrong.log", value=2)) == result.RESULT_ERROR
    assert tool.get_value_from_output(output("inc-wrong.log"), "wrong") == 1
    assert tool.get_value_from_output(output("inc-wrong.log"), "correct") == 1
    assert tool.determine_result(run("inc-bad.log", value=1)) == result.RESULT_ERROR


def test_incremental_cmdline_uses_times():
    task = BaseTool2.Task(["i.smt2"], None, None, None)
    line = smtcomp_incremental.Tool().cmdline("bin/te", ["/usr/bin/cvc5", "--incremental"], task, BaseTool2.ResourceLimits())
    assert line == ["bin/te", "--times", "--", "/usr/bin/cvc5", "--incremental", "i.smt2"]


def test_incremental_cmdline_continues_after_unknown_when_generated_so():
    class Tool(smtcomp_incremental.Tool):
        CONTINUE_AFTER_UNKNOWN = True

    task = BaseTool2.Task(["i.smt2"], None, None, None)
    line = Tool().cmdline("bin/te", ["/usr/bin/z3", "-in"], task, BaseTool2.ResourceLimits())
    assert line == ["bin/te", "--times", "--continue-after-unknown", "--", "/usr/bin/z3", "-in", "i.smt2"]


@pytest.mark.parametrize(
    "log,expected,proof",
    [
        ("proof-valid.log", result.RESULT_FALSE_PROP, "valid"),
        ("proof-invalid.log", "ERROR (invalid proof)", "invalid"),
        ("proof-timeout.log", result.RESULT_ERROR, None),
    ],
)
def test_proof_verdicts(log, expected, proof):
    tool = smtcomp_proof.Tool()
    assert tool.determine_result(run(log)) == expected
    assert tool.get_value_from_output(output(log), "proof") == proof


def test_proof_cmdline():
    task = BaseTool2.Task(["p.smt2"], None, None, None)
    limits = BaseTool2.ResourceLimits(walltime=60)
    line = smtcomp_proof.Tool().cmdline("bin/pw", ["/a/smtcomp_solver"], task, limits)
    outdir = line[4].rsplit("/", 1)[0]
    assert outdir.startswith("proofs/p-") and len(outdir) == len("proofs/p-") + 16, line
    assert line == ["bin/pw", "--total-budget", "60", "--proof-file", f"{outdir}/proof.txt",
                    "p.smt2", outdir, "--solver", "/a/smtcomp_solver",
                    "--", "--checker", "/a/smtcomp_checker"]


def test_proof_runs_get_directories_of_their_own():
    """Parallel runs in one working directory (--no-container) never share proof.txt:
    another benchmark or another solver command gives another directory."""
    limits = BaseTool2.ResourceLimits(walltime=60)
    tool = smtcomp_proof.Tool()

    def outdir(bench, cmd):
        return tool.cmdline("bin/pw", cmd, BaseTool2.Task([bench], None, None, None), limits)[6]

    dirs = {outdir(b, c) for b in ["a/x.smt2", "b/x.smt2", "a/y.smt2"]
            for c in [["/s/smtcomp_solver"], ["/t/smtcomp_solver"]]}
    assert len(dirs) == 6, dirs
    assert outdir("a/x.smt2", ["/s/smtcomp_solver"]) == outdir("a/x.smt2", ["/s/smtcomp_solver"])


class _Locator:
    def __init__(self, tool_directory=None):
        self.tool_directory = tool_directory

    def find_executable(self, name, subdir=""):
        from benchexec.tools.template import BaseTool2 as B

        return B.ToolLocator(tool_directory=self.tool_directory, use_path=not self.tool_directory,
                             use_current=not self.tool_directory).find_executable(name, subdir)


def _generated(base, **attrs):
    return type("Tool", (base.Tool,), attrs)()


def test_generated_module_resolves_its_solver_in_the_tool_directory(tmp_path):
    archive = tmp_path / "archives" / "z3" / "bin"
    archive.mkdir(parents=True)
    (archive / "z3").write_text("#!/bin/sh\n")
    (archive / "z3").chmod(0o755)
    tool = _generated(smtcomp_tool, SOLVER="z3 <&>", VERSION="sha256:00", BINARY="archives/z3/bin/z3",
                      PROGRAM_FILES=("archives/z3",))
    exe = tool.executable(_Locator(str(tmp_path)))
    assert exe == str(archive / "z3")
    assert tool.name() == "z3 <&>" and tool.version(exe) == "sha256:00"
    assert tool.program_files(exe) == [exe, str(tmp_path / "archives" / "z3")]
    # Not unpacked, or not executable: BenchExec's ToolNotFoundException, naming the file.
    from benchexec.tools.template import ToolNotFoundException

    (archive / "z3").chmod(0o644)
    with pytest.raises(ToolNotFoundException, match="not executable"):
        tool.executable(_Locator(str(tmp_path)))
    missing = _generated(smtcomp_tool, BINARY="archives/none/z3")
    with pytest.raises(ToolNotFoundException, match="archives/none/z3"):
        missing.executable(_Locator(str(tmp_path)))


def test_generated_helper_modules_upload_the_solver_archive(tmp_path):
    (tmp_path / "bin").mkdir()
    for helper in ["smtcomp-trace-executor", "smtcomp-proof-wrapper"]:
        (tmp_path / "bin" / helper).write_text("#!/bin/sh\n")
        (tmp_path / "bin" / helper).chmod(0o755)
    for base, helper in [(smtcomp_incremental, "smtcomp-trace-executor"),
                         (smtcomp_proof, "smtcomp-proof-wrapper")]:
        tool = _generated(base, SOLVER="cvc5", VERSION="1.2", BINARY="archives/cvc5/cvc5",
                          PROGRAM_FILES=("archives/cvc5", "archives/cvc5-2"))
        exe = tool.executable(_Locator(str(tmp_path)))
        assert exe == str(tmp_path / "bin" / helper)
        assert tool.name() == "cvc5" and tool.version(exe) == "1.2"
        assert tool.program_files(exe) == [exe, str(tmp_path / "archives/cvc5"),
                                           str(tmp_path / "archives/cvc5-2")]


def _answer_line_cases():
    with open(os.path.join(HERE, "answer-lines", "cases.json"), encoding="utf-8") as f:
        return json.load(f)["cases"]


@pytest.mark.parametrize("case", _answer_line_cases())
def test_answer_line_rule_matches_the_rust_fixtures(case):
    """The fixtures src/formats/answer_line.rs checks too: one rule in both languages."""
    from tools import smtcomp_common as common

    lines = case["output"].splitlines(keepends=True)
    meaningful = common.meaningful_lines(lines)
    assert (meaningful[0] if meaningful else None) == case["line"]
    assert common.first_answer(lines) == case["answer"]


def _script(path, text):
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(0o755)
    return str(path)


def test_helpers_are_found_on_path_beside_a_solver_directory(tmp_path, monkeypatch):
    from benchexec.tools.template import ToolNotFoundException

    helpers = tmp_path / "helpers"
    helpers.mkdir()
    solver_dir = tmp_path / "z3-4.13"
    solver_dir.mkdir()
    for base, helper in [(smtcomp_incremental, "smtcomp-trace-executor"),
                         (smtcomp_proof, "smtcomp-proof-wrapper")]:
        monkeypatch.setenv("PATH", "/usr/bin:/bin")
        with pytest.raises(ToolNotFoundException, match=f"{helper} not found in .*z3-4.13/bin nor on PATH"):
            base.Tool().executable(_Locator(str(solver_dir)))
        _script(helpers / helper, "exit 0\n")
        monkeypatch.setenv("PATH", f"{helpers}:/usr/bin:/bin")
        assert base.Tool().executable(_Locator(str(solver_dir))) == str(helpers / helper)


def test_incremental_solver_error_lines_are_errors():
    tool = smtcomp_incremental.Tool()
    code = ProcessExitCode.create(value=0)
    out = BaseTool2.RunOutput(["sat", '(error "line 4: unknown constant x")', "time 0.1 0.1"])
    assert tool.determine_result(BaseTool2.Run(["te"], code, out, None)) == result.RESULT_ERROR


@pytest.mark.parametrize("text,smtlib,expected", [
    ("Z3 version 4.13.3 - 64 bit\n", False, "4.13.3"),
    ("This is cvc5 version 1.2.0 [git tag 1.2.0 branch HEAD]\n", False, "1.2.0"),
    ("This is CVC4 version 1.8\ncompiled with GCC\n", False, "1.8"),
    ("Yices 2.6.4\nCopyright SRI International.\n", False, "2.6.4"),
    ("\n\nBitwuzla 0.7.0-dev.12.ab3 (x86_64)\n", False, "0.7.0-dev.12.ab3"),
    ("version 1.8.\n", False, "1.8"),
    ("sat\n", False, None),
    ("unknown option --version\nx86_64 2009-2024\n", False, None),
    ("a\nb\nc\nd 1.0\n", False, None),  # only the first three non-blank lines
    ('success\n(:version "4.8.12")\n', True, "4.8.12"),
    ('(:version "git-abc")\n', True, None),
    ('(:name "x")\n', True, None),
    ("Z3 version 4.13.3\n", True, None),  # the SMT-LIB question wants its own answer
])
def test_version_numbers_in_solver_answers(text, smtlib, expected):
    from tools import smtcomp_common as common

    assert common.version_in(text, smtlib=smtlib) == expected


def test_version_is_asked_of_the_solver_then_by_smtlib_then_the_submission(tmp_path, caplog):
    from tools import smtcomp_common as common

    tool_dir = tmp_path / "archive"
    tool_dir.mkdir()
    # Answers --version.
    _script(tool_dir / "plain", 'echo "Plain solver, version 2.5.1"\n')
    # Rejects --version, answers SMT-LIB's (get-info :version) in a benchmark file.
    _script(tool_dir / "smtlib",
            '[ "$1" = --version ] && { echo "unknown option" >&2; exit 1; }\n'
            'grep -q "(get-info :version)" "$1" && echo \'(:version "3.1.4")\'\n')
    # Answers neither with a version: the submission's version stands, with a warning.
    _script(tool_dir / "mute", "echo sat\n")
    for binary, expected in [("plain", "2.5.1"), ("smtlib", "3.1.4"), ("mute", "sha256:00")]:
        tool = _generated(smtcomp_tool, SOLVER="s", VERSION="sha256:00", BINARY=f"./{binary}")
        exe = tool.executable(_Locator(str(tool_dir)))
        caplog.clear()
        assert tool.version(exe) == expected
        assert ("the submission's version 'sha256:00' stands" in caplog.text) == (binary == "mute")
    # The helper modules ask the solver (BINARY), not their helper (the executable).
    (tool_dir / "bin").mkdir()
    for base, helper in [(smtcomp_incremental, "smtcomp-trace-executor"),
                         (smtcomp_proof, "smtcomp-proof-wrapper")]:
        _script(tool_dir / "bin" / helper, 'echo "helper 9.9.9"\n')
        tool = _generated(base, SOLVER="s", VERSION="v", BINARY="./plain")
        assert tool.version(tool.executable(_Locator(str(tool_dir)))) == "2.5.1"


def test_a_solver_that_hangs_on_the_version_question_is_stopped(tmp_path):
    """A solver that never answers costs at most the budget, and the questions' processes
    end (a child it leaves behind cannot hold the answer back either)."""
    import time

    from tools import smtcomp_common as common

    pids = tmp_path / "pids"
    hang = _script(tmp_path / "hang", f'echo $$ >> {pids}\nexec sleep 60\n')
    start = time.monotonic()
    assert common.ask_version(hang, budget=0.5) is None
    assert time.monotonic() - start < 10
    asked = [int(p) for p in pids.read_text().split()]
    assert len(asked) == 1  # --version took the whole budget: no time left for SMT-LIB
    assert not os.path.exists(f"/proc/{asked[0]}") or "sleep" not in open(f"/proc/{asked[0]}/cmdline").read()
    # Answers, but leaves a child holding its output open.
    child = tmp_path / "child"
    leaves = _script(tmp_path / "leaves", f'sleep 60 &\necho $! > {child}\necho "Leaves 1.0"\n')
    start = time.monotonic()
    try:
        assert common.ask_version(leaves, budget=5) == "1.0"
        assert time.monotonic() - start < 5
    finally:
        os.kill(int(child.read_text()), 9)
