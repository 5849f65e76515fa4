# numba.cuda.config: values set at run time reach the foreign-code compiler
# (mirrored into the NUMBA_CUDA_* environment variables it reads).
import os
from numba.cuda import config
config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = "/a:/b"
assert os.environ["NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS"] == "/a:/b"
config.CUDA_INCLUDE_PATH = ""
assert "NUMBA_CUDA_INCLUDE_PATH" not in os.environ
print("config ok")
