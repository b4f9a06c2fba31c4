"""BenchExec tool-info for SMT-COMP file-based tracks (Single Query, Unsat Core,
Model Validation, Parallel, Cloud, unsat-core validation).

The solver command comes from the benchmark definition as `<option>`s (binary first);
the benchmark file is appended. The first meaningful output line decides
(blank lines, `success` and `;` comments are skipped): `sat` -> "true", `unsat` ->
"false", `unknown` -> "unknown", anything else -> "ERROR". Crashes, timeouts and
memory-outs keep BenchExec's own statuses (we return plain ERROR/unknown, which
BenchExec refines with the exit code, and limits override everything).
Columns: `unsat-core` (number of names in the core after `unsat`), `model`
("yes" when a model follows `sat`).
"""

import re

import benchexec.result as result
import benchexec.tools.template

from tools import smtcomp_common as common


class Tool(common.Solver, benchexec.tools.template.BaseTool2):
    """SMT-COMP solver on one benchmark file."""

    def executable(self, tool_locator):
        if self.BINARY:
            # A per-solver module: the solver of the first participation (the command
            # line still comes from the options; this is for version and upload).
            return self._locate(tool_locator, self.BINARY)
        # The generic module: the solver is the first option; BenchExec still wants
        # an executable: `env` is a harmless, always-present stand-in.
        return tool_locator.find_executable("env")

    def name(self):
        return self.SOLVER or "SMT-COMP solver"

    def version(self, executable):
        return self._solver_version()

    def program_files(self, executable):
        return self._program_files(executable)

    def project_url(self):
        return "https://smt-comp.github.io"

    def cmdline(self, executable, options, task, rlimits):
        if not options:
            raise benchexec.tools.template.UnsupportedFeatureException(
                "no solver command in the benchmark definition"
            )
        return [*common.resolve(options), task.single_input_file]

    def determine_result(self, run):
        answer = common.first_answer(run.output)
        if answer == "sat":
            return result.RESULT_TRUE_PROP
        if answer == "unsat":
            return result.RESULT_FALSE_PROP
        if answer in ("unknown", "other") or answer is None:
            return result.RESULT_UNKNOWN
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        rest = common.sexpr_after_answer(output)
        if rest is None or not rest.startswith("("):
            return None
        if identifier == "unsat-core" and common.first_answer(output) == "unsat":
            inner = rest.strip()[1:-1] if rest.strip().endswith(")") else None
            if inner is None:
                return None
            return len(re.findall(r"\|[^|]*\||[^\s()|]+", inner))
        if identifier == "model" and common.first_answer(output) == "sat":
            return "yes"
        return None
