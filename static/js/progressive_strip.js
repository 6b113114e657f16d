/* One table's progressive meters on its display or tablet (templates/progressives/_strip.html):
   read from /tables/<id>/progressives.json once where the table has progressives, then kept from
   the table's notices: a settlement's progressive_contributed event carries each meter's new
   amount, progressive_reset the amount a meter starts again from; a must-hit meter shared with
   other tables also moves with their rounds, told on the table's socket as
   {"type": "meter", "meter": "Stax", "amount": "123.45"} (tablegame.broadcast.announce_meter).
   The strip is read again only when a notice cannot say what changed: a win, a payment, a link,
   new parameters ({"type": "meter", "read": true} for a shared meter's), a gap or a hello that
   differs. A wager or a card reads nothing. Must-hit wins waiting to be paid are shown: the
   first "Pay now", the others "pending". */
"use strict";

(function () {
  const strip = document.querySelector(".progressive-strip[data-progressive-table]");
  if (!strip) return;
  const tableId = Number(strip.dataset.progressiveTable);
  let data = null;
  let has = strip.dataset.has === "true";
  // Events whose effect on the strip their notice does not carry (the page's map of event
  // kinds, Live.touches): the strip is read again. The meters' set-up, wins and payments; and
  // the rules: opening the table sets its Royal 9 meters up, rules filed or taking effect may
  // add or drop them.
  const READ_AFTER = { changes: ["rules"], also: ["progressives"] };

  /* "$50,007.50" from "50007.50", without arithmetic on the amount. */
  function money(amount) {
    const [whole, fraction = ""] = String(amount).split(".");
    const sign = whole.startsWith("-") ? "-" : "";
    const digits = whole.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return `${sign}$${digits}.${(fraction + "00").slice(0, 2)}`;
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

  let drawn = "";
  function draw() {
    // Drawn again only when something shown changed: a line on screen stays the same element.
    const shown = JSON.stringify([data.royal9, data.must_hit, data.pending]);
    if (shown === drawn) return;
    drawn = shown;
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

  let reading = false;
  let again = false;
  async function read() {
    if (reading) { again = true; return; }
    reading = true;
    try {
      const answer = await Http.getJSON(strip.dataset.url);
      if (!answer.ok) return;
      data = answer.data;
      has = data.royal9.length > 0 || data.must_hit.length > 0;
      draw();
    } finally {
      reading = false;
      if (again) { again = false; read(); }
    }
  }

  /* A meter's new amount, by the name events give it (Royal 9's in lower case). */
  function setAmount(name, amount) {
    if (!data) return;
    const found = data.royal9.find((m) => m.name.toLowerCase() === name)
      || data.must_hit.find((m) => m.name === name);
    if (found && found.amount !== amount) {
      found.amount = amount;
      draw();
    }
  }

  function onChange(table, detail) {
    const events = detail.change && detail.change.events;
    if (detail.reason !== "changed" || !events) {
      if (has) read();
      return;
    }
    if (window.Live.touches(events, READ_AFTER)) { read(); return; }
    // Meters moved that this page has not read yet (it opened before they were set up): read.
    if (!data && events.some((e) => e.action === "progressive_contributed")) { read(); return; }
    for (const e of events) {
      if (e.action === "progressive_contributed") e.data.meters.forEach((m) => setAmount(m.meter, m.amount));
      else if (e.action === "progressive_reset") setAmount(e.data.meter, e.data.amount);
    }
  }

  function onNotice(message) {
    if (message.type !== "meter") return;
    if (message.read) read();
    else setAmount(message.meter, message.amount);
  }

  function start() {
    // The socket's first hello reads the strip (where the table has progressives): a read made
    // after it misses no notice.
    if (window.Live && window.Live.watch) window.Live.watch(tableId, onChange, { onNotice });
    else if (has) read();
  }

  // After every deferred script of the page (http.js and live.js may come after this one).
  document.addEventListener("DOMContentLoaded", start);
})();
