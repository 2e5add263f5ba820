// A replay's steps as the server sends them: the umpire's view at the
// start in full, then each step's change to it as a JSON Patch (RFC 6902).
// Any step's view is rebuilt from the nearest kept one, so a long record
// costs the page what it costs the server: its changes, not every view.

/// A full view is kept every this many steps.
const KEEP_EVERY = 32;

/// Applies `patch` (the add, remove and replace operations the server
/// writes) to `doc` in place; returns the document (new if the root was
/// replaced).
export function applyPatch(doc, patch) {
  for (const op of patch) {
    const path = op.path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const value = 'value' in op ? structuredClone(op.value) : undefined;
    if (path.length === 0) {
      if (op.op === 'remove') throw new Error('a patch cannot remove the whole view');
      doc = value;
      continue;
    }
    let parent = doc;
    for (const key of path.slice(0, -1)) parent = parent[Array.isArray(parent) ? Number(key) : key];
    const last = path.at(-1);
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(i, 0, value);
      else if (op.op === 'remove') parent.splice(i, 1);
      else if (op.op === 'replace') parent[i] = value;
      else throw new Error(`unknown patch operation ${op.op}`);
    } else if (op.op === 'add' || op.op === 'replace') {
      parent[last] = value;
    } else if (op.op === 'remove') {
      delete parent[last];
    } else {
      throw new Error(`unknown patch operation ${op.op}`);
    }
  }
  return doc;
}

/// The steps of one replay answer (`data.steps`).
export class ReplaySteps {
  constructor(steps) {
    this.entries = steps.map((s) => s.entry ?? null);
    this.patches = steps.map((s) => s.patch ?? []);
    this.kept = new Map([[0, steps[0]?.view ?? null]]);
    this.each((i, view) => {
      if (i > 0 && i % KEEP_EVERY === 0) this.kept.set(i, structuredClone(view));
    });
  }

  get length() {
    return this.entries.length;
  }

  entry(n) {
    return this.entries[n];
  }

  /// Calls `visit(i, view, entry)` for every step in order with its view,
  /// which is valid only during the call.
  each(visit) {
    let view = structuredClone(this.kept.get(0));
    for (let i = 0; i < this.length; i++) {
      if (i > 0) view = applyPatch(view, this.patches[i]);
      visit(i, view, this.entries[i]);
    }
  }

  /// The view after step `n`, a copy of its own.
  view(n) {
    const from = Math.floor(n / KEEP_EVERY) * KEEP_EVERY;
    let view = structuredClone(this.kept.get(from));
    for (let i = from + 1; i <= n; i++) view = applyPatch(view, this.patches[i]);
    return view;
  }
}
