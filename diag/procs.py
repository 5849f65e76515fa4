import ctypes, re
lib = ctypes.CDLL("libcuda.so.1")
gp = lib.cuGetProcAddress_v2
gp.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_uint64, ctypes.POINTER(ctypes.c_int)]
lib.cuInit(0)
names = re.findall(r"CUHOST_DRIVER_FN\((\w+)\)", open("engine/cuda/driver_api.inc").read())
for n in names:
    p = ctypes.c_void_p(); st = ctypes.c_int(-1)
    r = gp(n.encode(), ctypes.byref(p), 13000, 0, ctypes.byref(st))
    if r != 0 or st.value != 0 or not p.value:
        print("MISSING", n, r, st.value)
print("checked", len(names))
