; Shared-memory tree reduction: out[bid] = sum of the block's in[i] (0 past n).
; params: in (i32*), out (i32*), n (i64); static shared: i32[blockDim.x].
define void @reduce.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %t = call i32 @tid(ptr %ctx, i32 0)
  %i = call i64 @gx(ptr %ctx)
  %n = call i64 @param_i64(ptr %params, i32 2)
  %in = call ptr @param_ptr(ptr %params, i32 0)
  %sh = call ptr @smem(ptr %ctx)
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
  %bd = call i32 @bdim(ptr %ctx, i32 0)
  %s0 = lshr i32 %bd, 1
  br label %loop
loop:
  %s = phi i32 [%s0, %st], [%s1, %sync]
  %more = icmp ugt i32 %s, 0
  br i1 %more, label %step, label %fin
step:
  %act = icmp ult i32 %t, %s
  br i1 %act, label %add, label %sync
add:
  %t2 = add i32 %t, %s
  %p2 = getelementptr i32, ptr %sh, i32 %t2
  %a2 = load i32, ptr %p2
  %a1 = load i32, ptr %ps
  %sum = add i32 %a1, %a2
  store i32 %sum, ptr %ps
  br label %sync
sync:
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  %s1 = lshr i32 %s, 1
  br label %loop
fin:
  %is0 = icmp eq i32 %t, 0
  br i1 %is0, label %w, label %done
w:
  %out = call ptr @param_ptr(ptr %params, i32 1)
  %b = call i32 @bid(ptr %ctx, i32 0)
  %r = load i32, ptr %sh
  %po = getelementptr i32, ptr %out, i32 %b
  store i32 %r, ptr %po
  br label %done
done:
  ret void
}
