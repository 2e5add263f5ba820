// Four Statements' board: the 4×4 grid (each known tile in its colour with
// its letter R B G Y, unknown ones blank; the whole layout for the umpire
// and at the end), both seats' items, the seat's own Reveal Points, the
// rounds so far (subsets, statements, and what the seat may know of their
// truth), the seat's notebook and, with the aid option, each tile's odds.
// Everything secret (the layout, a seat's known tiles and RP, sealed
// choices) reaches a viewer only in its own view: this module draws what
// the view holds and nothing else.
//
// Acting: the bluff is built by clicking tiles for the subset (the three
// restrictions shown live, lifted by No Limit) and four statements, each
// from menus or typed, checked by the server as it is written (ctx.check);
// the claims by T / F / – toggles and a Detective; the reveal by clicking
// unknown tiles to buy, or painting the whole grid to guess (with a
// confirmation), or passing. Every choice is sent in the rulings' notation.
//
// It offers the board-module interface described in games/index.js. Its
// parts: four-statements/rules.js (cells, restrictions, sentences,
// notation) and words.js; both are re-exported for the unit tests.

import { boardStates } from '../board.js';
import {
  ADJACENCIES,
  ALL_CELLS,
  BUY_COST,
  CELLS,
  COLOUR_LETTERS,
  COLOUR_NAMES,
  COLS,
  COMPARISONS,
  KINDS,
  MAX_WORDS,
  NUMBER_WORDS,
  QUANTS,
  STATEMENTS,
  affordable,
  bluffText,
  buyText,
  cellIndex,
  chances,
  claimsText,
  detectiveText,
  guessText,
  itemUsed,
  knownLetters,
  normCell,
  previousSubset,
  readingOf,
  restrictions,
  sentence,
  sortCells,
  statementsOf,
  subsetOk,
  wordCount,
} from './four-statements/rules.js';
import { ITEMS, SEATS, STATUS_WORDS, cap, esc, isSeat, lastWords, other, phaseLine, plural, seatName } from './four-statements/words.js';

export * from './four-statements/rules.js';
export * from './four-statements/words.js';

const CHECK_DELAY_MS = 350;

const MENU_DEFAULTS = { quant: 'at least', n: 2, c1: 'R', c2: 'B', adj: 'any', cmp: 'more', qf: 'some', line: 'row', conn: false, not: false };
const JOINS = [
  ['', '(one claim)'],
  ['and', 'and …'],
  ['or', 'or …'],
  ['xor', 'xor (one, not both) …'],
];
const DEFAULT_STATEMENTS = [
  { ...MENU_DEFAULTS, kind: 'count', second: { ...MENU_DEFAULTS, kind: 'count', c1: 'B' } },
  { ...MENU_DEFAULTS, kind: 'compare', c1: 'B', c2: 'G', second: { ...MENU_DEFAULTS, kind: 'count', c1: 'G' } },
  { ...MENU_DEFAULTS, kind: 'adjacent', c1: 'G', c2: 'Y', adj: 'orth', second: { ...MENU_DEFAULTS, kind: 'count', c1: 'Y' } },
  { ...MENU_DEFAULTS, kind: 'colours', quant: 'exactly', n: 3, second: { ...MENU_DEFAULTS, kind: 'count', c1: 'R' } },
];

// --- reading the view -----------------------------------------------------------

/// Whether `seat` may buy this round (`may_buy` is per seat, or one flag).
export function mayBuy(view, seat) {
  const m = view?.may_buy;
  const v = m && typeof m === 'object' ? m[seat] : m;
  return v !== false;
}

/// This round's entry of `rounds`, if any.
function roundEntry(view, round = view?.round) {
  return (view?.rounds ?? []).find((r) => r.round === round) ?? null;
}

/// The opponent's statements this round: [{text, hidden, truth}] (`truth`
/// only once Detective told it).
export function opponentStatements(view, you) {
  const side = roundEntry(view)?.sides?.[other(you)];
  const list = side?.statements ?? [];
  return list.map((s, i) => {
    const smoke = side?.smokescreen;
    const hidden = s?.text == null || (Number.isInteger(smoke) && smoke === i + 1) || smoke === true && s?.text == null;
    return { text: s?.text ?? null, hidden, truth: typeof s?.truth === 'boolean' ? s.truth : null };
  });
}

/// The opponent's statement (from 0) this seat asked Detective about this
/// round, or null.
export function askedDetective(view, you) {
  const d = roundEntry(view)?.sides?.[you]?.detective;
  return Number.isInteger(d) ? d - 1 : null;
}

// --- drawing --------------------------------------------------------------------

function seatChip(seat) {
  const s = SEATS[seat];
  return `<span class="chip ${s.className}"><span class="chip-mark" aria-hidden="true">${esc(s.mark)}</span> ${esc(s.label)}</span>`;
}

/// The 4×4 grid as buttons. `opts`: {letters: {A1: 'R'}, mine: Set (the
/// subset being picked), buy: Set, opp: Set (the opponent's subset), own:
/// Set (the seat's subset this round), odds, active: 'subset' | 'buy' | null}.
// The sets of `gridHtml`'s options a cell may be in: its class and its words.
const CELL_MARKS = [
  ['mine', 'picked', 'in your subset'],
  ['buy', 'buying', 'to buy'],
  ['own', 'own-sub', 'your subset this round'],
  ['opp', 'opp-sub', 'opponent’s subset this round'],
];

