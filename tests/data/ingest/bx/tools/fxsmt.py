# Tool-info module for the ingestion fixtures (BenchExec >= 3.3, BaseTool2).
# It answers like SMT-COMP's tool.py (first line that is not blank, `success`
# or a `;` comment decides), but returns the answer even when the run was
# killed, so BenchExec produces combined statuses such as `TIMEOUT (true)`.
import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    def executable(self, tool_locator):
        return tool_locator.find_executable("fx-solver", subdir="bin")

    def name(self):
        return "FxSMT"

    def version(self, executable):
        return "1.0"

    def cmdline(self, executable, options, task, rlimits):
        mode = (task.options or {}).get("mode") if isinstance(task.options, dict) else None
        if mode == "raise":
            raise benchexec.tools.template.UnsupportedFeatureException("fixture: tool-info refuses this task")
        if mode == "failed":
            return ["./bin/does-not-exist", *task.input_files]
        return [executable, *options, *task.input_files]

    def determine_result(self, run):
        for line in run.output:
            line = line.strip()
            if line == "" or line == "success" or line.startswith(";"):
                continue
            if line in ("valid", "holey"):
                return result.RESULT_FALSE_PROP
            if line == "invalid":
                return "ERROR (invalid proof)"
            if line == "sat":
                return result.RESULT_TRUE_PROP
            if line == "unsat":
                return result.RESULT_FALSE_PROP
            if "error" in line.lower():
                return result.RESULT_ERROR
            return result.RESULT_UNKNOWN
        return result.RESULT_UNKNOWN
