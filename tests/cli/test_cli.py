#!/usr/bin/env python3
"""Command-line behaviour of the cuhost executable: exit codes, argv, usage
errors, `info` without a driver, the numba compatibility package, and cuhost
as python3 (-c, -m, -, interpreter flags, sys.executable, subprocesses and
multiprocessing children that run kernels).

Run by CTest as `python3 test_cli.py CUHOST`; prints one line per case and a
closing 'N passed, N failed' line; exits 1 if any case failed.
"""
import glob
import os
import subprocess
import sys
import tempfile

CUHOST = os.path.abspath(sys.argv[1])
results = []


def run(*args, env=None, stdin=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([CUHOST, *args], capture_output=True, text=True, env=e, timeout=120,
                          input=stdin if stdin is not None else "")


def case(fn):
    try:
        fn()
        results.append((fn.__name__, None))
    except AssertionError as ex:
        results.append((fn.__name__, str(ex) or "assertion failed"))
    return fn


def script(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    f.write(text)
    f.close()
    return f.name


def has_driver():
    return "CUDA driver none" not in run("info").stdout


@case
def exit_code_is_the_scripts():
    for code in (0, 3, 42):
        p = run("--backend", "cpu", "run", script("import sys\nsys.exit(%d)\n" % code))
        assert p.returncode == code, (code, p.returncode, p.stderr)


@case
def sys_exit_none_and_message():
    assert run("run", script("import sys\nsys.exit()\n")).returncode == 0
    p = run("run", script("import sys\nsys.exit('bad thing')\n"))
    assert p.returncode == 1 and "bad thing" in p.stderr, p.stderr


@case
def uncaught_exception_prints_traceback_and_exits_1():
    path = script("def f():\n    raise ValueError('boom 123')\nf()\n")
    p = run("run", path)
    assert p.returncode == 1, p.returncode
    assert "Traceback (most recent call last)" in p.stderr, p.stderr
    assert "ValueError: boom 123" in p.stderr, p.stderr
    assert 'line 2, in f' in p.stderr, p.stderr


@case
def syntax_error_in_script_exits_1_with_location():
    path = script("x = (1,\n")
    p = run("run", path)
    assert p.returncode == 1 and "SyntaxError" in p.stderr and path in p.stderr, p.stderr


@case
def argv_is_script_and_its_arguments():
    path = script("import sys, json\nprint(json.dumps(sys.argv))\n")
    p = run("run", path, "a", "--backend", "-v", "x y")
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == '["%s", "a", "--backend", "-v", "x y"]' % path, p.stdout


@case
def options_after_the_command():
    path = script("import cuda\nprint(cuda.backend())\n")
    p = run("run", "--backend", "cpu", path)
    assert p.returncode == 0 and p.stdout.strip() == "cpu", (p.stdout, p.stderr)


@case
def missing_script_exits_2_with_usage():
    p = run("run", "/nonexistent/script.py")
    assert p.returncode == 2, p.returncode
    assert "script not found: '/nonexistent/script.py'" in p.stderr and "usage: cuhost" in p.stderr, p.stderr


@case
def directory_as_script_exits_2():
    p = run("run", tempfile.gettempdir())
    assert p.returncode == 2 and "is a directory, not a script" in p.stderr, p.stderr


@case
def unreadable_script_exits_2():
    if os.geteuid() == 0:
        return  # root reads everything; covered by the directory case
    path = script("print(1)\n")
    os.chmod(path, 0)
    p = run("run", path)
    assert p.returncode == 2 and "cannot read script" in p.stderr, p.stderr


@case
def unknown_option_exits_2():
    p = run("--frobnicate", "info")
    assert p.returncode == 2 and "unrecognised option '--frobnicate'" in p.stderr and "usage:" in p.stderr, p.stderr


@case
def missing_option_value_exits_2():
    p = run("run", "--backend")
    assert p.returncode == 2 and "option '--backend' needs a value" in p.stderr, p.stderr


@case
def bad_backend_value_exits_2():
    p = run("--backend", "tpu", "info")
    assert p.returncode == 2 and "invalid value for --backend: 'tpu'" in p.stderr, p.stderr


@case
def bad_kernel_timeout_exits_2_and_a_good_one_reaches_children():
    for value in ("0", "-1", "soon"):
        p = run("--kernel-timeout", value, "info")
        assert p.returncode == 2 and "--kernel-timeout" in p.stderr, (value, p.stderr)
    spin = ("from numba import cuda\n"
            "@cuda.jit\n"
            "def spin(out):\n"
            "    k = 0\n"
            "    while k >= 0:\n"
            "        k = (k + 7) % 100\n"
            "    out[0] = k\n"
            "import numpy as np\n"
            "try:\n"
            "    spin[1, 1](np.zeros(1))\n"
            "except Exception as e:\n"
            "    print(type(e).__name__, 'timeout' in str(e))\n")
    child = ("import subprocess, sys; r = subprocess.run([sys.executable, '-c', %r], capture_output=True, "
             "text=True, timeout=60); print(r.stdout.strip())" % spin)
    p = run("--backend", "cpu", "--kernel-timeout", "0.3", "-c", child)
    assert p.returncode == 0 and p.stdout.strip() == "KernelError True", (p.stdout, p.stderr)


@case
def kernel_timeout_and_a_launchs_deadline_the_shorter_applies():
    # A script's cuhost.kernel_deadline only tightens --kernel-timeout; the
    # KernelError names the limit that applied.
    script = ("import cuhost, numpy as np\n"
              "from numba import cuda\n"
              "@cuda.jit\n"
              "def spin(out):\n"
              "    k = 0\n"
              "    while k >= 0:\n"
              "        k = (k + 7) % 100\n"
              "    out[0] = k\n"
              "for s in (0.1, 30):\n"
              "    with cuhost.kernel_deadline(s):\n"
              "        try:\n"
              "            spin[1, 1](np.zeros(1))\n"
              "        except Exception as e:\n"
              "            print(type(e).__name__, str(e).split(' and was stopped')[0])\n")
    p = run("--backend", "cpu", "--kernel-timeout", "0.3", "-c", script)
    assert p.returncode == 0, (p.stdout, p.stderr)
    assert p.stdout.splitlines() == [
        "KernelError kernel 'spin' ran longer than its launch's deadline of 0.1 s (per launch: cuhost.kernel_deadline)",
        "KernelError kernel 'spin' ran longer than the kernel timeout of 0.3 s (--kernel-timeout)"], p.stdout


@case
def memory_quota_sizes_and_children():
    for value in ("0", "lots", "5X", "2GiBs", "99999999999999999999"):
        p = run("--memory-quota", value, "info")
        assert p.returncode == 2 and ("invalid value for --memory-quota: '%s'" % value) in p.stderr, (value, p.stderr)
    # Sizes are powers of 1024; the python form takes the option too, and a
    # child cuhost inherits the quota (CUHOST_MEMORY_QUOTA).
    show = "from numba import cuda; print(cuda.current_context().get_memory_info().total)"
    for value, size in (("512K", 512 << 10), ("3M", 3 << 20), ("2GiB", 2 << 30), ("1048577", 1048577)):
        p = run("--backend", "cpu", "--memory-quota", value, "-c", show)
        assert p.returncode == 0 and p.stdout.strip() == str(size), (value, p.stdout, p.stderr)
    child = ("import subprocess, sys; r = subprocess.run([sys.executable, '-c', %r], capture_output=True, "
             "text=True, timeout=60); print(r.stdout.strip())" % show)
    p = run("--backend", "cpu", "--memory-quota", "64M", "-c", child)
    assert p.returncode == 0 and p.stdout.strip() == str(64 << 20), (p.stdout, p.stderr)


@case
def missing_script_of_run_and_of_the_python_form_exit_2():
    p = run("run")
    assert p.returncode == 2 and "'run' needs a script path" in p.stderr, p.stderr
    # Without a command the line is python3's: `launch` is a script name, as in `python3 launch`.
    p = run("--backend", "cpu", "launch")
    assert p.returncode == 2 and "can't open file '%s': [Errno 2]" % os.path.abspath("launch") in p.stderr, p.stderr


@case
def python_form_runs_code_modules_scripts_and_stdin():
    p = run("--backend", "cpu", "-c", "import sys; print(sys.argv, sys.path[0] == '')", "x", "-y")
    assert p.returncode == 0 and p.stdout.strip() == "['-c', 'x', '-y'] True", (p.stdout, p.stderr)
    p = run("--backend", "cpu", "-", "a", stdin="import sys\nprint('from stdin', sys.argv)\n")
    assert p.returncode == 0 and p.stdout.strip() == "from stdin ['-', 'a']", (p.stdout, p.stderr)
    p = run("--backend", "cpu", stdin="print(6 * 7)\n")  # no argument at all: standard input, as python3
    assert p.returncode == 0 and p.stdout.strip() == "42", (p.stdout, p.stderr)
    path = script("import os, sys\nprint(sys.argv[1:], sys.path[0] == os.path.dirname(os.path.realpath(__file__)))\n")
    p = run("--backend", "cpu", path, "--backend", "z")  # after the script everything is the script's
    assert p.returncode == 0 and p.stdout.strip() == "['--backend', 'z'] True", (p.stdout, p.stderr)
    p = run("--backend", "cpu", "-m", "json.tool", stdin='{"b": [1, 2]}')
    assert p.returncode == 0 and '"b": [' in p.stdout, (p.stdout, p.stderr)
    # A script literally named like a command: `cuhost ./run` (or `cuhost run run`).
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "run"), "w") as f:
        f.write("print('the script named run')\n")
    p = subprocess.run([CUHOST, "--backend", "cpu", "./run"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "the script named run", (p.stdout, p.stderr)
    p = subprocess.run([CUHOST, "--backend", "cpu", "run", "run"], cwd=folder, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "the script named run", (p.stdout, p.stderr)


def module_tree():
    """A folder of modules and packages to run with -m, and the two runnable
    containers (a folder and a zip archive holding __main__.py)."""
    root = tempfile.mkdtemp()

    def put(path, text=""):
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)

    main_report = ("import pickle, sys\n"
                   "class Point:\n"
                   "    def __init__(self, x):\n"
                   "        self.x = x\n"
                   "p = pickle.loads(pickle.dumps(Point(7)))\n"
                   "print(__name__, repr(__package__), __spec__ and __spec__.name, sys.argv,\n"
                   "      __file__ == (__spec__ and __spec__.origin), __cached__ == (__spec__ and __spec__.cached),\n"
                   "      type(__loader__).__name__, type(p).__module__, p.x,\n"
                   "      getattr(sys.modules['__main__'], 'Point', None) is Point,\n"
                   "      sorted(k for k in globals() if k.startswith('__')))\n"
                   "if __name__ == '__main__':\n"
                   "    import atexit\n"
                   "    atexit.register(print, 'atexit of', __spec__ and __spec__.name)\n")
    put("mod.py", '"""the doc"""\n' + main_report + "print(__doc__)\n")
    put("pkg/__init__.py", "print('pkg init')\n")
    put("pkg/__main__.py", main_report)
    put("pkg/sub/__init__.py")
    put("pkg/sub/tool.py", main_report)
    put("plain/__init__.py")
    put("namespace/inner/x.py")
    put("raises.py", "def f():\n    raise ValueError('boom')\nf()\n")
    put("broken/__init__.py", "raise ImportError('inside broken', name='other')\n")
    put("warned/__init__.py", "from . import tool\n")
    put("warned/tool.py", "print('tool', __name__)\n")
    put("app/__main__.py", main_report)
    put("noapp/other.py")
    import zipfile
    with zipfile.ZipFile(os.path.join(root, "app.zip"), "w") as z:
        z.write(os.path.join(root, "app", "__main__.py"), "__main__.py")
    return root


def same_as_python3(args, folder, stdin=""):
    """Runs `args` under python3 and under cuhost in `folder`: the same
    exit code and output; python3's one-line messages start with
    sys.executable where cuhost's start with 'cuhost' (tracebacks: the same
    last line; python3's also list runpy's frames)."""
    ours = subprocess.run([CUHOST, "--backend", "cpu", *args], cwd=folder, capture_output=True, text=True,
                          timeout=120, input=stdin)
    theirs = subprocess.run([sys.executable, *args], cwd=folder, capture_output=True, text=True, timeout=120,
                            input=stdin)
    assert ours.returncode == theirs.returncode, (args, ours.returncode, theirs.returncode, ours.stderr)
    assert ours.stdout == theirs.stdout, (args, ours.stdout, theirs.stdout)
    expected = theirs.stderr.replace(sys.executable + ": ", "cuhost: ")
    if "Traceback" in expected:
        expected, got = expected.strip().splitlines()[-1], ours.stderr.strip().splitlines()[-1]
        assert "runpy" not in ours.stderr, ours.stderr
    else:
        got = ours.stderr
    assert got == expected, (args, got, expected)
    return ours


@case
def modules_run_as_python3_runs_them():
    folder = module_tree()
    p = same_as_python3(["-m", "mod", "a", "-b"], folder)
    assert p.stdout.startswith("__main__ '' mod ['%s', 'a', '-b'] True True SourceFileLoader __main__ 7 True"
                               % os.path.join(folder, "mod.py")), p.stdout
    assert p.stdout.endswith("the doc\natexit of mod\n"), p.stdout
    p = same_as_python3(["-m", "pkg", "x"], folder)  # a package runs its __main__
    assert p.stdout.startswith("pkg init\n__main__ 'pkg' pkg.__main__ ['%s', 'x']"
                               % os.path.join(folder, "pkg", "__main__.py")), p.stdout
    same_as_python3(["-m", "pkg.sub.tool"], folder)
    same_as_python3(["-m", "pkg.__main__"], folder)
    p = same_as_python3(["-m", "json.tool"], folder, stdin='{"b": [1, 2]}')
    assert '"b": [' in p.stdout, p.stdout
    # Modules python3 refuses, each in one line and exit code 1.
    for name, why in (("nosuch", "No module named nosuch"),
                      ("plain", "No module named plain.__main__; 'plain' is a package and cannot be directly executed"),
                      ("namespace", "No module named namespace.__main__; 'namespace' is a package and cannot be "
                                    "directly executed"),
                      (".rel", "Relative module names not supported"),
                      ("nosuch.x", "Error while finding module specification for 'nosuch.x' (ModuleNotFoundError: "
                                   "No module named 'nosuch')"),
                      ("mod.py", "Error while finding module specification for 'mod.py' (ModuleNotFoundError: "
                                 "__path__ attribute not found on 'mod' while trying to find 'mod.py'). Try using "
                                 "'mod' instead of 'mod.py' as the module name.")):
        p = same_as_python3(["-m", name], folder)
        assert p.returncode == 1 and p.stderr.endswith("cuhost: %s\n" % why), (name, p.stderr)
    # A namespace package's folder itself: no loader.
    p = same_as_python3(["-m", "namespace.inner"], folder)
    assert p.returncode == 1 and "is a package and cannot be directly executed" in p.stderr, p.stderr
    # Errors inside the module, or inside its package's import, keep their traceback.
    p = same_as_python3(["-m", "raises"], folder)
    assert p.returncode == 1 and p.stderr.strip().endswith("ValueError: boom"), p.stderr
    assert 'raises.py", line 2, in f' in p.stderr, p.stderr
    p = same_as_python3(["-m", "broken.x"], folder)
    assert p.returncode == 1 and p.stderr.strip().endswith("ImportError: inside broken"), p.stderr
    # A module its package imported already: python3's RuntimeWarning (an error under -W error).
    p = same_as_python3(["-W", "error", "-m", "warned.tool"], folder)
    assert p.returncode == 1 and "RuntimeWarning: 'warned.tool' found in sys.modules" in p.stderr, p.stderr


def on_a_terminal(argv, cwd, line):
    """Runs argv with a pseudo-terminal as its standard streams, types `line`
    at the first prompt, then end-of-file; (exit code, everything shown)."""
    import pty
    import select
    import time
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    shown, typed, deadline = b"", False, time.time() + 120
    while time.time() < deadline:
        if select.select([master], [], [], 0.5)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        if not typed and b">>> " in shown:
            os.write(master, line.encode() + b"\n\x04")
            typed = True
        if p.poll() is not None and not select.select([master], [], [], 0.2)[0]:
            break
    if p.poll() is None:
        p.kill()
    os.close(master)
    return p.wait(timeout=30), shown.decode(errors="replace")


@case
def interactive_prompt_after_a_module_sees_its_globals():
    folder = module_tree()
    line = "print('at the prompt', __name__, __spec__.name, Point.__module__)"
    for argv in ([sys.executable, "-i", "-m", "mod"], [CUHOST, "--backend", "cpu", "-i", "-m", "mod"]):
        rc, shown = on_a_terminal(argv, folder, line)
        assert rc == 0 and "\nat the prompt __main__ mod __main__\r\n" in shown, (argv[0], rc, shown)


@case
def runnable_folders_and_archives_run_as_python3_runs_them():
    folder = module_tree()
    for container in ("app", "app.zip"):
        p = same_as_python3([container, "q"], folder)
        assert p.stdout.startswith("__main__ '' __main__ ['%s', 'q'] True True" % container), p.stdout
        assert p.stdout.endswith("atexit of __main__\n"), p.stdout
    p = same_as_python3(["noapp"], folder)
    assert p.returncode == 1 and p.stderr == "cuhost: can't find '__main__' module in '%s'\n" % os.path.join(
        folder, "noapp"), p.stderr


@case
def python_form_reads_interpreter_flags_as_python3():
    code = "import sys; print(sys.flags.dev_mode, sys.flags.optimize, sys.flags.ignore_environment, sys.warnoptions)"
    p = run("--backend", "cpu", "-u", "-X", "dev", "-O", "-E", "-W", "error::UserWarning", "-c", code)
    # -X dev puts 'default' first among the warning options, as in python3
    assert p.returncode == 0 and p.stdout.strip() == "True 1 1 ['default', 'error::UserWarning']", (p.stdout, p.stderr)
    p = run("--backend", "cpu", "-I", "-c", "import sys; print(sys.flags.isolated, sys.path[0] != '')")
    assert p.returncode == 0 and p.stdout.strip() == "1 True", (p.stdout, p.stderr)
    p = run("--backend", "cpu", "-W", "error", "-c", "import warnings; warnings.warn('w1')")
    assert p.returncode == 1 and "UserWarning: w1" in p.stderr, p.stderr
    p = run("--backend", "cpu", "-Z")  # an option python3 does not know: python3's message, exit 2
    assert p.returncode == 2 and "Unknown option: -Z" in p.stderr, p.stderr


@case
def sys_executable_is_cuhost_and_children_inherit_the_backend():
    p = run("--backend", "cpu", "-c", "import sys; print(sys.executable)")
    assert p.returncode == 0 and os.path.samefile(p.stdout.strip(), CUHOST), (p.stdout, p.stderr)
    child = ("import subprocess, sys; r = subprocess.run([sys.executable, '-c', "
             "'from numba import cuda; import numba; print(cuda.backend(), numba.__version__)'], "
             "capture_output=True, text=True); print(r.returncode, r.stdout.strip(), repr(r.stderr))")
    p = run("--backend", "cpu", "-c", child)
    assert p.returncode == 0 and p.stdout.startswith("0 cpu ") and "cuhost" in p.stdout, (p.stdout, p.stderr)
    assert p.stdout.strip().endswith("''"), p.stdout  # the child chose no backend itself: no fallback line


@case
def atexit_handlers_and_threads_finish_before_exit():
    code = ("import atexit, sys, threading, time\n"
            "atexit.register(lambda: print('atexit ran'))\n"
            "threading.Thread(target=lambda: (time.sleep(0.3), print('thread done'))).start()\n"
            "sys.exit(4)\n")
    p = run("--backend", "cpu", "run", script(code))
    assert p.returncode == 4 and p.stdout.split() == ["thread", "done", "atexit", "ran"], (p.stdout, p.stderr)


@case
def the_end_of_a_run_is_python3s():
    # An executor left open with work pending (threading's exit callbacks
    # shut it down: no hang), a non-daemon thread, atexit handlers and the
    # finalizers of module globals: the same output, in the same order, as
    # python3 gives.
    code = ("import atexit, concurrent.futures, threading, time\n"
            "pool = concurrent.futures.ThreadPoolExecutor(2)\n"
            "pool.submit(lambda: (time.sleep(0.3), print('pool task done', flush=True)))\n"
            "threading.Thread(target=lambda: (time.sleep(0.2), print('thread done', flush=True))).start()\n"
            "atexit.register(print, 'first handler, run last')\n"
            "atexit.register(lambda: print('second handler, run first'))\n"
            "class Goodbye:\n"
            "    def __del__(self):\n"
            "        print('finalizer of a module global')\n"
            "g = Goodbye()\n"
            "print('end of script', flush=True)\n")
    path = script(code)
    ours = run("--backend", "cpu", path)
    theirs = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=120)
    assert ours.returncode == theirs.returncode == 0, (ours.returncode, ours.stderr)
    assert ours.stdout == theirs.stdout and ours.stdout.splitlines() == [
        "end of script", "thread done", "pool task done", "second handler, run first", "first handler, run last",
        "finalizer of a module global"], (ours.stdout, theirs.stdout)


@case
def daemon_threads_in_kernel_launches_do_not_stop_the_exit():
    # Daemon threads launching kernels, copying and compiling while the main
    # thread ends: the interpreter ends them; the exit code is the script's.
    code = ("import sys, threading\nimport numpy as np\nfrom numba import cuda\n"
            "@cuda.jit\ndef inc(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 1\n"
            "started = threading.Barrier(4)\n"
            "def launches():\n    d = cuda.to_device(np.zeros(1 << 16, np.float32))\n    started.wait()\n"
            "    while True:\n        inc[256, 256](d)\n"
            "def copies():\n    started.wait()\n"
            "    while True:\n        cuda.to_device(np.arange(4096.0)).copy_to_host()\n"
            "def compiles():\n    started.wait()\n    n = 0\n    while True:\n        n += 1\n"
            "        @cuda.jit\n        def k(a, v):\n            a[cuda.grid(1)] = v\n"
            "        k[1, 32](cuda.device_array(32), float(n))\n"
            "for target in (launches, copies, compiles):\n"
            "    threading.Thread(target=target, daemon=True).start()\n"
            "started.wait()\nd = cuda.to_device(np.arange(1000.0))\ninc[4, 256](d)\n"
            "print((d.copy_to_host() == np.arange(1.0, 1001.0)).all())\nsys.exit(3)\n")
    path = script(code)
    for _ in range(3):
        p = run("--backend", "cpu", path)
        assert p.returncode == 3 and p.stdout == "True\n", (p.returncode, p.stdout, p.stderr[-2000:])


@case
def teardown_callbacks_run_after_the_scripts_atexit_handlers():
    code = ("import atexit\nimport numpy as np\nfrom numba import cuda\n"
            "source = 'extern \"C\" __device__ int twice(int* out, int x) { *out = 2 * x; return 0; }'\n"
            "lib = cuda.CUSource(source, setup_callback=lambda m: print('setup'),\n"
            "                    teardown_callback=lambda m: print('teardown', flush=True))\n"
            "twice = cuda.declare_device('twice', 'int32(int32)', link=[lib])\n"
            "@cuda.jit\ndef kernel(out):\n    out[0] = twice(21)\n"
            "out = cuda.device_array(1, np.int32)\nkernel[1, 1](out)\n"
            "atexit.register(print, 'atexit', out.copy_to_host()[0])\nprint('end of script')\n")
    p = run("--backend", "cpu", "run", script(code))
    assert p.returncode == 0 and p.stdout.split("\n") == ["setup", "end of script", "atexit 42", "teardown", ""], (
        p.stdout, p.stderr)


@case
def multiprocessing_pool_workers_launch_kernels():
    here = os.path.dirname(os.path.abspath(__file__))
    for method in ("spawn", "forkserver", "fork"):
        p = run("--backend", "cpu", os.path.join(here, "mp_pool_kernels.py"), method)
        assert p.returncode == 0, (method, p.stdout, p.stderr)
        assert p.stdout.strip() == "%s: 4 workers' results match NumPy on cpu" % method, (method, p.stdout)


@case
def multiprocessing_on_the_gpu():
    if not has_driver():
        return  # GPU machine only (the null-driver test fork_after_init.py covers the host side in CI)
    here = os.path.dirname(os.path.abspath(__file__))
    for method in ("spawn", "forkserver"):
        p = run("--backend", "cuda", os.path.join(here, "mp_pool_kernels.py"), method)
        assert p.returncode == 0 and p.stdout.strip() == "%s: 4 workers' results match NumPy on cuda" % method, (
            method, p.stdout, p.stderr)
    p = run("--backend", "cuda", os.path.join(here, "mp_pool_kernels.py"), "fork")
    assert p.returncode == 1 and "CUDA initialized before forking" in p.stderr, (p.stdout, p.stderr)


@case
def pytest_and_unittest_run_as_modules():
    p = run("--backend", "cpu", "-m", "pytest", "--version")
    assert p.returncode == 0 and "pytest 7." in (p.stdout + p.stderr), (p.stdout, p.stderr)
    test = script("from numba import cuda\nimport numpy as np\n\n"
                  "def test_kernel():\n"
                  "    @cuda.jit\n"
                  "    def inc(a):\n"
                  "        a[cuda.grid(1)] += 1\n"
                  "    x = np.arange(64, dtype=np.int32)\n"
                  "    inc[2, 32](x)\n"
                  "    assert (x == np.arange(1, 65)).all()\n\n"
                  "def test_fails():\n"
                  "    assert 1 == 2\n")
    p = run("--backend", "cpu", "-m", "pytest", "-q", "-p", "no:cacheprovider", test)
    assert p.returncode == 1 and "1 failed, 1 passed" in p.stdout, (p.stdout, p.stderr)
    unit = script("import unittest\nimport numpy as np\nfrom numba import cuda\n\n"
                  "class T(unittest.TestCase):\n"
                  "    def test_kernel(self):\n"
                  "        @cuda.jit\n"
                  "        def dbl(a):\n"
                  "            a[cuda.grid(1)] *= 2\n"
                  "        x = np.arange(32.0)\n"
                  "        dbl[1, 32](x)\n"
                  "        self.assertTrue((x == 2 * np.arange(32.0)).all())\n\n"
                  "    def test_fails(self):\n"
                  "        self.assertEqual(1, 2)\n")
    p = subprocess.run([CUHOST, "--backend", "cpu", "-m", "unittest", os.path.basename(unit)[:-3]],
                       cwd=os.path.dirname(unit), capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "Ran 2 tests" in p.stderr and "FAILED (failures=1)" in p.stderr, p.stderr


@case
def help_and_version():
    p = run("--help")
    assert p.returncode == 0, p.returncode
    for word in ("run SCRIPT", "info", "plugins", "bench", "--backend", "--device", "--verbose", "--streams",
                 "--plugin-path", "--no-bounds-check", "--nccl", "--nccl-devices", "CUHOST_PLUGIN_PATH"):
        assert word in p.stdout, word
    p = run("--version")
    assert p.returncode == 0 and p.stdout.startswith("cuhost 0."), p.stdout


@case
def info_reports_versions_and_backend():
    p = run("info")
    assert p.returncode == 0, p.stderr
    for word in ("LLVM        19.", "NVRTC", "nvJitLink", "Python      3.11", "NCCL        ", "MPI         ",
                 "backends: cpu"):
        assert word in p.stdout, (word, p.stdout)
    if not has_driver():
        assert "CUDA driver none" in p.stdout and "the CPU backend serves" in p.stdout, p.stdout
        assert "backend in use: cpu" in p.stdout, p.stdout


@case
def no_driver_falls_back_with_one_line():
    if has_driver():
        return
    p = run("run", script("import cuda\nprint(cuda.backend())\n"))
    assert p.returncode == 0 and p.stdout.strip() == "cpu", p.stdout
    lines = [l for l in p.stderr.splitlines() if "CPU backend" in l]
    assert len(lines) == 1, p.stderr


@case
def backend_cuda_without_driver_fails_clearly():
    if has_driver():
        return
    p = run("--backend", "cuda", "run", script("print(1)\n"))
    assert p.returncode == 1, p.returncode
    assert "--backend cuda was requested but CUDA is unavailable" in p.stderr, p.stderr


@case
def binary_does_not_link_libcuda():
    binary = CUHOST
    with open(CUHOST, "rb") as f:
        if f.read(2) == b"#!":  # a bundle's wrapper script: check the real binary
            binary = CUHOST + ".bin"
    # The executable and the engine library beside it (lib/ of the install
    # or bundle layout), resolved as the wrapper or the run path resolves them.
    libdir = os.path.normpath(os.path.join(os.path.dirname(os.path.realpath(binary)), "..", "lib"))
    env = dict(os.environ, LD_LIBRARY_PATH=libdir + os.pathsep + os.environ.get("LD_LIBRARY_PATH", ""))
    out = ""
    for f in [binary] + sorted(glob.glob(os.path.join(libdir, "libcuhost.so*"))):
        p = subprocess.run(["ldd", f], capture_output=True, text=True, env=env)
        assert p.returncode == 0, p.stdout + p.stderr
        out += p.stdout
    assert "libpython3.11" in out, out
    assert "libcuda.so" not in out, out


@case
def numba_import_means_cuhost():
    code = ("from numba import cuda\nimport cuda as c\nimport numba, numba.cuda\n"
            "from numba import float32, types\nfrom numba.core.errors import TypingError\n"
            "assert cuda is c and numba.cuda is c and types.float32 is float32\n"
            "assert TypingError is c.TypingError\n"
            "print(numba.__version__)\n")
    p = run("run", script(code))
    assert p.returncode == 0 and "cuhost" in p.stdout, (p.stdout, p.stderr)


@case
def installed_numba_is_numba_and_numba_cuda_is_cuhost():
    # Where numba is installed, `import numba` is numba itself (README, "Use it
    # in your environment"); numba.cuda stays cuhost's, and CUHOST_REAL_NUMBA=0
    # keeps cuhost's own numba package.
    fake = tempfile.mkdtemp()
    os.makedirs(os.path.join(fake, "numba", "core"))
    with open(os.path.join(fake, "numba", "__init__.py"), "w") as f:
        f.write("__version__ = '0.99.0+installed'\n")
    open(os.path.join(fake, "numba", "core", "dispatcher.py"), "w").close()  # numba's compiler is what makes it numba
    # A folder merely named numba (numba-cuda's source layout, a test overlay) is not numba.
    overlay = tempfile.mkdtemp()
    os.makedirs(os.path.join(overlay, "numba", "cuda"))
    with open(os.path.join(overlay, "numba", "__init__.py"), "w") as f:
        f.write("raise RuntimeError('an overlay named numba was imported')\n")
    p = run("run", script("from numba import cuda\nprint(cuda.__name__)\n"), env={"PYTHONPATH": overlay})
    assert p.returncode == 0 and p.stdout.strip() == "cuda", (p.stdout, p.stderr)
    code = "import numba\nfrom numba import cuda\nprint(numba.__version__, cuda.__name__, cuda.implementation)\n"
    p = run("run", script(code), env={"PYTHONPATH": fake})
    assert p.returncode == 0 and p.stdout.strip() == "0.99.0+installed cuda cuhost", (p.stdout, p.stderr)
    p = run("run", script(code), env={"PYTHONPATH": fake, "CUHOST_REAL_NUMBA": "0"})
    assert p.returncode == 0 and p.stdout.split()[0].startswith("0.0.0+cuhost"), (p.stdout, p.stderr)
    assert p.stdout.split()[1:] == ["cuda", "cuhost"], p.stdout


@case
def python_is_initialized_once():
    code = "import sys\nimport numpy as np\nprint(np.arange(3).sum(), sys.version_info[:2])\n"
    p = run("run", script(code))
    assert p.returncode == 0 and p.stdout.strip() == "3 (3, 11)", (p.stdout, p.stderr)


@case
def cpu_target_is_the_hosts_or_the_one_named():
    code = ("from numba import cuda\nimport numpy as np, math\n"
            "@cuda.jit\ndef k(x, y, out):\n    i = cuda.grid(1)\n"
            "    if i < out.size:\n        out[i] = math.exp(x[i]) * y[i] + math.sqrt(abs(x[i]))\n"
            "rng = np.random.default_rng(7)\nx = rng.standard_normal(1000)\ny = rng.standard_normal(1000)\n"
            "out = np.empty_like(x)\nk[8, 128](x, y, out)\n"
            "print(np.allclose(out, np.exp(x) * y + np.sqrt(np.abs(x)), rtol=1e-12))\n")
    path = script(code)
    for cpu in ("", "x86-64", "x86-64-v3"):
        p = run("--backend", "cpu", "run", path, env={"CUHOST_CPU": cpu})
        assert p.returncode == 0 and p.stdout.strip() == "True", (cpu, p.stdout, p.stderr)
    p = run("--backend", "cpu", "run", path, env={"CUHOST_CPU": "pentium9000"})
    assert p.returncode == 1, p.returncode
    assert "ValueError: CUHOST_CPU='pentium9000' is not a CPU LLVM knows" in p.stderr, p.stderr


failed = [r for r in results if r[1] is not None]
for name, err in results:
    print(("ok   " if err is None else "FAIL ") + name + ("" if err is None else ": " + err))
print("%d passed, %d failed" % (len(results) - len(failed), len(failed)))
sys.exit(1 if failed else 0)