export function gridHtml(opts = {}) {
  const letters = opts.letters ?? {};
  const head = `<div class="fs-corner" aria-hidden="true"></div>${COLS.map((c) => `<div class="fs-head" aria-hidden="true">${c}</div>`).join('')}`;
  const rows = [];
  // (A cell's marks are drawn by CSS from data-mark: decoration, which its
  // name already says in words, kept out of its visible text so that the
  // text stays a part of the name.)
  for (let y = 0; y < 4; y++) {
    rows.push(`<div class="fs-head" aria-hidden="true">${y + 1}</div>`);
    for (let x = 0; x < 4; x++) {
      const name = `${COLS[x]}${y + 1}`;
      const l = letters[name] ?? null;
      const cls = ['fs-cell', l ? `fs-c-${l}` : 'fs-unknown'];
      const notes = [];
      for (const [set, mark, note] of CELL_MARKS) {
        if (!opts[set]?.has(name)) continue;
        cls.push(mark);
        notes.push(note);
      }
      const odds = opts.odds ? chances(opts.odds, cellIndex(name)) : null;
      const oddsText = odds ? COLOUR_LETTERS.map((c, i) => `${COLOUR_NAMES[c]} ${Math.round(odds[i] * 100)}%`).join(', ') : '';
      const label = `${name}: ${l ? COLOUR_NAMES[l] : 'unknown'}${notes.length ? `, ${notes.join(', ')}` : ''}${oddsText && !l ? `; ${oddsText}` : ''}`;
      const bars = odds && !l
        ? `<span class="fs-odds" aria-hidden="true">${COLOUR_LETTERS.map((c, i) => `<span class="fs-bar fs-c-${c}" style="height:${Math.round(odds[i] * 100)}%" title="${COLOUR_NAMES[c]} ${Math.round(odds[i] * 100)}%"></span>`).join('')}</span>`
        : '';
      const pressed = opts.active === 'subset' ? ` aria-pressed="${opts.mine?.has(name) ? 'true' : 'false'}"` : opts.active === 'buy' && !l ? ` aria-pressed="${opts.buy?.has(name) ? 'true' : 'false'}"` : '';
      const disabled = !opts.active || (opts.active === 'buy' && l) ? ' disabled' : '';
      rows.push(
        `<button type="button" class="${cls.join(' ')}" data-cell="${name}" data-k="cell-${name}" aria-label="${esc(label)}"${pressed}${disabled}>` +
          `<span class="fs-letter">${l ?? ''}</span>${opts.mine?.has(name) ? '<span class="fs-pick-mark" aria-hidden="true" data-mark="✓"></span>' : ''}` +
          `${opts.buy?.has(name) ? `<span class="fs-pick-mark" aria-hidden="true" data-mark="${BUY_COST}"></span>` : ''}${bars}</button>`,
      );
    }
  }
  return `<div class="fs-grid" role="group" aria-label="${esc(opts.label ?? 'The grid')}">${head}${rows.join('')}</div>`;
}

/// A seat's items. Whether another seat used Detective is its secret (the
/// view holds it only for the seat itself, and at the end).
function itemsLine(view, seat, you) {
  const secret = seat !== you && typeof view.layout !== 'string';
  return ITEMS.filter(([key]) => !(secret && key === 'detective')).map(([key, label]) => {
    const used = itemUsed(view, seat, key);
    return `<span class="fs-item${used !== null ? ' used' : ''}" data-item="${key}" data-seat="${seat}">${esc(label)}: ${used !== null ? `used${typeof used === 'number' ? ` in round ${used}` : ''}` : 'unused'}</span>`;
  }).join(' ');
}

function seatCard(view, seat, you, toMove) {
  const rp = view.rp?.[seat];
  const status = view.status?.[seat];
  return (
    `<section class="fs-seat${toMove ? ' to-move' : ''}" data-seat="${seat}" aria-label="${esc(seatName(seat))}">` +
    `<div class="fs-seat-head">${seatChip(seat)}${seat === you ? ' <span class="fs-badge">you</span>' : ''}` +
    (status ? ` <span class="fs-badge${status === 'waiting' || status === 'deciding' || status === 'guessing' ? ' waiting' : ''}" data-status="${esc(status)}">${esc(STATUS_WORDS[status] ?? status)}</span>` : '') +
    (rp !== null && rp !== undefined ? ` <span class="fs-rp" data-rp="${esc(rp)}">${esc(rp)} RP</span>` : '') +
    '</div>' +
    `<div class="fs-items">${itemsLine(view, seat, you)}</div>` +
    '</section>'
  );
}

function truthMark(truth) {
  if (truth === true) return '<span class="fs-truth t">true</span>';
  if (truth === false) return '<span class="fs-truth f">false</span>';
  return '';
}

/// The rounds so far, newest first: subsets, statements and what this
/// viewer may know of them.
export function historyHtml(view) {
  const rounds = [...(view.rounds ?? [])].reverse();
  if (!rounds.length) return '<p class="fs-muted">No rounds yet.</p>';
  return rounds
    .map((r) => {
      const sides = ['P1', 'P2']
        .map((seat) => {
          const s = r.sides?.[seat];
          if (!s) return '';
          const lines = [];
          if (s.subset?.length) lines.push(`<div><span class="fs-label">subset</span> ${esc(sortCells(s.subset).join(' '))}${s.nolimit ? ' <span class="fs-badge">No Limit</span>' : ''}</div>`);
          if (s.statements?.length) {
            lines.push(
              '<ol class="fs-stmts">' +
                s.statements
                  .map((x, i) => {
                    const smoked = s.smokescreen === i + 1 || (x?.text == null);
                    const text = x?.text == null ? '<em>hidden by Smokescreen</em>' : esc(x.text);
                    // The player's own words, when the reading says it otherwise.
                    const said = x?.said && x.said !== x.text ? ` <span class="fs-said">(said: “${esc(x.said)}”)</span>` : '';
                    return `<li>${text}${said}${smoked && x?.text != null && s.smokescreen === i + 1 ? ' <span class="fs-badge">Smokescreen</span>' : ''} ${truthMark(x?.truth)}</li>`;
                  })
                  .join('') +
                '</ol>',
            );
          }
          const extra = [];
          if (s.claims) extra.push(`claims ${esc(s.claims)}`);
          if (s.detective) extra.push(`Detective on statement ${esc(s.detective)}`);
          if (s.correct !== null && s.correct !== undefined) extra.push(`${esc(s.correct)} right`);
          if (s.bought) extra.push(`bought ${plural(Number(s.bought) || 0, 'tile')}${s.bought_cells?.length ? ` (${esc(sortCells(s.bought_cells).join(' '))})` : ''}`);
          if (s.guess) extra.push(typeof s.guess === 'string' ? `guessed ${esc(s.guess)}` : 'guessed');
          if (extra.length) lines.push(`<div class="fs-muted">${extra.join(' · ')}</div>`);
          return `<div class="fs-side" data-seat="${seat}">${seatChip(seat)}${lines.join('')}</div>`;
        })
        .join('');
      return `<section class="fs-round" data-round="${r.round}"><h3>Round ${esc(r.round)}</h3><div class="fs-sides">${sides}</div></section>`;
    })
    .join('');
}

function notebookHtml(view) {
  const notes = view.notebook ?? [];
  if (!Array.isArray(notes) || !notes.length) return '<p class="fs-muted">Nothing yet.</p>';
  return `<ul class="fs-notes">${notes.map((n) => `<li>${n.round ? `<span class="fs-label">round ${esc(n.round)}</span> ` : ''}${esc(n.text ?? n)}</li>`).join('')}</ul>`;
}

