; Warp operations. params: in (i32*), sums (i32*, one per warp), ballots
; (i32*), flags (i32*), n (i64); blocks are whole warps for the reduction.
;   sums[i/32]  = sum of the warp's in[] by a shfl_down tree (lane 0 writes)
;   ballots[i]  = ballot(in[i] > 0)
;   flags[i]    = all(in[i] > 0) | any(in[i] > 0) << 1 | eq(in[i] > 0) << 2
define void @warp.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %i = call i64 @gx(ptr %ctx)
  %in = call ptr @param_ptr(ptr %params, i32 0)
  %sums = call ptr @param_ptr(ptr %params, i32 1)
  %ballots = call ptr @param_ptr(ptr %params, i32 2)
  %flags = call ptr @param_ptr(ptr %params, i32 3)
  %pi = getelementptr i32, ptr %in, i64 %i
  %v0 = load i32, ptr %pi
  %x0 = sext i32 %v0 to i64
  %r1 = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x0, i32 16, i32 32, i32 2)
  %x1 = add i64 %x0, %r1
  %r2 = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x1, i32 8, i32 32, i32 2)
  %x2 = add i64 %x1, %r2
  %r3 = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x2, i32 4, i32 32, i32 2)
  %x3 = add i64 %x2, %r3
  %r4 = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x3, i32 2, i32 32, i32 2)
  %x4 = add i64 %x3, %r4
  %r5 = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x4, i32 1, i32 32, i32 2)
  %x5 = add i64 %x4, %r5
  %sum = trunc i64 %x5 to i32
  %pos = icmp sgt i32 %v0, 0
  %p = zext i1 %pos to i32
  %bal = call i32 @cuhost_cpu_vote(ptr %ctx, i32 -1, i32 %p, i32 3)
  %all = call i32 @cuhost_cpu_vote(ptr %ctx, i32 -1, i32 %p, i32 0)
  %any = call i32 @cuhost_cpu_vote(ptr %ctx, i32 -1, i32 %p, i32 1)
  %eq = call i32 @cuhost_cpu_vote(ptr %ctx, i32 -1, i32 %p, i32 2)
  %any2 = shl i32 %any, 1
  %eq4 = shl i32 %eq, 2
  %f0 = or i32 %all, %any2
  %f = or i32 %f0, %eq4
  %pb = getelementptr i32, ptr %ballots, i64 %i
  store i32 %bal, ptr %pb
  %pf = getelementptr i32, ptr %flags, i64 %i
  store i32 %f, ptr %pf
  %lt = call i32 @ltid(ptr %ctx)
  %lane = and i32 %lt, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %w, label %done
w:
  %wi = lshr i64 %i, 5
  %ps = getelementptr i32, ptr %sums, i64 %wi
  store i32 %sum, ptr %ps
  br label %done
done:
  ret void
}

