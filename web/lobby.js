// The lobby: create a match, hand out its links, list the matches.
import { boards, hasBoard } from './games/index.js';
import { configFields, optionValue } from './options.js';
import { ago, copyText, describeSeat, esc, forgetMatch, getJson, myMatches, postJson, rememberMatch } from './util.js';

const $ = (id) => document.getElementById(id);
let games = [];

/// A seat of a match of `game` by the name its board gives it ("Red"), or
/// its id for a game without a board.
const seatLabel = (game, seat) => (Object.hasOwn(boards, game) ? boards[game].seats?.[seat]?.label : null) ?? seat;

async function loadGames() {
  games = await getJson('/api/games');
  $('game').innerHTML = games
    .map((g) => `<option value="${esc(g.id)}">${esc(g.name)}${hasBoard(g.id) ? '' : ' (no board yet: text only)'}</option>`)
    .join('');
  const first = games.findIndex((g) => hasBoard(g.id));
  const asked = games.findIndex((g) => g.id === new URLSearchParams(location.search).get('game'));
  if (asked >= 0) $('game').selectedIndex = asked;
  else if (first > 0) $('game').selectedIndex = first;
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
  showOpenSeat();
  showBots();
  $('rules-row').hidden = !game.rules;
  $('rules-game').textContent = game.name;
  $('rules-link').href = `/rules/${encodeURIComponent(game.id)}`;
}

/// What each bot chosen for a seat is, in words: its level and how it
/// plays (the bot's own description).
function showBots() {
  const game = currentGame();
  const lines = ['P1', 'P2'].flatMap((seat) => {
    const name = /^bot:(.*)$/.exec($(`seat-${seat}`).value)?.[1];
    const bot = game?.bots?.find((b) => b.name === name);
    return bot ? [`${seat} is the ${bot.name} bot, ${bot.level}: ${bot.about}.`] : [];
  });
  $('seat-about').textContent = lines.join(' ');
}

/// The open-seat box applies to a player whose opponent is a person; the
/// game's secret options (a hidden grid) only to a host.
function showOpenSeat() {
  const form = $('create');
  const creator = form.elements.creator.value;
  const other = creator === 'P1' ? 'P2' : creator === 'P2' ? 'P1' : null;
  const can = !!other && form.elements[other].value === 'person';
  form.elements.open.disabled = !can;
  $('open-row').classList.toggle('disabled', !can);
  form.elements.audience.disabled = creator !== 'host';
  $('audience-row').hidden = creator !== 'host';
  for (const el of form.querySelectorAll('[data-secret]')) {
    el.disabled = creator !== 'host';
    el.closest('label').hidden = creator !== 'host';
  }
}

