/* Player ratings: today's gaming day reads its table again every 15 s (the pit follows the
   ratings live as rounds settle); another day's never changes. Requests go through http.js. */
"use strict";

(function () {
  const holder = document.getElementById("ratings-live");
  const EVERY = 15000;
  if (!holder || holder.dataset.live !== "1") return;

  async function read() {
    if (document.hidden) return;
    const answer = await Http.getText(holder.dataset.url);
    if (answer.ok && answer.data) holder.innerHTML = answer.data;
  }

  setInterval(read, EVERY);
})();
