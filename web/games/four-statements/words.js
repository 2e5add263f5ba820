// Four Statements in words: the seats as the page names them, phases,
// statuses, items and the view's events.

export const SEATS = {
  P1: { label: 'Orange', mark: '◆', className: 'p1 fs-p1' },
  P2: { label: 'Purple', mark: '●', className: 'p2 fs-p2' },
};

export const ITEMS = [
  ['nolimit', 'No Limit'],
  ['smokescreen', 'Smokescreen'],
  ['detective', 'Detective'],
];

export const other = (seat) => (seat === 'P1' ? 'P2' : 'P1');
export const isSeat = (who) => who === 'P1' || who === 'P2';
/// A seat in a sentence: its colour's name.
export const seatName = (seat) => SEATS[seat]?.label ?? seat;
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const cap = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

export { esc } from '../../util.js';

export const PHASES = {
  bluff: 'both seats choose a subset and make four statements (sealed)',
  claim: 'both seats claim true or false for the other’s statements (sealed)',
  reveal: 'both seats buy tiles, guess the grid or pass (sealed)',
  over: 'the match is over',
};

export const STATUS_WORDS = {
  waiting: 'to decide',
  deciding: 'to decide',
  submitted: 'submitted',
  guessing: 'guessing',
  done: 'done',
};

export function phaseLine(view) {
  const of = view?.max_rounds ? ` of ${view.max_rounds}` : '';
  return `Round ${view?.round ?? 1}${of}: ${PHASES[view?.phase] ?? view?.phase ?? ''}.`;
}

/// The view's `last` in words, whatever its shape: a sentence, or an event
/// object with a text.
export function lastWords(last) {
  if (!last) return '';
  if (typeof last === 'string') return last;
  if (typeof last.text === 'string') return last.text;
  if (typeof last.message === 'string') return last.message;
  if (typeof last.event === 'string') return last.event;
  return '';
}
