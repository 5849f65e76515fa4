"""numba-cuda's linker (_Linker, Linker.new): links PTX, CUDA C++ (compiled
by NVRTC), cubins, fatbins, objects, libraries and LTO-IR into a cubin, or
into PTX when LTO-IR is linked (get_linked_ptx), for any compute
capability, with cuhost's nvJitLink (engine/cuda/linker.h). It needs no GPU:
the linked code can be inspected, or loaded with Context.create_module_image
on a GPU.
"""
import os
import pathlib
import warnings

import _cuhost

from . import nvrtc
from ._driver_object import driver
from .linkable_code import LinkableCode

LinkerError = _cuhost.LinkerError

# Extension (or kind name) -> the kind the linker takes.
FILE_EXTENSION_MAP = {"o": "o", "ptx": "ptx", "a": "a", "lib": "a", "cubin": "cubin", "fatbin": "fatbin",
                      "ltoir": "ltoir"}
_CLASS_KINDS = {"PTXSource": "ptx", "CUSource": "cu", "Cubin": "cubin", "Fatbin": "fatbin", "Archive": "a",
                "Object": "o", "LTOIR": "ltoir"}


def _current_cc():
    return driver.get_device(_cuhost._current_device_id()).compute_capability


class _Linker:
    """Collects link inputs, then complete() (a cubin) or get_linked_ptx()."""

    def __init__(self, max_registers=None, lineinfo=False, cc=None, lto=None, additional_flags=None):
        cc = tuple(cc) if cc is not None else _current_cc()
        self.cc = cc
        self.arch = "sm_%d%d%s" % (cc[0], cc[1], cc[2] if len(cc) == 3 else "")
        self.max_registers = max_registers if max_registers else None
        self.lineinfo = lineinfo
        self.lto = lto
        self.additional_flags = list(additional_flags or ())
        self._has_ltoir = False
        self._complete = False
        self._items = []
        self._info_log = self._error_log = None
        self.linker = None

    # ---- inputs ----------------------------------------------------------------------

    def _add(self, kind, data, name):
        if isinstance(data, str):
            data = data.encode()
        self._items.append((kind, name, bytes(data)))
        if kind == "ltoir":
            self._has_ltoir = True

    def add_ptx(self, ptx, name="<cudapy-ptx>"):
        """PTX text (str or bytes)."""
        self._add("ptx", ptx, name)

    def add_cu(self, cu, name="<cudapy-cu>"):
        """CUDA C++ source, compiled by NVRTC (to LTO-IR when linking with LTO)."""
        code, _ = nvrtc.compile(cu, name, self.cc, ltoir=bool(self.lto))
        self._add("ltoir" if self.lto else "ptx", code.code, name)

    def add_cubin(self, cubin, name="<cudapy-cubin>"):
        self._add("cubin", cubin, name)

    def add_ltoir(self, ltoir, name="<cudapy-ltoir>"):
        self._add("ltoir", ltoir, name)

    def add_fatbin(self, fatbin, name="<cudapy-fatbin>"):
        self._add("fatbin", fatbin, name)

    def add_object(self, obj, name="<cudapy-object>"):
        self._add("o", obj, name)

    def add_library(self, lib, name="<cudapy-lib>"):
        self._add("a", lib, name)

    def add_cu_file(self, path):
        with open(path, "rb") as f:
            self.add_cu(f.read(), os.path.basename(path))

    def add_file(self, path, kind):
        """A file's contents, as `kind` (an extension such as "ptx" or "a")."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise _cuhost.LinkFileNotFoundError("%s not found" % path) from None
        self.add_data(data, kind, pathlib.Path(path).name)

    def add_data(self, data, kind, name):
        """In-memory code of `kind` ("cu", or a kind of FILE_EXTENSION_MAP)."""
        if kind == "cu":
            self.add_cu(data, name)
            return
        mapped = FILE_EXTENSION_MAP.get(kind)
        if mapped is None:
            raise LinkerError("Don't know how to link %s" % kind)
        self._add(mapped, data, name)

    def add_file_guess_ext(self, path_or_code, ignore_nonlto=False):
        """A file (its kind from its extension) or a LinkableCode object.
        With ignore_nonlto, inputs that are not LTO-IR are left out (with a
        warning): only the LTO-ed part of a link is then produced."""

        if isinstance(path_or_code, str):
            ext = pathlib.Path(path_or_code).suffix
            if ext == "":
                raise RuntimeError("Don't know how to link file with no extension")
            if ext == ".cu":
                self.add_cu_file(path_or_code)
                return
            kind = FILE_EXTENSION_MAP.get(ext.lstrip("."))
            if kind is None:
                raise RuntimeError("Don't know how to link file with extension %s" % ext)
            if ignore_nonlto and kind != "ltoir":
                warnings.warn("Not adding %s as it is not optimizable at link time, and `ignore_nonlto == True`." %
                              path_or_code)
                return
            self.add_file(path_or_code, kind)
            return
        if not isinstance(path_or_code, LinkableCode):
            raise TypeError("Expected path to file or a LinkableCode object")
        kind = _CLASS_KINDS[type(path_or_code).__cuhost_link_kind__]
        data = path_or_code.data
        if hasattr(data, "getvalue"):
            data = data.getvalue()
        if kind == "cu":
            self.add_cu(data, path_or_code.name)
            return
        if ignore_nonlto and kind != "ltoir":
            warnings.warn("Not adding %s as it is not optimizable at link time, and `ignore_nonlto == True`." %
                          path_or_code.name)
            return
        self._add(kind, data, path_or_code.name)

    # ---- linking ---------------------------------------------------------------------

    def _options(self, ptx):
        options = ["-arch=%s" % self.arch]
        if self.max_registers:
            options.append("-maxrregcount=%d" % self.max_registers)
        if self.lineinfo:
            options.append("-lineinfo")
        if ptx and self._has_ltoir:
            options.append("-ptx")
        return options + self.additional_flags

    def _link(self, ptx):
        self.linker = self
        try:
            code, self._info_log = _cuhost._nvjitlink(self._items, self.cc[0], self.cc[1], self._has_ltoir,
                                                       self._options(ptx))
        except LinkerError as e:
            self._error_log = str(e)
            self._complete = True
            raise
        self._error_log = ""
        self._complete = True
        return code

    def get_linked_ptx(self):
        """The linked PTX (needs LTO-IR inputs: nvJitLink produces PTX only from LTO)."""
        if not self._has_ltoir:
            raise LinkerError("get_linked_ptx needs LTO-IR in the link (link with lto=True)")
        return self._link(ptx=True)

    def complete(self):
        """Links everything into a cubin (bytes)."""
        return self._link(ptx=False)

    def close(self):
        pass

    @property
    def info_log(self):
        if not self.linker:
            raise ValueError("Not Initialized")
        if self._complete:
            return self._info_log
        raise RuntimeError("Link not yet complete.")

    @property
    def error_log(self):
        if not self.linker:
            raise ValueError("Not Initialized")
        if self._complete:
            return self._error_log
        raise RuntimeError("Link not yet complete.")


class Linker:
    """numba's Linker.new(...): a _Linker."""

    @staticmethod
    def new(max_registers=0, lineinfo=False, cc=None, lto=None, additional_flags=None):
        return _Linker(max_registers=max_registers, lineinfo=lineinfo, cc=cc, lto=lto,
                       additional_flags=additional_flags)


class LinkerOptions:
    """The linker's options (cuda.core's LinkerOptions fields numba-cuda passes)."""

    def __init__(self, max_register_count=None, lineinfo=False, arch=None, link_time_optimization=None, ptx=None,
                 **others):
        self.max_register_count = max_register_count
        self.lineinfo = lineinfo
        self.arch = arch
        self.link_time_optimization = link_time_optimization
        self.ptx = ptx
        self.__dict__.update(others)
