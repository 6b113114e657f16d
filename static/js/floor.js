/* The pit console: the tables come rendered from /floor/; a table notice (live.js), a gap, or
   the slow poll re-fetches /floor/?partial=1. Buttons POST one API command each with its own
   Idempotency-Key and show a refusal in the server's words. */
"use strict";

(function () {
  const floor = document.getElementById("floor");
  const cookie = (name) => (document.cookie.split("; ").find((c) => c.startsWith(name + "=")) || "")
    .split("=")[1];
  let busy = false;

  function showError(message) {
    const box = document.getElementById("error");
    box.hidden = !message;
    box.textContent = message || "";
  }

  async function reload() {
    const response = await fetch("/floor/?partial=1");
    if (response.ok) floor.innerHTML = await response.text();
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
      const response = await fetch(`/api/tables/${tile.dataset.table}/${button.dataset.route}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-CSRFToken": cookie("csrftoken") || "",
          "Idempotency-Key": crypto.randomUUID ? crypto.randomUUID() : String(Date.now()),
        },
        body: "{}",
      });
      const answer = await response.json().catch(() => ({}));
      showError(response.ok ? null : answer.error || `Refused (${response.status}).`);
    } finally {
      busy = false;
      await reload();
    }
  });

  const pits = floor.dataset.pits ? floor.dataset.pits.split(",").map(Number) : [];
  if (window.Live && window.Live.watchPit) pits.forEach((pit) => window.Live.watchPit(pit, refresh));
  else setInterval(() => { if (!busy) refresh(); }, 5000);
})();
