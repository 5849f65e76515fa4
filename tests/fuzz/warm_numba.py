"""numba kept warm for fuzz.py: each worker process holds one long-lived
`runner.py numba-serve` process, fed batch after batch through a pipe, so
numba is imported once per worker and its compile time is the cost."""
import atexit
import os
import queue
import subprocess
import threading
import time

import batch_run

HERE = os.path.dirname(os.path.abspath(__file__))


class WarmNumba:
    """One long-lived `runner.py numba-serve` process per worker: numba is
    imported once and compiles batch after batch (restarted every
    RESTART_AFTER programs, so what numba keeps per compiled function does
    not pile up)."""
    RESTART_AFTER = 600

    def __init__(self, python, env):
        self.python, self.env, self.proc, self.served = python, env, None, 0

    def start(self):
        self.proc = subprocess.Popen([self.python, os.path.join(HERE, "runner.py"), "numba-serve"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=self.env)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        self.served = 0

    @staticmethod
    def _read(proc, lines):
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def stop(self):
        if self.proc:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def run(self, folder, seeds, deadline):
        """Results per seed; seeds it could not answer (a crash or a hang
        of the server) are left out, for a one-shot rerun."""
        if self.proc is None or self.served >= self.RESTART_AFTER:
            self.stop()
            self.start()
        res = {}
        try:
            self.proc.stdin.write("%s %s\n" % (folder, " ".join(map(str, seeds))))
            self.proc.stdin.flush()
        except OSError:
            self.stop()
            return res
        limit = time.time() + batch_run.TIMEOUT_PER_PROGRAM * len(seeds) + 60
        if deadline:
            limit = min(limit, deadline)
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, limit - time.time()))
            except queue.Empty:
                line = None
            if line is None:   # hang, crash or time limit
                self.stop()
                return res
            if line.startswith("END"):
                self.served += len(seeds)
                return res
            res.update(batch_run.parse(line))


WARM = None   # the worker process's WarmNumba


def init_worker(ref_py, env):
    global WARM
    if ref_py:
        WARM = WarmNumba(ref_py, env)
        atexit.register(WARM.stop)
