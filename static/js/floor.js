/* The pit console: the tables come rendered from /floor/; a table notice (live.js), a gap, or
   the slow poll re-fetches /floor/?partial=1. Buttons POST one API command each through http.js
   (its own Idempotency-Key) and show a refusal in the server's words. */
"use strict";

(function () {
  const floor = document.getElementById("floor");
  let busy = false;

  function showError(message) {
    const box = document.getElementById("error");
    box.hidden = !message;
    box.textContent = message || "";
  }

  async function reload() {
    const answer = await Http.getText("/floor/?partial=1");
    if (answer.ok) floor.innerHTML = answer.data;
  }

  // Several tables can change at once (a hello, the safety refresh): one reload serves them all.
  let pending = null;
  function refresh() {
    if (!pending) pending = setTimeout(() => { pending = null; reload(); }, 250);
  }

  floor.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-route]");
    if (!button || busy) return;
    const tile = button.closest("[data-table]");
    busy = true;
    button.disabled = true;
    try {
      const answer = await Http.post(`/api/tables/${tile.dataset.table}/${button.dataset.route}`);
      showError(answer.error);
    } finally {
      busy = false;
      await reload();
    }
  });

  const pits = floor.dataset.pits ? floor.dataset.pits.split(",").map(Number) : [];
  if (window.Live && window.Live.watchPit) pits.forEach((pit) => window.Live.watchPit(pit, refresh));
  else setInterval(() => { if (!busy) refresh(); }, 5000);
})();
