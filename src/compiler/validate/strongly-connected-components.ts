/**
 * Tarjan's strongly connected components, iterative so a 10,000-node chain cannot overflow the call stack.
 * O(V+E). Returns every component (singletons included), each in discovery order; successors that are not
 * in `ids` are ignored.
 */
export function stronglyConnectedComponents(
  ids: readonly string[],
  successors: (id: string) => Iterable<string>,
): string[][] {
  const position = new Map<string, number>();
  ids.forEach((id, i) => {
    if (!position.has(id)) position.set(id, i);
  });
  const order = new Int32Array(ids.length).fill(-1);
  const low = new Int32Array(ids.length);
  const onStack = new Uint8Array(ids.length);
  const stack: number[] = [];
  const components: string[][] = [];
  let counter = 0;

  interface Frame {
    node: number;
    next: Iterator<string>;
  }

  const open = (node: number, frames: Frame[]): void => {
    order[node] = low[node] = counter++;
    stack.push(node);
    onStack[node] = 1;
    frames.push({ node, next: successors(ids[node]!)[Symbol.iterator]() });
  };

  for (const root of position.values()) {
    if (order[root] !== -1) continue;
    const frames: Frame[] = [];
    open(root, frames);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const step = frame.next.next();
      if (!step.done) {
        const succ = position.get(step.value);
        if (succ === undefined) continue;
        if (order[succ] === -1) open(succ, frames);
        else if (onStack[succ]) low[frame.node] = Math.min(low[frame.node]!, order[succ]!);
        continue;
      }
      frames.pop();
      const node = frame.node;
      const parent = frames[frames.length - 1];
      if (parent) low[parent.node] = Math.min(low[parent.node]!, low[node]!);
      if (low[node] !== order[node]) continue;
      const component: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack[member] = 0;
        component.push(ids[member]!);
        if (member === node) break;
      }
      components.push(component.reverse());
    }
  }
  return components;
}