/// The host's rulings on statements (a match run by a host), as this viewer
/// may see them: the reason always, the words when shown.
function rulingsHtml(view, you) {
  const rulings = Array.isArray(view.rulings) ? view.rulings : [];
  if (!rulings.length) return '';
  const items = rulings.map((r) => {
    const whose = r.seat === you ? 'your statement' : `${esc(seatName(r.seat))}’s statement`;
    const what = r.statement ? `${whose} “${esc(r.statement)}”` : `one of ${esc(seatName(r.seat))}’s statements`;
    return `<li><span class="fs-label">round ${esc(r.round)}</span> The host ${r.accepted ? 'accepted' : 'refused'} ${what}: ${esc(r.reason)}</li>`;
  });
  return `<section class="fs-rulings" aria-label="The host’s rulings"><h2>The host’s rulings</h2><ul class="fs-notes">${items.join('')}</ul></section>`;
}

function aidHtml(view) {
  if (!view.aids || !view.odds) return '';
  const possible = view.possible;
  const count = typeof possible === 'number' ? possible : Array.isArray(possible) ? possible.length : null;
  return `<p class="fs-aid" data-possible="${esc(count ?? '')}">Deduction aid: ${count !== null ? `${esc(count)} grid${count === 1 ? '' : 's'} still possible; ` : ''}the bars in each unknown tile show its chances of red, blue, green and yellow.</p>`;
}

// --- the acting seat's tools ---------------------------------------------------

function resultHtml(r) {
  if (!r || r.status === 'idle') return '';
  if (r.status === 'checking') return '<span class="fs-check">checking…</span>';
  if (r.status === 'wait') return `<span class="fs-check">${esc(r.message)}</span>`;
  if (r.status === 'ok') return `<span class="fs-check ok">✓ valid${r.reading ? `. You are saying: “${esc(r.reading)}”` : ''}</span>`;
  return `<span class="fs-check bad">✗ ${esc(r.message)}</span>`;
}

function selectHtml(name, i, options, value, label) {
  return (
    `<label class="fs-menu"><span class="fs-sr">${esc(label)}</span><select data-field="${name}" data-i="${i}" data-k="sel-${name}-${i}" aria-label="${esc(label)} (statement ${i + 1})">` +
    options.map(([v, t]) => `<option value="${esc(v)}"${String(v) === String(value) ? ' selected' : ''}>${esc(t)}</option>`).join('') +
    '</select></label>'
  );
}

/// The menus of one clause: `pre` is '' for the first clause, 'b.' for
/// the one joined to it.
function clauseMenus(c, i, pre) {
  const kind = KINDS.find((k) => k.key === c.kind) ?? KINDS[0];
  const colours = COLOUR_LETTERS.map((x) => [x, COLOUR_NAMES[x]]);
  const f = (name) => `${pre}${name}`;
  const menus = [
    selectHtml(f('kind'), i, KINDS.map((k) => [k.key, k.label]), c.kind, pre ? 'Kind of the second claim' : 'Kind of claim'),
    `<label class="fs-menu fs-check-box"><input type="checkbox" data-field="${f('not')}" data-i="${i}" data-k="${f('not')}-${i}"${c.not ? ' checked' : ''}> not</label>`,
  ];
  if (kind.fields.includes('qf')) menus.push(selectHtml(f('qf'), i, [['some', 'some'], ['every', 'every']], c.qf, 'Some or every'));
  if (kind.fields.includes('line')) menus.push(selectHtml(f('line'), i, [['row', 'row'], ['column', 'column']], c.line, 'Row or column'));
  if (kind.fields.includes('cmp')) menus.push(selectHtml(f('cmp'), i, COMPARISONS, c.cmp, 'Comparison'));
  if (kind.fields.includes('quant')) menus.push(selectHtml(f('quant'), i, QUANTS.map((q) => [q, q]), c.quant, 'Count word'));
  if (kind.fields.includes('n')) menus.push(selectHtml(f('n'), i, NUMBER_WORDS.map((w, n) => [n, w]), c.n, 'Number'));
  if (kind.fields.includes('c1')) menus.push(selectHtml(f('c1'), i, colours, c.c1, 'Colour'));
  if (kind.fields.includes('c2')) menus.push(selectHtml(f('c2'), i, colours, c.c2, kind.key === 'compare' ? 'than colour' : 'Second colour'));
  if (kind.fields.includes('adj')) menus.push(selectHtml(f('adj'), i, ADJACENCIES, c.adj, 'Adjacency'));
  if (kind.fields.includes('conn')) menus.push(selectHtml(f('conn'), i, [['0', 'connected (diagonals too)'], ['1', 'orthogonally connected']], c.conn ? '1' : '0', 'Connection'));
  return menus;
}

function statementHtml(st, i, parts) {
  const s = st.stmts[i];
  const menus = clauseMenus(s, i, '');
  menus.push(selectHtml('join', i, JOINS, s.join ?? '', 'Join a second claim'));
  if (s.join) menus.push(`<span class="fs-join-break" aria-hidden="true"></span>`, ...clauseMenus(s.second, i, 'b.'));
  const words = wordCount(s.text);
  const smokeFree = itemUsed(st.view, st.ctx.you, 'smokescreen') === null;
  const smoke = smokeFree
    ? `<button type="button" class="fs-toggle" data-tool="smoke" data-i="${i}" data-k="smoke-${i}" aria-pressed="${st.smoke === i}">Smokescreen${st.smoke === i ? ' on' : ''}</button>`
    : '';
  return part(
    st,
    parts,
    String(i),
    `<legend>Statement ${i + 1}</legend>` +
      `<div class="fs-menus">${menus.join('')}${s.typed ? '<span class="fs-typed-note">typed: a menu rebuilds the sentence</span>' : ''}</div>` +
      `<div class="fs-text-row"><input type="text" class="fs-text" data-i="${i}" data-k="text-${i}" value="${esc(s.text)}" aria-label="Statement ${i + 1}: the sentence (built by the menus, or type it)" spellcheck="false" autocomplete="off">${smoke}</div>` +
      `<div class="fs-stmt-status"><span class="fs-words${words > MAX_WORDS ? ' bad' : ''}" data-i="${i}">${plural(words, 'word')} of ${MAX_WORDS}</span> ` +
      `<span class="fs-valid" data-i="${i}" aria-live="polite">${resultHtml(st.results[i])}</span></div>`,
    { tag: 'fieldset', cls: `fs-stmt${s.typed ? ' typed' : ''} `, attrs: ` data-i="${i}"` },
  );
}

/// On a phone a long decision shows one part at a time (the bluff's
/// subset or one statement; the reveal's buying or guessing), so that the
/// grid, the part and the action bar fit on the screen. `parts` are
/// [key, label, mark]; the first is shown until a button chooses another.
function shownPart(st, parts) {
  return parts.some(([key]) => key === st.pane) ? st.pane : parts[0][0];
}

function partButtons(st, parts, label) {
  const shown = shownPart(st, parts);
  const button = ([key, text, mark]) =>
    `<button type="button" class="fs-pane-button" data-tool="pane" data-pane="${key}" data-k="pane-${key}" aria-pressed="${shown === key}">${text}<span class="fs-pane-mark" data-pane="${key}">${mark}</span></button>`;
  return `<div class="fs-panes" role="group" aria-label="${esc(label)}">${parts.map(button).join('')}</div>`;
}