function readForm(form) {
  const data = new FormData(form);
  const config = {};
  for (const el of form.querySelectorAll('[name^="config."]:not(:disabled)')) {
    config[el.name.slice('config.'.length)] = optionValue(el);
  }
  const seat = (v) => (v.startsWith('bot:') ? { kind: 'bot', bot: v.slice(4) } : { kind: 'person' });
  const creator = data.get('creator');
  if (creator !== 'host' && data.get(creator) !== 'person') {
    throw new Error(`a bot plays ${creator}: choose “host” to watch bots, or make ${creator} a person`);
  }
  // Only a player's person opponent has a seat to open.
  const open = form.elements.open.checked && !form.elements.open.disabled;
  const names = {};
  for (const s of ['P1', 'P2']) {
    const name = String(data.get(`name-${s}`) ?? '').trim();
    if (name) names[s] = name;
  }
  return {
    ...(creator === 'host' ? { host: true, audience: form.elements.audience.checked } : { as: creator }),
    ...(Object.keys(names).length ? { names } : {}),
    ...(open ? { open: true } : {}),
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
    remember(made, body);
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
      const note = body.open
        ? 'open: listed in the lobby, the first to join or open this invite takes the seat'
        : 'for your opponent: the first to open it takes the seat';
      entry('invite', `Seat ${seat}`, made.links.invite, note);
    }
  }
  entry('spectator', 'Spectators', made.links.spectator);
  if (made.links.console) entry('console', 'Console', made.links.console, 'yours: enter the players’ actions and copy what to send them; keep it to yourself');
  if (made.links.umpire) entry('umpire', 'Umpire', made.links.umpire, 'sees everything: keep it to yourself');
  const them = me === 'P1' ? 'P2' : 'P1';
  const bot = me && body.seats[them].kind === 'bot' ? body.seats[them].bot : null;
  let note = 'Send each player their own link: it is their key to the seat. Keep the umpire link to yourself.';
  if (bot) note = `Your link is your key to your seat. Bot ${bot} plays ${them}: play when you are ready.`;
  else if (me) note = 'Your link is your key to your seat. Send the invite to your opponent.';
  $('created-note').textContent = note;
  $('links').innerHTML = rows.join('');
  const play = me ? made.links[me] : null;
  let first = `<a class="button primary" id="watch-link" href="${esc(made.links.spectator)}">Watch as a spectator</a>`;
  if (play) first = `<a class="button primary" id="play-link" href="${esc(play)}">Play now as ${me}</a>`;
  else if (made.links.console) {
    first = `<a class="button primary" id="console-link" href="${esc(made.links.console)}">Open the console</a> <a class="button" id="watch-link" href="${esc(made.links.spectator)}">Watch as a spectator</a>`;
  }
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
    result = m.outcome.winner ? `${esc(seatLabel(m.game, m.outcome.winner))} won (${esc(m.outcome.decided_by)})` : `draw (${esc(m.outcome.decided_by)})`;
  }
  const mine = myMatches().filter((e) => e.id === m.id);
  const seat = mine.find((e) => e.seat === 'P1' || e.seat === 'P2');
  let links =
    list === 'finished'
      ? `<a href="/replay/${esc(m.id)}">Replay</a> <a href="/api/matches/${esc(m.id)}/record" download="${esc(m.id)}.json">Record</a>`
      : m.audience === false
        ? '<span class="hint">watched once it ends</span>'
        : `<a href="/m/${esc(m.id)}">Watch</a>`;
  if (seat && list !== 'finished') links = `<a href="${esc(seat.link)}" class="your-seat">Your seat (${esc(seat.seat)})</a> ${links}`;
  // An open seat: anyone may take it (not this browser's own match).
  if (list === 'open' && m.join?.link && !mine.length) {
    links = `<a class="button primary join" href="${esc(m.join.link)}" aria-label="Join ${esc(m.name ?? m.game)} as ${esc(m.join.seat)}">Join as ${esc(m.join.seat)}</a> ${links}`;
  }
  const invite = list === 'open' && mine.find((e) => e.invite)?.invite;
  if (invite) {
    links += ` <button type="button" class="copy invite-copy" data-copy="${esc(new URL(invite, location.href).href)}">Copy invite</button>`;
  }
  return (
    `<li data-match="${esc(m.id)}"><span class="match-game">${esc(m.name ?? m.game)}</span>` +
    `<span class="match-seats">${who}</span>` +
    `<span class="match-meta">${m.moves ?? 0} moves${when ? ` · ${when}` : ''}${result ? ` · ${result}` : ''}</span>` +
    `<span class="match-links">${links}</span></li>`
  );
}

/// The lobby's page of matches (50 of each list a page, newest first).
let page = 0;
/// The last lists the lobby loaded (to tell a match of "Your matches" open,
/// live or finished without asking the server again).
let lastLists = null;

// ---- Your matches: kept in this browser (see `rememberMatch` in util.js).

/// Keeps the match just created: the creator's seat and link (and the
/// opponent's invite, to hand out again), or a host's umpire link and the
/// person seats' links.
function remember(made, body) {
  const game = currentGame();
  const base = { id: made.id, game: body.game, name: game?.name ?? body.game, at: Date.now() };
  if (body.as && made.links[body.as]) {
    rememberMatch({ ...base, seat: body.as, link: made.links[body.as], invite: made.links.invite ?? null });
  } else if (made.links.umpire) {
    const link = made.links.console ?? made.links.umpire;
    rememberMatch({ ...base, seat: 'umpire', link, seatLinks: { P1: made.links.P1 ?? null, P2: made.links.P2 ?? null } });
  }
}

