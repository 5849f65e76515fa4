; Barrier reductions and early exit. params: in (i32*), out (i32*), n (i64).
;   out[3*bid + 0..2] = syncthreads_count / _and / _or of (i < n && in[i] > 0)
define void @counts.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %t = call i32 @tid(ptr %ctx, i32 0)
  %i = call i64 @gx(ptr %ctx)
  %n = call i64 @param_i64(ptr %params, i32 2)
  %in = call ptr @param_ptr(ptr %params, i32 0)
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %ld, label %go
ld:
  %pi = getelementptr i32, ptr %in, i64 %i
  %v = load i32, ptr %pi
  %pos = icmp sgt i32 %v, 0
  br label %go
go:
  %pr = phi i1 [%pos, %ld], [false, %entry]
  %p = zext i1 %pr to i32
  %c = call i32 @cuhost_cpu_syncthreads_count(ptr %ctx, i32 %p)
  %a = call i32 @cuhost_cpu_syncthreads_and(ptr %ctx, i32 %p)
  %o = call i32 @cuhost_cpu_syncthreads_or(ptr %ctx, i32 %p)
  %is0 = icmp eq i32 %t, 0
  br i1 %is0, label %w, label %done
w:
  %out = call ptr @param_ptr(ptr %params, i32 1)
  %b = call i32 @bid(ptr %ctx, i32 0)
  %b3 = mul i32 %b, 3
  %q0 = getelementptr i32, ptr %out, i32 %b3
  store i32 %c, ptr %q0
  %q1 = getelementptr i32, ptr %q0, i32 1
  store i32 %a, ptr %q1
  %q2 = getelementptr i32, ptr %q0, i32 2
  store i32 %o, ptr %q2
  br label %done
done:
  ret void
}

; Threads with odd tid.x return at once; the others pass two barriers
; (returned threads count as arrived) and then thread 0 stores the count of
; threads that arrived at a syncthreads_count(1): out[bid].
define void @early.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %t = call i32 @tid(ptr %ctx, i32 0)
  %odd = and i32 %t, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %done, label %work
work:
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  %c = call i32 @cuhost_cpu_syncthreads_count(ptr %ctx, i32 1)
  %is0 = icmp eq i32 %t, 0
  br i1 %is0, label %w, label %done
w:
  %out = call ptr @param_ptr(ptr %params, i32 1)
  %b = call i32 @bid(ptr %ctx, i32 0)
  %po = getelementptr i32, ptr %out, i32 %b
  store i32 %c, ptr %po
  br label %done
done:
  ret void
}

; Cannot progress: threads 0-15 wait at syncthreads, threads 16-31 (the rest
; of warp 0) at a full-mask shuffle that waits for threads 0-15, and threads
; 32.. at syncthreads again.
define void @dead.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %t = call i32 @ltid(ptr %ctx)
  %lo = icmp ult i32 %t, 16
  br i1 %lo, label %bar, label %mid
mid:
  %w0 = icmp ult i32 %t, 32
  br i1 %w0, label %shfl, label %bar2
bar:
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  br label %done
shfl:
  %r = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 1, i32 0, i32 32, i32 0)
  br label %done
bar2:
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  br label %done
done:
  ret void
}

