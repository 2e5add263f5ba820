// The lobby: create a match, hand out its links, list the matches.
import { hasBoard } from './games/index.js';
import { configFields, optionValue } from './options.js';
import { ago, copyText, describeSeat, esc, getJson, postJson } from './util.js';

const $ = (id) => document.getElementById(id);
let games = [];

async function loadGames() {
  games = await getJson('/api/games');
  $('game').innerHTML = games
    .map((g) => `<option value="${esc(g.id)}">${esc(g.name)}${hasBoard(g.id) ? '' : ' (no board yet: text only)'}</option>`)
    .join('');
  const first = games.findIndex((g) => hasBoard(g.id));
  if (first > 0) $('game').selectedIndex = first;
  showGame();
}

function currentGame() {
  return games.find((g) => g.id === $('game').value);
}

function showGame() {
  const game = currentGame();
  if (!game) return;
  const botOptions = (game.bots ?? [])
    .map((b) => `<option value="bot:${esc(b.name)}">bot: ${esc(b.name)} (${esc(b.level)})</option>`)
    .join('');
  for (const seat of ['P1', 'P2']) {
    $(`seat-${seat}`).innerHTML =
      `<option value="person">${seat === 'P1' ? 'me (a person)' : 'a person'}</option>` + botOptions;
  }
  // Against a bot by default: P2 is the weakest-named first bot.
  if (game.bots?.length) $('seat-P2').value = `bot:${game.bots[0].name}`;
  $('config').innerHTML = configFields(game.options ?? [], game.default_config ?? {});
  $('rules-panel').hidden = !game.rules;
  $('rules-game').textContent = game.name;
  $('rules').textContent = game.rules ?? '';
}

function readForm(form) {
  const data = new FormData(form);
  const config = {};
  for (const el of form.querySelectorAll('[name^="config."]')) {
    config[el.name.slice('config.'.length)] = optionValue(el);
  }
  const seat = (v) => (v.startsWith('bot:') ? { kind: 'bot', bot: v.slice(4) } : { kind: 'person' });
  const creator = data.get('creator');
  if (creator !== 'host' && data.get(creator) !== 'person') {
    throw new Error(`a bot plays ${creator}: choose “host” to watch bots, or make ${creator} a person`);
  }
  return {
    ...(creator === 'host' ? {} : { as: creator }),
    game: data.get('game'),
    config,
    timed: form.elements.timed.checked,
    takeover: form.elements.takeover.checked,
    seats: { P1: seat(data.get('P1')), P2: seat(data.get('P2')) },
  };
}

async function create(e) {
  e.preventDefault();
  const err = $('create-error');
  err.hidden = true;
  let body;
  try {
    body = readForm(e.target);
  } catch (x) {
    err.textContent = `Bad setting: ${x.message}`;
    err.hidden = false;
    return;
  }
  $('create-button').disabled = true;
  try {
    const made = await postJson('/api/matches', body);
    showLinks(made, body);
    refresh();
  } catch (x) {
    err.textContent = x.message;
    err.hidden = false;
  } finally {
    $('create-button').disabled = false;
  }
}

