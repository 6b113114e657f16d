/* The console's alerts panel (templates/pit/_alerts.html): loads the list of the console's pits
   from /alerts/ once, then again only when the console's pit sockets say an alert was raised or
   acknowledged (floor.js calls Alerts.load() on {"type": "alert"}); a reconnecting socket's
   hello reads the list again too. "Acknowledge" POSTs {"alert": id} to /alerts/acknowledge/. */
"use strict";

(function () {
  const panel = document.getElementById("alerts");
  if (!panel) return;
  const load = Http.reader(panel.dataset.url, panel.querySelector("[data-alerts-list]"));

  panel.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-acknowledge]");
    if (!button) return;
    button.disabled = true;
    const answer = await Http.post("/alerts/acknowledge/", { alert: Number(button.dataset.acknowledge) });
    if (!answer.ok) window.alert(answer.error);
    load();
  });

  window.Alerts = { load };
  document.addEventListener("DOMContentLoaded", load);
})();
