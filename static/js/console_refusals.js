/* The dealers' refusals at the console's pits (templates/pit/_refusals.html, pit.refusals):
   the strip loads the newest from /floor/refusals/?pits=... once the page is loaded, then again
   when a pit socket tells of a refusal kept ({"type": "refused"}, tablegame.refusals: floor.js
   calls Refusals.load) or comes back after a gap: always what the database holds, so a notice
   the channel layer dropped is made good at the next read. One read at a time; one more if
   asked meanwhile (Http.reader). */
"use strict";

(function () {
  const strip = document.getElementById("refusals");
  if (!strip) return;
  const load = Http.reader(strip.dataset.url, strip.querySelector("[data-refusals-list]"));

  window.Refusals = { load };
  document.addEventListener("DOMContentLoaded", load);
})();
