"""`cuhost jupyter-kernel install`: registers a Jupyter kernel that runs cuhost.

The kernel is ipykernel run by cuhost (`cuhost -m ipykernel_launcher -f
{connection_file}`), so notebook cells see cuhost's `numba.cuda` and the
Python environment cuhost used when the kernel was registered (its folder is
written into the kernel's env as CUHOST_PYTHON_ENV, as are --backend and
--device when they were given). ipykernel must be importable there; the
kernel spec itself is written without needing Jupyter, in the folder Jupyter
reads for the chosen scope:

    --user (default)  the user's Jupyter data folder (jupyter --data-dir)
    --sys-prefix      <sys.prefix>/share/jupyter: the active environment's
    --prefix DIR      DIR/share/jupyter

`cuhost -m ipykernel install --user --name cuhost` (ipykernel's own
installer) works too, without the environment settings.
"""
import argparse
import json
import os
import sys


def _user_data_dir():
    """Jupyter's user data folder, as jupyter_core.paths.jupyter_data_dir names it on Linux and macOS."""
    if os.environ.get("JUPYTER_DATA_DIR"):
        return os.environ["JUPYTER_DATA_DIR"]
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Jupyter")
    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "jupyter")


def kernel_spec(name, display_name):
    """The kernel.json contents for a kernel that runs this cuhost."""
    env = {}
    for variable in ("CUHOST_PYTHON_ENV", "CUHOST_BACKEND", "CUHOST_DEVICE", "CUHOST_PLUGIN_PATH"):
        if os.environ.get(variable):
            env[variable] = os.environ[variable]
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": display_name,
        "language": "python",
        "metadata": {"debugger": False},
    }
    if env:
        spec["env"] = env
    return spec


def install(argv):
    ap = argparse.ArgumentParser(prog="cuhost jupyter-kernel install",
                                 description="Register a Jupyter kernel that runs cuhost.")
    scope = ap.add_mutually_exclusive_group()
    scope.add_argument("--user", action="store_true", help="the user's Jupyter data folder (the default)")
    scope.add_argument("--sys-prefix", action="store_true", help="the active environment's share/jupyter")
    scope.add_argument("--prefix", help="DIR/share/jupyter")
    ap.add_argument("--name", default="cuhost", help="the kernel's name (default: cuhost)")
    ap.add_argument("--display-name", default=None, help="the name notebooks show")
    a = ap.parse_args(argv)
    if a.prefix:
        data = os.path.join(a.prefix, "share", "jupyter")
    elif a.sys_prefix:
        data = os.path.join(sys.prefix, "share", "jupyter")
    else:
        data = _user_data_dir()
    folder = os.path.join(data, "kernels", a.name)
    os.makedirs(folder, exist_ok=True)
    display = a.display_name or "cuhost (Python %d.%d)" % sys.version_info[:2]
    with open(os.path.join(folder, "kernel.json"), "w") as f:
        json.dump(kernel_spec(a.name, display), f, indent=1)
        f.write("\n")
    try:
        # Optional: only checked for, to tell the user what the kernel needs.
        import ipykernel  # noqa: F401
    except ImportError:
        print("note: ipykernel is not importable here (pip install ipykernel into %s); the kernel needs it"
              % sys.prefix, file=sys.stderr)
    print("Installed kernelspec %s in %s" % (a.name, folder))
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] != "install":
        print("usage: cuhost jupyter-kernel install [--user | --sys-prefix | --prefix DIR] [--name NAME] "
              "[--display-name TEXT]", file=sys.stderr)
        return 2
    return install(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
