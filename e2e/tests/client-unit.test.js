// Unit tests of the shared client's pure functions (no browser): the words
// built for a game without a board module, how a refusal is shown, the
// lobby's fields for each kind of config option, and the clocks.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import maskedArmy from '../../web/games/masked-army.js';
import { clockAt, formatMs } from '../../web/clock.js';
import { doingFor, promptFor } from '../../web/games/index.js';
import { configFields, optionValue } from '../../web/options.js';
import { refusalHtml } from '../../web/util.js';

test('prompts come from the board module, or from the decision kind', () => {
  assert.equal(promptFor(maskedArmy, 'first', {}), 'Your turn: choose who places first.');
  assert.equal(doingFor(maskedArmy, 'first'), 'choose who starts');
  assert.equal(doingFor(maskedArmy, 'place'), 'move');
  assert.equal(promptFor(null, 'bid', {}), 'Your turn: bid.');
  assert.equal(doingFor(null, 'confirm'), 'decide (confirm)');
  // A board module may leave a kind to the generic words.
  const partial = { prompt: () => null, doing: () => null };
  assert.equal(promptFor(partial, 'orient', {}), 'Your turn: orient.');
  assert.equal(doingFor(partial, 'orient'), 'decide (orient)');
});

test('a refusal shows where the text went wrong, what was expected, a suggestion and the rule', () => {
  const html = refusalHtml(
    { rule: 'notation', message: 'expected a number after `bid`', at: 3, expected: ['1', '2', '3'], suggestion: 'bid 3' },
    'bid <x>',
  );
  assert.equal(
    html,
    'expected a number after `bid`: <code class="error-at">bid<mark> &#60;x&#62;</mark></code>' +
      '. Expected <code>1</code>, <code>2</code>, <code>3</code>. Did you mean <code>bid 3</code>? (notation)',
  );
  // `at` counts characters: a character outside the BMP is one.
  assert.match(refusalHtml({ message: 'm', at: 2 }, '🂡x y'), /<code class="error-at">🂡x<mark> y<\/mark>/);
  // At the very end: an empty mark still shows where.
  assert.match(refusalHtml({ message: 'm', at: 3 }, 'bid'), /bid<mark>&nbsp;<\/mark>/);
  // Without the extras, or with an offset past the text: the message and the rule.
  assert.equal(refusalHtml({ rule: 'occupied', message: 'E5 is already occupied' }, 'E5 F5'), 'E5 is already occupied (occupied)');
  assert.equal(refusalHtml({ rule: 'r', message: 'm', at: 9 }, 'abc'), 'm (r)');
});

test('each kind of config option becomes its field, at the default', () => {
  const options = [
    { key: 'advantage', label: 'Advantage', about: 'Who <starts>', kind: { type: 'seat' } },
    { key: 'rule', label: 'First move', about: '', kind: { type: 'choice', choices: ['amended', 'original'] } },
    { key: 'rounds', label: 'Round limit', about: '', kind: { type: 'number', min: 1, max: 20, optional: true } },
    { key: 'size', label: 'Size', about: '', kind: { type: 'number', min: 5, max: 9, optional: false } },
    { key: 'aids', label: 'Aids', about: '', kind: { type: 'flag' } },
    { key: 'layout', label: 'Layout', about: '', kind: { type: 'text', placeholder: 'A1 B2' } },
  ];
  const defaults = { advantage: 'P2', rule: 'original', rounds: null, size: 9, aids: true, layout: null };
  const html = configFields(options, defaults);
  const field = (key) => html.split('</label>').find((f) => f.includes(`name="config.${key}"`)) ?? '';
  assert.equal(html.split('</label>').length, options.length + 1, 'one field each');
  assert.match(field('advantage'), /<select [^>]*data-type="seat"[^>]*aria-describedby="config-advantage-about">/);
  assert.match(field('advantage'), /<option value="P1">P1<\/option><option value="P2" selected>P2<\/option>/);
  assert.match(field('advantage'), /Who &#60;starts&#62;/);
  assert.match(field('rule'), /<option value="amended">amended<\/option><option value="original" selected>original<\/option>/);
  assert.match(field('rounds'), /type="number" step="1" min="1" max="20"[^>]*data-optional="yes"[^>]*value=""/);
  assert.match(field('size'), /min="5" max="9"[^>]* required value="9"/);
  assert.match(field('aids'), /<input type="checkbox" [^>]*name="config\.aids"[^>]* checked> Aids/);
  assert.match(field('layout'), /placeholder="A1 B2" value=""/);

  // What the form sends back.
  const el = (type, value, extra = {}) => ({ name: 'config.x', value, dataset: { type, ...extra }, checked: extra.checked });
  assert.equal(optionValue(el('seat', 'P2')), 'P2');
  assert.equal(optionValue(el('choice', 'amended')), 'amended');
  assert.equal(optionValue(el('number', '', { optional: 'yes' })), null);
  assert.equal(optionValue(el('number', '7', { optional: 'yes' })), 7);
  assert.throws(() => optionValue(el('number', '')), /whole number/);
  assert.throws(() => optionValue(el('number', '2.5')), /whole number/);
  assert.equal(optionValue({ ...el('flag', 'on'), checked: false }), false);
  assert.equal(optionValue(el('text', '', { default: 'null' })), null);
  assert.equal(optionValue(el('text', '', { default: '""' })), '');
  assert.equal(optionValue(el('text', 'C3', { default: 'null' })), 'C3');
});

test('clocks count down from the server snapshot', () => {
  const clock = { running: true, turn_ms: 120_000, bank_ms: 300_000, periods: 0, period_ms: 0, overtime: true };
  assert.deepEqual(clockAt(clock, 20_000).turn, 100_000);
  const late = clockAt(clock, 130_000);
  assert.equal(late.turn, 0);
  assert.equal(late.bank, 290_000);
  assert.equal(late.over, false);
  assert.equal(clockAt(clock, 500_000).over, true);
  // A decision that may not run into overtime is over when its turn is.
  assert.equal(clockAt({ ...clock, overtime: false }, 120_001).over, true);
  assert.equal(clockAt({ ...clock, overtime: false }, 130_000).bank, 300_000);
  const stopped = clockAt({ ...clock, running: false }, 50_000);
  assert.equal(stopped.turn, 120_000);
  assert.equal(formatMs(93_000), '1:33');
  assert.equal(formatMs(9_450), '0:09.4');
  assert.equal(formatMs(3_723_000), '1:02:03');
});
