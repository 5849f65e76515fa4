#!/usr/bin/env python3
"""cuhost inside a user's Python environment (README: "Use it in your
environment"), run by CTest:

    test_user_env.py refused CUHOST PYTHON WORK
        environments cuhost must refuse (made for another Python, not an
        environment at all) and the prefix form; needs no network.
    test_user_env.py alongside CUHOST PYTHON WORK
        a venv with numba and NVIDIA's cuda-python: `import numba` is numba
        (njit parallel=True and prange beside cuhost's kernels), numba.cuda is
        cuhost, cuda.bindings / cuda.core / cuda.pathfinder are NVIDIA's.
    test_user_env.py stumpy CUHOST PYTHON WORK
        stumpy (numba on the CPU, numba.cuda on the GPU) in a venv with numba:
        stump and gpu_stump checked against a brute-force matrix profile.
    test_user_env.py notebook CUHOST PYTHON WORK
        a venv with ipykernel and nbconvert: `cuhost jupyter-kernel install`
        and `cuhost -m ipykernel install` register the kernel; a notebook
        with a kernel cell runs headless (jupyter nbconvert --execute).
    test_user_env.py numpy2 CUHOST PYTHON WORK
        a venv with NumPy 2 and one pure-Python package from PyPI (made by
        make_env.py with PYTHON, the Python cuhost embeds): seen through
        VIRTUAL_ENV, --python-env and a link in the venv's bin/, by
        multiprocessing children, with kernels checked against NumPy and
        `cuhost -m pip install` landing in the venv.
The PyPI modes exit 77 (skipped, said on stderr) when PyPI cannot be reached.

Prints one line per case and 'N passed, N failed'; exits 1 if any failed.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_env  # noqa: E402

MODE, CUHOST, PYTHON, WORK = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3], os.path.abspath(sys.argv[4])
NUMPY2 = "numpy==2.4.6"
EXTRA = "tabulate==0.9.0"  # one pure-Python package
NUMBA = "numba==0.68.1"
CUDA_PYTHON = ["cuda-bindings==13.5.0", "cuda-core==1.2.2", "cuda-pathfinder==1.9.1"]
JUPYTER = ["ipykernel==7.4.0", "nbconvert==7.17.2"]
STUMPY = "stumpy==1.14.1"
results = []


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CUHOST_PYTHON_ENV", "PYTHONPATH")}
    env.update(extra)
    return env


def run(args, env=None, exe=CUHOST, timeout=300):
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env or clean_env(), timeout=timeout,
                          stdin=subprocess.DEVNULL)


def case(fn):
    try:
        fn()
        results.append((fn.__name__, None))
    except AssertionError as ex:
        results.append((fn.__name__, str(ex) or "assertion failed"))
    return fn


def embedded_version():
    p = run(["-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
    assert p.returncode == 0, p.stderr
    return p.stdout.strip()


def fake_venv(name, version):
    d = os.path.join(WORK, name)
    os.makedirs(os.path.join(d, "bin"), exist_ok=True)
    with open(os.path.join(d, "pyvenv.cfg"), "w") as f:
        f.write("home = /opt/python%s/bin\ninclude-system-site-packages = false\nversion = %s\n" % (version, version))
    return d


def refused_cases():
    embedded = embedded_version()
    other = "3.9.18" if embedded != "3.9" else "3.12.1"
    venv = fake_venv("other-python-venv", other)

    @case
    def another_python_refused_by_option():
        p = run(["--python-env", venv, "-c", "print('ran')"])
        assert p.returncode == 1 and "ran" not in p.stdout, (p.returncode, p.stdout, p.stderr)
        expected = ("cuhost: error: the Python environment %s was made for Python %s (%s/pyvenv.cfg), but cuhost "
                    "embeds Python %s" % (venv, other, venv, embedded))
        assert expected in p.stderr, p.stderr
        assert "python%s -m venv %s" % (embedded, venv) in p.stderr, p.stderr

    @case
    def another_python_refused_when_active():
        p = run(["run", os.path.join(HERE, "kernel_in_env.py")], env=clean_env(VIRTUAL_ENV=venv))
        assert p.returncode == 1, (p.returncode, p.stderr)
        assert "was made for Python %s" % other in p.stderr and "embeds Python %s" % embedded in p.stderr, p.stderr

    @case
    def virtualenv_version_info_read():
        d = os.path.join(WORK, "virtualenv-style")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "pyvenv.cfg"), "w") as f:
            f.write("home = /usr/bin\nversion_info = %s.final.0\n" % other)
        p = run(["--python-env", d, "-c", "pass"])
        assert p.returncode == 1 and "was made for Python %s.final.0" % other in p.stderr, p.stderr

    @case
    def not_an_environment():
        d = os.path.join(WORK, "just-a-folder")
        os.makedirs(d, exist_ok=True)
        p = run(["--python-env", d, "-c", "pass"])
        assert p.returncode == 1, p.returncode
        assert ("the folder %s is not a Python environment: it has neither a pyvenv.cfg (a venv) nor a "
                "lib/python%s/os.py" % (d, embedded)) in p.stderr, p.stderr
        p = run(["--python-env", os.path.join(WORK, "missing"), "-c", "pass"])
        assert p.returncode == 1 and "does not exist" in p.stderr, p.stderr

    @case
    def venv_without_numpy_says_so():
        d = os.path.join(WORK, "venv-without-numpy")
        if not os.path.exists(os.path.join(d, "pyvenv.cfg")):
            subprocess.run([PYTHON, "-m", "venv", "--without-pip", d], check=True)
        p = run(["-c", "import sys; print(sys.prefix); from numba import cuda"], env=clean_env(VIRTUAL_ENV=d))
        assert p.returncode == 1 and p.stdout.strip() == d, (p.stdout, p.stderr)
        assert ("\nModuleNotFoundError: cuhost's `cuda` module needs NumPy, which the Python environment %s does not "
                "have: install it there (cuhost -m pip install numpy)\n" % d) in p.stderr, p.stderr

    @case
    def prefix_form_is_the_installation():
        base = run(["-c", "import sys; print(sys.base_prefix)"]).stdout.strip()
        code = "import sys, numpy; print(sys.prefix); print(numpy.__version__)"
        p = run(["--python-env", base, "-c", code])
        q = run(["-c", code])
        assert p.returncode == 0, p.stderr
        assert p.stdout.splitlines() == q.stdout.splitlines() and p.stdout.splitlines()[0] == base, (p.stdout, q.stdout)


def numpy2_cases():
    venv = pypi_env("numpy2-venv", [NUMPY2, EXTRA])
    site = subprocess.run([os.path.join(venv, "bin", "python"), "-c", "import numpy, tabulate, sys; "
                           "print(numpy.__version__, tabulate.__version__, sys.prefix)"],
                          capture_output=True, text=True, check=True).stdout.split()
    code = "import sys, numpy, tabulate; print(sys.prefix, numpy.__version__, tabulate.__version__)"

    @case
    def active_venv_seen():
        p = run(["-c", code], env=clean_env(VIRTUAL_ENV=venv))
        assert p.returncode == 0, p.stderr
        assert p.stdout.split() == [site[2], site[0], site[1]], (p.stdout, site)
        assert site[0].startswith("2."), site

    @case
    def isolated_mode_ignores_active_venv():
        # python3 -E / -I ignore the environment: cuhost then ignores VIRTUAL_ENV
        # too, and the embedded Python's own prefix is used.
        base = run(["-c", "import sys; print(sys.prefix)"], env=clean_env()).stdout.strip()
        for flags in (["-E"], ["-I"], ["-sE"]):
            p = run(flags + ["-c", "import sys; print(sys.prefix)"], env=clean_env(VIRTUAL_ENV=venv))
            assert p.returncode == 0 and p.stdout.strip() == base != site[2], (flags, p.stdout, p.stderr)

    @case
    def option_seen():
        p = run(["--python-env", venv, "-c", code + "; print(sys.executable)"])
        assert p.returncode == 0, p.stderr
        assert p.stdout.split() == [site[2], site[0], site[1], CUHOST], (p.stdout, site)

    @case
    def link_in_venv_bin_seen():
        link = os.path.join(venv, "bin", "cuhost")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(CUHOST, link)
        p = run(["-c", code + "; print(sys.executable)"], exe=link)
        assert p.returncode == 0, p.stderr
        assert p.stdout.split() == [site[2], site[0], site[1], link], (p.stdout, site)
        env = clean_env(PATH=os.path.join(venv, "bin") + os.pathsep + os.environ.get("PATH", ""))
        p = run(["-c", "import sys; print(sys.prefix)"], env=env, exe="cuhost")
        assert p.returncode == 0 and p.stdout.strip() == site[2], (p.stdout, p.stderr)
        # The link's venv wins over one a parent passed on, as for the venv's python3.
        p = run(["-c", "import sys; print(sys.prefix)"], env=clean_env(CUHOST_PYTHON_ENV=WORK), exe=link)
        assert p.returncode == 0 and p.stdout.strip() == site[2], (p.stdout, p.stderr)

    @case
    def cuhosts_own_numba_and_bindings_without_them():
        code = "import numba, cuda.bindings; print(numba.__version__); print(cuda.bindings.__file__)"
        p = run(["-c", code], env=clean_env(VIRTUAL_ENV=venv))
        assert p.returncode == 0, p.stderr
        version, bindings = p.stdout.splitlines()
        assert version.startswith("0.0.0+cuhost") and not bindings.startswith(venv), p.stdout

    @case
    def system_site_packages_hidden():
        p = run(["-c", "import sys; print('\\n'.join(sys.path))"], env=clean_env(VIRTUAL_ENV=venv))
        assert p.returncode == 0, p.stderr
        assert not [e for e in p.stdout.splitlines() if e.endswith("dist-packages")], p.stdout
        assert os.path.join(venv, "lib") in p.stdout, p.stdout

    @case
    def kernels_under_numpy2():
        p = run(["run", os.path.join(HERE, "kernel_in_env.py")], env=clean_env(VIRTUAL_ENV=venv))
        assert p.returncode == 0, p.stderr
        assert "kernels ok under numpy %s from %s" % (site[0], venv) in p.stdout, p.stdout

    @case
    def multiprocessing_children_see_it():
        p = run(["--python-env", venv, os.path.join(HERE, "children_see_env.py")])
        assert p.returncode == 0, p.stderr
        rows = sorted(p.stdout.splitlines())
        assert rows == ["%s %s %s %s %s" % (m, site[2], site[0], site[1], CUHOST) for m in ("forkserver", "spawn")], rows

    @case
    def pip_installs_into_it():
        subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "uninstall", "-y", "-q", "six"],
                       capture_output=True)
        p = run(["-m", "pip", "install", "--disable-pip-version-check", "-q", "six==1.16.0"],
                env=clean_env(VIRTUAL_ENV=venv))
        assert p.returncode == 0, "cuhost -m pip install failed: " + p.stdout + p.stderr
        q = subprocess.run([os.path.join(venv, "bin", "python"), "-c", "import six, sys; print(six.__file__)"],
                           capture_output=True, text=True)
        assert q.returncode == 0 and q.stdout.startswith(os.path.join(venv, "lib")), (q.stdout, q.stderr)
        subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "uninstall", "-y", "-q", "six"],
                       capture_output=True)


def pypi_env(name, specs):
    venv = os.path.join(WORK, name)
    if not make_env.ensure(PYTHON, venv, specs):
        print("SKIPPED: PyPI cannot be reached (%s); the %s tests did not run" % (" ".join(specs), MODE),
              file=sys.stderr)
        sys.exit(77)
    return venv


def alongside_cases():
    venv = pypi_env("alongside-venv", [NUMPY2, NUMBA, *CUDA_PYTHON])
    env = clean_env(VIRTUAL_ENV=venv)
    site_packages = os.path.join(venv, "lib")

    @case
    def numba_is_numba_and_numba_cuda_is_cuhost():
        code = ("import numba, cuda; from numba import cuda as nc; print(numba.__version__, numba.__file__); "
                "print(nc is cuda, nc.implementation, numba.cuda is cuda)")
        p = run(["-c", code], env=env)
        assert p.returncode == 0, p.stderr
        first, second = p.stdout.splitlines()
        assert first.split()[0] == NUMBA.split("==")[1] and first.split()[1].startswith(site_packages), first
        assert second == "True cuhost True", second

    @case
    def njit_parallel_and_kernels_in_one_process():
        p = run(["run", os.path.join(HERE, "numba_beside_cuhost.py")], env=env)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "prange ok" in p.stdout and "kernel ok" in p.stdout, p.stdout

    @case
    def cuda_python_is_nvidias():
        code = ("import cuda.bindings.driver as d, cuda.bindings, cuda.pathfinder, cuda.core\n"
                "from cuda.core import Device\n"
                "print(d.__file__); print(cuda.pathfinder.__file__); print(Device.__module__)\n"
                "print(cuda.bindings.__version__, cuda.core.__version__)\n")
        p = run(["-c", code], env=env)
        assert p.returncode == 0, p.stderr
        driver, pathfinder, device_module, versions = p.stdout.splitlines()
        assert driver.startswith(site_packages) and pathfinder.startswith(site_packages), p.stdout
        assert device_module.startswith("cuda.core._"), device_module
        want = [CUDA_PYTHON[0].split("==")[1], CUDA_PYTHON[1].split("==")[1]]
        assert versions.split() == want, (versions, want)

    @case
    def cuhost_keeps_its_driver_layer_beside_cuda_python():
        code = ("import cuda.bindings, cuda._bindings.driver as own, numba.cuda.core.errors as e\n"
                "from numba.cuda.cudadrv import driver\n"
                "print(own.__file__.startswith(cuda.__path__[0]), driver.binding is own, e.TypingError.__name__)\n"
                "print(cuda.bindings.__file__.startswith(cuda.__path__[0]))\n")
        p = run(["-c", code], env=env)
        assert p.returncode == 0, p.stderr
        assert p.stdout.splitlines() == ["True True TypingError", "False"], p.stdout
        p = run(["run", os.path.join(HERE, "kernel_in_env.py")], env=env)
        assert p.returncode == 0 and "kernels ok" in p.stdout, p.stdout + p.stderr


def stumpy_cases():
    venv = pypi_env("stumpy-venv", [NUMPY2, NUMBA, STUMPY])

    @case
    def stumpy_stump_and_gpu_stump():
        p = run(["run", os.path.join(HERE, "stumpy_beside_cuhost.py")], env=clean_env(VIRTUAL_ENV=venv), timeout=900)
        assert p.returncode == 0, p.stdout + p.stderr[-3000:]
        assert "stump and gpu_stump ok %s" % STUMPY.split("==")[1] in p.stdout, p.stdout


def notebook_cases():
    venv = pypi_env("notebook-venv", [NUMPY2, *JUPYTER])
    prefix = os.path.join(WORK, "jupyter-prefix")
    kernels = os.path.join(prefix, "share", "jupyter", "kernels")

    @case
    def kernel_registered():
        p = run(["--python-env", venv, "jupyter-kernel", "install", "--prefix", prefix, "--name", "cuhost-test"])
        assert p.returncode == 0, p.stderr
        with open(os.path.join(kernels, "cuhost-test", "kernel.json")) as f:
            spec = json.load(f)
        assert spec["argv"] == [CUHOST, "-m", "ipykernel_launcher", "-f", "{connection_file}"], spec
        assert spec["env"]["CUHOST_PYTHON_ENV"] == venv, spec
        p = run(["-m", "ipykernel", "install", "--prefix", prefix, "--name", "cuhost-ipykernel"],
                env=clean_env(VIRTUAL_ENV=venv))
        assert p.returncode == 0, p.stderr
        with open(os.path.join(kernels, "cuhost-ipykernel", "kernel.json")) as f:
            assert json.load(f)["argv"][0] == CUHOST

    @case
    def notebook_executes_on_the_kernel():
        nb = os.path.join(WORK, "kernel_notebook.ipynb")
        shutil.copy(os.path.join(HERE, "kernel_notebook.ipynb"), nb)
        out = os.path.join(WORK, "kernel_notebook.out.ipynb")
        if os.path.exists(out):
            os.remove(out)
        env = clean_env(JUPYTER_PATH=os.path.join(prefix, "share", "jupyter"))
        p = subprocess.run([os.path.join(venv, "bin", "jupyter"), "nbconvert", "--to", "notebook", "--execute",
                            "--ExecutePreprocessor.kernel_name=cuhost-test", "--ExecutePreprocessor.timeout=600",
                            "--output", out, nb], capture_output=True, text=True, env=env, timeout=900)
        assert p.returncode == 0, p.stderr[-3000:]
        with open(out) as f:
            cells = json.load(f)["cells"]
        text = "".join("".join(o.get("text", "")) for c in cells for o in c.get("outputs", []))
        numpy_version = NUMPY2.split("==")[1]
        assert "executable %s" % CUHOST in text and "prefix %s" % venv in text, text
        assert "kernel matches numpy %s: True" % numpy_version in text, text


os.makedirs(WORK, exist_ok=True)
{"refused": refused_cases, "numpy2": numpy2_cases, "alongside": alongside_cases, "stumpy": stumpy_cases,
 "notebook": notebook_cases}[MODE]()
failed = 0
for name, why in results:
    print(("PASS " if why is None else "FAIL ") + name + ("" if why is None else ": " + why))
    failed += why is not None
print("%d passed, %d failed" % (len(results) - failed, failed))
sys.exit(1 if failed else 0)
