/* The pit console: the tables of the pits shown come drawn from /floor/, and each tile is kept
   current from its table's notices alone (live.js, a pit socket per pit shown), as the
   surveillance wall keeps its tiles. A notice carries the parts of the table state its command
   changed (table, shoe, round, markers, seats): the tile keeps the fields of them it shows (its
   data-state, pit.console.tile_state) and shows or hides each of its parts by the same rules as
   the server (#shown-when: pit.console.SHOWN_WHEN). A tile is read again
   (/floor/tables/<id>/tile/, one table) only when a notice cannot say what changed: a gap in the
   table's sequence, a hello that differs (changes missed while away), a notice without its
   change, or a change of what the notice does not carry (rules, limits, the deck schedule, a
   notice surveillance acknowledged). A wager or a card that changes nothing shown costs nothing.
   The alerts panel (alerts.js) is told of an alert raised or acknowledged in these pits by the
   same sockets, the refusals strip (console_refusals.js) of a dealer's refusal kept, and each
   pit's panels that other apps draw (panels.js: players' ratings) that one changed; the strip
   and the panels are read again too when a socket comes back or a table's changes were
   missed. Buttons POST one API command each through http.js (its own Idempotency-Key), or
   the pit's own URL (data-url: the deck-change schedule), with the fields they name
   (data-fields, read from the tile; data-body for fixed ones), and show a refusal in the server's
   words; an API command's answer is put on its tile as its notice would be, another answer
   reads the tile. */
"use strict";

