/* The dealers' refusals at the console's pits (templates/pit/_refusals.html, pit.refusals):
   the strip loads the newest from /floor/refusals/?pits=... once the page is loaded, then again
   when a pit socket tells of a refusal kept ({"type": "refused"}, tablegame.refusals: floor.js
   calls Refusals.load) or comes back after a gap: always what the database holds, so a notice
   the channel layer dropped is made good at the next read. One read at a time; one more if
   asked meanwhile. */
"use strict";

(function () {
  const strip = document.getElementById("refusals");
  if (!strip) return;
  const list = strip.querySelector("[data-refusals-list]");
  let loading = false;
  let again = false;

  async function load() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      const answer = await Http.getText(strip.dataset.url);
      if (answer.loggedOut) { window.location.assign("/login/"); return; }
      if (answer.ok) list.innerHTML = answer.data;
    } finally {
      loading = false;
      if (again) { again = false; load(); }
    }
  }

  window.Refusals = { load };
  document.addEventListener("DOMContentLoaded", load);
})();
