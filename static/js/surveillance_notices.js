/* Notices of procedure changes, on the surveillance wall and the notices page: the lists come
   rendered in #notices; a notice of a table (live.js, Live.watchSurveillance) that files rules or
   acknowledges a notice, a hello, a gap or the safety refresh re-fetches them (data-url, an HTML
   fragment). Without live.js the page polls every 15 s. "Acknowledge" posts the notice's number
   through http.js and shows a refusal in the server's words. */
"use strict";

(function () {
  const box = document.getElementById("notices");
  if (!box) return;
  const error = document.getElementById("notice-error");
  // Events that change the notices, by the page's map of event kinds (Live.touches).
  const WATCHED = { also: ["notices"] };
  let loading = false;
  let again = false;

  function showError(message) {
    if (!error) return;
    error.hidden = !message;
    error.textContent = message || "";
  }

  async function reload() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      const answer = await Http.getText(box.dataset.url);
      if (answer.ok) box.innerHTML = answer.data;
    } finally {
      loading = false;
      if (again) { again = false; reload(); }
    }
  }

  box.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-acknowledge]");
    if (!button) return;
    button.disabled = true;
    const answer = await Http.post("/surveillance/notices/acknowledge/",
      { notice: Number(button.dataset.acknowledge) });
    showError(answer.error);
    await reload();
  });

  if (window.Live && window.Live.watchSurveillance) {
    window.Live.watchSurveillance((table, detail) => {
      if (window.Live.matters(detail, (e) => window.Live.touches([e], WATCHED))) reload();
    });
  } else {
    setInterval(reload, 15000);
  }
})();
