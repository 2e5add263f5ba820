// Clocks counted on the client from the server's numbers. Every server
// message carries each seat's clock as of the moment it was sent; the page
// notes when it arrived and counts a running clock down from there, and the
// next message corrects it.

/// What a clock shows `elapsed` ms after the server's snapshot `clock`
/// ({running, turn_ms, bank_ms, periods, period_ms, overtime}): the turn
/// time first, then (only when `overtime`, i.e. this decision may run into
/// it) the bank, then the reserve periods one by one.
export function clockAt(clock, elapsed) {
  const spent = clock.running ? Math.max(0, elapsed) : 0;
  let turn = clock.turn_ms - spent;
  let bank = clock.bank_ms;
  let periods = clock.periods;
  let period = clock.period_ms;
  let over = false;
  if (turn < 0) {
    const beyond = -turn;
    turn = 0;
    if (!clock.overtime) {
      over = true;
    } else if (beyond <= bank) {
      bank -= beyond;
    } else {
      const rest = beyond - bank;
      bank = 0;
      if (periods > 0 && period > 0) {
        const used = Math.ceil(rest / period);
        if (used > periods) {
          periods = 0;
          period = 0;
          over = true;
        } else {
          periods -= used;
          period = used * clock.period_ms - rest;
          // The period being used counts down; show it as still in hand.
          periods += 1;
        }
      } else {
        over = true;
      }
    }
  }
  return { turn, bank, periods, period, over, running: clock.running, overtime: !!clock.overtime };
}

/// `m:ss`, or `h:mm:ss`; tenths under ten seconds.
export function formatMs(ms) {
  const t = Math.max(0, ms);
  if (t < 10_000) {
    const tenths = Math.floor(t / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/// Keeps the latest snapshot per seat and the time it arrived, and paints
/// the clocks `paint(seat, shown)` a few times a second.
export class ClockBoard {
  constructor(paint, now = () => performance.now()) {
    this.paint = paint;
    this.now = now;
    this.clocks = null;
    this.at = 0;
    this.timer = null;
    this.frozen = false;
  }

  /// The connection is lost: the clocks stop where they are shown (nothing
  /// counts down on a guess) until the next server message sets them again.
  freeze() {
    if (this.frozen) return;
    this.tick();
    this.frozen = true;
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /// A server message arrived with these clocks (or null: untimed / over).
  set(clocks) {
    this.clocks = clocks;
    this.frozen = false;
    this.at = this.now();
    this.tick();
    const running = clocks && Object.values(clocks).some((c) => c.running);
    if (running && !this.timer) this.timer = setInterval(() => this.tick(), 100);
    if (!running && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  tick() {
    if (!this.clocks || this.frozen) return;
    const elapsed = this.now() - this.at;
    for (const [seat, clock] of Object.entries(this.clocks)) {
      this.paint(seat, clockAt(clock, elapsed));
    }
  }
}
