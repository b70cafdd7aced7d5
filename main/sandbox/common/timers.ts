/** setTimeout handles a peer owns, so stop() can clear every one of them. */
export class TimerSet {
  readonly #handles = new Set<NodeJS.Timeout>();

  set(callback: () => void, ms: number): NodeJS.Timeout {
    const handle = setTimeout(() => {
      this.#handles.delete(handle);
      callback();
    }, ms);
    this.#handles.add(handle);
    return handle;
  }

  clear(handle: NodeJS.Timeout): void {
    clearTimeout(handle);
    this.#handles.delete(handle);
  }

  clearAll(): void {
    for (const handle of this.#handles) clearTimeout(handle);
    this.#handles.clear();
  }
}
