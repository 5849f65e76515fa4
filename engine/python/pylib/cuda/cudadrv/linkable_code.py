"""numba.cuda.cudadrv.linkable_code: foreign code to link into kernels.

The `link=` items of @cuda.jit and cuda.declare_device: PTX, CUDA C++
sources (compiled by NVRTC), fatbins, cubins, archives, objects and LTO-IR.
cuhost's C++ side reads `kind` (as `__cuhost_link_kind__`), `data`, `name` and
the setup/teardown callbacks of these objects.
"""
import io as _io
import os as _os

import _cuhost

__all__ = ["LinkableCode", "PTXSource", "CUSource", "Fatbin", "Cubin", "Archive", "Object", "LTOIR"]


class LinkableCode:
    """Foreign code to link into kernels: data is bytes, str, StringIO or BytesIO."""
    kind = None
    __cuhost_link_kind__ = None

    def __init__(self, data, name=None, setup_callback=None, teardown_callback=None, nrt=False):
        if setup_callback is not None and not callable(setup_callback):
            raise TypeError("setup_callback must be callable")
        if teardown_callback is not None and not callable(teardown_callback):
            raise TypeError("teardown_callback must be callable")
        if not isinstance(data, (bytes, bytearray, str, _io.StringIO, _io.BytesIO)):
            raise TypeError("LinkableCode data must be bytes, str, StringIO or BytesIO, not %s" % type(data).__name__)
        self.data = data
        self._name = name
        self.setup_callback = setup_callback
        self.teardown_callback = teardown_callback
        # nrt=True: the code calls NRT_Allocate/NRT_Free (nrt.cuh), which the kernel then defines.
        self.nrt = nrt

    @property
    def name(self):
        return self._name or self.default_name

    @classmethod
    def from_path(cls, path):
        ext = _os.path.splitext(path)[1]
        kind = _BY_EXTENSION.get(ext)
        if kind is None:
            raise ValueError("Don't know how to link file with extension %s: %r" % (ext or "(none)", path))
        if not _os.path.isfile(path):
            raise _cuhost.LinkFileNotFoundError("%s not found" % path)
        with open(path, "rb") as f:
            code = kind(f.read(), name=_os.path.basename(path))
        code._cuhost_source_dir = _os.path.dirname(_os.path.abspath(path))  # quoted #includes of a .cu
        return code

    def __repr__(self):
        return "<%s %s>" % (type(self).__name__, self.name)


class PTXSource(LinkableCode):
    kind = __cuhost_link_kind__ = "PTXSource"
    default_name = "<unnamed-ptx>"


class CUSource(LinkableCode):
    kind = __cuhost_link_kind__ = "CUSource"
    default_name = "<unnamed-cu>"


class Fatbin(LinkableCode):
    kind = __cuhost_link_kind__ = "Fatbin"
    default_name = "<unnamed-fatbin>"


class Cubin(LinkableCode):
    kind = __cuhost_link_kind__ = "Cubin"
    default_name = "<unnamed-cubin>"


class Archive(LinkableCode):
    kind = __cuhost_link_kind__ = "Archive"
    default_name = "<unnamed-archive>"


class Object(LinkableCode):
    kind = __cuhost_link_kind__ = "Object"
    default_name = "<unnamed-object>"


class LTOIR(LinkableCode):
    kind = __cuhost_link_kind__ = "LTOIR"
    default_name = "<unnamed-ltoir>"


_BY_EXTENSION = {".ptx": PTXSource, ".cu": CUSource, ".fatbin": Fatbin, ".cubin": Cubin, ".a": Archive,
                 ".o": Object, ".ltoir": LTOIR}