; Thread ids: out[blin * nthreads + ltid] = tid.x + 100*tid.y + 10000*tid.z + 1000000*blin,
; blin = bid.x + bid.y*gdim.x + bid.z*gdim.x*gdim.y. params: out (i32*).
define void @ids.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %tx = call i32 @tid(ptr %ctx, i32 0)
  %ty = call i32 @tid(ptr %ctx, i32 1)
  %tz = call i32 @tid(ptr %ctx, i32 2)
  %bx = call i32 @bid(ptr %ctx, i32 0)
  %by = call i32 @bid(ptr %ctx, i32 1)
  %bz = call i32 @bid(ptr %ctx, i32 2)
  %gx = call i32 @gdim(ptr %ctx, i32 0)
  %gy = call i32 @gdim(ptr %ctx, i32 1)
  %dx = call i32 @bdim(ptr %ctx, i32 0)
  %dy = call i32 @bdim(ptr %ctx, i32 1)
  %dz = call i32 @bdim(ptr %ctx, i32 2)
  %bzy = mul i32 %bz, %gy
  %bzyy = add i32 %bzy, %by
  %bl0 = mul i32 %bzyy, %gx
  %blin = add i32 %bl0, %bx
  %nt0 = mul i32 %dx, %dy
  %nt = mul i32 %nt0, %dz
  %lt = call i32 @ltid(ptr %ctx)
  %base = mul i32 %blin, %nt
  %idx = add i32 %base, %lt
  %vy = mul i32 %ty, 100
  %vz = mul i32 %tz, 10000
  %vb = mul i32 %blin, 1000000
  %v0 = add i32 %tx, %vy
  %v1 = add i32 %v0, %vz
  %v = add i32 %v1, %vb
  %out = call ptr @param_ptr(ptr %params, i32 0)
  %po = getelementptr i32, ptr %out, i32 %idx
  store i32 %v, ptr %po
  ret void
}

; Bounds-checked store out[i] = i with n = the array's size; i >= n reports
; an IndexError and returns. params: out (i32*), n (i64).
@kname = private constant [4 x i8] c"oob\00"
@aname = private constant [4 x i8] c"out\00"
define void @oob.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %i = call i64 @gx(ptr %ctx)
  %n = call i64 @param_i64(ptr %params, i32 1)
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %st, label %err
err:
  call void @cuhost_cpu_index_error(ptr %ctx, ptr @kname, ptr @aname, i64 %i, i32 0, i64 %n)
  ret void
st:
  %out = call ptr @param_ptr(ptr %params, i32 0)
  %po = getelementptr i32, ptr %out, i64 %i
  %v = trunc i64 %i to i32
  store i32 %v, ptr %po
  ret void
}

; Reports a kernel error from block 2, thread 5. params: none used.
; The site of a fault (support/kernel_error.h, encode_site): a header of eight
; little-endian i64 (size 77, form 3 = Fault, line, key, message, file,
; function and arguments sizes), then the message.
@msg = private constant [78 x i8] c"\4D\00\00\00\00\00\00\00\03\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\0D\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00foreign fault\00"
define void @kerr.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %t = call i32 @tid(ptr %ctx, i32 0)
  %b = call i32 @bid(ptr %ctx, i32 0)
  %t5 = icmp eq i32 %t, 5
  %b2 = icmp eq i32 %b, 2
  %both = and i1 %t5, %b2
  br i1 %both, label %err, label %done
err:
  call void @cuhost_cpu_kernel_error(ptr %ctx, ptr null, ptr @msg, i64 7)
  br label %done
done:
  ret void
}

; A 32 KiB local array on the fiber stack, written and summed:
; out[i] = sum of (k * tid.x) for k < 8192. params: out (i32*).
define void @bigstack.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %arr = alloca [8192 x i32]
  %t = call i32 @tid(ptr %ctx, i32 0)
  br label %fill
fill:
  %k = phi i32 [0, %entry], [%k1, %fill]
  %pk = getelementptr i32, ptr %arr, i32 %k
  %v = mul i32 %k, %t
  store volatile i32 %v, ptr %pk
  %k1 = add i32 %k, 1
  %c = icmp ult i32 %k1, 8192
  br i1 %c, label %fill, label %mid
mid:
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  br label %sum
sum:
  %j = phi i32 [0, %mid], [%j1, %sum]
  %acc = phi i32 [0, %mid], [%acc1, %sum]
  %pj = getelementptr i32, ptr %arr, i32 %j
  %x = load volatile i32, ptr %pj
  %acc1 = add i32 %acc, %x
  %j1 = add i32 %j, 1
  %c2 = icmp ult i32 %j1, 8192
  br i1 %c2, label %sum, label %fin
fin:
  %i = call i64 @gx(ptr %ctx)
  %out = call ptr @param_ptr(ptr %params, i32 0)
  %po = getelementptr i32, ptr %out, i64 %i
  store i32 %acc1, ptr %po
  ret void
}
