"""BenchExec tool-info for the SMT-COMP Proof Exhibition Track.

Runs `smtcomp-proof-wrapper --total-budget WALL --proof-file DIR/proof.txt BENCHMARK DIR
--solver CMD... -- --checker CHECKER` (DIR: `proofs/<benchmark>-<hash>`, one per run) where CMD is the solver command (the `<option>`s) and CHECKER is
`smtcomp_checker` next to the solver binary (the 2023 archive convention). The first
line of the checker that is not a `;` comment decides: `valid`/`holey` -> "false"
(unsat, proof accepted), `sat` -> "true", `unknown` -> "unknown", `invalid` ->
"ERROR (invalid proof)", anything else -> ERROR. Column `proof`: the verdict word.
"""

import os

import benchexec.result as result
import benchexec.tools.template

from tools import smtcomp_common as common

_VERDICTS = ("valid", "holey", "invalid", "sat", "unknown")


def _verdict(output):
    for line in common.meaningful_lines(output):
        if "=" in line:
            return None
        return line if line in _VERDICTS else "error"
    return None


class Tool(common.Solver, benchexec.tools.template.BaseTool2):
    """Proof wrapper running a solver and its proof checker."""

    def executable(self, tool_locator):
        return self._helper(tool_locator, "smtcomp-proof-wrapper")

    def name(self):
        return self.SOLVER or "SMT-COMP proof wrapper"

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
        solver = common.resolve(options)
        checker = os.path.join(os.path.dirname(solver[0]) or ".", "smtcomp_checker")
        budget = ["--total-budget", str(rlimits.walltime)] if rlimits.walltime else []
        # Every run writes its proof and logs into a directory of its own: parallel runs
        # in one working directory (--no-container) must not share proof.txt.
        outdir = common.run_directory(options, task.single_input_file)
        return [executable, *budget, "--proof-file", os.path.join(outdir, "proof.txt"),
                task.single_input_file, outdir,
                "--solver", *solver, "--", "--checker", checker]

    def determine_result(self, run):
        verdict = _verdict(run.output)
        if verdict in ("valid", "holey"):
            return result.RESULT_FALSE_PROP
        if verdict == "sat":
            return result.RESULT_TRUE_PROP
        if verdict == "invalid":
            return "ERROR (invalid proof)"
        if verdict == "unknown":
            return result.RESULT_UNKNOWN
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        return _verdict(output) if identifier == "proof" else None
