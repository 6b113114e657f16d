/* The surveillance wall: every table's tile comes rendered from /surveillance/. A command's
   notice carries the change itself (the round's cards, totals, state, wagers and result, the
   shoe's count, the markers, the table's status): through a whole round, from "place your bets"
   to its settlement, and a shoe's procedure from its inspection to its burn, the tile is updated
   in place from it, as the server draws it (templates/surveillance/_tile.html), with no request.
   New decks or a shoe's end, an irregularity or a simulated round, a gap or a reconnect reads
   that tile again
   (/surveillance/tables/<id>/tile/, an HTML fragment). Notices come from
   live.js (Live.watchSurveillance). Without live.js, or while its socket is down, the page polls
   /surveillance/sequences/ every 5 s and re-fetches the tiles whose last event number moved.
   A table's alerts (game protection's marks) come as their own notice, and the tile is read
   again. Requests go through http.js. */
"use strict";

(function () {
  const wall = document.getElementById("wall");
  const status = document.getElementById("live-status");
  const POLL_EVERY = 5000;
  const inFlight = new Set();  // tables being fetched
  const again = new Set();     // tables that changed again while being fetched
  let pollTimer = null;
  let polling = false;

  const tileOf = (id) => document.getElementById(`table-${id}`);

  function say(text, kind) {
    status.textContent = text;
    status.className = `live-status ${kind}`;
  }

  function known() {
    const sequences = {};
    for (const tile of wall.querySelectorAll(".stile")) {
      sequences[tile.dataset.table] = Number(tile.dataset.sequence);
    }
    return sequences;
  }

  async function refetch(id) {
    const tile = tileOf(id);
    if (!tile) return reloadPage();  // a table the page does not show yet
    if (inFlight.has(id)) { again.add(id); return; }
    inFlight.add(id);
    try {
      const answer = await Http.getText(tile.dataset.url);
      if (answer.loggedOut) {
        say("Logged out: log in again to keep watching.", "down");
        return;
      }
      if (answer.status === 0) {
        say("No answer from the server: retrying.", "down");
        return;
      }
      if (!answer.ok) return;
      const holder = document.createElement("template");
      holder.innerHTML = answer.data.trim();
      const fresh = holder.content.firstElementChild;
      const current = tileOf(id);
      if (!fresh || !current) return;
      // A notice put newer cards on the tile while this read was on its way: keep them.
      if (Number(fresh.dataset.sequence) < Number(current.dataset.sequence)) return;
      const changed = fresh.dataset.sequence !== current.dataset.sequence;
      current.replaceWith(fresh);
      if (changed) fresh.classList.add("flash");
    } finally {
      inFlight.delete(id);
      if (again.delete(id)) refetch(id);
    }
  }

  // Changes the tile cannot show from the notice alone, by the page's map of event kinds
  // (Live.touches): the rules, limits or deck schedule (new decks, a shoe's end), the notices,
  // the seats, or its make-up (the table closed, a respread, a corrected card, an irregularity,
  // the meters set up or paid). Any other change carries the round, the shoe, the markers and
  // the table as the tile shows them (or changes nothing it shows).
  const READ_AFTER = {
    changes: ["rules", "limits", "deck_change"], also: ["notices", "seat_count", "layout"],
  };
  // Each suit's symbol by its letter, as the page embeds it ({% labels %}: baccarat.cards).
  const SUITS = JSON.parse(document.getElementById("labels").textContent).suits;

  function node(tag, cls, text) {
    const made = document.createElement(tag);
    if (cls) made.className = cls;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function face(code, position) {
    const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
    const suit = code.slice(-1);
    const card = node("span", `pc${suit === "H" || suit === "D" ? " red" : ""}`, rank + (SUITS[suit] || suit));
    card.title = `card ${position}`;
    return card;
  }

  function cents(amount) {
    const [whole, fraction = ""] = String(amount).split(".");
    return Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
  }

  function money(total) {
    return `${Math.floor(total / 100)}.${String(total % 100).padStart(2, "0")}`;
  }

  function hand(name, codes, cards, total) {
    const box = node("div", `hand ${name}`);
    box.append(node("span", "hand-name", name === "player" ? "Player" : "Banker"));
    if (total !== null && total !== undefined) box.append(node("span", "total", String(total)));
    const row = node("div", "cards");
    const positions = cards.filter((c) => c.hand === name).map((c) => c.position);
    codes.forEach((code, i) => row.append(face(code, positions[i])));
    if (!codes.length) row.append(node("span", "pc none", "\u2014"));
    box.append(row);
    return box;
  }

  /* The line under the layout: the round's announcement, why it was void, or the last result. */
  function drawResult(tile, game) {
    if (game.announcement) tile.dataset.last = `Round ${game.number}: ${game.announcement}`;
    let result = tile.querySelector('[data-field="result"]');
    const last = tile.dataset.last;
    if (!game.announcement && !game.void_reason && !last) {
      if (result) result.remove();
      return;
    }
    if (!result) {
      result = node("p", "result");
      result.dataset.field = "result";
      tile.querySelector(".note, .irregular, .markers, footer").before(result);
    }
    if (game.announcement) result.replaceChildren(game.announcement);
    else if (game.void_reason) result.replaceChildren(`Void: ${game.void_reason}`);
    else result.replaceChildren(node("span", "muted", "Last:"), ` ${last}`);
  }

  function drawRound(tile, game) {
    const roundField = tile.querySelector('[data-field="round"]');
    const layout = tile.querySelector(".layout");
    const review = tile.querySelector('[data-field="review"]');
    if (!roundField || !layout || !review) return false;  // the tile showed no round: draw it whole
    if (tile.querySelector(".irregular")) return false;  // whose irregularities stay: read it
    roundField.textContent = `${game.number} \u00b7 ${game.state_label}${game.simulated ? " (simulated)" : ""}`;
    if (game.wagers) {
      const total = game.wagers.reduce((sum, w) => sum + cents(w.amount), 0);
      const count = game.wagers.length;
      tile.querySelector('[data-field="wagers"]').textContent =
        `$${money(total)}${count ? ` \u00b7 ${count} wager${count === 1 ? "" : "s"}` : ""}`;
    }
    layout.replaceChildren(
      hand("player", game.player, game.cards, game.player_total),
      hand("banker", game.banker, game.cards, game.banker_total),
    );
    drawResult(tile, game);
    const link = new URL(review.href);  // /rounds/<id>/?back=/surveillance/: the path changes
    link.pathname = link.pathname.replace(/rounds\/\d+\/$/, `rounds/${game.id}/`);
    review.href = link.href;
    review.textContent = `Review round ${game.number}`;
    return true;
  }

  function drawShoe(tile, shoe) {
    const shoeField = tile.querySelector('[data-field="shoe"]');
    if (!shoeField) return;
    shoeField.replaceChildren(
      `${shoe.number}${shoe.state !== "in_play" ? ` \u00b7 ${shoe.state_label}` : ""} \u00b7 ${shoe.cards_left} cards left`,
    );
    if (shoe.cut_card_round) shoeField.append(" \u00b7 ", node("b", "", "cut card out"));
    if (!shoe.held_card) tile.querySelector(".note")?.remove();
  }

  function drawMarkers(tile, markers) {
    let line = tile.querySelector('[data-field="markers"]');
    if (!markers.length) {
      if (line) line.remove();
      return;
    }
    if (!line) {
      line = node("p", "markers");
      line.dataset.field = "markers";
      tile.querySelector("footer").before(line);
    }
    line.replaceChildren(node("b", "", "Markers open:"),
      ` ${markers.map((m) => `seat ${m.seat} $${m.amount}`).join(", ")}`);
  }

  /* Put a change on its tile; false when the tile cannot take it (then it is read again). */
  function patch(id, detail) {
    const change = detail.change;
    const tile = tileOf(id);
    if (!tile || !change || Number(tile.dataset.sequence) + change.events.length !== detail.sequence) {
      return false;
    }
    if (window.Live.touches(change.events, READ_AFTER)) return false;
    if (change.shoe && change.shoe.held_card && !tile.querySelector(".note")) return false;
    if (change.round && (change.round.irregularities || []).length) return false;
    if (change.round && change.round.simulated) return false;  // and the round it interrupted
    if (change.round && !drawRound(tile, change.round)) return false;
    if (change.shoe) drawShoe(tile, change.shoe);
    if (change.markers) drawMarkers(tile, change.markers);
    if (change.table) {
      const badge = tile.querySelector(".badge");
      tile.classList.toggle("open", change.table.status === "open");
      tile.classList.toggle("closed", change.table.status === "closed");
      badge.className = `badge ${change.table.status}`;
      badge.textContent = change.table.status === "open" ? "Open" : "Closed";
    }
    tile.dataset.sequence = String(detail.sequence);
    tile.classList.remove("flash");
    void tile.offsetWidth;  // start the flash again
    tile.classList.add("flash");
    return true;
  }

  let reloading = false;
  function reloadPage() {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  }

  async function poll() {
    const answer = await Http.getJSON(wall.dataset.sequencesUrl);
    if (answer.status === 0) return say("No answer from the server: retrying.", "down");
    if (answer.loggedOut) return say("Logged out: log in again to keep watching.", "down");
    if (!answer.ok) return say(`Polling: the server answered ${answer.status}.`, "down");
    const shown = known();
    for (const [id, sequence] of Object.entries(answer.data.tables)) {
      if (shown[id] === undefined) return reloadPage();
      if (shown[id] !== sequence) refetch(Number(id));
    }
    if (polling) say(`Polling every ${POLL_EVERY / 1000} s · checked ${new Date().toLocaleTimeString()}`, "polling");
  }

  function startPolling() {
    polling = true;
    if (pollTimer === null) {
      pollTimer = setInterval(poll, POLL_EVERY);
      poll();
    }
  }

  function stopPolling() {
    polling = false;
    if (pollTimer !== null) clearInterval(pollTimer);
    pollTimer = null;
  }

  /* Marks (game protection's alerts, tablegame.marks) are no events of a table: a "mark" notice
     says a table's changed, and the tile is read again; every half minute the wall compares its
     tiles' marks with the server's (/surveillance/marks/), in case such a notice was lost. */
  const MARKS_EVERY = 30000;
  async function checkMarks() {
    const answer = await Http.getJSON(wall.dataset.marksUrl);
    if (!answer.ok) return;
    const now = answer.data.tables;
    for (const tile of wall.querySelectorAll(".stile")) {
      if ((tile.dataset.marks || "") !== (now[tile.dataset.table] || "")) refetch(Number(tile.dataset.table));
    }
  }
  setInterval(checkMarks, MARKS_EVERY);

  if (window.Live && window.Live.watchSurveillance) {
    say("Connecting…", "");
    window.Live.watchSurveillance(
      (tableId, detail = {}) => {
        if (!(detail.reason === "changed" && patch(Number(tableId), detail))) refetch(Number(tableId));
      },
      {
        sequences: known(),
        onNotice(message) {
          if (message.type === "mark") refetch(Number(message.table));
        },
        onStatus(state, code) {
          if (state === "open") {
            stopPolling();
            say("Live", "live");
          } else if (state === "refused" && code === 4401) {
            say("Logged out: log in again to keep watching.", "down");
          } else {
            startPolling();  // until the socket is back
          }
        },
      },
    );
  } else {
    startPolling();
    say(`Polling every ${POLL_EVERY / 1000} s`, "polling");
  }
})();
