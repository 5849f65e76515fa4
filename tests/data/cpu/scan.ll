; Block-wide inclusive scan (Hillis-Steele) in dynamic shared memory:
; out[i] = in[block start] + ... + in[i]. params: in, out (i32*), n (i64).
define void @scan.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %t = call i32 @tid(ptr %ctx, i32 0)
  %i = call i64 @gx(ptr %ctx)
  %n = call i64 @param_i64(ptr %params, i32 2)
  %in = call ptr @param_ptr(ptr %params, i32 0)
  %sh = call ptr @dsmem(ptr %ctx)
  %bd = call i32 @bdim(ptr %ctx, i32 0)
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %ld, label %st
ld:
  %pi = getelementptr i32, ptr %in, i64 %i
  %v = load i32, ptr %pi
  br label %st
st:
  %x = phi i32 [%v, %ld], [0, %entry]
  %ps = getelementptr i32, ptr %sh, i32 %t
  store i32 %x, ptr %ps
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  br label %loop
loop:
  %off = phi i32 [1, %st], [%off2, %join]
  %more = icmp ult i32 %off, %bd
  br i1 %more, label %body, label %fin
body:
  %ge = icmp uge i32 %t, %off
  br i1 %ge, label %rd, label %join0
rd:
  %src = sub i32 %t, %off
  %psrc = getelementptr i32, ptr %sh, i32 %src
  %v1 = load i32, ptr %psrc
  br label %join0
join0:
  %addend = phi i32 [%v1, %rd], [0, %body]
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  %cur = load i32, ptr %ps
  %nv = add i32 %cur, %addend
  store i32 %nv, ptr %ps
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  br label %join
join:
  %off2 = shl i32 %off, 1
  br label %loop
fin:
  br i1 %ok, label %w, label %done
w:
  %out = call ptr @param_ptr(ptr %params, i32 1)
  %r = load i32, ptr %ps
  %po = getelementptr i32, ptr %out, i64 %i
  store i32 %r, ptr %po
  br label %done
done:
  ret void
}