/// A part's wrapper: put away (on a phone) unless it is the one shown.
function part(st, parts, key, html, { tag = 'div', cls = '', attrs = '' } = {}) {
  const off = shownPart(st, parts) === key ? '' : ' put-away';
  return `<${tag} class="${cls}fs-pane${off}" data-pane="${key}"${attrs}>${html}</${tag}>`;
}

function bluffParts(st) {
  const subsetDone = subsetOk(st.subset, previousSubset(st.view, st.ctx.you), st.nolimit);
  return [['s', 'Subset', subsetDone ? ' ✓' : ''], ...st.stmts.map((_, i) => [String(i), `<span class="fs-sr">Statement </span>${i + 1}`, paneMark(st.results[i])])];
}

/// A statement's check in one sign, for its pane button.
function paneMark(result) {
  return result?.status === 'ok' ? ' ✓' : result?.status === 'bad' ? ' ✗' : '';
}

function bluffTools(st) {
  const { view, ctx } = st;
  const previous = previousSubset(view, ctx.you);
  const nolimitFree = itemUsed(view, ctx.you, 'nolimit') === null;
  const rules = restrictions(st.subset, previous);
  const lifted = st.nolimit;
  const ready = subsetOk(st.subset, previous, st.nolimit) && st.stmts.every((s) => s.text.trim());
  const parts = bluffParts(st);
  return (
    '<div class="fs-tools" role="group" aria-label="Bluff">' +
    partButtons(st, parts, 'Part of the bluff shown') +
    part(
      st,
      parts,
      's',
      `<p>1. Click the tiles of your subset on the grid: ${esc(sortCells(st.subset).join(' ') || 'none yet')}.</p>` +
    `<ul class="fs-rules${lifted ? ' lifted' : ''}" aria-live="polite">${rules
      .map((r) => `<li class="${lifted ? 'lifted' : r.ok ? 'ok' : 'bad'}" data-rule="${r.key}">${lifted ? '–' : r.ok ? '✓' : '✗'} ${esc(r.text)}${lifted ? ' (lifted by No Limit)' : ''}</li>`)
      .join('')}</ul>` +
    (nolimitFree
      ? `<button type="button" class="fs-toggle" data-tool="nolimit" data-k="nolimit" aria-pressed="${st.nolimit}">No Limit${st.nolimit ? ' on: the three rules are lifted this round' : ' (lift the three rules this round, once a game)'}</button>`
      : ''),
    ) +
    `<p class="fs-stmts-head">2. Four statements about your subset (menus, or type; at most ${MAX_WORDS} words each):</p>` +
    st.stmts.map((_, i) => statementHtml(st, i, parts)).join('') +
    `<p class="fs-whole" aria-live="polite">${resultHtml(st.whole)}</p>` +
    `<button type="button" class="primary" data-tool="bluff" data-submit data-k="bluff"${ready ? '' : ' disabled'}>Submit subset and statements</button>` +
    '</div>'
  );
}

function claimTools(st) {
  const { view, ctx } = st;
  const stmts = opponentStatements(view, ctx.you);
  const asked = askedDetective(view, ctx.you);
  const detectiveFree = itemUsed(view, ctx.you, 'detective') === null && asked === null;
  const rows = stmts
    .map((s, i) => {
      const v = s.hidden || asked === i ? '-' : st.claims[i] ?? '-';
      const off = s.hidden || asked === i;
      const toggle = (val, label) =>
        `<button type="button" class="fs-toggle fs-claim" data-claim="${i}" data-v="${val}" data-k="claim-${i}-${val}" aria-pressed="${v === val}"${off ? ' disabled' : ''} aria-label="Statement ${i + 1}: ${val === '-' ? label : `${val} (${label})`}">${val === '-' ? '–' : val}</button>`;
      const det = detectiveFree && !s.hidden
        ? `<button type="button" class="fs-toggle" data-tool="detective" data-i="${i}" data-k="det-${i}">Detective</button>`
        : '';
      const answer = asked === i && s.truth !== null
        ? ` <span class="fs-detective" data-i="${i}">Detective: ${truthMark(s.truth)} (earns nothing)</span>`
        : '';
      return `<li class="fs-claim-row" data-i="${i}"><span class="fs-claim-text">${s.hidden ? '<em>hidden by Smokescreen: no claim</em>' : esc(s.text)}${answer}</span> <span class="fs-claim-buttons">${toggle('T', 'true')}${toggle('F', 'false')}${toggle('-', 'no claim')}${det}</span></li>`;
    })
    .join('');
  return (
    '<div class="fs-tools" role="group" aria-label="Claims">' +
    `<p>Claim true (T) or false (F) for each of your opponent’s statements (2 RP for each right claim; – claims nothing)${detectiveFree ? '. Detective (once a game) tells you one statement’s truth now, before you claim; that statement then earns nothing, and your opponent is not told' : ''}.</p>` +
    `<ol class="fs-claims">${rows || '<li class="fs-muted">no statements</li>'}</ol>` +
    `<p class="fs-whole" aria-live="polite">${resultHtml(st.whole)}</p>` +
    `<button type="button" class="primary" data-tool="claims" data-submit data-k="claims">Submit: ${esc(claimsOf(st))}</button>` +
    '</div>'
  );
}

function claimsOf(st) {
  const stmts = opponentStatements(st.view, st.ctx.you);
  const asked = askedDetective(st.view, st.ctx.you);
  const n = stmts.length || STATEMENTS;
  const claims = Array.from({ length: n }, (_, i) => (stmts[i]?.hidden || asked === i ? '-' : st.claims[i] ?? '-'));
  return claimsText(claims);
}

