"""BenchExec tool-info for the SMT-COMP Incremental Track.

Runs `smtcomp-trace-executor --times [--continue-after-unknown] -- SOLVER ARGS... BENCHMARK`
(the solver command comes as `<option>`s; `--continue-after-unknown` when the generated
module sets `CONTINUE_AFTER_UNKNOWN`, from the competition definition's Incremental
`continue_after_unknown`). A run that ends normally is "done" (category missing, never error);
a wrong answer (`WRONG solver response`), a protocol failure (`BAD ...`) or an `(error ...)`
line of the solver is "ERROR",
refined by BenchExec with the exit code. Columns: `correct` (number of sat/unsat
answers before any wrong one), `wrong` (1 if a wrong answer was given, else 0),
`last-answer-time` (seconds from the executor's last `time` line).
"""

import os

import benchexec.result as result
import benchexec.tools.template

from tools import smtcomp_common as common


def _answers(output):
    return [line.strip() for line in output if line.strip() in ("sat", "unsat")]


class Tool(common.Solver, benchexec.tools.template.BaseTool2):
    """Trace executor driving an incremental SMT solver."""

    # Run the check-sats after one whose expected status is unknown too.
    CONTINUE_AFTER_UNKNOWN = False

    def executable(self, tool_locator):
        return self._helper(tool_locator, "smtcomp-trace-executor")

    def name(self):
        return self.SOLVER or "SMT-COMP trace executor"

    def project_url(self):
        return "https://smt-comp.github.io"

    def version(self, executable):
        if self.SOLVER:
            return self._solver_version()
        return self._version_from_tool(executable).replace("smtcomp-trace-executor", "").strip()

    def program_files(self, executable):
        return self._program_files(executable)

    def cmdline(self, executable, options, task, rlimits):
        if not options:
            raise benchexec.tools.template.UnsupportedFeatureException(
                "no solver command in the benchmark definition"
            )
        flags = ["--times"]
        if self.CONTINUE_AFTER_UNKNOWN:
            flags.append("--continue-after-unknown")
        return [executable, *flags, "--", *common.resolve(options), task.single_input_file]

    def determine_result(self, run):
        if any(line.startswith(("WRONG", "BAD")) for line in run.output):
            return result.RESULT_ERROR
        # The solver's own error message passed through: an error, not "done".
        if any(line.lstrip().startswith("(error") for line in run.output):
            return result.RESULT_ERROR
        if run.exit_code.value == 0:
            return result.RESULT_DONE
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        if identifier == "correct":
            return len(_answers(output))
        if identifier == "wrong":
            return int(any(line.startswith("WRONG") for line in output))
        if identifier == "last-answer-time":
            times = [line.split()[1] for line in output if line.startswith("time ")]
            return times[-1] if times else None
        return None
