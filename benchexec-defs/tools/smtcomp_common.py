"""Helpers shared by the SMT-COMP tool-info modules (no BenchExec state, no I/O)."""

import os
import re
import shutil

# Lines skipped before the answer: empty, `success`, `;` comments.
_SKIP = re.compile(r"^\s*(success|;.*)?\s*$")


def resolve(command):
    """The solver command with its binary resolved: a bare name (no `/`) is looked up on
    PATH when the run is built, so generated files stay portable (`--solvers-on-path`)."""
    command = list(command)
    if command and "/" not in command[0]:
        found = shutil.which(command[0])
        if found:
            command[0] = os.path.abspath(found)
    return command


def meaningful_lines(output):
    """Output lines that are neither blank, `success` nor `;` comments (stripped)."""
    return [line.strip() for line in output if not _SKIP.match(line)]


def first_answer(output):
    """`sat`, `unsat`, `unknown`, `error` (a line mentioning error) or `None` from the
    first meaningful line, as SMT-COMP decides (not BenchExec's last-line rule)."""
    lines = meaningful_lines(output)
    if not lines:
        return None
    first = lines[0]
    if first in ("sat", "unsat", "unknown"):
        return first
    if "error" in first.lower():
        return "error"
    return "other"


def sexpr_after_answer(output):
    """The text after the first answer line (the unsat core or the model), or `None`."""
    lines = meaningful_lines(output)
    if len(lines) < 2 or lines[0] not in ("sat", "unsat"):
        return None
    return "\n".join(lines[1:])
