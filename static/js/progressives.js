/* The progressive page: redraws its meters (GET /progressives/?partial=1) whenever a table of its
   pits changes, and sends the floor's commands (POST JSON to /progressives/<command>/). */
"use strict";

(function () {
  const root = document.getElementById("progressives");
  const errorBox = document.getElementById("error");
  if (!root) return;
  const pits = (root.dataset.pits || "").split(",").filter(Boolean).map(Number);

  function showError(message) {
    errorBox.textContent = message || "";
    errorBox.hidden = !message;
  }

  async function refresh() {
    const answer = await Http.getText("/progressives/?partial=1");
    if (answer.loggedOut) window.location.assign("/login/");
    else if (answer.ok) root.innerHTML = answer.data;
  }

  async function send(command, body) {
    const answer = await Http.post(`/progressives/${command}/`, body);
    showError(answer.ok ? "" : answer.error);
    await refresh();
  }

  root.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-command]");
    if (!button) return;
    send(button.dataset.command, JSON.parse(button.dataset.body));
  });

  root.addEventListener("submit", (event) => {
    const form = event.target.closest("form.new-must-hit");
    if (!form) return;
    event.preventDefault();
    const data = new FormData(form);
    send("must-hit", {
      name: data.get("name"),
      configuration: Number(data.get("configuration")),
      tables: data.getAll("tables").map(Number),
    });
  });

  if (window.Live && window.Live.watchPit) pits.forEach((pit) => window.Live.watchPit(pit, refresh));
  else window.setInterval(refresh, 5000);
})();
