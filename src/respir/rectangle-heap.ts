/** A rectangle [u1, u2] × [v1, v2] of positives, and its ℓ1 distance from the start. */
export interface Rectangle {
  u1: number;
  u2: number;
  v1: number;
  v2: number;
  /** ℓ1 distance from the start to the rectangle's nearest point. */
  distance: number;
}

/** A binary min-heap of rectangles by distance: push and pop in O(log size). */
export class RectangleHeap {
  private readonly items: Rectangle[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Rectangle {
    return this.items[0];
  }
  push(item: Rectangle): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent].distance <= item.distance) break;
      items[i] = items[parent];
      i = parent;
    }
    items[i] = item;
  }
  pop(): Rectangle {
    const items = this.items;
    const top = items[0];
    const last = items.pop() as Rectangle;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= items.length) break;
        const right = left + 1;
        const child = right < items.length && items[right].distance < items[left].distance ? right : left;
        if (items[child].distance >= last.distance) break;
        items[i] = items[child];
        i = child;
      }
      items[i] = last;
    }
    return top;
  }
}