function guessPanel(st, letters) {
  const cells = ALL_CELLS.map((name, i) => {
    const l = st.guess[i];
    return `<button type="button" class="fs-gcell ${l ? `fs-c-${l}` : 'fs-unknown'}${letters[name] ? ' known' : ''}" data-g="${i}" data-k="g-${i}" aria-label="${name}: ${l ? COLOUR_NAMES[l] : 'not set'}${letters[name] ? ' (known)' : ''}"><span class="fs-letter">${l ?? '?'}</span></button>`;
  }).join('');
  const brushes = COLOUR_LETTERS.map(
    (c) => `<button type="button" class="fs-brush fs-c-${c}" data-brush="${c}" data-k="brush-${c}" aria-pressed="${st.brush === c}">${c} <span class="fs-brush-name">${COLOUR_NAMES[c]}</span></button>`,
  ).join('');
  const full = st.guess.every(Boolean);
  const text = full ? guessText(st.guess) : null;
  const confirm = st.confirm && full
    ? `<div class="fs-confirm" role="alertdialog" aria-label="Confirm the guess"><p>Send <strong class="fs-guess-text">${esc(text)}</strong>? A guess is final: if one tile is wrong you lose all your RP and may not buy next round.</p>` +
      `<button type="button" class="primary danger" data-tool="guess-send" data-submit data-k="guess-send">Yes, send my guess</button> <button type="button" data-tool="guess-back" data-k="guess-back">Back</button></div>`
    : `<button type="button" class="primary" data-tool="guess-confirm" data-submit data-k="guess-confirm"${full ? '' : ' disabled'}>Guess this grid…</button>` +
      `${full ? '' : ` <span class="fs-muted">${plural(st.guess.filter((x) => !x).length, 'tile')} still to paint</span>`}`;
  return (
    '<div class="fs-guess" role="group" aria-label="Guess the grid">' +
    '<p>Pick a colour, then click tiles to paint them (or focus a tile and press R, B, G or Y). Known tiles are filled in.</p>' +
    `<div class="fs-brushes" role="group" aria-label="Colour">${brushes}</div>` +
    `<div class="fs-ggrid">${cells}</div>${confirm}</div>`
  );
}

function revealTools(st, letters) {
  const { view, ctx } = st;
  const rp = Number(view.rp?.[ctx.you] ?? 0);
  const canBuy = mayBuy(view, ctx.you) && affordable(rp) > 0;
  const buy = sortCells(st.buy);
  const guessing = ctx.kind === 'guess';
  let buyPart = '';
  if (!guessing) {
    buyPart = canBuy
      ? `<p>Buy: click unknown tiles on the grid (${BUY_COST} RP each; you have ${rp} RP, enough for ${plural(affordable(rp), 'tile')}).</p>` +
        `<button type="button" class="primary" data-tool="buy" data-submit data-k="buy"${buy.length ? '' : ' disabled'}>${buy.length ? `Buy ${esc(buy.join(' '))} for ${buy.length * BUY_COST} RP` : 'Buy: pick tiles first'}</button>`
      : `<p class="fs-muted">${!mayBuy(view, ctx.you) ? 'You may not buy tiles this round (a wrong guess).' : `Buying a tile costs ${BUY_COST} RP; you have ${rp}.`}</p>`;
  }
  const more = !guessing
    ? `<button type="button" data-tool="guess-time" data-k="guess-time" title="Take 150 seconds more, then send the grid">Take 150 s more to guess</button> `
    : '';
  const row = `<div class="fs-row">${more}<button type="button" data-tool="pass" data-k="pass">${guessing ? 'Give up the guess (pass)' : 'Pass'}</button></div>`;
  const parts = [['buy', canBuy ? 'Buy, or pass' : 'Pass', ''], ['guess', 'Guess now', '']];
  const body = guessing
    ? '<p>You have 150 s more: paint the grid and send your guess.</p>' + guessPanel(st, letters) + row
    : '<p>Reveal: buy tiles, guess the whole grid, or pass.</p>' +
      partButtons(st, parts, 'Part of the reveal shown') +
      part(st, parts, 'buy', buyPart + row) +
      part(st, parts, 'guess', guessPanel(st, letters));
  return (
    `<div class="fs-tools" role="group" aria-label="${guessing ? 'Guess' : 'Reveal'}">` +
    body +
    `<p class="fs-whole" aria-live="polite">${resultHtml(st.whole)}</p>` +
    '</div>'
  );
}

// --- the end --------------------------------------------------------------------

/// The end: the full grid and who guessed what.
export function endingHtml(view, outcome) {
  const letters = knownLetters(view, null);
  const lines = [];
  for (const r of view.rounds ?? []) {
    for (const seat of ['P1', 'P2']) {
      const g = r.sides?.[seat]?.guess;
      if (!g) continue;
      // The view says `RRBGYGBRBBRYGYRG right` (or `wrong`).
      const raw = String(typeof g === 'string' ? g : g.grid ?? g.text ?? '');
      const m = /^(.*?)\s*\b(right|wrong)\s*$/i.exec(raw);
      const grid = (m ? m[1] : raw).replace(/[^RBGY]/gi, '').toUpperCase();
      const text = grid.length === CELLS ? `${grid.slice(0, 4)} ${grid.slice(4, 8)} ${grid.slice(8, 12)} ${grid.slice(12)}` : raw;
      let right = m ? m[2].toLowerCase() === 'right' : null;
      if (right === null && typeof view.layout === 'string' && grid.length === CELLS) right = grid === view.layout.toUpperCase();
      lines.push(`<li>${seatChip(seat)} guessed in round ${esc(r.round)}${text ? `: <code>${esc(text)}</code>` : ''}${right === true ? ' — <strong>right</strong>' : right === false ? ' — wrong' : ''}</li>`);
    }
  }
  const w = outcome?.winner;
  return (
    `<div class="fs-end">${gridHtml({ letters, label: 'The whole grid' })}` +
    `<div><p class="fs-why">${w ? `${esc(seatName(w))} wins${outcome?.decided_by ? ` (${esc(outcome.decided_by)})` : ''}.` : 'No winner.'}</p>` +
    `<ul class="fs-guesses">${lines.join('') || '<li>Nobody guessed.</li>'}</ul></div></div>`
  );
}

// --- DOM glue --------------------------------------------------------------------

/// A new choice for the decision at hand: the seat's known tiles fill its
/// guess.
function fresh(st) {
  const view = st.view;
  const you = st.ctx?.you;
  st.subset = [];
  st.nolimit = false;
  st.smoke = null;
  st.pane = null;
  st.stmts = DEFAULT_STATEMENTS.map((d) => ({ ...d, second: { ...d.second }, join: '', text: sentence(d) }));
  st.results = st.stmts.map(() => ({ status: 'idle' }));
  st.whole = { status: 'idle' };
  st.claims = [];
  st.buy = [];
  const letters = isSeat(you) ? knownLetters(view, you) : {};
  st.guess = ALL_CELLS.map((c) => letters[c] ?? null);
  st.brush = 'R';
  st.confirm = false;
  st.checkSeq = 0;
  clearTimeout(st.timer);
}

const boards = boardStates({
  make: () => ({ timer: null }),
  fresh,
  on: { click: onClick, keydown: onKey, input: onInput, change: onChange },
});

const acting = (st) => !!st.ctx?.acting && isSeat(st.ctx?.you) && !!st.ctx?.kind && !st.ctx?.final;

