"""`python -m benchexec.test_tool_info` on each module, run safely: `--no-container`
(no orphaned container process, spec 6.6), own session, hard timeout, output to a file."""

import os
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


@pytest.mark.parametrize("module,executable,log,expected", CASES)
def test_benchexec_accepts_the_module(module, executable, log, expected):
    if shutil.which(executable) is None:
        if os.environ.get("SMTCOMP_REQUIRE_SOLVERS") == "1":
            pytest.fail(f"{executable} not on PATH but SMTCOMP_REQUIRE_SOLVERS=1")
        pytest.skip(f"{executable} not on PATH")
    env = dict(os.environ, PYTHONPATH=TOOL_INFO)
    cmd = [sys.executable, "-m", "benchexec.test_tool_info", module, "--no-container",
           "--tool-output", os.path.join(HERE, "outputs", log)]
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
        text = out.read()
    assert code == 0, text
    assert "Traceback" not in text, text
    tail = text.split("Result of analyzing tool output", 1)[1]
    assert f"“{expected}”" in tail, text