function showLinks(made, body) {
  const rows = [];
  const entry = (key, label, path, note) => {
    const url = new URL(path, location.href).href;
    rows.push(
      `<li data-link="${esc(key)}"><span class="link-label">${label}</span>` +
        `<a href="${esc(url)}" class="link-url">${esc(url)}</a>` +
        `<button type="button" class="copy" data-copy="${esc(url)}">Copy</button>` +
        (note ? `<span class="hint">${note}</span>` : '') +
        '</li>',
    );
  };
  const me = body.as ?? null;
  for (const seat of ['P1', 'P2']) {
    if (body.seats[seat].kind === 'bot') {
      rows.push(`<li data-link="${seat}"><span class="link-label">Seat ${seat}</span><span class="hint">played by bot ${esc(body.seats[seat].bot ?? '')}</span></li>`);
    } else if (made.links[seat]) {
      entry(seat, `Seat ${seat}`, made.links[seat], seat === me ? 'yours: your key to the seat' : 'for a player');
    } else if (made.links.invite) {
      entry('invite', `Seat ${seat}`, made.links.invite, 'for your opponent: the first to open it takes the seat');
    }
  }
  entry('spectator', 'Spectators', made.links.spectator);
  if (made.links.umpire) entry('umpire', 'Umpire', made.links.umpire, 'sees everything: keep it to yourself');
  $('created-note').textContent = me
    ? 'Your link is your key to your seat. Send the invite to your opponent.'
    : 'Send each player their own link: it is their key to the seat. Keep the umpire link to yourself.';
  $('links').innerHTML = rows.join('');
  const play = me ? made.links[me] : null;
  const first = play
    ? `<a class="button primary" id="play-link" href="${esc(play)}">Play now as ${me}</a>`
    : `<a class="button primary" id="watch-link" href="${esc(made.links.spectator)}">Watch as a spectator</a>`;
  $('links').insertAdjacentHTML('afterbegin', `<li class="play">${first}</li>`);
  $('created').hidden = false;
  $('created').focus();
}

function summaryRow(m, list) {
  const seats = m.seats ?? {};
  const who = `<span class="seat-name p1">P1</span> ${esc(describeSeat(seats.P1))} · <span class="seat-name p2">P2</span> ${esc(describeSeat(seats.P2))}`;
  const stamp = m.finished_ms ?? m.created_ms;
  const when = stamp > 1e12 ? `${m.finished_ms ? 'ended' : 'created'} ${ago(stamp)}` : '';
  let result = '';
  if (m.outcome) {
    result = m.outcome.winner ? `${esc(m.outcome.winner)} won (${esc(m.outcome.decided_by)})` : `draw (${esc(m.outcome.decided_by)})`;
  }
  const links =
    list === 'finished'
      ? `<a href="/replay/${esc(m.id)}">Replay</a> <a href="/api/matches/${esc(m.id)}/record" download="${esc(m.id)}.json">Record</a>`
      : `<a href="/m/${esc(m.id)}">Watch</a>`;
  return (
    `<li data-match="${esc(m.id)}"><span class="match-game">${esc(m.name ?? m.game)}</span>` +
    `<span class="match-seats">${who}</span>` +
    `<span class="match-meta">${m.moves ?? 0} moves${when ? ` · ${when}` : ''}${result ? ` · ${result}` : ''}</span>` +
    `<span class="match-links">${links}</span></li>`
  );
}

/// The lobby's page of matches (50 of each list a page, newest first).
let page = 0;

async function refresh() {
  try {
    const lists = await getJson(`/api/matches?page=${page}`);
    for (const key of ['open', 'live', 'finished']) {
      const items = lists[key] ?? [];
      $(key).innerHTML = items.length ? items.map((m) => summaryRow(m, key)).join('') : '<li class="empty">None.</li>';
    }
    const more = Object.values(lists.more ?? {}).some(Boolean);
    $('pager').hidden = page === 0 && !more;
    $('newer').disabled = page === 0;
    $('older').disabled = !more;
    $('page-label').textContent = `Page ${page + 1}`;
    $('lists-error').hidden = true;
  } catch (x) {
    $('lists-error').textContent = `Could not load the matches: ${x.message}`;
    $('lists-error').hidden = false;
  }
}

document.addEventListener('click', async (e) => {
  const button = e.target.closest('button[data-copy]');
  if (!button) return;
  const ok = await copyText(button.dataset.copy);
  button.textContent = ok ? 'Copied' : 'Copy failed';
  setTimeout(() => (button.textContent = 'Copy'), 1500);
});

$('create').addEventListener('submit', create);
$('newer').addEventListener('click', () => {
  page = Math.max(0, page - 1);
  refresh();
});
$('older').addEventListener('click', () => {
  page += 1;
  refresh();
});
$('game').addEventListener('change', showGame);
loadGames().catch((x) => {
  $('create-error').textContent = `Could not load the games: ${x.message}`;
  $('create-error').hidden = false;
});
refresh();
setInterval(refresh, 5000);
