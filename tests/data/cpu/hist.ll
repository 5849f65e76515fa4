; Atomic histogram of in[i] & 15: per-block counts in shared memory
; (atomicrmw on shared), then added to the global bins (atomicrmw on global).
; params: in (i32*), hist (i32*, 16 bins), n (i64); static shared: i32[16].
define void @hist.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %t = call i32 @tid(ptr %ctx, i32 0)
  %i = call i64 @gx(ptr %ctx)
  %n = call i64 @param_i64(ptr %params, i32 2)
  %in = call ptr @param_ptr(ptr %params, i32 0)
  %hist = call ptr @param_ptr(ptr %params, i32 1)
  %sh = call ptr @smem(ptr %ctx)
  %small = icmp ult i32 %t, 16
  %ps = getelementptr i32, ptr %sh, i32 %t
  br i1 %small, label %zero, label %s1
zero:
  store i32 0, ptr %ps
  br label %s1
s1:
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %count, label %s2
count:
  %pi = getelementptr i32, ptr %in, i64 %i
  %v = load i32, ptr %pi
  %bin = and i32 %v, 15
  %pb = getelementptr i32, ptr %sh, i32 %bin
  %old = atomicrmw add ptr %pb, i32 1 monotonic
  br label %s2
s2:
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  br i1 %small, label %flush, label %done
flush:
  %c = load i32, ptr %ps
  %pg = getelementptr i32, ptr %hist, i32 %t
  %old2 = atomicrmw add ptr %pg, i32 %c seq_cst
  br label %done
done:
  ret void
}
