/* The console's alerts panel (templates/pit/_alerts.html): loads the list from /alerts/, reloads it
   when a pit socket says {"type": "alert"} (an alert raised or acknowledged), and every 30 s in
   case a notice was lost; "Acknowledge" POSTs {"alert": id} to /alerts/acknowledge/. */
"use strict";

(function () {
  const panel = document.getElementById("alerts");
  if (!panel) return;
  const list = panel.querySelector("[data-alerts-list]");
  const sockets = new Map();

  function watch(pit) {
    if (sockets.has(pit)) return;
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    let wait = 1000;
    function connect() {
      const socket = new WebSocket(`${scheme}//${window.location.host}/ws/pits/${pit}/`);
      sockets.set(pit, socket);
      socket.onopen = () => { wait = 1000; };
      socket.onmessage = (event) => {
        try {
          if (JSON.parse(event.data).type === "alert") load();
        } catch (error) { /* not JSON: ignore */ }
      };
      socket.onclose = (event) => {
        if ([4401, 4403, 4404].includes(event.code)) return;
        window.setTimeout(connect, wait);
        wait = Math.min(30000, wait * 2);
      };
    }
    connect();
  }

  async function load() {
    const answer = await Http.getText(panel.dataset.url);
    if (answer.loggedOut) { window.location.assign("/login/"); return; }
    if (!answer.ok) return;
    list.innerHTML = answer.data;
    const root = list.querySelector("[data-alert-pits]");
    (root ? root.dataset.alertPits.split(",") : []).filter(Boolean).map(Number).forEach(watch);
  }

  panel.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-acknowledge]");
    if (!button) return;
    button.disabled = true;
    const answer = await Http.post("/alerts/acknowledge/", { alert: Number(button.dataset.acknowledge) });
    if (!answer.ok) window.alert(answer.error);
    load();
  });

  document.addEventListener("DOMContentLoaded", () => {
    load();
    window.setInterval(load, 30000);
  });
})();
