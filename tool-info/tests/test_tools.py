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
