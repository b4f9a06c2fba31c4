"""`python -m benchexec.test_tool_info` on each module, run safely: `--no-container`
(no orphaned container process, spec 6.6), own session, hard timeout, output to a file."""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL_INFO = os.path.dirname(HERE)

CASES = [
    ("tools.smtcomp_tool", "env", "z3-sat.log", "true"),
    ("tools.smtcomp_incremental", "smtcomp-trace-executor", "inc-done.log", "done"),
    ("tools.smtcomp_proof", "smtcomp-proof-wrapper", "proof-valid.log", "false"),
]


def _test_tool_info(args, pythonpath):
    """`python -m benchexec.test_tool_info ARGS` in its own session with a hard
    timeout and nothing left behind: (exit code, output)."""
    env = dict(os.environ, PYTHONPATH=pythonpath)
    cmd = [sys.executable, "-m", "benchexec.test_tool_info", *args]
    with tempfile.TemporaryFile(mode="w+") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            code = proc.wait(timeout=120)
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        out.seek(0)
        return code, out.read()


@pytest.mark.parametrize("module,executable,log,expected", CASES)
def test_benchexec_accepts_the_module(module, executable, log, expected):
    if shutil.which(executable) is None:
        if os.environ.get("SMTCOMP_REQUIRE_SOLVERS") == "1":
            pytest.fail(f"{executable} not on PATH but SMTCOMP_REQUIRE_SOLVERS=1")
        pytest.skip(f"{executable} not on PATH")
    code, text = _test_tool_info(
        [module, "--no-container", "--tool-output", os.path.join(HERE, "outputs", log)], TOOL_INFO)
    assert code == 0, text
    assert "Traceback" not in text, text
    tail = text.split("Result of analyzing tool output", 1)[1]
    assert f"“{expected}”" in tail, text


REPO = os.path.dirname(TOOL_INFO)

# (generated module base, solver binary on PATH, its directory's binary as BINARY,
# recorded output, expected result): a per-solver module as `smtcomp generate`
# writes it, with the solver's own unpacked directory as --tool-directory.
REAL_DIRS = [
    ("smtcomp_tool", "z3", "./z3", "z3-sat.log", "true"),
    ("smtcomp_tool", "yices-smt2", "./yices-smt2", "z3-sat.log", "true"),
    ("smtcomp_incremental", "z3", "./z3", "inc-done.log", "done"),
    ("smtcomp_proof", "cvc5", "./smtcomp_solver", "proof-valid.log", "false"),
]


@pytest.mark.parametrize("base,solver,binary,log,expected", REAL_DIRS)
def test_benchexec_accepts_a_generated_module_with_the_solver_directory(
        tmp_path, base, solver, binary, log, expected):
    """`test_tool_info --tool-directory <the unpacked solver>`: the helpers are found
    on PATH, the version is the solver's own (as its `--version` says), not the
    submission's string."""
    needed = [solver, "smtcomp-trace-executor", "smtcomp-proof-wrapper"]
    missing = [n for n in needed if shutil.which(n) is None]
    if missing:
        if os.environ.get("SMTCOMP_REQUIRE_SOLVERS") == "1":
            pytest.fail(f"{missing} not on PATH but SMTCOMP_REQUIRE_SOLVERS=1")
        pytest.skip(f"{missing} not on PATH")
    tool_dir = (os.path.join(REPO, "demo", "archives", "cvc5") if base == "smtcomp_proof"
                else os.path.dirname(shutil.which(solver)))
    pkg = tmp_path / "generated"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "solver_module.py").write_text(
        f"from tools import {base} as base\n\n\nclass Tool(base.Tool):\n"
        f"    SOLVER = {solver!r}\n    VERSION = 'sha256:0123'\n    BINARY = {binary!r}\n")
    code, text = _test_tool_info(
        ["generated.solver_module", "--no-container", "--tool-directory", tool_dir,
         "--tool-output", os.path.join(HERE, "outputs", log)], f"{TOOL_INFO}:{tmp_path}")
    assert code == 0, text
    assert "Traceback" not in text and "Could not find" not in text, text
    version = re.search(r"Version: “([^”]*)”", text).group(1)
    said = subprocess.run([shutil.which(solver), "--version"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60).stdout
    assert version[0].isdigit() and version in said.splitlines()[0], (version, said, text)
    tail = text.split("Result of analyzing tool output", 1)[1]
    assert f"“{expected}”" in tail, text
