// Every board module, one line per game: a new game adds its line here (its
// module `games/<id>.js` and stylesheet `games/<id>.css` beside it) and
// nothing else in the client changes.
export { default as bombDomain } from './bomb-domain.js';
export { default as flowerDomain } from './flower-domain.js';
export { default as fourStatements } from './four-statements.js';
export { default as maskedArmy } from './masked-army.js';
export { default as pentominoWall } from './pentomino-wall.js';
