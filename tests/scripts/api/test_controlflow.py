# numba.cuda.core.controlflow: CFGraph's analyses checked against their
# definitions by brute force on random graphs (d dominates n when n cannot
# be reached from the entry without d; p post-dominates n when no exit can
# be reached from n without p; the dominance frontier by its definition),
# loops and the backbone on hand-made graphs, and ControlFlowAnalysis on a
# real Python function's bytecode.
# stdout: controlflow ok
import random

from numba.cuda.core.bytecode import ByteCode, FunctionIdentity
from numba.cuda.core.controlflow import CFGraph, ControlFlowAnalysis


def build(adj, entry):
    g = CFGraph()
    for n in adj:
        g.add_node(n)
    for n, dests in adj.items():
        for d in dests:
            g.add_edge(n, d)
    g.set_entry_point(entry)
    g.process()
    return g


def reachable(adj, start, removed=None):
    seen = set()
    todo = [start]
    while todo:
        n = todo.pop()
        if n in seen or n == removed:
            continue
        seen.add(n)
        todo.extend(adj[n])
    return seen


def check_random_graph(rng, size):
    adj = {n: sorted(rng.sample(range(size), rng.randint(0, min(3, size)))) for n in range(size)}
    g = build(adj, 0)
    live = reachable(adj, 0)
    assert g.nodes() == live, (adj, g.nodes())
    assert g.dead_nodes() == set(adj) - live
    ladj = {n: [d for d in adj[n] if d in live] for n in live}
    doms = g.dominators()
    for n in live:
        want = {d for d in live if d == n or n not in reachable(ladj, 0, removed=d)}
        assert doms[n] == want, ("dominators", adj, n, doms[n], want)
    idom = g.immediate_dominators()
    for n in live:
        if n != 0:
            assert idom[n] in doms[n] and all(d in doms[idom[n]] for d in doms[n] - {n})
    df = g.dominance_frontier()
    preds = {n: [p for p in live if n in ladj[p]] for n in live}
    for x in live:
        want = {y for y in live if any(x in doms[p] for p in preds[y]) and not (x in doms[y] and x != y)}
        assert df[x] == want, ("frontier", adj, x, df[x], want)
    exits = {n for n in live if not ladj[n]}
    assert g.exit_points() == exits
    if exits and all(reachable(ladj, n) & exits for n in live):
        pdoms = g.post_dominators()
        for n in live:
            want = {p for p in live if p == n or not (reachable(ladj, n, removed=p) & exits)}
            assert pdoms[n] == want, ("post-dominators", adj, n, pdoms[n], want)
        backbone = set.intersection(*(doms[e] for e in exits))
        assert g.backbone() == backbone
    order = g.topo_order()
    assert sorted(order) == sorted(live)
    back = g._find_back_edges()
    rank = {n: i for i, n in enumerate(order)}
    for n in live:
        for d in ladj[n]:
            if (n, d) not in back:
                assert rank[n] < rank[d], ("topological order", adj, order, n, d)
    stats = {}
    g._find_back_edges(stats=stats)
    assert stats["iteration_count"] == len(live) + sum(len(ladj[n]) for n in live)


rng = random.Random(11)
for trial in range(300):
    check_random_graph(rng, rng.randint(2, 12))

# Two nested loops, a second loop after them, and a loop nothing leaves.
g = build({0: [1], 1: [2, 6], 2: [3], 3: [4, 5], 4: [3], 5: [1], 6: [7], 7: [8], 8: [7, 9], 9: []}, 0)
loops = g.loops()
assert sorted(loops) == [1, 3, 7]
assert loops[1].body == {1, 2, 3, 4, 5} and loops[1].entries == {0} and loops[1].exits == {6}
assert loops[3].body == {3, 4} and loops[3].exits == {5}
assert loops[7].body == {7, 8} and loops[7].exits == {9}
assert g.in_loops(4) == [loops[3], loops[1]] and g.in_loops(9) == []
assert g.backbone() == {0, 1, 6, 7, 8, 9}
assert g.descendents(3) == {4, 5} and g.descendents(6) == {7, 8, 9}
assert g.dominator_tree()[1] == {2, 6}

g = build({0: [1, 4], 1: [2], 2: [3, 1], 3: [2], 4: []}, 0)
assert g.loops()[1].exits == set() and g.exit_points() == {4}
assert g.post_dominators()[0] == {0}
assert g.post_dominators()[1] == {1, 2}
assert g.backbone() == {0}

a = build({0: [1, 2], 1: [3], 2: [3], 3: []}, 0)
b = build({3: [], 2: [3], 1: [3], 0: [2, 1]}, 0)
c = build({0: [1, 2], 1: [3], 2: [3], 3: [], 5: [0]}, 0)
assert a == b and a != c


def sample(n):
    total = 0
    i = 0
    while i < n:
        if i % 3 == 0:
            total += i
        else:
            total -= 1
        i += 1
    return total


cfa = ControlFlowAnalysis(ByteCode(func_id=FunctionIdentity.from_function(sample)))
cfa.run()
offsets = [b.offset for b in cfa.iterblocks()]
assert offsets == sorted(offsets) and offsets[0] == 0
assert cfa.graph.loops(), "the while loop is a loop of the graph"
assert all(not cfa.graph.successors(e) for e in cfa.graph.exit_points())
assert 0 in cfa.backbone
print("controlflow ok")
