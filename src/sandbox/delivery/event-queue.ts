// A stream of items pushed as they come and read with for await, which either side can end: the
// reader by leaving its loop (its connection closed), the writer by end(). A reader waiting for
// the next item is let go at once, where an async generator would wait for its pending await.

export class EventQueue<T> implements AsyncIterableIterator<T> {
  readonly #items: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #ended = false;
  readonly #onEnd: () => void;

  /** `onEnd` is called once, whichever side ends it. */
  constructor(onEnd: () => void = () => {}) {
    this.#onEnd = onEnd;
  }

  push(item: T) {
    if (this.#ended) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      resolve({ value: item, done: false });
    } else this.#items.push(item);
  }

  end() {
    if (this.#ended) return;
    this.#ended = true;
    this.#waiting?.({ value: undefined, done: true });
    this.#waiting = undefined;
    this.#onEnd();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#items.length > 0) return Promise.resolve({ value: this.#items.shift()!, done: false });
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  async return(): Promise<IteratorResult<T>> {
    this.end();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
