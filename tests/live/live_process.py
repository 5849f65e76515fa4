"""A process under test whose output lines are read as they come, each with
its arrival time (time.monotonic, the host's CLOCK_MONOTONIC), for the live
kernel tests (test_live_host.py, test_run_watch.py) and the benchmark
(scripts/bench/live_reload.py)."""

import subprocess
import threading
import time


class Watched:
    def __init__(self, command, cwd, stdin=True):
        self.proc = subprocess.Popen(
            command,
            cwd=cwd,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines = {"stdout": [], "stderr": []}
        self.cond = threading.Condition()
        self.readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout, "stdout"), daemon=True),
            threading.Thread(target=self._read, args=(self.proc.stderr, "stderr"), daemon=True),
        ]
        for r in self.readers:
            r.start()

    def _read(self, pipe, name):
        for line in pipe:
            with self.cond:
                self.lines[name].append((time.monotonic(), line.rstrip("\n")))
                self.cond.notify_all()

    def wait_for(self, predicate, stream="stdout", start=0, timeout=60.0):
        """The index of the first line at or after `start` for which
        predicate(text) holds; fails after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                lines = self.lines[stream]
                for i in range(start, len(lines)):
                    if predicate(lines[i][1]):
                        return i
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None and not self._more_coming():
                    raise AssertionError(
                        f"timed out waiting on {stream}; output so far:\n" + self.dump()
                    )
                self.cond.wait(min(left, 0.2))

    def _more_coming(self):
        return any(r.is_alive() for r in self.readers)

    def count(self, stream="stdout"):
        with self.cond:
            return len(self.lines[stream])

    def text(self, stream, index):
        with self.cond:
            return self.lines[stream][index]

    def dump(self):
        out = []
        for name in ("stdout", "stderr"):
            out.append(f"--- {name}")
            out.extend(text for _, text in self.lines[name])
        return "\n".join(out)

    def finish(self, timeout=60):
        try:
            if self.proc.stdin:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        for r in self.readers:
            r.join(timeout=10)
        return rc


def write_file(path, text):
    """Writes `text` the way an editor saves: the whole file, then close;
    returns the time of the close."""
    with open(path, "w") as f:
        f.write(text)
    return time.monotonic()
