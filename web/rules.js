// A game's rules (`/rules/{id}`; a `?game=id` query wins): the Markdown from
// `GET /api/games`, formatted. Raw HTML in the Markdown is shown as text,
// never run; links go only to web pages, mail or this server.
import { Marked } from './vendor/marked.esm.js';
import { boardFor } from './games/index.js';
import { esc, getJson } from './util.js';

const $ = (id) => document.getElementById(id);

const SAFE_HREF = /^(https?:|mailto:|#|\/(?!\/)|\.{0,2}\/?[\w-]+(\.[\w-]+)*([/?#]|$))/i;

/// The Markdown renderer: GitHub tables and code, headings one level down
/// (the page's own title is its only level-one heading), HTML as text.
export const markdown = new Marked({
  gfm: true,
  walkTokens(token) {
    if (token.type === 'heading') token.depth = Math.min(6, token.depth + 1);
  },
  renderer: {
    html({ text, block }) {
      return block ? `<p>${esc(text)}</p>\n` : esc(text);
    },
    link(token) {
      if (SAFE_HREF.test(token.href ?? '')) return false; // the usual rendering
      return this.parser.parseInline(token.tokens);
    },
    image({ text }) {
      return esc(text);
    },
  },
});

/// The rules as HTML, leaving out a first level-one heading that only
/// repeats the game's name (the page's title says it).
export function rulesHtml(md, name) {
  const tokens = markdown.lexer(md ?? '');
  const first = tokens.findIndex((t) => t.type !== 'space');
  if (first >= 0 && tokens[first].type === 'heading' && tokens[first].depth === 1 && tokens[first].text.trim() === name) {
    tokens.splice(first, 1);
  }
  return markdown.parser(tokens);
}

/// The board module's drawing of a rules example (`text`, a code block), as
/// a figure: a picture named by its caption, nothing in it to click or
/// focus; null when the module draws no such example.
export function picture(board, text, key) {
  const drawn = board?.illustrate?.(text);
  if (!drawn) return null;
  const figure = document.createElement('figure');
  figure.className = 'rules-picture';
  figure.innerHTML =
    `<div class="rules-drawing" role="img" aria-labelledby="${key}"><div aria-hidden="true">${drawn.html}</div></div>` +
    `<figcaption id="${key}">${esc(drawn.caption)}</figcaption>`;
  for (const el of figure.querySelectorAll('[tabindex]')) el.removeAttribute('tabindex');
  for (const el of figure.querySelectorAll('button, input, select, textarea')) el.disabled = true;
  return figure;
}

function gameId() {
  const fromQuery = new URLSearchParams(location.search).get('game');
  if (fromQuery) return fromQuery;
  const parts = location.pathname.split('/');
  return parts[1] === 'rules' ? decodeURIComponent(parts[2] ?? '') : '';
}

async function show() {
  const id = gameId();
  let games;
  try {
    games = await getJson('/api/games');
  } catch (x) {
    $('rules-status').textContent = `Could not load the rules: ${x.message}`;
    return;
  }
  const game = games.find((g) => g.id === id);
  const others = games.filter((g) => g !== game && g.rules);
  $('rules-list').innerHTML = others
    .map((g) => `<li><a href="/rules/${esc(encodeURIComponent(g.id))}">${esc(g.name)}</a></li>`)
    .join('');
  $('rules-others').hidden = others.length === 0;
  if (!game) {
    $('rules-title').textContent = id ? 'No such game' : 'Rules';
    document.title = 'Umpire · rules';
    $('rules-status').textContent = id ? `This server has no game “${id}”. Pick one below.` : 'Pick a game below.';
    return;
  }
  $('rules-title').textContent = `Rules of ${game.name}`;
  document.title = `Umpire · rules of ${game.name}`;
  if (!game.rules) {
    $('rules-status').textContent = 'This game has no written rules.';
    return;
  }
  const body = $('rules-body');
  body.innerHTML = rulesHtml(game.rules, game.name);
  // Wide tables scroll on their own on a narrow screen; each region is
  // named apart (numbered), as landmarks must be.
  const tables = [...body.querySelectorAll('table')];
  tables.forEach((table, i) => {
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap';
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', tables.length > 1 ? `Table ${i + 1} of ${tables.length} (scrolls sideways)` : 'Table (scrolls sideways)');
    table.replaceWith(wrap);
    wrap.append(table);
  });
  // The examples the rules write as text (pieces, boards, shapes, a
  // worked example) are drawn by the game's board module, as in a match.
  const board = boardFor(game.id);
  [...body.querySelectorAll('pre')].forEach((pre, i) => {
    const figure = picture(board, pre.textContent, `picture-${i + 1}`);
    if (figure) pre.replaceWith(figure);
  });
  // A block of preformatted text may scroll sideways too: it takes the
  // keyboard focus, so that the keys can scroll it.
  for (const pre of body.querySelectorAll('pre')) pre.tabIndex = 0;
  $('rules-status').textContent = '';
  $('rules-status').hidden = true;
  const play = document.createElement('p');
  play.innerHTML = `<a class="button primary" href="/?game=${esc(encodeURIComponent(game.id))}">Play ${esc(game.name)}</a>`;
  body.append(play);
}

show();