/// What is known of each entry's match: {key, text, final}; a final answer
/// (over, called off, gone) is not asked again.
const known = new Map();

function stateStatus(state, entry, where) {
  const o = state.outcome;
  if (o) {
    let text;
    if (!o.winner) text = 'Finished: a draw';
    else if (entry.seat === o.winner) text = 'Finished: you won';
    else if (entry.seat === 'P1' || entry.seat === 'P2') text = 'Finished: you lost';
    else text = `Finished: ${seatLabel(entry.game, o.winner)} won`;
    return { key: 'finished', text: o.decided_by ? `${text} (${o.decided_by})` : text, final: true };
  }
  if (where === 'open') {
    // A person seat was never taken: the opponent's, or this very seat.
    const other = entry.seat === 'P1' ? 'P2' : entry.seat === 'P2' ? 'P1' : null;
    if (other && state.seats?.[other]?.connected) {
      return { key: 'ready', text: 'Your opponent is here: take your seat', opponentHere: true };
    }
    return { key: 'waiting', text: other ? 'Waiting for the opponent' : 'Waiting for the players' };
  }
  if (where !== 'live') {
    // Not on the lobby's first page (or not sorted into it yet).
    return { key: 'unknown', text: 'Not over' };
  }
  if (entry.seat === 'P1' || entry.seat === 'P2') {
    const mine = state.decision?.seats?.includes(entry.seat);
    return { key: 'live', text: mine ? 'Live: your move' : 'Live: the opponent’s move' };
  }
  return { key: 'live', text: 'Live' };
}

async function entryStatus(entry, where) {
  if (known.has(entry.link)) return known.get(entry.link);
  const token = new URL(entry.link, location.href).searchParams.get('t') ?? '';
  let status;
  try {
    const state = await getJson(`/api/matches/${encodeURIComponent(entry.id)}?t=${encodeURIComponent(token)}`);
    status = stateStatus(state, entry, where);
  } catch (x) {
    if (x.status === 410) status = { key: 'gone', text: 'Called off', final: true };
    else if (x.status === 404) status = { key: 'gone', text: 'No longer on this server', final: true };
    else if (x.status === 403) status = { key: 'gone', text: 'Its key is refused', final: true };
    else status = { key: 'unknown', text: `Status unknown: ${x.message}` };
  }
  if (status.final) known.set(entry.link, status);
  return status;
}

/// At most this many entries are asked about on each refresh.
const MINE_ASKED = 30;
let mineHtml = '';

async function renderMine() {
  const where = new Map();
  const summaries = new Map();
  for (const key of ['open', 'live', 'finished']) {
    for (const m of lastLists?.[key] ?? []) {
      where.set(m.id, key);
      summaries.set(m.id, m);
    }
  }
  const entries = myMatches().sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
  // An entry learnt without its game (an invite) takes it from the lists.
  for (const e of entries) {
    const s = summaries.get(e.id);
    if (s && !e.name) {
      e.game = s.game;
      e.name = s.name ?? s.game;
      rememberMatch({ ...e });
    }
  }
  const statuses = await Promise.all(
    entries.map((e, i) => (i < MINE_ASKED ? entryStatus(e, where.get(e.id)) : { key: 'unknown', text: '' })),
  );
  // Once the opponent has come, the invite is spent: it is not offered again.
  entries.forEach((e, i) => {
    if (e.invite && (statuses[i].opponentHere || statuses[i].key === 'live' || statuses[i].final)) {
      e.invite = null;
      rememberMatch({ ...e });
    }
  });
  const rows = entries.map((e, i) => mineRow(e, statuses[i]));
  const html = rows.length ? rows.join('') : '<li class="empty">None yet: a match you create or join appears here.</li>';
  if (html === mineHtml) return; // unchanged: keep focus and selection
  const focused = document.activeElement?.closest?.('#mine [data-focus]')?.dataset.focus;
  mineHtml = html;
  $('mine').innerHTML = html;
  if (focused) $('mine').querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
}

