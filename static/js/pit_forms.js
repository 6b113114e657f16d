/* The Complimentary Vigorish Forms page: each button posts its action (/floor/forms/<command>/)
   with the inputs beside it and the pit, form or marker of its row; a refusal is shown in the
   server's words, anything done reloads the page. Every person acts on their own screen, so the
   register is live: a pit socket notice (live.js, Live.watchPit) that a form changed
   ({"type": "forms"}) or that vigorish was sent to a form or collected at a table, each
   (re)connection of the socket (what changed while it was down is read again from the
   database), and the socket's safety refresh re-fetch the registers (/floor/forms/?partial=1)
   and put them in place, keeping what was typed. A dealer, who does not watch the whole pit,
   watches their own table's socket instead: its forms' changes and its vigorish events come
   there. Only without live.js, or while the socket is down, does the page poll (every 15 s). */
"use strict";

(function () {
  const page = document.getElementById("forms");
  const status = document.getElementById("live-status");
  const POLL_EVERY = 15000;
  // Table events that change the register (vigorish waiting for a form, or no longer), by the
  // page's map of event kinds (Live.touches).
  const TABLE_EVENTS = { also: ["forms"] };
  let busy = false;
  let loading = false;
  let again = false;
  let pollTimer = null;

  function showError(message) {
    const box = document.getElementById("error");
    box.hidden = !message;
    box.textContent = message || "";
    if (message) box.scrollIntoView({ block: "nearest" });
  }

  function say(text) {
    if (status) status.textContent = text;
  }

  function bodyFor(button) {
    const body = {};
    const pit = button.closest("[data-pit]");
    const form = button.closest("[data-form]");
    const marker = button.closest("[data-marker]");
    if (pit) body.pit = Number(pit.dataset.pit);
    if (form) body.form = Number(form.dataset.form);
    if (marker) body.marker = Number(marker.dataset.marker);
    const scope = button.closest(".row-form") || button.parentElement;
    scope.querySelectorAll("input[name]").forEach((input) => { body[input.name] = input.value; });
    return body;
  }

  // Where an input sits (its pit, form or marker, and its name): what was typed goes back there.
  function keyOf(input) {
    const row = input.closest("[data-form], [data-marker], [data-pit]");
    const where = row ? Object.entries(row.dataset).map(([k, v]) => `${k}=${v}`).join("&") : "";
    return `${where}|${input.name}`;
  }

  function keep() {
    const typed = new Map();
    page.querySelectorAll("input[name]").forEach((input) => {
      if (input.value) typed.set(keyOf(input), input.value);
    });
    const active = document.activeElement;
    const focused = active && page.contains(active) && active.name ? keyOf(active) : null;
    return { typed, focused };
  }

  function restore({ typed, focused }) {
    page.querySelectorAll("input[name]").forEach((input) => {
      const key = keyOf(input);
      if (typed.has(key)) input.value = typed.get(key);
      if (key === focused) input.focus();
    });
  }

  async function reload() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      const asked = page.dataset.asked ? `&pits=${encodeURIComponent(page.dataset.asked)}` : "";
      const answer = await Http.getText(`/floor/forms/?partial=1${asked}`);
      if (answer.loggedOut) { window.location.assign("/login/"); return; }
      if (!answer.ok) return;
      const kept = keep();
      page.innerHTML = answer.data;
      restore(kept);
    } finally {
      loading = false;
      if (again) { again = false; reload(); }
    }
  }

  page.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-command]");
    if (!button || busy) return;
    busy = true;
    button.disabled = true;
    const answer = await Http.post(`/floor/forms/${button.dataset.command}/`, bodyFor(button));
    busy = false;
    if (answer.ok) {
      window.location.reload();  // done here: the page as it now stands, what was typed cleared
      return;
    }
    button.disabled = false;
    showError(answer.error);
  });

  function poll() {
    if (pollTimer === null) {
      say("Updated every 15 seconds.");
      pollTimer = setInterval(() => { if (!busy) reload(); }, POLL_EVERY);
    }
  }

  function stopPolling() {
    if (pollTimer !== null) clearInterval(pollTimer);
    pollTimer = null;
  }

  const pits = page.dataset.pits ? page.dataset.pits.split(",").map(Number) : [];
  const ownTable = page.dataset.table ? Number(page.dataset.table) : null;
  if (!window.Live || (!pits.length && ownTable === null)) {
    poll();
    return;
  }
  const onChange = (table, detail) => {
    if (detail.reason !== "hello" && window.Live.matters(detail, (e) => window.Live.touches([e], TABLE_EVENTS))) reload();
  };
  const options = {
    onNotice: (message) => { if (message.type === "forms") reload(); },
    onStatus: (state) => {
      if (state === "open") {
        stopPolling();
        say("Live.");
        reload();  // (re)connected: read again whatever changed while the socket was down
      } else {
        poll();  // closed (retrying) or refused: poll meanwhile
      }
    },
  };
  if (ownTable !== null) window.Live.watch(ownTable, onChange, options);
  else pits.forEach((pit) => window.Live.watchPit(pit, onChange, options));
})();
