// An invite link (/i/{id}?c=code): the first to open it takes the seat and
// goes on with the seat's own key; anyone later learns the seat is taken
// and may watch.
import { esc, myMatches, postJson, rememberMatch } from './util.js';

const $ = (id) => document.getElementById(id);

async function claim() {
  const id = location.pathname.split('/')[2] ?? '';
  const code = new URLSearchParams(location.search).get('c') ?? '';
  try {
    // The keys this browser holds for the match: the server refuses the
    // invite to the player who sent it.
    const mine = myMatches()
      .filter((m) => m.id === id && m.link)
      .map((m) => new URL(m.link, location.href).searchParams.get('t'))
      .filter(Boolean);
    const { link, seat } = await postJson(`/api/matches/${encodeURIComponent(id)}/claim`, { code, mine });
    $('invite-status').textContent = `You take seat ${seat}.`;
    // The lobby's "Your matches" leads back to the seat.
    rememberMatch({ id, seat, link, joined: true, at: Date.now() });
    // The invite is spent: the seat's own link replaces it in the history.
    location.replace(link);
  } catch (e) {
    $('invite-status').textContent = e.status === 409 ? 'This seat is taken.' : e.status === 403 && /you play/.test(e.message) ? `${e.message[0].toUpperCase()}${e.message.slice(1)}.` : `This invite does not work: ${e.message}`;
    if (e.status === 409) {
      $('invite-more').innerHTML = `${esc(e.message)}. <a id="watch-instead" class="button" href="/m/${esc(encodeURIComponent(id))}">Watch the match</a>`;
    }
  }
}

claim();
