import { inputError } from './errors.js';

/** What a registry holds: anything with a name. */
export interface Named {
  readonly name: string;
}

/**
 * A registry of named plug-ins (experiment kinds, their reporters, paper layouts).
 * Every registry of fairaudit is one of these, so all accept registration the same
 * way: register(entry) adds it under entry.name and throws when the name is taken,
 * never replacing an entry silently. Entries keep their registration order.
 */
export class Registry<Entry extends Named> {
  private readonly entries = new Map<string, Entry>();

  /** `what` names an entry in messages: "experiment kind", "paper layout". */
  constructor(readonly what: string) {}

  /**
   * Registry.of(what, entries) is a registry holding the entries in their order; throws
   * as register does on an empty or repeated name. O(entries).
   */
  static of<Entry extends Named>(what: string, entries: readonly Entry[]): Registry<Entry> {
    const registry = new Registry<Entry>(what);
    for (const entry of entries) registry.register(entry);
    return registry;
  }

  /**
   * register(entry) adds the entry. Throws an Error (a programming mistake, not bad
   * input) when its name is empty or already registered. O(1).
   */
  register(entry: Entry): void {
    if (typeof entry?.name !== 'string' || entry.name === '') {
      throw new Error(
        `register ${this.what}: expected an entry with a non-empty name, found ${JSON.stringify(entry?.name)}`,
      );
    }
    if (this.entries.has(entry.name)) {
      throw new Error(`register ${this.what}: "${entry.name}" is already registered; choose another name`);
    }
    this.entries.set(entry.name, entry);
  }

  /** has(name) tells whether an entry has that name. O(1). */
  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** find(name) is the entry with that name, or undefined. O(1). */
  find(name: string): Entry | undefined {
    return this.entries.get(name);
  }

  /**
   * get(name, where) is the entry with that name; throws InputError naming `where`
   * (the file or flag that asked for it) and the registered names otherwise. O(entries).
   */
  get(name: string, where: string): Entry {
    const entry = this.entries.get(name);
    if (entry === undefined) {
      const article = /^[aeiou]/i.test(this.what) ? 'an' : 'a';
      throw inputError({ where, expected: `${article} ${this.what} (${this.names().sort().join(', ')})`, found: name });
    }
    return entry;
  }

  /** names() lists the registered names in registration order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** list() lists the entries in registration order. */
  list(): Entry[] {
    return [...this.entries.values()];
  }
}
