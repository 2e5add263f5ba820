// The board modules, one line per game. A new game adds its module here.
import maskedArmy from './masked-army.js';

export const boards = {
  [maskedArmy.id]: maskedArmy,
};

/// The board module for `game`, or null when the web client has none yet.
export function boardFor(game) {
  return boards[game] ?? null;
}
