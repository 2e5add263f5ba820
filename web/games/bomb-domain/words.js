// Bomb Domain in words: the seats as the page names them, each event as a
// view tells it (a sealed placement only as "submitted", unless the view
// holds it), and the cells the latest event touched.

import {
  KINDS,
  other,
  parsePlacement,
  parseTurn,
  placementText,
  sealedOf,
} from './rules.js';

/// Okabe–Ito vermilion and blue, each with a pattern (stripes, dots) on its
/// domain and a mark on its chip, so colour is never the only cue.
export const SEATS = {
  P1: { label: 'Red', mark: '╱', className: 'p1', pattern: 'stripes' },
  P2: { label: 'Blue', mark: '•', className: 'p2', pattern: 'dots' },
};

/// A seat in a sentence: its colour's name.
export const seatName = (seat) => SEATS[seat]?.label ?? seat;
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const cap = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

export { esc } from '../../util.js';

// --- words ------------------------------------------------------------------

export const ordinal = (n) => {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
};

/// The turn's parts in words: "moved D4 to D7 and F3 to I3, pegged G7".
export function turnWords(text) {
  const t = parseTurn(text);
  if (!t) return text;
  const parts = [];
  if (t.diagonal && t.steps[0]) parts.push(`stepped diagonally from ${t.steps[0].from} to ${t.steps[0].to}`);
  else if (t.steps.length) parts.push(`moved ${t.steps.map((s) => `${s.from} to ${s.to}`).join(' and ')}`);
  if (t.peg) parts.push(`pegged ${t.peg}`);
  if (t.detonate) parts.push(`detonated ${t.detonate}`);
  if (!parts.length) return 'passed';
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
}

/// The latest event in words, as this view shows it (a sealed placement
/// only as "submitted").
export function eventWords(view) {
  if (view.phase === 'place') {
    const done = ['P1', 'P2'].filter((s) => sealedOf(view, s) !== 'waiting');
    if (done.length === 1) {
      const s = done[0];
      const sealed = sealedOf(view, s);
      if (sealed === 'missed') return `${seatName(s)} missed round ${view.round}: its square, plus and cross are lost`;
      if (typeof sealed === 'object') return `${seatName(s)} submitted ${placementText(sealed)} for round ${view.round} (sealed until both are in)`;
      return `${seatName(s)} submitted its round ${view.round} placement (sealed until both are in)`;
    }
  }
  const last = view.last;
  if (!last) return null;
  switch (last.event) {
    case 'first':
      return last.lapsed
        ? `${seatName(last.by)}’s starter choice lapsed: ${seatName(last.first)} takes the first turn`
        : `${seatName(last.by)} chose ${seatName(last.first)} to take the first turn`;
    case 'defer':
      return `${seatName(last.by)} deferred the starter choice to ${seatName(other(last.by))}`;
    case 'round': {
      const part = (s) => (last.placed?.[s] ? `${SEATS[s].label} placed ${last.placed[s]}` : `${SEATS[s].label}’s time ran out: its pieces are lost`);
      return `round ${last.round}: ${part('P1')}; ${part('P2')}`;
    }
    case 'turn': {
      const who = seatName(last.seat);
      const nth = Math.ceil(last.turn / 2);
      if (last.action == null) return `${who}’s time ran out: turn ${nth} of 25 skipped`;
      return `${who} ${turnWords(last.action)} (turn ${nth} of 25: ${last.action})`;
    }
    default:
      return null;
  }
}

/// The cells the latest event touched: {from, to, peg, detonate, placed}.
export function lastMarks(view) {
  const out = { from: [], to: [], peg: null, detonate: null, placed: [] };
  const last = view.last;
  if (last?.event === 'turn' && last.action) {
    const t = parseTurn(last.action);
    if (t) {
      out.from = t.steps.map((s) => s.from);
      out.to = t.steps.map((s) => s.to);
      out.peg = t.peg;
      out.detonate = t.detonate;
    }
  } else if (last?.event === 'round' && view.phase !== 'over') {
    for (const s of ['P1', 'P2']) {
      const p = parsePlacement(last.placed?.[s]);
      if (p) out.placed.push(...KINDS.map((k) => p[k]));
    }
  }
  return out;
}