; Shuffle modes with widths, on any block size (partial warps included).
; params: in (i32*), out_idx, out_up, out_xor, out_down (i32*), active (i32*).
;   out_idx[i]  = shfl_idx(v, 3, width 8)    out_up[i]   = shfl_up(v, 2, width 16)
;   out_xor[i]  = shfl_xor(v, 5, width 32)   out_down[i] = shfl_down(v, 1, width 32)
;   active[i]   = activemask()
define void @shfl_modes.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %i = call i64 @gx(ptr %ctx)
  %in = call ptr @param_ptr(ptr %params, i32 0)
  %pi = getelementptr i32, ptr %in, i64 %i
  %v0 = load i32, ptr %pi
  %x = zext i32 %v0 to i64
  %a = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x, i32 3, i32 8, i32 0)
  %b = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x, i32 2, i32 16, i32 1)
  %c = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x, i32 5, i32 32, i32 3)
  %d = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x, i32 1, i32 32, i32 2)
  %m = call i32 @cuhost_cpu_activemask(ptr %ctx, i32 0)
  %o1 = call ptr @param_ptr(ptr %params, i32 1)
  %o2 = call ptr @param_ptr(ptr %params, i32 2)
  %o3 = call ptr @param_ptr(ptr %params, i32 3)
  %o4 = call ptr @param_ptr(ptr %params, i32 4)
  %o5 = call ptr @param_ptr(ptr %params, i32 5)
  %a32 = trunc i64 %a to i32
  %b32 = trunc i64 %b to i32
  %c32 = trunc i64 %c to i32
  %d32 = trunc i64 %d to i32
  %p1 = getelementptr i32, ptr %o1, i64 %i
  store i32 %a32, ptr %p1
  %p2 = getelementptr i32, ptr %o2, i64 %i
  store i32 %b32, ptr %p2
  %p3 = getelementptr i32, ptr %o3, i64 %i
  store i32 %c32, ptr %p3
  %p4 = getelementptr i32, ptr %o4, i64 %i
  store i32 %d32, ptr %p4
  %p5 = getelementptr i32, ptr %o5, i64 %i
  store i32 %m, ptr %p5
  ret void
}

; Divergent activemask: lanes with lane % 3 == 0 call it inside a branch
; (first[i]), then every thread passes a barrier and calls it again
; (second[i]; 0 stays in first[] for the other lanes). params: first, second (i32*).
define void @active.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %i = call i64 @gx(ptr %ctx)
  %lt = call i32 @ltid(ptr %ctx)
  %lane = and i32 %lt, 31
  %r = urem i32 %lane, 3
  %sel = icmp eq i32 %r, 0
  %first = call ptr @param_ptr(ptr %params, i32 0)
  %second = call ptr @param_ptr(ptr %params, i32 1)
  br i1 %sel, label %branch, label %join
branch:
  %m1 = call i32 @cuhost_cpu_activemask(ptr %ctx, i32 0)
  %p1 = getelementptr i32, ptr %first, i64 %i
  store i32 %m1, ptr %p1
  br label %join
join:
  call void @cuhost_cpu_syncthreads(ptr %ctx)
  %m2 = call i32 @cuhost_cpu_activemask(ptr %ctx, i32 1)
  %p2 = getelementptr i32, ptr %second, i64 %i
  store i32 %m2, ptr %p2
  ret void
}

; Lanes 16-31 of every warp return at once; lanes 0-15 then shuffle down by 8
; and vote with full masks: returned lanes are left out (a source that
; returned yields the caller's own value). params: in, shfl_out, ballot_out (i32*).
define void @half_exit.cpu.thread(ptr %params, ptr %ctx) {
entry:
  %i = call i64 @gx(ptr %ctx)
  %lt = call i32 @ltid(ptr %ctx)
  %lane = and i32 %lt, 31
  %hi = icmp uge i32 %lane, 16
  br i1 %hi, label %done, label %work
work:
  %in = call ptr @param_ptr(ptr %params, i32 0)
  %pi = getelementptr i32, ptr %in, i64 %i
  %v = load i32, ptr %pi
  %x = zext i32 %v to i64
  call void @cuhost_cpu_syncwarp(ptr %ctx, i32 -1)
  %r = call i64 @cuhost_cpu_shfl(ptr %ctx, i32 -1, i64 %x, i32 8, i32 32, i32 2)
  %b = call i32 @cuhost_cpu_vote(ptr %ctx, i32 -1, i32 1, i32 3)
  %o1 = call ptr @param_ptr(ptr %params, i32 1)
  %o2 = call ptr @param_ptr(ptr %params, i32 2)
  %r32 = trunc i64 %r to i32
  %p1 = getelementptr i32, ptr %o1, i64 %i
  store i32 %r32, ptr %p1
  %p2 = getelementptr i32, ptr %o2, i64 %i
  store i32 %b, ptr %p2
  br label %done
done:
  ret void
}
