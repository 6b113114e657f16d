/* One table's progressive meters on its display or tablet (templates/pit/_progressive_strip.html):
   fetched from /progressives/tables/<id>.json once, then again when the table changes its meters
   (a settlement, a hit, a reset, a payment, new parameters; or a gap or reconnect), and every few
   seconds only while the table has a must-hit meter (shared with other tables, it grows with
   their rounds too). A wager or a card fetches nothing: a floor of hundreds of screens must not
   fetch for nothing. Must-hit wins waiting to be paid are shown: the first "Pay now", the
   others "pending". */
"use strict";

(function () {
  const strip = document.querySelector(".progressive-strip[data-progressive-table]");
  if (!strip) return;
  const POLL = 5000;

  function money(text) {
    const n = Number(text);
    return "$" + n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }

  function meter(name, amount, kind) {
    const box = document.createElement("span");
    box.className = `ps-meter ps-${kind}`;
    const label = document.createElement("span");
    label.className = "ps-name";
    label.textContent = name;
    const value = document.createElement("span");
    value.className = "ps-amount";
    value.textContent = money(amount);
    box.append(label, value);
    return box;
  }

  function draw(data) {
    const parts = [];
    data.royal9.forEach((m) => parts.push(meter(m.name, m.amount, "royal9")));
    data.must_hit.forEach((m) => parts.push(meter(m.name, m.amount, "must-hit")));
    data.pending.forEach((win, i) => {
      const line = document.createElement("span");
      line.className = "ps-pending" + (i === 0 ? " ps-due" : "");
      line.dataset.win = win.id;
      const state = i === 0 ? "pay now" : "pending";
      line.textContent = `${win.meter} won: ${win.table} seat ${win.seat}, ${money(win.amount)} (${state})`;
      parts.push(line);
    });
    strip.replaceChildren(...parts);
    strip.hidden = parts.length === 0;
  }

  // Changes that move a meter or a win.
  const METERED = new Set([
    "round_settled", "progressive_hit", "progressive_contributed", "progressive_reset",
    "progressive_parameters", "must_hit_won", "must_hit_paid", "must_hit_linked",
  ]);
  let poller = null;

  async function refresh() {
    const answer = await Http.getJSON(strip.dataset.url);
    if (!answer.ok) return;
    draw(answer.data);
    const shared = answer.data.must_hit.length > 0;
    if (shared && poller === null) poller = window.setInterval(refresh, POLL);
    if (!shared && poller !== null) { window.clearInterval(poller); poller = null; }
  }

  function moves(detail) {
    return window.Live.matters(detail, (e) => METERED.has(e.action));
  }

  function start() {
    refresh();
    if (window.Live && window.Live.watch) {
      window.Live.watch(Number(strip.dataset.progressiveTable), (table, detail) => {
        if (moves(detail)) refresh();
      }, { refreshEvery: 0 });
    }
  }

  // After every deferred script of the page (http.js and live.js may come after this one).
  document.addEventListener("DOMContentLoaded", start);
})();