function draw(container) {
  const st = boards.get(container);
  const { view, ctx } = st;
  const you = ctx.you;
  // Keep the focus (and a caret) across the redraw.
  const active = document.activeElement;
  const focusKey = container.contains(active) ? active?.dataset?.k : null;
  const caret = focusKey && active.tagName === 'INPUT' && active.type === 'text' ? [active.selectionStart, active.selectionEnd] : null;

  const letters = isSeat(you) || view.layout ? knownLetters(view, isSeat(you) ? you : null) : {};
  const me = acting(st);
  const kind = me ? ctx.kind : null;
  const entry = roundEntry(view);
  const showSubsets = view.phase !== 'bluff' && entry;
  const mySeat = isSeat(you) ? you : 'P1';
  const grid = gridHtml({
    letters,
    mine: kind === 'bluff' ? new Set(st.subset) : null,
    buy: kind === 'reveal' ? new Set(st.buy) : null,
    own: showSubsets ? new Set(entry.sides?.[mySeat]?.subset ?? []) : null,
    opp: showSubsets ? new Set(entry.sides?.[other(mySeat)]?.subset ?? []) : null,
    odds: view.aids ? view.odds : null,
    active: kind === 'bluff' ? 'subset' : kind === 'reveal' && mayBuy(view, you) && affordable(view.rp?.[you]) > 0 ? 'buy' : null,
    label: kind === 'bluff' ? 'The grid: click tiles to pick your subset' : kind === 'reveal' ? 'The grid: click unknown tiles to buy them' : 'The grid',
  });
  const legend = showSubsets
    ? `<p class="fs-legend"><span class="fs-key own-sub"></span> ${isSeat(you) ? 'your' : `${esc(seatName('P1'))}’s`} subset · <span class="fs-key opp-sub"></span> ${isSeat(you) ? 'your opponent’s' : `${esc(seatName('P2'))}’s`} subset</p>`
    : '';
  let tools = '';
  if (kind === 'bluff') tools = bluffTools(st);
  else if (kind === 'claim') tools = claimTools(st);
  else if (kind === 'reveal' || kind === 'guess') tools = revealTools(st, letters);
  else if (isSeat(you) && !ctx.final) tools = `<p class="fs-wait">${esc(waitingWords(view, you))}</p>`;
  const mineSealed = typeof view.sealed === 'string' ? view.sealed : isSeat(you) ? view.sealed?.[you] : null;
  const sealed = isSeat(you) && mineSealed ? `<p class="fs-sealed">Your sealed choice: <code>${esc(mineSealed)}</code></p>` : '';
  const decisionSeats = ctx.decision?.seats ?? [];
  const oppStmts = isSeat(you) && view.phase !== 'bluff' && kind !== 'claim' ? opponentStatements(view, you) : [];
  container.innerHTML =
    `<div class="fs${me ? ' fs-acting' : ''}${kind === 'guess' || (kind === 'reveal' && st.pane === 'guess') ? ' fs-guessing' : ''}">` +
    `<p class="fs-phase-line">${esc(phaseLine(view))}</p>` +
    `<div class="fs-info">${['P1', 'P2'].map((s) => seatCard(view, s, you, decisionSeats.includes(s))).join('')}</div>` +
    '<div class="fs-main">' +
    `<div class="fs-board">${grid}${legend}${aidHtml(view)}</div>` +
    `<div class="fs-act">${tools}${sealed}` +
    (oppStmts.length ? `<section class="fs-opp"><h2>Your opponent’s statements this round</h2><ol class="fs-stmts">${oppStmts.map((s) => `<li>${s.hidden ? '<em>hidden by Smokescreen</em>' : esc(s.text)}</li>`).join('')}</ol></section>` : '') +
    '</div></div>' +
    (isSeat(you) && Array.isArray(view.notebook) ? `<section class="fs-notebook" aria-label="Your notebook"><h2>Your notebook</h2>${notebookHtml(view)}</section>` : '') +
    rulingsHtml(view, you) +
    `<section class="fs-history" aria-label="Rounds"><h2>Rounds</h2>${historyHtml(view)}</section>` +
    '</div>';

  if (me && ctx.staged) markStaged(container, ctx.staged);
  if (focusKey) {
    const el = container.querySelector(`[data-k="${CSS.escape(focusKey)}"]`);
    if (el) {
      el.focus({ preventScroll: true });
      if (caret && el.setSelectionRange) el.setSelectionRange(caret[0], caret[1]);
    }
  }
}

/// What each kind of action shows on the board while it waits for
/// confirmation: the tiles and the button that sent it.
const STAGED_MARKS = {
  subset: '.fs-cell.picked, [data-tool="bluff"]',
  claims: '.fs-claim[aria-pressed="true"], [data-tool="claims"]',
  buy: '.fs-cell.buying, [data-tool="buy"]',
  pass: '[data-tool="pass"]',
  guess: '.fs-gcell, [data-tool="guess-send"], [data-tool="guess-confirm"], [data-tool="guess-time"]',
};

function markStaged(container, text) {
  const word = text.trim().split(/[\s;]+/)[0].toLowerCase();
  const detective = /^detective\s+(\d)/i.exec(text.trim());
  const selector = detective ? `[data-tool="detective"][data-i="${Number(detective[1]) - 1}"]` : STAGED_MARKS[word];
  if (!selector) return;
  for (const el of container.querySelectorAll(selector)) el.setAttribute('data-staged', '');
}

function waitingWords(view, you) {
  const s = view.status?.[you];
  if (view.phase === 'over') return 'The match is over.';
  if (s === 'submitted' || s === 'done') return 'Sent: waiting for your opponent.';
  return 'Waiting for your opponent.';
}

/// A statement's sentence from its menus: one clause, or two joined.
function joined(s) {
  const first = sentence(s);
  if (!s.join) return first;
  const second = sentence(s.second);
  return `${first.slice(0, -1)} ${s.join} ${second[0].toLowerCase()}${second.slice(1)}`;
}

// --- checking as the player builds ---------------------------------------------

/// Asks the server (debounced) about each statement (a probe bluff with it
/// four times over the picked subset) and about the whole action.
function scheduleCheck(container) {
  const st = boards.get(container);
  clearTimeout(st.timer);
  st.timer = setTimeout(() => runChecks(container), CHECK_DELAY_MS);
}

function strip(message) {
  return String(message ?? '').replace(/^statement \d+:\s*/i, '');
}

