# On a GPU: a PTX kernel launched through cuda.core.launch on stream 0 (the
# handle numba-cuda code passes for "the default stream") is ordered with the
# copies numba's driver functions make with stream 0 (host_to_device,
# device_to_host): stream 0 is cuhost's default stream for both, never the
# legacy null stream, which does not wait for cuhost's default stream.
# backends: cuda
# stdout: driver launch on stream 0 ok
import ctypes

import numpy as np
from cuda.core import LaunchConfig, Stream, launch
from numba.cuda.cudadrv import devices
from numba.cuda.cudadrv.driver import device_to_host, host_to_device

PTX = """
.version 7.0
.target sm_52
.address_size 64

.visible .entry scale_add(.param .u64 out, .param .u64 inp, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [inp];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mul.wide.u32 %rd5, %r5, 4;
    add.s64 %rd6, %rd4, %rd5;
    ld.global.f32 %f1, [%rd6];
    fma.rn.f32 %f2, %f1, 0f40400000, 0f3F800000;
    add.s64 %rd7, %rd3, %rd5;
    st.global.f32 [%rd7], %f2;
DONE:
    ret;
}
"""

ctx = devices.get_context()
kernel = ctx.create_module_ptx(PTX).get_function("scale_add")
rng = np.random.default_rng(5)
n = 1 << 20
for _ in range(5):
    x = rng.standard_normal(n).astype(np.float32)
    nbytes = x.nbytes
    d_in, d_out = ctx.memalloc(nbytes), ctx.memalloc(nbytes)
    host_to_device(d_in, x, nbytes)
    launch(Stream.from_handle(0), LaunchConfig(grid=(n // 256, 1, 1), block=(256, 1, 1), shmem_size=0),
           kernel.kernel, d_out.device_ctypes_pointer, d_in.device_ctypes_pointer, ctypes.c_uint32(n))
    y = np.empty_like(x)
    device_to_host(y, d_out, nbytes)
    np.testing.assert_allclose(y, x * 3 + 1, rtol=1e-6, atol=1e-6)
print("driver launch on stream 0 ok")
