// The board modules, by game id: each game's module is one line of
// games/all.js. The shared pages (match.js, replay.js, lobby.js) never name
// a game: every word about a game comes from its module, or is built from
// the decision's kind when a game has no module yet.
//
// A board module's default export:
//   id       the game's id (as in GET /api/games)
//   name     its name
//   seats    {P1: {label, mark, className}, P2: …}: how each seat is shown
//            (colour via className, plus a mark so colour is never alone)
//   help     how to play on the page (the click gesture, the keyboard)
//   example  an action in the game's notation, for the text box
//   prompt(kind, view)
//            the line the acting seat reads for a decision of `kind` (e.g.
//            "Your turn: choose who places first."); null for the generic one
//   doing(kind)
//            what the others wait for while a seat decides `kind`, after
//            "Red (P1) to …" (e.g. "choose who starts"); null for the generic
//   render(container, view, ctx)
//            draws the viewer's `view` (from a `state` message) into
//            `container`, redrawing in place. ctx = {you: 'P1' | 'P2' |
//            'spectator' | 'umpire', acting (this viewer must act now), kind
//            (this viewer's own decision kind, or null), decision (the
//            message's per-seat decision), legal (the legal actions, when
//            sent), submit(actionText), final (the match is over and `view`
//            is its final position: draw the end, e.g. the scoring), staged
//            (the action built and waiting for the player's confirmation,
//            or null: the board keeps it drawn in place, marking what it
//            draws with a data-staged attribute)}.
//            Clicks and keys become an action text given to ctx.submit.
//            The button that sends the decision built on the board carries
//            `data-submit`: on a phone the page shows it in the action bar
//            (where the thumbs are) instead of in the board. A part of
//            the board put away on a phone (class `put-away`, e.g. one
//            step of a long form) holds no submit the bar shows.
//   reset(container)   drops a half-made selection (after a refusal)
//   status(view)       one line about the position (the last move)
//   ending(view, outcome)  HTML for the end screen (e.g. scores compared)
//   describe(action, view)  optional: an action in words, for the action
//            waiting for confirmation and the replay ("Red on E5, blue on
//            F5"); null when the notation says it best
//   illustrate(text)  optional: a rules example written as text (a code
//            block of RULES.md) drawn as in a match: {html, caption}, or
//            null for text it does not draw
//   moveOf(before, entry)  optional, for the replay's counter: what the game
//            calls this record entry, given the view before it: a noun the
//            replay numbers ("Move" → "Move 7 of 31") or {label} for a place
//            in the game's own count ("Round 2, turn 3"); default "Move"
//
// Its stylesheet, `web/games/<id>.css`, is loaded by boardFor; every class
// it styles starts with the game's own prefix, so games never collide.
import * as all from './all.js';

export const boards = Object.fromEntries(Object.values(all).map((board) => [board.id, board]));

/// The stylesheet of game `id`'s board module.
export function stylesheetFor(id) {
  return `/static/games/${encodeURIComponent(id)}.css`;
}

/// The board module for `game`, or null: the page then shows the raw view
/// and the text box still takes actions. Loads the module's stylesheet once.
export function boardFor(game) {
  const board = Object.hasOwn(boards, game) ? boards[game] : null;
  if (board && typeof document !== 'undefined') {
    const href = stylesheetFor(board.id);
    if (!document.querySelector(`link[data-board="${CSS.escape(board.id)}"]`)) {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.dataset.board = board.id;
      // The board stays hidden until its stylesheet is in: drawn unstyled
      // first, it flashes and briefly lays out at the wrong size.
      const root = document.documentElement;
      root.classList.add('board-styles-loading');
      const shown = () => root.classList.remove('board-styles-loading');
      link.addEventListener('load', shown, { once: true });
      link.addEventListener('error', shown, { once: true });
      setTimeout(shown, 3000);
      document.head.append(link);
    }
  }
  return board;
}

/// How a game without a board module names its seats.
const GENERIC_SEATS = {
  P1: { label: 'Player 1', mark: '1', className: 'p1' },
  P2: { label: 'Player 2', mark: '2', className: 'p2' },
};

/// The seats as `board` shows them (its own, or numbered ones).
export function seatsOf(board) {
  return board?.seats ?? GENERIC_SEATS;
}

/// The acting seat's line for a decision of `kind`: the board's own words,
/// or words built from the kind.
export function promptFor(board, kind, view) {
  return board?.prompt?.(kind, view) ?? (kind ? `Your turn: ${kind}.` : 'Your turn.');
}

/// What the others wait for while a seat decides `kind` (after "… to").
export function doingFor(board, kind) {
  return board?.doing?.(kind) ?? (kind ? `decide (${kind})` : 'move');
}

/// Whether game `id` has a board module (without loading its stylesheet).
export function hasBoard(id) {
  return Object.hasOwn(boards, id);
}
