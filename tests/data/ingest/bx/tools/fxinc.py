# Tool-info module for the incremental fixtures: runs smtcomp-trace-executor
# (with --times) around the fixture solver and reports DONE/ERROR like
# SMT-COMP's incremental_tool.py (the answers are counted from the log).
import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    def executable(self, tool_locator):
        return tool_locator.find_executable("smtcomp-trace-executor", subdir="bin")

    def name(self):
        return "FxInc"

    def version(self, executable):
        return "1.0"

    def cmdline(self, executable, options, task, rlimits):
        return [executable, "--continue-after-unknown", "--times", *options, *task.input_files]

    def determine_result(self, run):
        for line in run.output:
            if line.startswith("WRONG") or line.startswith("BAD"):
                return result.RESULT_ERROR
        return result.RESULT_DONE
