// A game's config options as form fields, from the game's own description
// (`options` in GET /api/games): the lobby offers any game's settings
// without knowing the game.
import { esc } from './util.js';

/// One field per option the game describes (`options` in /api/games), by
/// its kind; each starts at the game's default config. Keys the game does not
/// describe keep their defaults (the server fills them in).
export function configFields(options, defaults) {
  return options.map((option) => optionField(option, defaults[option.key])).join('');
}

/// The field for one option (`{key, label, about, kind, hidden}`) starting at
/// `value`: a select for a seat or a choice, a whole-number input (empty
/// means none when optional), a checkbox for a flag, a text input.
export function optionField(option, value) {
  const key = esc(option.key);
  const name = `config.${key}`;
  const id = `config-${key}`;
  const label = esc(option.label || option.key);
  // A hidden option is a secret of the game: only a host may set it.
  const text = option.hidden ? `${option.about ?? ''} Secret: only a host may set it, and the players are told.`.trim() : option.about;
  const about = text ? `<span class="hint" id="${id}-about">${esc(text)}</span>` : '';
  const described = text ? ` aria-describedby="${id}-about"` : '';
  const kind = option.kind ?? { type: 'text' };
  const attrs = `id="${id}" name="${name}" data-type="${esc(kind.type)}"${option.hidden ? ' data-secret="yes"' : ''}${described}`;
  const select = (choices) =>
    `<select ${attrs}>${choices
      .map((c) => `<option value="${esc(c)}"${c === value ? ' selected' : ''}>${esc(c)}</option>`)
      .join('')}</select>`;
  switch (kind.type) {
    case 'seat':
      return `<label>${label} ${select(['P1', 'P2'])}${about}</label>`;
    case 'choice':
      return `<label>${label} ${select(kind.choices ?? [])}${about}</label>`;
    case 'number': {
      const optional = !!kind.optional;
      const bounds = `${Number.isFinite(kind.min) ? ` min="${kind.min}"` : ''}${Number.isFinite(kind.max) ? ` max="${kind.max}"` : ''}`;
      return (
        `<label>${label} <input type="number" step="1"${bounds} ${attrs}${optional ? ' data-optional="yes" placeholder="none"' : ' required'}` +
        ` value="${value === null || value === undefined ? '' : esc(value)}">${about}${optional ? '<span class="hint">Empty: none.</span>' : ''}</label>`
      );
    }
    case 'flag':
      return `<label class="check"><input type="checkbox" ${attrs}${value ? ' checked' : ''}> ${label}${about}</label>`;
    default:
      return (
        `<label>${label} <input ${attrs} data-default="${esc(JSON.stringify(value ?? null))}"` +
        ` placeholder="${esc(kind.placeholder ?? '')}" value="${typeof value === 'string' ? esc(value) : ''}">${about}</label>`
      );
  }
}

/// The value of one option field (an element made by optionField), as the
/// config takes it; throws on a number that is not whole.
export function optionValue(el) {
  switch (el.dataset.type) {
    case 'flag':
      return el.checked;
    case 'number': {
      if (el.value.trim() === '' && el.dataset.optional) return null;
      const n = Number(el.value);
      if (el.value.trim() === '' || !Number.isInteger(n)) throw new Error(`${el.name.slice('config.'.length)} must be a whole number`);
      return n;
    }
    case 'text':
      // Empty means the default: null when the default is null.
      return el.value === '' && JSON.parse(el.dataset.default ?? 'null') === null ? null : el.value;
    default:
      return el.value;
  }
}
