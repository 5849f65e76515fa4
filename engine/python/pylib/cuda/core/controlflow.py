"""numba.cuda.core.controlflow: control-flow graphs and their analyses.

cuhost's compiler does its control-flow work in C++ on its typed AST and in
LLVM, so nothing here feeds the engine. numba-cuda exposes its graph class as
a public analysis tool, and this is our implementation of that interface:

* `CFGraph`: a directed graph of hashable nodes with an entry point. After
  `process()` it answers dominators, post-dominators, immediate dominators,
  the dominator tree, dominance frontiers, back edges, natural loops (and
  which loops hold a node), descendants, a topological order, the backbone
  (nodes on every path) and the dead (unreachable) nodes.
* `ControlFlowAnalysis`: the graph of a Python function's basic blocks,
  built from its bytecode (core/bytecode.py).

Algorithms: dominators and post-dominators are the iterative data-flow
fixpoints; immediate dominators are read off the dominator chains; dominance
frontiers walk each predecessor up the dominator tree (Cooper, Harvey and
Kennedy, "A Simple, Fast Dominance Algorithm"); back edges are the edges
into the current path of a depth-first search; a loop is the natural loop of
its header's back edges. A loop that no edge leaves would leave nodes with
no post-dominator reaching an exit, so the sources of its back edges count
as ends of the function for post-dominators and the backbone.
"""

import collections
import pprint
import sys

__all__ = ["CFBlock", "CFGraph", "ControlFlowAnalysis", "Loop"]


class CFBlock:
    """A basic block of bytecode: its first offset, body and jumps."""

    def __init__(self, offset):
        self.offset = offset
        self.body = []
        # {successor offset: stack items popped by the jump}
        self.outgoing_jumps = {}
        # {predecessor offset: stack items popped by the jump}
        self.incoming_jumps = {}
        self.terminating = False

    def __repr__(self):
        return "block(offset:%d, outgoing: %s, incoming: %s)" % (
            self.offset, sorted(self.outgoing_jumps), sorted(self.incoming_jumps))

    def __iter__(self):
        return iter(self.body)


class Loop(collections.namedtuple("Loop", ("entries", "exits", "header", "body"))):
    """A natural loop: its header, body, entering nodes and exit targets.

    A graph has one loop per header, so two loops are the same loop when
    their headers are equal."""

    __slots__ = ()

    def __eq__(self, other):
        return isinstance(other, Loop) and other.header == self.header

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.header)


_UNSET = object()