(function () {
  const floor = document.getElementById("floor");
  const config = JSON.parse(document.getElementById("shown-when").textContent);
  const WHEN = config.when;
  const ACTIVE = new Set(config.active_rounds);
  const STATUS = config.status_labels;
  const inFlight = new Set();  // tables whose tile is being read
  const again = new Set();     // tables that changed again meanwhile
  let busy = false;

  const tileOf = (id) => floor.querySelector(`.tile[data-table="${id}"]`);

  function showError(message) {
    const box = document.getElementById("error");
    box.hidden = !message;
    box.textContent = message || "";
  }

  /* The facts SHOWN_WHEN asks about (pit.console.facts derives them the same way). */
  function facts(state) {
    const shoe = state.shoe, game = state.round;
    let needs = null;
    if (shoe && shoe.state === "inspected") needs = "verify_inspection";
    else if (shoe && shoe.state === "shuffled" && shoe.needs_shuffle_verification) needs = "verify_shuffle";
    const found = {
      status: state.status,
      shoe: shoe ? shoe.state : null,
      round: game ? game.state : null,
      needs,
      curator: state.curator_seat !== null && state.curator_seat !== undefined,
      decks_due: Boolean(state.decks_due),
      cut_card: Boolean(shoe && shoe.cut_card_round),
      markers: state.markers.count > 0,
    };
    found.attention = Boolean(needs || found.decks_due || found.cut_card || found.markers);
    return found;
  }

  function shows(part, known) {
    return Object.entries(WHEN[part]).every(([fact, values]) => values.includes(known[fact]));
  }

  const set = (tile, field, text) => {
    tile.querySelectorAll(`[data-field="${field}"]`).forEach((el) => { el.textContent = text; });
  };

  /* Draw the tile's changing fields and parts from its state. */
  function draw(tile, state) {
    const known = facts(state);
    tile.dataset.state = JSON.stringify(state);
    tile.classList.toggle("open", state.status === "open");
    tile.classList.toggle("closed", state.status === "closed");
    tile.classList.toggle("attention", shows("attention", known));
    const badge = tile.querySelector('[data-field="status"]');
    badge.className = `badge ${state.status}`;
    badge.textContent = STATUS[state.status] || state.status;
    const shoe = state.shoe, game = state.round;
    set(tile, "shoe", shoe ? `${shoe.number} · ${shoe.state_label}` : "none");
    set(tile, "round", game ? `${game.number} · ${game.state_label}` : "—");
    set(tile, "round_number", game ? String(game.number) : "");
    const m = state.markers;
    set(tile, "markers", m.count ? `${m.count} open · $${m.total}` : "none");
    set(tile, "markers_count", String(m.count));
    set(tile, "cut_card_round", shoe && shoe.cut_card_round ? String(shoe.cut_card_round) : "");
    tile.querySelectorAll("[data-when]").forEach((el) => { el.hidden = !shows(el.dataset.when, known); });
    drawPlayers(tile, state.players || []);
    const seats = tile.querySelector('select[data-field="seated"]');
    if (seats) {
      const now = [...seats.options].map((o) => Number(o.value));
      const chosen = seats.value;
      if (now.join() !== state.seated.join()) {
        seats.replaceChildren(...state.seated.map((n) => new Option(String(n), String(n))));
        seats.value = chosen;
      }
      // The player-dealer's seat is the one the list starts at, as the server draws it; a
      // supervisor's choice stays until the position moves.
      const pd = state.player_dealer_seat === null || state.player_dealer_seat === undefined
        ? "" : String(state.player_dealer_seat);
      for (const option of seats.options) option.defaultSelected = option.value === pd;
      if (seats.dataset.pd !== pd || !seats.value) {
        seats.dataset.pd = pd;
        if (pd) seats.value = pd;
      }
    }
  }

  /* Who sits where, in the seating form's list of seats (the server writes it alike). */
  const who = (s) => (s.player && s.card ? `${s.player} (card ${s.card})` : s.player || `card ${s.card}`);
  function drawPlayers(tile, players) {
    const list = tile.querySelector('select[data-field="players"]');
    if (!list) return;
    const seated = new Map(players.map((s) => [String(s.number), who(s)]));
    for (const option of list.options) option.textContent = `${option.value} · ${seated.get(option.value) || "empty"}`;
  }

  function cents(amount) {
    const [whole, fraction = ""] = String(amount).split(".");
    return Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
  }

  /* The tile's state with a command's change put in place. */
  function patched(state, change) {
    const next = { ...state };
    const sent = new Set([...(change.changed || []), ...(change.patched || [])]);
    if (sent.has("table")) {
      next.status = change.table.status;
      next.curator_seat = change.table.curator_seat;
      next.player_dealer_seat = change.table.player_dealer_seat;
    }
    if (sent.has("shoe")) {
      const s = change.shoe;
      next.shoe = s ? {
        number: s.number, state: s.state, state_label: s.state_label, cut_card_round: s.cut_card_round,
        needs_shuffle_verification: s.needs_shuffle_verification,
      } : null;
    }
    if (sent.has("round")) {
      const r = change.round;
      next.round = r && ACTIVE.has(r.state) ? { number: r.number, state: r.state, state_label: r.state_label } : null;
    }
    if (sent.has("markers")) {
      const total = change.markers.reduce((sum, marker) => sum + cents(marker.amount), 0);
      next.markers = {
        count: change.markers.length,
        total: `${Math.floor(total / 100)}.${String(total % 100).padStart(2, "0")}`,
      };
    }
    if (sent.has("seats")) {
      next.players = change.seats.filter((s) => s.player || s.card)
        .map((s) => ({ number: s.number, player: s.player, card: s.card ?? null }));
      next.seated = next.players.map((s) => s.number);
    }
    return next;
  }

  // What a notice may change on a tile that it does not carry: the tile is read again. Its
  // events say so by the page's map of event kinds (Live.touches): the rules (their title and
  // helps), the procedure notices the tile lists, the number of seats.
  const NOT_CARRIED = new Set(["rules", "limits", "deck_change"]);
  const READ_AFTER = { changes: ["rules"], also: ["notices", "seat_count"] };

  /* Put a notice's change on its tile; false when only a fresh read can say what it shows. */
  function patch(id, detail) {
    const tile = tileOf(id);
    const change = detail.change;
    if (!tile || !change || !change.events) return false;
    if (Number(tile.dataset.sequence) >= detail.sequence) return true;  // shown already
    const sent = [...(change.changed || []), ...(change.patched || [])];
    if (sent.some((name) => NOT_CARRIED.has(name))) return false;
    if (window.Live.touches(change.events, READ_AFTER)) return false;
    draw(tile, patched(JSON.parse(tile.dataset.state), change));
    tile.dataset.sequence = String(detail.sequence);
    return true;
  }

  // What a supervisor has open (each part by its data-key) or typed in a tile, so that a fresh
  // read does not lose it.
  function keep(tile) {
    const values = {};
    tile.querySelectorAll("input[name], select[name]").forEach((f) => { values[f.name] = f.value; });
    const open = [...tile.querySelectorAll("details[open]")].map((d) => d.dataset.key);
    return { open, values };
  }

  function restore(tile, was) {
    tile.querySelectorAll("details[data-key]").forEach((d) => { if (was.open.includes(d.dataset.key)) d.open = true; });
    tile.querySelectorAll("input[name], select[name]").forEach((f) => {
      if (was.values[f.name] !== undefined) f.value = was.values[f.name];
    });
  }

  async function read(id) {
    const tile = tileOf(id);
    if (!tile) return;
    if (inFlight.has(id)) { again.add(id); return; }
    inFlight.add(id);
    try {
      const answer = await Http.getText(tile.dataset.url);
      if (answer.loggedOut) { window.location.assign("/login/"); return; }
      if (!answer.ok) return;
      const holder = document.createElement("template");
      holder.innerHTML = answer.data.trim();
      const fresh = holder.content.querySelector(".tile");
      const current = tileOf(id);
      if (!fresh || !current) return;
      // A notice put a newer state on the tile while this read was on its way: keep it.
      if (Number(fresh.dataset.sequence) < Number(current.dataset.sequence)) return;
      const was = keep(current);
      current.replaceWith(fresh);
      restore(fresh, was);
    } finally {
      inFlight.delete(id);
      if (again.delete(id)) read(id);
    }
  }

  /* A command of this console answered: its answer is the change its notice will carry (the
     API's), put in place at once; another answer (the pit's own URLs) reads the tile. */
  function shown(id, data) {
    const events = data && data.events;
    const tile = tileOf(id);
    if (!tile || !events || !events.length) return read(id);
    if (events[0].sequence !== Number(tile.dataset.sequence) + 1) return read(id);
    if (!patch(id, { sequence: data.sequence, change: data })) read(id);
  }

  function onChange(id, detail) {
    if (detail.reason !== "changed") caughtUp(tileOf(Number(id)));
    if (detail.reason === "changed" && patch(Number(id), detail)) return;
    read(Number(id));
  }

  /* Changes missed (a hello that differs, a gap): what the notices of the pit's panels and
     refusals said meanwhile may be lost too; they are read again. */
  function caughtUp(tile) {
    const pit = tile && tile.closest(".pit");
    if (pit && window.Panels) window.Panels.readAll(Number(pit.dataset.pit));
    if (window.Refusals) window.Refusals.load();
  }

  function bodyOf(button, tile) {
    const body = button.dataset.body ? JSON.parse(button.dataset.body) : {};
    (button.dataset.fields || "").split(",").filter(Boolean).forEach((name) => {
      const field = tile.querySelector(`[name="${name}"]`);
      if (!field) return;
      body[name] = name === "seat" ? Number(field.value) : field.value;
    });
    return body;
  }

  function clearTyped(tile) {
    tile.querySelectorAll("details input[name]").forEach((f) => { f.value = ""; });
  }

  floor.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-route], button[data-url]");
    if (!button || busy) return;
    const tile = button.closest("[data-table]");
    busy = true;
    button.disabled = true;
    try {
      const url = button.dataset.url || `/api/tables/${tile.dataset.table}/${button.dataset.route}`;
      const answer = await Http.post(url, bodyOf(button, tile));
      showError(answer.error);
      if (answer.ok) {
        clearTyped(tile);
        shown(Number(tile.dataset.table), answer.data);
      }
    } finally {
      busy = false;
      button.disabled = false;
    }
  });

  floor.querySelectorAll(".tile").forEach((tile) => draw(tile, JSON.parse(tile.dataset.state)));
  const known = {};
  floor.querySelectorAll(".tile").forEach((tile) => { known[tile.dataset.table] = Number(tile.dataset.sequence); });
  const pits = floor.dataset.pits ? floor.dataset.pits.split(",").map(Number) : [];
  const onNotice = (message) => {
    if (message.type === "alert" && window.Alerts) window.Alerts.load();
    if (message.type === "refused" && window.Refusals) window.Refusals.load();
    if (message.type === "panel" && window.Panels) window.Panels.changed(message);
  };
  // "Live" while every pit's socket is open; otherwise the console says it is catching up
  // (each socket reconnects by itself, and its hello reads the tiles that changed meanwhile).
  const status = document.getElementById("live-status");
  const open = new Set();
  const lost = new Set();  // pits whose socket closed: read their panels and refusals on return
  function onStatus(pit, state) {
    if (state === "open") open.add(pit);
    else open.delete(pit);
    if (state === "closed") lost.add(pit);
    if (state === "open" && lost.delete(pit)) {
      if (window.Panels) window.Panels.readAll(pit);
      if (window.Refusals) window.Refusals.load();
    }
    const live = open.size === pits.length;
    status.textContent = live ? "Live" : state === "refused" ? "Logged out: log in again." : "Reconnecting…";
    status.className = `live-status ${live ? "live" : "down"}`;
  }
  if (!pits.length) status.hidden = true;
  pits.forEach((pit) => {
    const sequences = {};
    floor.querySelectorAll(`.pit[data-pit="${pit}"] .tile`).forEach((tile) => { sequences[tile.dataset.table] = known[tile.dataset.table]; });
    window.Live.watchPit(pit, onChange, { sequences, onNotice, onStatus: (state) => onStatus(pit, state) });
  });
})();
