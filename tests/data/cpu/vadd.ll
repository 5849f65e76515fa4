; out[i] = a[i] + b[i] for i < n. params: a, b, out (float*), n (i64).
; The block function loops over tid.x like codegen's barrier-free form.
define void @vadd.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %i = call i64 @gx(ptr %ctx)
  %n = call i64 @param_i64(ptr %params, i32 3)
  %in = icmp slt i64 %i, %n
  br i1 %in, label %body, label %done
body:
  %a = call ptr @param_ptr(ptr %params, i32 0)
  %b = call ptr @param_ptr(ptr %params, i32 1)
  %o = call ptr @param_ptr(ptr %params, i32 2)
  %pa = getelementptr float, ptr %a, i64 %i
  %pb = getelementptr float, ptr %b, i64 %i
  %po = getelementptr float, ptr %o, i64 %i
  %va = load float, ptr %pa
  %vb = load float, ptr %pb
  %s = fadd float %va, %vb
  store float %s, ptr %po
  br label %done
done:
  ret void
}

define void @vadd.cpu.block(ptr %params, ptr %ctx) {
entry:
  %bd = call i32 @bdim(ptr %ctx, i32 0)
  br label %loop
loop:
  %t = phi i32 [0, %entry], [%t1, %loop]
  store i32 %t, ptr %ctx
  call void @vadd.cpu.thread(ptr %params, ptr %ctx)
  %t1 = add i32 %t, 1
  %c = icmp slt i32 %t1, %bd
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