class CFGraph:
    """A control-flow graph: add nodes and edges, set the entry point, call
    process(), then query it."""

    def __init__(self):
        self._nodes = set()
        self._succs = collections.defaultdict(dict)  # node -> {dest: data}
        self._preds = collections.defaultdict(dict)  # node -> {src: data}
        self._entry_point = None
        self._dead = set()
        self._cache = {}

    # ---- building -----------------------------------------------------------

    def add_node(self, node):
        """Add a node (any hashable value)."""
        self._nodes.add(node)
        self._cache.clear()

    def add_edge(self, src, dest, data=None):
        """Add an edge from src to dest, with optional data. Both nodes must
        have been added."""
        for node in (src, dest):
            if node not in self._nodes:
                raise ValueError("Cannot add edge as node %r does not exist in the graph" % (node,))
        self._succs[src][dest] = data
        self._preds[dest][src] = data
        self._cache.clear()

    def set_entry_point(self, node):
        """Set the node every path starts from."""
        if node not in self._nodes:
            raise ValueError("entry point %r is not a node of the graph" % (node,))
        self._entry_point = node
        self._cache.clear()

    def process(self):
        """Remove the nodes the entry point cannot reach; call once the graph
        is built and before any query."""
        if self._entry_point is None:
            raise RuntimeError("no entry point defined!")
        reachable = self._reachable_from(self._entry_point)
        dead = self._nodes - reachable
        for node in dead:
            for dest in self._succs.pop(node, {}):
                self._preds[dest].pop(node, None)
            for src in self._preds.pop(node, {}):
                self._succs[src].pop(node, None)
        self._nodes -= dead
        self._dead |= dead
        self._cache.clear()

    # ---- plain queries --------------------------------------------------------

    def successors(self, src):
        """(dest, data) for each edge leaving src."""
        return list(self._succs.get(src, {}).items())

    def predecessors(self, dest):
        """(src, data) for each edge entering dest."""
        return list(self._preds.get(dest, {}).items())

    def entry_point(self):
        return self._entry_point

    def nodes(self):
        """The live (reachable) nodes."""
        return set(self._nodes)

    def dead_nodes(self):
        """The nodes process() removed because the entry cannot reach them."""
        return set(self._dead)

    def exit_points(self):
        """The live nodes no edge leaves."""
        return self._memo("exits", lambda: {n for n in self._nodes if not self._succs.get(n)})

    # ---- depth-first search, back edges, order --------------------------------

    def _reachable_from(self, start):
        seen = {start}
        todo = [start]
        while todo:
            for dest in self._succs.get(todo.pop(), {}):
                if dest not in seen:
                    seen.add(dest)
                    todo.append(dest)
        return seen

    def _find_back_edges(self, stats=None):
        """The edges (src, dest) into a node on the current path of a
        depth-first search from the entry point.

        `stats`, a dict, gets "iteration_count" increased by the search's
        steps: one per edge examined and one per node finished."""
        if stats is not None:
            if not isinstance(stats, dict):
                raise TypeError("*stats* must be a dict; got %s" % type(stats))
            stats.setdefault("iteration_count", 0)
        back_edges = set()
        path = [self._entry_point]
        on_path = {self._entry_point}
        pending = {self._entry_point: list(self._succs.get(self._entry_point, {}))}
        finished = set()
        steps = 0
        while path:
            steps += 1
            node = path[-1]
            todo = pending[node]
            if not todo:
                path.pop()
                on_path.discard(node)
                finished.add(node)
                continue
            dest = todo.pop()
            if dest in on_path:
                back_edges.add((node, dest))
            elif dest not in finished:
                path.append(dest)
                on_path.add(dest)
                pending[dest] = list(self._succs.get(dest, {}))
        if stats is not None:
            stats["iteration_count"] += steps
        return back_edges

    def _back_edges(self):
        return self._memo("back_edges", self._find_back_edges)

    def _forward_succs(self, node):
        back = self._back_edges()
        return [d for d in self._succs.get(node, {}) if (node, d) not in back]

    def topo_order(self):
        """The live nodes in a topological order of the graph without its
        back edges (a reverse post-order from the entry point)."""
        def compute():
            postorder, seen = [], {self._entry_point}
            stack = [(self._entry_point, iter(self._forward_succs(self._entry_point)))]
            while stack:
                node, it = stack[-1]
                for dest in it:
                    if dest not in seen:
                        seen.add(dest)
                        stack.append((dest, iter(self._forward_succs(dest))))
                        break
                else:
                    stack.pop()
                    postorder.append(node)
            return postorder[::-1]
        return list(self._memo("topo_order", compute))

    def topo_sort(self, nodes, reverse=False):
        """`nodes` in topological order (reversed when `reverse`)."""
        rank = {n: i for i, n in enumerate(self.topo_order())}
        return sorted(nodes, key=rank.__getitem__, reverse=reverse)

    def descendents(self, node):
        """The nodes reachable from `node` without taking a back edge."""
        def compute():
            descs = {}
            for n in reversed(self.topo_order()):
                found = set()
                for d in self._forward_succs(n):
                    found.add(d)
                    found |= descs[d]
                descs[n] = found
            return descs
        return set(self._memo("descendents", compute)[node])

    # ---- dominance ------------------------------------------------------------

    def _dominator_sets(self, preds, starts, order):
        """The iterative fixpoint of dom(n) = {n} | meet(dom(p) for p in preds(n)),
        with dom(s) = {s} for each start node s; `order` visits predecessors
        first where it can, so that few rounds are needed."""
        doms = {n: set(self._nodes) for n in self._nodes}
        for s in starts:
            doms[s] = {s}
        changed = True
        while changed:
            changed = False
            for n in order:
                if n in starts:
                    continue
                inputs = [doms[p] for p in preds(n)]
                new = set.intersection(*inputs) if inputs else set()
                new = new | {n}
                if new != doms[n]:
                    doms[n] = new
                    changed = True
        return doms

    def _preds_of(self, node):
        return self._preds.get(node, {}).keys()

    def _succs_of(self, node):
        return self._succs.get(node, {}).keys()

    def dominators(self):
        """{node: set of the nodes that dominate it (itself included)}."""
        return self._memo("doms", lambda: self._dominator_sets(self._preds_of, {self._entry_point},
                                                               self.topo_order()))

    def _ends(self):
        """Where paths end: the exit points, and the sources of the back edges
        of loops that nothing leaves (their paths never reach an exit)."""
        def compute():
            ends = set(self.exit_points())
            for loop in self.loops().values():
                if not loop.exits:
                    ends |= {src for src, dest in self._back_edges() if dest == loop.header}
            return ends
        return self._memo("ends", compute)

    def post_dominators(self):
        """{node: set of the nodes that post-dominate it (itself included)}."""
        def compute():
            ends = self._ends()
            # Post-dominance is dominance on the reversed graph from the ends:
            # meet over successors, and an end's set is itself.
            return self._dominator_sets(self._succs_of, ends, self.topo_order()[::-1])
        return self._memo("post_doms", compute)

    def immediate_dominators(self):
        """{node: its immediate dominator}; the entry point maps to itself."""
        def compute():
            doms = self.dominators()
            idom = {self._entry_point: self._entry_point}
            for n, ds in doms.items():
                strict = ds - {n}
                if strict:
                    # Dominators form a chain: the closest has the most dominators.
                    idom[n] = max(strict, key=lambda d: len(doms[d]))
            return idom
        return dict(self._memo("idom", compute))

    def dominator_tree(self):
        """{node: set of the nodes it immediately dominates}."""
        tree = {n: set() for n in self._nodes}
        for n, d in self.immediate_dominators().items():
            if n != d:
                tree[d].add(n)
        return tree

    def dominance_frontier(self):
        """{node: set of the nodes where its dominance ends}."""
        def compute():
            idom = self.immediate_dominators()
            parent = {n: (None if n == self._entry_point else d) for n, d in idom.items()}
            frontier = {n: set() for n in self._nodes}
            for node in self._nodes:
                for pred in self._preds_of(node):
                    runner = pred
                    while runner is not None and runner != parent[node]:
                        frontier[runner].add(node)
                        runner = parent[runner]
            return frontier
        return {n: set(s) for n, s in self._memo("df", compute).items()}

    def backbone(self):
        """The nodes every path from the entry point to an end goes through."""
        doms = self.dominators()
        ends = self._ends()
        if not ends:
            return {self._entry_point}
        return set.intersection(*(doms[e] for e in ends))

    # ---- loops ----------------------------------------------------------------

    def loops(self):
        """{header: Loop} for the natural loops of the graph's back edges."""
        def compute():
            bodies = collections.defaultdict(set)
            for src, header in self._back_edges():
                body = bodies[header]
                body.add(header)
                todo = [src]
                while todo:
                    n = todo.pop()
                    if n not in body:
                        body.add(n)
                        todo.extend(self._preds_of(n))
            loops = {}
            for header, body in bodies.items():
                entries = {p for p in self._preds_of(header) if p not in body}
                exits = {d for n in body for d in self._succs_of(n) if d not in body}
                loops[header] = Loop(header=header, body=body, entries=entries, exits=exits)
            return loops
        return dict(self._memo("loops", compute))

    def in_loops(self, node):
        """The loops that hold `node`, innermost first."""
        def compute():
            holding = collections.defaultdict(list)
            for loop in self.loops().values():
                for n in loop.body:
                    holding[n].append(loop)
            for lst in holding.values():
                lst.sort(key=lambda lp: len(lp.body))
            return holding
        return list(self._memo("in_loops", compute).get(node, []))

    # ---- misc -----------------------------------------------------------------

    def _memo(self, key, compute):
        value = self._cache.get(key, _UNSET)
        if value is _UNSET:
            value = self._cache[key] = compute()
        return value

    def dump(self, file=None):
        """Print the adjacency lists and the analyses."""
        file = file or sys.stdout
        print("CFG adjacency lists:", file=file)
        for node in sorted(self._nodes, key=repr):
            print("  %r -> %r" % (node, sorted(self._succs.get(node, {}), key=repr)), file=file)
        for title, value in (("dead nodes", self.dead_nodes()), ("entry point", self._entry_point),
                             ("exit points", self.exit_points()), ("back edges", self._back_edges()),
                             ("dominators", self.dominators()), ("post-dominators", self.post_dominators()),
                             ("loops", self.loops()), ("topological order", self.topo_order())):
            print("%s:" % title, file=file)
            pprint.pprint(value, stream=file)

    def __eq__(self, other):
        if not isinstance(other, CFGraph):
            return NotImplemented
        return (self._entry_point == other._entry_point and self._nodes == other._nodes
                and self._dead == other._dead
                and all(self._succs.get(n, {}) == other._succs.get(n, {}) for n in self._nodes))

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None