function runChecks(container) {
  const st = boards.get(container);
  if (!st || !acting(st) || typeof st.ctx.check !== 'function') return;
  const { ctx } = st;
  const seq = ++st.checkSeq;
  const current = () => boards.get(container) === st && st.checkSeq === seq && acting(st);
  if (ctx.kind === 'bluff') {
    const previous = previousSubset(st.view, ctx.you);
    const subsetReady = subsetOk(st.subset, previous, st.nolimit);
    st.stmts.forEach((s, i) => {
      if (!s.text.trim()) {
        st.results[i] = { status: 'bad', message: 'write a statement' };
        return;
      }
      if (!subsetReady) {
        st.results[i] = { status: 'wait', message: 'checked once the subset is valid' };
        return;
      }
      const probe = bluffText(st.subset, [s.text, s.text, s.text, s.text], { nolimit: st.nolimit });
      if (st.results[i].probe === probe && st.results[i].status !== 'checking') return;
      st.results[i] = { status: 'checking', probe };
      ctx.check(probe).then((ans) => {
        if (!current() || st.results[i].probe !== probe) return;
        st.results[i] = ans.ok
          ? { status: 'ok', probe, reading: readingOf(statementsOf(ans.action)[0]) || null }
          : { status: 'bad', probe, message: strip(ans.message) || ans.rule || 'refused' };
        updateBluffStatus(container);
      });
    });
    const whole = bluffText(st.subset, st.stmts.map((s) => s.text), { smoke: st.smoke, nolimit: st.nolimit });
    if (!subsetReady) st.whole = { status: 'bad', message: 'the subset breaks a restriction (see above)' };
    else {
      st.whole = { status: 'checking' };
      ctx.check(whole).then((ans) => {
        if (!current()) return;
        st.whole = ans.ok ? { status: 'ok', reading: null, message: '' } : { status: 'bad', message: ans.message || ans.rule };
        // A refusal of statement N also marks that statement.
        const m = /^statement (\d+):\s*(.*)$/i.exec(ans.message ?? '');
        if (!ans.ok && m && st.results[Number(m[1]) - 1] && st.results[Number(m[1]) - 1].status !== 'bad') {
          st.results[Number(m[1]) - 1] = { ...st.results[Number(m[1]) - 1], status: 'bad', message: m[2] };
        }
        updateBluffStatus(container);
      });
    }
    updateBluffStatus(container);
  } else if (ctx.kind === 'claim') {
    const text = claimsOf(st);
    st.whole = { status: 'checking' };
    ctx.check(text).then((ans) => {
      if (!current()) return;
      st.whole = ans.ok ? { status: 'ok' } : { status: 'bad', message: ans.message || ans.rule };
      updateWhole(container);
    });
  }
}

/// Updates the statements' word counts and checks in place (no redraw, so
/// typing is never disturbed).
function updateBluffStatus(container) {
  const st = boards.get(container);
  st.stmts.forEach((s, i) => {
    const words = wordCount(s.text);
    const w = container.querySelector(`.fs-words[data-i="${i}"]`);
    if (w) {
      w.textContent = `${plural(words, 'word')} of ${MAX_WORDS}`;
      w.classList.toggle('bad', words > MAX_WORDS);
    }
    const v = container.querySelector(`.fs-valid[data-i="${i}"]`);
    const html = resultHtml(st.results[i]);
    if (v && v.innerHTML !== html) v.innerHTML = html;
    const mark = container.querySelector(`.fs-pane-mark[data-pane="${i}"]`);
    if (mark) mark.textContent = paneMark(st.results[i]);
  });
  updateWhole(container);
  const previous = previousSubset(st.view, st.ctx.you);
  const ready = subsetOk(st.subset, previous, st.nolimit) && st.stmts.every((s) => s.text.trim());
  const button = container.querySelector('[data-tool="bluff"]');
  if (button) button.disabled = !ready;
}

function updateWhole(container) {
  const st = boards.get(container);
  const p = container.querySelector('.fs-whole');
  const html = st.whole?.status === 'ok' && st.ctx.kind === 'bluff' ? '<span class="fs-check ok">✓ the server would accept this bluff</span>' : resultHtml(st.whole);
  if (p && p.innerHTML !== html) p.innerHTML = html;
}

// --- events ---------------------------------------------------------------------

function submit(st, text) {
  st.ctx.submit(text);
}

function onInput(container, e) {
  const st = boards.get(container);
  if (!st || !acting(st)) return;
  const t = e.target;
  if (t.classList?.contains('fs-text')) {
    const i = Number(t.dataset.i);
    st.stmts[i].text = t.value;
    st.stmts[i].typed = true;
    st.results[i] = { status: 'idle' };
    const box = t.closest('.fs-stmt');
    if (box && !box.classList.contains('typed')) {
      box.classList.add('typed');
      box.querySelector('.fs-menus')?.insertAdjacentHTML('beforeend', '<span class="fs-typed-note">typed: a menu rebuilds the sentence</span>');
    }
    updateBluffStatus(container);
    scheduleCheck(container);
  }
}

function onChange(container, e) {
  const st = boards.get(container);
  if (!st || !acting(st)) return;
  const t = e.target;
  let field = t.dataset?.field;
  if (!field) return;
  const i = Number(t.dataset.i);
  const s = st.stmts[i];
  let c = s;
  if (field.startsWith('b.')) {
    c = s.second;
    field = field.slice(2);
  }
  if (field === 'not') c.not = t.checked;
  else if (field === 'n') c.n = Number(t.value);
  else if (field === 'conn') c.conn = t.value === '1';
  else c[field] = t.value;
  s.text = joined(s);
  s.typed = false;
  st.results[i] = { status: 'idle' };
  draw(container);
  scheduleCheck(container);
}

function onClick(container, e) {
  const st = boards.get(container);
  if (!st || !acting(st)) return;
  const { view, ctx } = st;
  const t = e.target.closest('button');
  if (!t || t.disabled) return;
  if (t.dataset.cell) {
    const name = t.dataset.cell;
    if (ctx.kind === 'bluff') {
      st.subset = st.subset.includes(name) ? st.subset.filter((c) => c !== name) : sortCells([...st.subset, name]);
      draw(container);
      return scheduleCheck(container);
    }
    if (ctx.kind === 'reveal') {
      const letters = knownLetters(view, ctx.you);
      if (letters[name]) return;
      if (st.buy.includes(name)) st.buy = st.buy.filter((c) => c !== name);
      else if (st.buy.length < affordable(view.rp?.[ctx.you])) st.buy = sortCells([...st.buy, name]);
      return draw(container);
    }
    return;
  }
  if (t.dataset.brush) {
    st.brush = t.dataset.brush;
    return draw(container);
  }
  if (t.dataset.g !== undefined) {
    st.guess[Number(t.dataset.g)] = st.brush;
    st.confirm = false;
    return draw(container);
  }
  if (t.dataset.claim !== undefined) {
    const i = Number(t.dataset.claim);
    st.claims[i] = t.dataset.v;
    draw(container);
    return scheduleCheck(container);
  }
  const tool = t.dataset.tool;
  switch (tool) {
    case 'pane':
      st.pane = t.dataset.pane;
      return draw(container);
    case 'nolimit':
      st.nolimit = !st.nolimit;
      draw(container);
      return scheduleCheck(container);
    case 'smoke': {
      const i = Number(t.dataset.i);
      st.smoke = st.smoke === i ? null : i;
      draw(container);
      return scheduleCheck(container);
    }
    case 'bluff':
      return submit(st, bluffText(st.subset, st.stmts.map((s) => s.text), { smoke: st.smoke, nolimit: st.nolimit }));
    case 'detective':
      return submit(st, detectiveText(Number(t.dataset.i)));
    case 'claims':
      return submit(st, claimsOf(st));
    case 'buy':
      if (st.buy.length) submit(st, buyText(st.buy));
      return;
    case 'pass':
      return submit(st, 'pass');
    case 'guess-time':
      return submit(st, 'guess');
    case 'guess-confirm':
      st.confirm = true;
      draw(container);
      container.querySelector('[data-tool="guess-send"]')?.focus();
      return;
    case 'guess-back':
      st.confirm = false;
      return draw(container);
    case 'guess-send':
      if (st.guess.every(Boolean)) submit(st, guessText(st.guess));
      return;
    default:
  }
}

