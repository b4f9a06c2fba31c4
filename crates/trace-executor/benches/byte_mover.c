/* The floor of the trace-executor benchmark (scripts/bench-trace-executor):
 * the least any trace executor must do. Usage: byte_mover SOLVER ARG BENCHMARK.
 * Skips the expected answers up to the "--- BENCHMARK BEGINS HERE ---" line,
 * starts SOLVER ARG with pipes, writes the benchmark to it one line (= one
 * command in the synthetic benchmark) at a time, reads the solver's one-line
 * reply to each (print-success mode) and prints the replies to (check-sat).
 * No parsing, no checking, no statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void put(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) { perror("write"); exit(1); }
    p += w; n -= (size_t)w;
  }
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: byte_mover SOLVER ARG BENCHMARK\n"); return 2; }
  FILE *b = fopen(argv[3], "r");
  if (!b) { perror(argv[3]); return 1; }
  int to[2], from[2];
  if (pipe(to) || pipe(from)) { perror("pipe"); return 1; }
  pid_t pid = fork();
  if (pid == 0) {
    dup2(to[0], 0); dup2(from[1], 1);
    close(to[0]); close(to[1]); close(from[0]); close(from[1]);
    execl(argv[1], argv[1], argv[2], (char *)NULL);
    perror("exec"); _exit(127);
  }
  close(to[0]); close(from[1]);
  FILE *answers = fdopen(from[0], "r");
  char *line = NULL, *ans = NULL;
  size_t cap = 0, acap = 0;
  ssize_t n;
  int body = 0;
  while ((n = getline(&line, &cap, b)) > 0) {
    if (!body) { body = strcmp(line, "--- BENCHMARK BEGINS HERE ---\n") == 0; continue; }
    put(to[1], line, (size_t)n);
    if (strncmp(line, "(exit", 5) == 0) break;
    /* The solver answers every command (print-success): one line each. */
    ssize_t m = getline(&ans, &acap, answers);
    if (m <= 0) break;
    if (strncmp(line, "(check-sat", 10) == 0) fwrite(ans, 1, (size_t)m, stdout);
  }
  close(to[1]);
  fclose(answers);
  int status;
  waitpid(pid, &status, 0);
  return 0;
}
