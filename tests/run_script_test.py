#!/usr/bin/env python3
"""Runs one script under `cuhost run` and checks it against the directives in
its header comments:

    # args: a b c            arguments after the script
    # cuhost-args: --foo     options placed before `run`
    # exit: 3                expected exit code (default 0)
    # stdout: text           stdout must contain this line fragment (repeatable)
    # stderr: text           stderr must contain this (repeatable)
    # not-stderr: text       stderr must not contain this
    # backends: cpu          only meaningful on these backends; on others the
                             test is reported as not applicable (exit 77 -> CTest "skipped")
    # env: NAME=VALUE        environment for the run
    # timeout: 120           seconds
    # timing: alone          the script asserts durations: CTest (RUN_SERIAL) and
                             scripts/gpu/run_tests.sh run it by itself

Exit code 0 means the script behaved as declared.
"""
import argparse
import os
import shlex
import subprocess
import sys


def directives(path):
    found = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s.startswith("#"):
                if s:
                    break
                continue
            body = s[1:].strip()
            if ":" in body:
                key, value = body.split(":", 1)
                key = key.strip()
                if key in ("args", "cuhost-args", "exit", "stdout", "stderr", "not-stderr", "backends", "env",
                           "timeout"):
                    found.append((key, value.strip()))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuhost", required=True)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("script")
    opts = ap.parse_args()
    d = directives(opts.script)
    get = lambda k: [v for key, v in d if key == k]
    backends = get("backends")
    if backends and opts.backend not in backends[0].split():
        print("not applicable on backend %s (script declares %s)" % (opts.backend, backends[0]))
        return 77
    env = dict(os.environ)
    # On the CPU backend every kernel is also compiled to PTX and assembled
    # for sm_90, so the GPU code path of every test kernel is checked in CI.
    if opts.backend == "cpu":
        env.setdefault("CUHOST_VERIFY_PTX", "1")
    for e in get("env"):
        k, v = e.split("=", 1)
        env[k] = v
    cmd = [opts.cuhost, "--backend", opts.backend]
    for a in get("cuhost-args"):
        cmd += shlex.split(a)
    cmd += ["run", opts.script]
    for a in get("args"):
        cmd += shlex.split(a)
    timeout = int(get("timeout")[0]) if get("timeout") else 240
    # Under a tool that slows every launch (compute-sanitizer, run_sanitizers.sh) the limits scale.
    timeout = int(timeout * float(os.environ.get("CUHOST_TEST_TIMEOUT_SCALE", "1")))
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        print("TIMEOUT after %ds: %s" % (timeout, " ".join(cmd)))
        return 1
    expected = int(get("exit")[0]) if get("exit") else 0
    problems = []
    if p.returncode != expected:
        problems.append("exit code %d, expected %d" % (p.returncode, expected))
    for s in get("stdout"):
        if s not in p.stdout:
            problems.append("stdout lacks %r" % s)
    for s in get("stderr"):
        if s not in p.stderr:
            problems.append("stderr lacks %r" % s)
    for s in get("not-stderr"):
        if s in p.stderr:
            problems.append("stderr has %r" % s)
    if problems:
        print("FAILED: " + " ".join(shlex.quote(c) for c in cmd))
        for x in problems:
            print("  - " + x)
        print("---- stdout ----\n" + p.stdout + "---- stderr ----\n" + p.stderr)
        return 1
    print("ok: %s" % " ".join(cmd))
    return 0


if __name__ == "__main__":
    sys.exit(main())