/// On the guess grid: R, B, G, Y paint the focused tile and move on; the
/// arrows move between tiles.
function onKey(container, e) {
  const st = boards.get(container);
  if (!st || !acting(st)) return;
  const g = e.target.closest?.('.fs-gcell');
  if (!g) return;
  const i = Number(g.dataset.g);
  const key = e.key?.toUpperCase?.();
  let next = null;
  if (COLOUR_LETTERS.includes(key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    st.guess[i] = key;
    st.confirm = false;
    next = Math.min(CELLS - 1, i + 1);
  } else {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -4, ArrowDown: 4 };
    if (moves[e.key] === undefined) return;
    e.preventDefault();
    next = Math.max(0, Math.min(CELLS - 1, i + moves[e.key]));
  }
  draw(container);
  container.querySelector(`[data-g="${next}"]`)?.focus();
}

export default {
  id: 'four-statements',
  name: 'Four Statements',
  seats: SEATS,
  example: 'subset A1 B1 A2 B2; There are at least two red tiles.; More tiles are red than blue.; There are exactly three colours.; Two adjacent tiles share a colour.',
  help:
    'The grid is 4×4 (columns A–D, rows 1–4); a known tile shows its colour and its letter (R red, B blue, G green, ' +
    'Y yellow). Bluff: click 4–8 connected tiles for your subset (the three rules show live; No Limit lifts them once ' +
    'a game), then build four statements with the menus or type them; the server checks each as you write. ' +
    'Claims: T, F or – for each of your opponent’s statements; Detective (once a game) shows one statement’s truth at once, before you claim. Reveal: click unknown ' +
    'tiles to buy them (8 RP each), or paint the whole grid and guess (a wrong guess costs all your RP), or pass. ' +
    'Keyboard: Tab to any button; on the guess grid R, B, G, Y paint a tile and the arrows move. Or type the notation: ' +
    '“detective 3”, “claims T F - T”, “buy B3 C4”, “guess RRBG YGBR BBRY GYRG”, “pass”.',

  prompt(kind, view) {
    const r = view?.round ?? 1;
    return (
      {
        bluff: `Your turn: round ${r}: pick your subset and make four statements (sealed).`,
        claim: `Your turn: round ${r}: claim true or false for your opponent’s statements.`,
        reveal: `Your turn: round ${r}: buy tiles, guess the grid, or pass.`,
        guess: 'Your turn: paint the whole grid and send your guess.',
      }[kind] ?? null
    );
  },

  /// A rules example drawn: a bluff in notation becomes its subset picked
  /// on the grid, with its statements beside it.
  illustrate(text) {
    const m = /^\s*subset\s+([^;]+);(.*)$/is.exec(text);
    if (!m) return null;
    const cells = m[1].trim().split(/\s+/).map(normCell).filter(Boolean);
    if (!cells.length) return null;
    const statements = statementsOf(text.trim());
    const caption = `The subset ${sortCells(cells).join(' ')} picked on the grid, and its four statements`;
    const grid = gridHtml({ mine: new Set(cells), label: `The subset ${sortCells(cells).join(' ')}` });
    const list = statements.map((t) => `<li>${esc(t)}</li>`).join('');
    return { html: `<div class="fs-rules-example"><div class="fs-board">${grid}</div><ol class="fs-stmts">${list}</ol></div>`, caption };
  },

  /// An action in words: "Claim statement 1 true, 2 false (sealed)".
  describe(action) {
    const text = action.trim();
    const [word, ...rest] = text.split(/\s+/);
    const says = { T: 'true', F: 'false' };
    switch (word.toLowerCase()) {
      case 'subset': {
        const cells = text.slice(6).split(';')[0].trim();
        return `Subset ${cells} and your four statements (sealed)`;
      }
      case 'claims': {
        const claims = rest.map((c, i) => (says[c.toUpperCase()] ? `${i + 1} ${says[c.toUpperCase()]}` : null)).filter(Boolean);
        return claims.length ? `Claim statement ${claims.join(', ')} (sealed)` : 'Claim nothing (sealed)';
      }
      case 'detective':
        return `Detective on statement ${rest[0]}: learn its truth now`;
      case 'buy':
        return `Buy ${rest.join(' ')} for ${rest.length * BUY_COST} RP (sealed)`;
      case 'guess':
        return rest.length ? `Guess the grid ${rest.join(' ')} (final)` : 'Take 150 s more to guess the grid';
      case 'pass':
        return 'Pass (sealed)';
      default:
        return null;
    }
  },

  doing(kind) {
    return (
      {
        bluff: 'pick a subset and make four statements (sealed)',
        claim: 'claim true or false (sealed)',
        reveal: 'buy, guess or pass (sealed)',
        guess: 'guess the grid',
      }[kind] ?? null
    );
  },

  /// Draws `view`; keeps a half-made choice while the decision stays the same.
  render(container, view, ctx) {
    const { st, changed } = boards.update(container, view, ctx, `${view.phase}|${view.round}|${ctx.kind}|${!!ctx.acting}`);
    draw(container);
    if (changed && acting(st) && (ctx.kind === 'bluff' || ctx.kind === 'claim')) scheduleCheck(container);
  },

  reset(container) {
    const st = boards.get(container);
    if (st?.view) {
      st.confirm = false;
      draw(container);
    }
  },

  status(view) {
    const words = lastWords(view.last);
    return words ? `Last: ${cap(words)}` : phaseLine(view);
  },

  moveOf(before) {
    return { label: `Round ${before.round}: ${before.phase}` };
  },
  ending(view, outcome) {
    if (view.phase !== 'over' && typeof view.layout !== 'string') return '';
    return endingHtml(view, outcome);
  },
};