class ControlFlowAnalysis:
    """The basic blocks of a Python function's bytecode and their graph.

    A block starts at offset 0, at every jump target and after every jump or
    terminator; it goes to its jump targets and, unless it ends in an
    unconditional jump or a return/raise, to the next block. Exception
    handlers are not edges (numba-cuda's analysis ignores them too)."""

    def __init__(self, bytecode):
        self.bytecode = bytecode
        self.blocks = {}
        self.blockseq = []
        self.liveblocks = {}
        self.graph = None
        self.backbone = None

    def iterblocks(self):
        """All blocks, in bytecode order."""
        for offset in self.blockseq:
            yield self.blocks[offset]

    def iterliveblocks(self):
        """The blocks the entry reaches, in bytecode order."""
        for offset in self.blockseq:
            if offset in self.liveblocks:
                yield self.blocks[offset]

    def incoming_blocks(self, block):
        """(predecessor block, stack pops) for each live jump into `block`."""
        for offset, pops in block.incoming_jumps.items():
            if offset in self.liveblocks:
                yield self.blocks[offset], pops

    def dump(self, file=None):
        self.graph.dump(file=file)

    def run(self):
        labels = set(self.bytecode.labels)
        block, start_new = None, True
        for inst in self.bytecode:
            if start_new or inst.offset in labels:
                if block is not None and not block.terminating and not block.outgoing_jumps:
                    block.outgoing_jumps[inst.offset] = 0  # falls through
                block = CFBlock(inst.offset)
                self.blocks[inst.offset] = block
                self.blockseq.append(inst.offset)
                start_new = False
            block.body.append(inst.offset)
            if inst.is_jump:
                block.outgoing_jumps[inst.get_jump_target()] = 0
                if not inst.is_unconditional_jump and inst.next in self.bytecode:
                    # *_OR_POP jumps pop their operand when they fall through.
                    block.outgoing_jumps[inst.next] = 1 if inst.opname.endswith("_OR_POP") else 0
                start_new = True
            elif inst.is_terminator:
                block.terminating = True
                start_new = True

        graph = CFGraph()
        for offset in self.blocks:
            graph.add_node(offset)
        for blk in self.blocks.values():
            for dest, pops in blk.outgoing_jumps.items():
                graph.add_edge(blk.offset, dest, pops)
                self.blocks[dest].incoming_jumps[blk.offset] = pops
        graph.set_entry_point(min(self.blocks))
        graph.process()
        self.graph = graph
        self.liveblocks = {offset: self.blocks[offset] for offset in graph.nodes()}
        in_loop = {offset for offset in self.blocks if graph.in_loops(offset)}
        self.backbone = graph.backbone() - in_loop
