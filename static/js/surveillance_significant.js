/* The wall's significant events (issue 30, game protection): the strip
   (templates/surveillance/_significant.html, read from the database with the page) takes the
   new ones live, and each table's tile is marked with its newest, the words and the time.
   Which events count is the server's to say: the page embeds the list (#significant-kinds,
   {% significant_kinds %}: tablegame.kinds.SIGNIFICANT, with the field that must hold, and the
   refusal kinds kept). From the surveillance socket (Live.watchSurveillance, a watcher of its
   own on the wall's socket): a command's notice whose events include one, and a dealer's refusal
   kept ({"type": "refused"}, tablegame.refusals). A hello that differs or a gap reads the strip
   again (/surveillance/significant/?partial=1), as does a poll every 15 s without live.js. */
"use strict";

(function () {
  const wall = document.getElementById("wall");
  const embedded = document.getElementById("significant-kinds");
  if (!wall || !embedded || !document.getElementById("significant")) return;
  const KINDS = JSON.parse(embedded.textContent);
  const SHOWN = 12;  // surveillance.significant.ON_THE_WALL
  const POLL_EVERY = 15000;

  const strip = () => document.getElementById("significant");

  function node(tag, cls, text) {
    const made = document.createElement(tag);
    if (cls) made.className = cls;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  /* The time in the table's casino's zone, as the server writes it (HH:MM:SS). */
  function clock(date, table) {
    const holder = document.getElementById("significant-zones");
    const zone = holder ? JSON.parse(holder.textContent)[table] : undefined;
    try {
      return date.toLocaleTimeString("en-GB", { timeZone: zone, hour12: false });
    } catch (error) {  // a zone the browser does not know: its own
      return date.toLocaleTimeString("en-GB", { hour12: false });
    }
  }

  function item({ table, tableName, label, words, who, at, roundId, roundNumber, refused, kind }) {
    const li = node("li", `sig-item${refused ? " refused" : ""}`);
    li.dataset.table = String(table);
    li.dataset.kind = kind;
    const time = node("time", "", clock(at, table));
    time.dateTime = at.toISOString();
    li.append(time, " ", node("b", "sig-table", tableName), " ",
      node("span", "sig-label", refused ? `${label} (refused)` : label), " ",
      node("span", "sig-words", words));
    if (who) li.append(" ", node("span", "sig-who", who));
    if (roundId) {
      const link = node("a", "", `round ${roundNumber}`);
      link.href = `/rounds/${roundId}/?back=/surveillance/`;
      li.append(" ", link);
    }
    return li;
  }

  function add(li) {
    const list = document.getElementById("sig-list");
    list.prepend(li);
    while (list.children.length > SHOWN) list.lastElementChild.remove();
    strip().querySelector(".sig-none").hidden = true;
    strip().classList.remove("flash");
    void strip().offsetWidth;  // start the flash again
    strip().classList.add("flash");
    markTiles();
  }

  /* Each tile shows the newest significant event of its table the strip holds. */
  function markTiles() {
    const newest = new Map();
    for (const li of document.querySelectorAll("#sig-list .sig-item")) {
      if (!newest.has(li.dataset.table)) newest.set(li.dataset.table, li);
    }
    for (const tile of wall.querySelectorAll(".stile")) {
      const li = newest.get(tile.dataset.table);
      let mark = tile.querySelector(".sig-mark");
      if (!li) {
        if (mark) mark.remove();
        continue;
      }
      if (!mark) {
        mark = node("p", "sig-mark");
        mark.setAttribute("role", "status");
        tile.querySelector("footer").before(mark);
      }
      const time = li.querySelector("time");
      mark.replaceChildren(node("time", "", time.textContent), " ",
        node("b", "", li.querySelector(".sig-label").textContent), ": ",
        li.querySelector(".sig-words").textContent);
      mark.querySelector("time").dateTime = time.dateTime;
    }
  }

  let reading = false;
  async function readAgain() {
    if (reading) return;
    reading = true;
    try {
      const answer = await Http.getText(strip().dataset.url);
      if (!answer.ok) return;
      const holder = document.createElement("template");
      holder.innerHTML = answer.data.trim();
      const fresh = holder.content.firstElementChild;
      if (fresh) strip().replaceWith(fresh);
      markTiles();
    } finally {
      reading = false;
    }
  }

  function counts(event) {
    if (!Object.prototype.hasOwnProperty.call(KINDS.events, event.action)) return false;
    const field = KINDS.events[event.action];
    return field === null || Boolean(event.data && event.data[field]);
  }

  function tableName(id) {
    const title = document.querySelector(`#table-${id} h2`);
    return title ? title.textContent : `Table ${id}`;
  }

  function changed(tableId, detail) {
    if (detail.reason !== "changed") return readAgain();
    const change = detail.change;
    if (!change || !change.events) return undefined;
    for (const event of change.events.filter(counts)) {
      const round = change.round && event.data && change.round.number === event.data.round
        ? change.round : null;
      add(item({
        table: tableId, tableName: tableName(tableId), label: event.title, words: event.text,
        who: "", at: new Date(), roundId: round && round.id, roundNumber: round && round.number,
        refused: false, kind: event.action,
      }));
    }
    return undefined;
  }

  function refused(message) {
    if (message.type !== "refused") return;
    add(item({
      table: message.table, tableName: message.table_name,
      label: KINDS.refusals[message.kind] || message.label, words: message.words,
      who: message.who, at: new Date(message.at), roundId: message.round_id,
      roundNumber: message.round, refused: true, kind: message.kind,
    }));
  }

  markTiles();
  // The wall's script replaces a tile it reads again: mark the new one.
  new MutationObserver(markTiles).observe(wall, { childList: true });
  if (window.Live && window.Live.watchSurveillance) {
    const sequences = {};
    for (const tile of wall.querySelectorAll(".stile")) {
      sequences[tile.dataset.table] = Number(tile.dataset.sequence);
    }
    window.Live.watchSurveillance(changed, { sequences, onNotice: refused });
  } else {
    setInterval(readAgain, POLL_EVERY);
  }
})();
