#!/usr/bin/env python3
"""Builds a stand-in for a shared library that the bundle's binaries link but
never call (LLVM links Z3 for the static analyzer's SMT solver and libxml2
for Windows manifest merging): the same soname and symbol versions, every
symbol the binaries take from it defined as a trap. The GPU bundle carries
these instead of the real libraries (and of ICU, which libxml2 needs), which
keeps it under the 64 MiB a device call can carry with clang-19 inside.

    make_stub_library.py REAL_LIBRARY OUTPUT BINARY...
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

real, output, binaries = sys.argv[1], sys.argv[2], sys.argv[3:]
soname = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]",
                   subprocess.run(["readelf", "-d", real], capture_output=True, text=True, check=True).stdout).group(1)
defined = {}
for line in subprocess.run(["readelf", "--dyn-syms", "-W", real], capture_output=True, text=True, check=True).stdout.splitlines():
    cols = line.split()
    if len(cols) >= 8 and cols[6] != "UND" and cols[4] in ("GLOBAL", "WEAK"):
        name, _, version = cols[7].partition("@")
        defined[name] = version.lstrip("@")
used = set()
for b in binaries:
    for line in subprocess.run(["nm", "-D", "--undefined-only", b], capture_output=True, text=True, check=True).stdout.splitlines():
        name = line.split()[-1].split("@")[0]
        if name in defined:
            used.add(name)
by_version = collections.OrderedDict()
for name in sorted(used):
    by_version.setdefault(defined[name], []).append(name)
with tempfile.TemporaryDirectory() as d:
    src = os.path.join(d, "stub.c")
    with open(src, "w") as f:
        f.write("/* stand-in for %s: never called */\n" % soname)
        for name in sorted(used):
            f.write("void %s(void) { __builtin_trap(); }\n" % name)
    cmd = ["gcc", "-shared", "-fPIC", "-O1", "-o", output, src, "-Wl,-soname," + soname]
    versions = [v for v in by_version if v]
    if versions:
        script = os.path.join(d, "versions.map")
        with open(script, "w") as f:
            previous = None
            for v in sorted(versions):
                f.write("%s { global: %s; }%s;\n" % (v, "; ".join(by_version[v]), " " + previous if previous else ""))
                previous = v
        cmd.append("-Wl,--version-script=" + script)
    subprocess.run(cmd, check=True)
print("stub %s: %d symbols" % (soname, len(used)))
