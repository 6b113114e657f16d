/* The surveillance wall: every table's tile comes rendered from /surveillance/; when a table
   changes, only its tile is fetched again (/surveillance/tables/<id>/tile/, an HTML fragment).
   Notices come from live.js (Live.watchSurveillance); a gap or a reconnect also re-fetches. Without
   live.js, or while its socket is down, the page polls /surveillance/sequences/ every 5 s and
   re-fetches the tiles whose last event number moved. Requests go through http.js. */
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
      const changed = fresh.dataset.sequence !== current.dataset.sequence;
      current.replaceWith(fresh);
      if (changed) fresh.classList.add("flash");
    } finally {
      inFlight.delete(id);
      if (again.delete(id)) refetch(id);
    }
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

  if (window.Live && window.Live.watchSurveillance) {
    say("Connecting…", "");
    window.Live.watchSurveillance(
      (tableId, detail = {}) => {
        // The safety refresh asks about every table: one poll finds the few that moved.
        if (detail.reason === "refresh") poll();
        else refetch(Number(tableId));
      },
      {
        sequences: known(),
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
