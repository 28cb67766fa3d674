#!/usr/bin/env python3
"""pstlab's modules import each other without a cycle: the module graph (imports inside functions
count too) has no strongly connected component of more than one module, nor a module importing itself.

    check-python-imports.py [PACKAGE]     (default pstlab; found on sys.path, as Python would)

Lists each cycle (its modules, and one import of each that closes it) and exits 1."""
import sys

import grimp


def components(graph: grimp.ImportGraph) -> list[list[str]]:
    """Tarjan's strongly connected components, iterative (the graph's depth may exceed the recursion limit)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        members.append(m)
                        if m == node:
                            break
                    out.append(sorted(members))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return out


def main() -> int:
    package = sys.argv[1] if len(sys.argv) > 1 else "pstlab"
    graph = grimp.build_graph(package, cache_dir=None)
    cycles = [c for c in components(graph) if len(c) > 1 or c[0] in graph.find_modules_directly_imported_by(c[0])]
    for cycle in cycles:
        print(f"import cycle through {len(cycle)} module(s): {', '.join(cycle)}")
        for m in cycle:
            for target in sorted(set(graph.find_modules_directly_imported_by(m)) & set(cycle)):
                lines = graph.get_import_details(importer=m, imported=target)
                where = ", ".join(f"l.{d['line_number']}" for d in lines)
                print(f"  {m} imports {target} ({where})")
    modules = len(graph.modules)
    if cycles:
        print(f"{package}: {len(cycles)} import cycle(s) among {modules} modules")
    else:
        print(f"{package}: {modules} modules, no import cycle")
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
