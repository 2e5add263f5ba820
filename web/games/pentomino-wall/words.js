// Pentomino Wall in words and colours: the seats as the page names them, the
// twelve pieces' colours, and each event as the view tells it.

export const SEATS = {
  P1: { label: 'Red', mark: '▲', className: 'p1' },
  P2: { label: 'Blue', mark: '●', className: 'p2' },
};

/// The twelve pieces' colours, light enough for a dark letter on each
/// cell: the letter, not the colour, tells the pieces apart.
export const COLOURS = {
  F: '#c9a0dc', I: '#ffb347', L: '#77dd77', N: '#c19a6b', P: '#ff8a80', T: '#f49ac2',
  U: '#d4e157', V: '#fff176', W: '#80deea', X: '#90caf9', Y: '#b39ddb', Z: '#e6c79c',
};

export const other = (seat) => (seat === 'P1' ? 'P2' : 'P1');
/// A seat in a sentence: its colour's name.
export const seatName = (seat) => SEATS[seat]?.label ?? seat;
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const cap = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);
export const credits = (n) => plural(n, 'credit');

export { esc } from '../../util.js';

/// The latest event in words: "Red (P1) placed T90 at C4".
export function eventWords(last) {
  if (!last?.event) return '';
  const by = seatName(last.by);
  const them = seatName(other(last.by));
  const e = last.event;
  let w;
  switch (e.kind) {
    case 'first':
      w = `${by} named ${seatName(e.first)} to draft first`;
      break;
    case 'took': {
      const pieces = [...(e.pieces ?? '')];
      w = e.double
        ? `${by} took ${pieces.join(' and ')} with a Double Turn (2 credits to ${them})`
        : `${by} took ${pieces.join('')}`;
      if (e.rest) w += `; ${them} takes the rest of the pool (${[...e.rest].join(' ')})`;
      break;
    }
    case 'sealed':
      w = `${by} sealed a choice`;
      break;
    case 'revealed':
      w = `${seatName('P1')} presents ${e.p1.present} and sets ${e.p1.aside} aside; ` +
        `${seatName('P2')} presents ${e.p2.present} and sets ${e.p2.aside} aside`;
      break;
    case 'exchanged':
      w = `${by} exchanged ${e.took} for ${e.gave} (2 credits to ${them}), who orients ${e.gave}`;
      break;
    case 'oriented':
      w = `${by} oriented ${e.orientation[0]} for ${them}: ${orientationWords(e.orientation)} (${e.orientation})`;
      break;
    case 'placed':
      w = `${by} placed ${orientationWords(e.placed.piece)} at ${e.placed.at} (${e.placed.piece} ${e.placed.at})`;
      if (e.paid > 0) w += ` (${plural(e.paid, 'paid step')}: ${credits(e.paid)} to ${them})`;
      break;
    case 'round-end':
      w = `${by}: ${e.choice}`;
      if (e.gained + e.paid > 0) w += ` (+${credits(e.gained)} to ${by}, +${credits(e.paid)} to ${them})`;
      break;
    default:
      w = `${by} played`;
  }
  if (last.timeout) w = `${by}’s time ran out; the umpire chose: ${w}`;
  return w;
}

/// The tiebreak step an outcome names, in a sentence.
export function deciderWords(decidedBy) {
  const d = String(decidedBy ?? '');
  if (d === 'score') return 'the higher score';
  if (d === 'fewer unpainted cells') return 'equal scores: fewer unpainted cells';
  if (d === 'more credits') return 'equal scores and unpainted cells: more credits';
  if (d === 'larger square') return 'equal scores, unpainted cells and credits: the larger square';
  if (d.startsWith('first to reach')) return `everything else equal: ${d} with the running score`;
  if (d === 'draw') return 'every tiebreak equal: a draw';
  return d;
}

/// An orientation's name in words: "T", "T turned 90°", "T mirrored and
/// turned 90°" (the notation mirrors first, then turns clockwise).
export function orientationWords(name) {
  const m = /^([A-Za-z])(m?)(90|180|270)?$/i.exec(String(name ?? '').trim());
  if (!m) return String(name ?? '');
  const letter = m[1].toUpperCase();
  const turned = m[3] ? `turned ${m[3]}°` : '';
  if (m[2]) return `${letter} mirrored${turned ? ` and ${turned}` : ''}`;
  return turned ? `${letter} ${turned}` : letter;
}
