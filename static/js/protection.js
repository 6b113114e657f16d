/* A table's protection page: on the newest shoe, read the edges section again every few seconds
   (/protection/tables/<id>/edges/?shoe=&round=, 204 while nothing new is priced). Requests go
   through http.js. */
"use strict";

(function () {
  const holder = document.getElementById("edges");
  const EVERY = 3000;
  if (!holder || holder.dataset.following !== "1") return;

  async function check() {
    if (document.hidden) return;
    const shown = holder.querySelector(".edges");
    const url = new URL(holder.dataset.url, window.location.href);
    url.searchParams.set("shoe", shown ? shown.dataset.shoe : "");
    url.searchParams.set("round", shown ? shown.dataset.round : "");
    const answer = await Http.getText(url.pathname + url.search);
    if (!answer.ok || answer.status === 204 || !answer.data) return;
    holder.innerHTML = answer.data;
  }

  setInterval(check, EVERY);
})();