function mineRow(e, status) {
  const player = e.seat === 'P1' || e.seat === 'P2';
  const seat = player
    ? `You play <span class="seat-name ${e.seat === 'P1' ? 'p1' : 'p2'}">${esc(e.seat)}</span> (${esc(seatLabel(e.game, e.seat))})`
    : 'You host (umpire’s view)';
  const when = e.at ? `${e.joined ? 'joined' : 'created'} ${ago(e.at)}` : '';
  const label = `${e.name || 'match'} ${player ? e.seat : 'as host'}`;
  const finished = status.key === 'finished';
  let open = player ? 'Return to your seat' : e.link.startsWith('/host/') ? 'Open the console' : 'Open as umpire';
  if (finished) open = 'See the end';
  let extra = '';
  if (e.invite && (status.key === 'waiting' || status.key === 'unknown')) {
    extra += `<span class="mine-extra">Invite for your opponent <button type="button" class="copy" data-copy="${esc(new URL(e.invite, location.href).href)}" data-focus="invite:${esc(e.link)}">Copy invite</button></span>`;
  }
  if (!player && e.seatLinks && status.key !== 'finished' && status.key !== 'gone') {
    for (const s of ['P1', 'P2']) {
      if (e.seatLinks[s]) {
        extra += `<span class="mine-extra">Seat ${s} link <button type="button" class="copy" data-copy="${esc(new URL(e.seatLinks[s], location.href).href)}" data-focus="${s}:${esc(e.link)}">Copy</button></span>`;
      }
    }
  }
  return (
    `<li data-mine="${esc(e.id)}" data-seat="${esc(e.seat)}" data-status="${esc(status.key)}">` +
    `<span class="match-game">${esc(e.name || `Match ${e.id}`)}</span>` +
    `<span class="match-seats">${seat}</span>` +
    `<span class="match-meta"><span class="mine-status">${esc(status.text)}</span>${when ? ` · ${esc(when)}` : ''}</span>` +
    `<span class="match-links"><a class="button primary return" href="${esc(e.link)}" data-focus="return:${esc(e.link)}">${open}</a>` +
    (finished ? `<a class="button replay" href="/replay/${esc(encodeURIComponent(e.id))}" data-focus="replay:${esc(e.link)}">Replay</a>` : '') +
    `<button type="button" class="forget" data-forget="${esc(e.link)}" data-focus="forget:${esc(e.link)}" aria-label="Forget ${esc(label)}">Forget</button></span>` +
    extra +
    '</li>'
  );
}

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
    lastLists = lists;
    renderMine();
  } catch (x) {
    $('lists-error').textContent = `Could not load the matches: ${x.message}`;
    $('lists-error').hidden = false;
    renderMine();
  }
}

document.addEventListener('click', async (e) => {
  const forget = e.target.closest('button[data-forget]');
  if (forget) {
    const li = forget.closest('li');
    const name = li?.querySelector('.match-game')?.textContent ?? 'the match';
    forgetMatch(forget.dataset.forget);
    known.delete(forget.dataset.forget);
    await renderMine();
    $('mine-said').textContent = `Forgot ${name}.`;
    $('mine-title').focus();
    refresh();
    return;
  }
  const button = e.target.closest('button[data-copy]');
  if (!button) return;
  const ok = await copyText(button.dataset.copy);
  const label = button.textContent;
  button.textContent = ok ? 'Copied' : 'Copy failed';
  setTimeout(() => (button.textContent = label), 1500);
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
$('game').addEventListener('change', () => {
  showGame();
  showOpenSeat();
});
for (const name of ['creator', 'P1', 'P2']) $('create').elements[name].addEventListener('change', showOpenSeat);
for (const name of ['P1', 'P2']) $('create').elements[name].addEventListener('change', showBots);
loadGames().then(showOpenSeat).catch((x) => {
  $('create-error').textContent = `Could not load the games: ${x.message}`;
  $('create-error').hidden = false;
});
refresh();
setInterval(refresh, 5000);
// Another tab of this browser created or joined a match.
window.addEventListener('storage', () => renderMine());
