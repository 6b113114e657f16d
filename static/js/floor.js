/* The pit console: the tables come rendered from /floor/; a table notice (live.js) of a change
   the console shows, a gap, or the slow poll re-fetches /floor/?partial=1 (keeping a
   supervisor's open form and what was typed in it), at most once a second however many tables
   change. A wager, a player-dealer's bank, or a card that leaves the round being dealt changes
   nothing the console shows (it shows no cards or wagers): it fetches nothing. Buttons POST one
   API command each through http.js (its own Idempotency-Key), or the pit's own URL (data-url:
   the deck-change schedule), with the fields they name (data-fields, read from the tile;
   data-body for fixed ones) and show a refusal in the server's words. */
"use strict";

(function () {
  const floor = document.getElementById("floor");
  let busy = false;

  function showError(message) {
    const box = document.getElementById("error");
    box.hidden = !message;
    box.textContent = message || "";
  }

  // What a supervisor has open or typed, by table, so that a reload does not lose it.
  function keep() {
    const kept = {};
    floor.querySelectorAll("[data-table]").forEach((tile) => {
      const open = tile.querySelector("details[open]");
      const values = {};
      tile.querySelectorAll("input[name], select[name]").forEach((f) => { values[f.name] = f.value; });
      kept[tile.dataset.table] = { open: Boolean(open), values };
    });
    return kept;
  }

  function restore(kept) {
    floor.querySelectorAll("[data-table]").forEach((tile) => {
      const was = kept[tile.dataset.table];
      if (!was) return;
      const details = tile.querySelector("details");
      if (details && was.open) details.open = true;
      tile.querySelectorAll("input[name], select[name]").forEach((f) => {
        if (was.values[f.name] !== undefined) f.value = was.values[f.name];
      });
    });
  }

  async function reload() {
    const answer = await Http.getText("/floor/?partial=1");
    if (!answer.ok) return;
    const kept = keep();
    floor.innerHTML = answer.data;
    restore(kept);
  }

  // Several tables can change at once (a hello, the safety refresh, a busy pit): one reload a
  // second serves them all.
  const EVERY = 1000;
  let pending = null;
  let last = 0;
  function refresh() {
    if (pending) return;
    const wait = Math.max(0, last + EVERY - Date.now());
    pending = setTimeout(() => { pending = null; last = Date.now(); reload(); }, wait);
  }

  // Changes the console does not show (it shows each round's number and state, not its wagers
  // or cards).
  const UNSEEN = new Set(["wager_placed", "wager_changed", "wager_withdrawn", "player_dealer_bank"]);

  function shows(detail) {
    return window.Live.matters(detail, (e, change) => {
      if (e.action === "card_dealt") return !change.round || change.round.state !== "dealing";
      return !UNSEEN.has(e.action);
    });
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
      if (answer.ok) clearTyped(tile);
    } finally {
      busy = false;
      await reload();
    }
  });

  const pits = floor.dataset.pits ? floor.dataset.pits.split(",").map(Number) : [];
  if (window.Live && window.Live.watchPit) {
    pits.forEach((pit) => window.Live.watchPit(pit, (table, detail) => {
      if (shows(detail)) refresh();
    }));
  } else {
    setInterval(() => { if (!busy) refresh(); }, 5000);
  }
})();
