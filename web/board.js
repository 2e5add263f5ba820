// What the board modules (web/games/<id>.js) share: cell names on a square
// grid, and the state each module keeps per board it draws.

/// The cells of a board `width` columns by `height` rows (at most 26
/// wide), named as notation writes them: `A1` top-left, letters rightwards,
/// numbers downwards.
export function grid(width, height = width) {
  /// `E5` for column 4, row 4 (both from 0).
  const name = (col, row) => `${String.fromCharCode(65 + col)}${row + 1}`;
  const places = new Map();
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) places.set(name(col, row), { col, row });
  }
  /// `{col, row}` (from 0) of a cell name on this board (any case, spaces
  /// allowed), or null.
  const parse = (text) => {
    const place = places.get(text) ?? places.get(String(text ?? '').replace(/\s+/g, '').toUpperCase());
    return place ? { ...place } : null;
  };
  const onBoard = (col, row) => col >= 0 && row >= 0 && col < width && row < height;
  const clamp = (v, n) => Math.min(n - 1, Math.max(0, v));
  const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  return {
    width,
    height,
    name,
    parse,
    onBoard,
    /// Every cell name, row by row.
    names: [...places.keys()],
    /// Whether two cell names are orthogonal neighbours.
    adjacent(a, b) {
      const p = parse(a);
      const q = parse(b);
      return !!p && !!q && Math.abs(p.col - q.col) + Math.abs(p.row - q.row) === 1;
    },
    /// The cells orthogonally next to column `col`, row `row`, as [col, row].
    neighbours(col, row) {
      const around = [[col, row - 1], [col + 1, row], [col, row + 1], [col - 1, row]];
      return around.filter(([c, r]) => onBoard(c, r));
    },
    /// The SVG labels of a board drawn `cell` units a cell from `margin`:
    /// the column letters above it, the row numbers left of it, hidden from
    /// screen readers (each cell says its own name).
    coordinates(margin, cell, className) {
      const parts = [];
      for (let i = 0; i < Math.max(width, height); i++) {
        const p = margin + i * cell + cell / 2;
        const label = (x, y, text) => `<text class="${className}" x="${x}" y="${y}" text-anchor="middle" aria-hidden="true">${text}</text>`;
        if (i < width) parts.push(label(p, margin - 9, name(i, 0).slice(0, 1)));
        if (i < height) parts.push(label(margin - 13, p + 5, i + 1));
      }
      return parts.join('');
    },
    /// The start of this board drawn as an SVG grid `cell` units a cell
    /// from `margin`: the <svg> element (a grid to screen readers, named
    /// `label` and its extent; `attrs` adds its class and the like), its
    /// frame and its coordinates, classed `<prefix>-frame` and
    /// `<prefix>-coord`. The caller adds the rows and closes the </svg>.
    svgStart({ margin, cell, attrs = '', label, prefix }) {
      const [w, h] = [width * cell, height * cell];
      return (
        `<svg ${attrs} viewBox="0 0 ${margin + w + 6} ${margin + h + 6}" role="grid" aria-label="${label}, columns A to ${name(width - 1, 0).slice(0, 1)}, rows 1 to ${height}" xmlns="http://www.w3.org/2000/svg">` +
        `<rect x="${margin - 3}" y="${margin - 3}" width="${w + 6}" height="${h + 6}" rx="4" class="${prefix}-frame"/>` +
        this.coordinates(margin, cell, `${prefix}-coord`)
      );
    },
    /// Where a key moves the focus from cell `from`: an arrow one cell
    /// (not off the board), Home and End to the ends of its row; null for
    /// any other key.
    step(from, key) {
      const p = places.get(from);
      if (!p) return null;
      const arrow = ARROWS[key];
      if (arrow) return name(clamp(p.col + arrow[0], width), clamp(p.row + arrow[1], height));
      if (key === 'Home' || key === 'End') return name(key === 'Home' ? 0 : width - 1, p.row);
      return null;
    },
  };
}

/// A board module's state, one per container it draws into. `make()`
/// gives a new board's lasting fields (its focus, say), `fresh(st)` clears
/// what is being chosen (a selection, a half-built action). `on` maps an
/// event type to its handler `(container, event)`, attached once (a click
/// on a button with `data-action` sends that action instead); `hover`
/// ({cells, show}) previews the cell under a mouse or a pen: `show(container,
/// name, element)` as the pointer moves over an element matching the
/// selector `cells`, `show(container, null)` off them. A finger leaves the
/// screen after every tap, so touch keeps what its tap showed. Each state
/// also holds the latest `view` and `ctx`, and the `key` its choice
/// belongs to.
export function boardStates({ make = () => ({}), fresh = () => {}, on = {}, hover = null }) {
  const states = new WeakMap();
  const listen = (container) => {
    // A button with data-action sends that action as it stands (the page
    // also marks such a button as staged); the board's click handler sees
    // every other click.
    container.addEventListener('click', (e) => {
      const button = e.target.closest?.('button[data-action]');
      if (button && !button.disabled) states.get(container)?.ctx?.submit(button.dataset.action);
      else on.click?.(container, e);
    });
    for (const [type, handler] of Object.entries(on)) {
      if (type !== 'click') container.addEventListener(type, (e) => handler(container, e));
    }
    if (!hover) return;
    container.addEventListener('pointermove', (e) => {
      if (e.pointerType === 'touch') return;
      const cell = e.target.closest?.(hover.cells);
      hover.show(container, cell?.dataset.cell ?? null, cell ?? null);
    });
    container.addEventListener('pointerleave', (e) => e.pointerType !== 'touch' && hover.show(container, null, null));
  };
  const of = (container) => {
    let st = states.get(container);
    if (!st) {
      st = { view: null, ctx: null, key: null, ...make() };
      fresh(st);
      states.set(container, st);
      listen(container);
    }
    return st;
  };
  return {
    /// The container's state, made on first use.
    of,
    /// The container's state, or undefined before its first render.
    get: (container) => states.get(container),
    /// Keeps `view` and `ctx`; when `key` (what the choice on the board
    /// belongs to: the phase, the turn, whether this seat acts) differs
    /// from the last, or `keep` is false (this seat does not act, say),
    /// the choice starts afresh. Returns the state and whether it did.
    update(container, view, ctx, key, keep = true) {
      const st = of(container);
      st.view = view;
      st.ctx = ctx;
      const changed = !keep || key !== st.key;
      if (changed) {
        fresh(st);
        st.key = key;
      }
      return { st, changed };
    },
    /// Shows `text` in the board's hint line (the element `selector`)
    /// without a redraw, and keeps it in the state for the next one.
    hint(container, selector, text) {
      const st = states.get(container);
      if (!st) return;
      st.hint = text;
      const el = container.querySelector(selector);
      if (el && el.textContent !== text) el.textContent = text;
    },
    /// Starts the choice afresh (after a refusal); the state, or null for
    /// a board not drawn yet.
    reset(container) {
      const st = states.get(container);
      if (!st?.view) return null;
      fresh(st);
      return st;
    },
  };
}
