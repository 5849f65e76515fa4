# The smallest cuhost script: reports which backend serves and the devices.
# stdout: backend:
from numba import cuda

print("cuhost", cuda.__version__, "backend:", cuda.backend())
print("CUDA available:", cuda.is_available())
cuda.detect()
