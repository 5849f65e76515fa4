; Accessors shared by the hand-written CPU test kernels: they read the
; CuhostThreadCtx of engine/cpu/cpu_abi.h by byte offset (tid 0, bid 12,
; bdim 24, gdim 36, shared 48, dynamic_shared 56) and kernel parameters
; (params[k] points at the slot value), and declare the runtime functions.

define internal i32 @tid(ptr %c, i32 %d) alwaysinline {
  %o = mul i32 %d, 4
  %p = getelementptr i8, ptr %c, i32 %o
  %v = load i32, ptr %p
  ret i32 %v
}
define internal i32 @bid(ptr %c, i32 %d) alwaysinline {
  %o0 = mul i32 %d, 4
  %o = add i32 %o0, 12
  %p = getelementptr i8, ptr %c, i32 %o
  %v = load i32, ptr %p
  ret i32 %v
}
define internal i32 @bdim(ptr %c, i32 %d) alwaysinline {
  %o0 = mul i32 %d, 4
  %o = add i32 %o0, 24
  %p = getelementptr i8, ptr %c, i32 %o
  %v = load i32, ptr %p
  ret i32 %v
}
define internal i32 @gdim(ptr %c, i32 %d) alwaysinline {
  %o0 = mul i32 %d, 4
  %o = add i32 %o0, 36
  %p = getelementptr i8, ptr %c, i32 %o
  %v = load i32, ptr %p
  ret i32 %v
}
define internal ptr @smem(ptr %c) alwaysinline {
  %p = getelementptr i8, ptr %c, i32 48
  %v = load ptr, ptr %p
  ret ptr %v
}
define internal ptr @dsmem(ptr %c) alwaysinline {
  %p = getelementptr i8, ptr %c, i32 56
  %v = load ptr, ptr %p
  ret ptr %v
}
; linear thread id in the block: x + y*bdx + z*bdx*bdy
define internal i32 @ltid(ptr %c) alwaysinline {
  %x = call i32 @tid(ptr %c, i32 0)
  %y = call i32 @tid(ptr %c, i32 1)
  %z = call i32 @tid(ptr %c, i32 2)
  %bx = call i32 @bdim(ptr %c, i32 0)
  %by = call i32 @bdim(ptr %c, i32 1)
  %zy = mul i32 %z, %by
  %zyy = add i32 %zy, %y
  %r0 = mul i32 %zyy, %bx
  %r = add i32 %r0, %x
  ret i32 %r
}
; global x index: bid.x * bdim.x + tid.x, as i64
define internal i64 @gx(ptr %c) alwaysinline {
  %t = call i32 @tid(ptr %c, i32 0)
  %b = call i32 @bid(ptr %c, i32 0)
  %d = call i32 @bdim(ptr %c, i32 0)
  %m = mul i32 %b, %d
  %s = add i32 %m, %t
  %r = sext i32 %s to i64
  ret i64 %r
}
define internal ptr @param_ptr(ptr %params, i32 %k) alwaysinline {
  %pp = getelementptr ptr, ptr %params, i32 %k
  %p = load ptr, ptr %pp
  %v = load ptr, ptr %p
  ret ptr %v
}
define internal i64 @param_i64(ptr %params, i32 %k) alwaysinline {
  %pp = getelementptr ptr, ptr %params, i32 %k
  %p = load ptr, ptr %pp
  %v = load i64, ptr %p
  ret i64 %v
}

declare void @cuhost_cpu_syncthreads(ptr)
declare i32 @cuhost_cpu_syncthreads_count(ptr, i32)
declare i32 @cuhost_cpu_syncthreads_and(ptr, i32)
declare i32 @cuhost_cpu_syncthreads_or(ptr, i32)
declare void @cuhost_cpu_syncwarp(ptr, i32)
declare i64 @cuhost_cpu_shfl(ptr, i32, i64, i32, i32, i32)
declare i32 @cuhost_cpu_vote(ptr, i32, i32, i32)
declare i32 @cuhost_cpu_activemask(ptr)
declare void @cuhost_cpu_index_error(ptr, ptr, ptr, i64, i32, i64)
declare void @cuhost_cpu_kernel_error(ptr, ptr, ptr, i64)
