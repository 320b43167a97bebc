/** node -> node it imports -> the imports that make the edge (as printed) */
export type Graph = Map<string, Map<string, string[]>>;

export function addEdge(graph: Graph, from: string, to: string, evidence: string): void {
  const edges = graph.get(from) ?? new Map<string, string[]>();
  graph.set(from, edges);
  edges.set(to, [...(edges.get(to) ?? []), evidence]);
}

/** Strongly connected components with more than one node: each holds at least one cycle. */
function cyclicComponents(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** The shortest way from `start` back to itself inside one component. */
function shortestCycle(graph: Graph, start: string, component: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (!component.has(to)) continue;
      if (to === start) {
        const route = [node];
        while (route[0] !== start) route.unshift(previous.get(route[0]!)!);
        return [...route, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** One problem per tangle: its shortest cycle and the imports that close it. */
export function cycleProblems(graph: Graph): string[] {
  return cyclicComponents(graph).map((component) => {
    const cycle = shortestCycle(graph, component[0]!, new Set(component));
    const evidence = cycle.slice(1).flatMap((to, i) =>
      graph
        .get(cycle[i]!)!
        .get(to)!
        .map((edge) => `    ${edge}`),
    );
    return [
      `Server features import each other in a cycle: ${cycle.join(' -> ')}` +
        (component.length > cycle.length - 1 ? ` (all of ${component.join(', ')} are tangled)` : ''),
      ...evidence,
      '  Move the shared piece to the feature that owns it or to a small shared module, or let the',
      '  lower feature declare the interface it needs.',
    ].join('\n');
  });
}
