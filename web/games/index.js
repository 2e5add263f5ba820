// The board modules, one line per game: a new game adds its module here and
// nothing else in the client changes.
//
// A board module's default export:
//   id       the game's id (as in GET /api/games)
//   name     its name
//   seats    {P1: {label, mark, className}, P2: …}: how each seat is shown
//            (colour via className, plus a mark so colour is never alone)
//   help     how to play on the page (the click gesture, the keyboard)
//   prompt   the line shown when it is your turn
//   example  an action in the game's notation, for the text box
//   render(container, view, ctx)
//            draws the viewer's `view` (from a `state` message) into
//            `container`, redrawing in place. ctx = {you: 'P1' | 'P2' |
//            'spectator' | 'umpire', acting (this viewer must act now), kind
//            (the decision's kind), legal (the legal actions, when sent),
//            submit(actionText), showArmies (the match is over: outline
//            the final position)}.
//            Clicks and keys become an action text given to ctx.submit.
//   reset(container)   drops a half-made selection (after a refusal)
//   status(view)       one line about the position (the last move)
//   ending(view, outcome)  HTML for the end screen (e.g. scores compared)
import maskedArmy from './masked-army.js';

export const boards = {
  [maskedArmy.id]: maskedArmy,
};

/// The board module for `game`, or null: the page then shows the raw view
/// and the text box still takes actions.
export function boardFor(game) {
  return boards[game] ?? null;
}
