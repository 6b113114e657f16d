/* The console's panels that other apps draw for a pit (templates/pit/_panels.html,
   tablegame.panels: game protection's players' ratings). Each is read from its URL (an HTML
   fragment) once the page is loaded, then again when a pit socket says it changed
   ({"type": "panel", "panel": "ratings", "pit": 1, "tables": [7]}: floor.js calls
   Panels.changed), and when the pit's socket comes back or finds table changes it missed
   (floor.js calls Panels.readAll(pit)): a panel's notice has no sequence, so one lost is made
   good then, from the database. One read of a panel at a time; one more if asked meanwhile (Http.reader). */
"use strict";

(function () {
  const readers = new Map();  // section -> its Http.reader

  const sections = () => [...document.querySelectorAll(".console-panel[data-url]")];

  function read(section) {
    if (!readers.has(section)) {
      readers.set(section, Http.reader(section.dataset.url, section.querySelector("[data-panel-body]")));
    }
    readers.get(section)();
  }

  /* A notice that a panel changed at a pit. */
  function changed(message) {
    sections()
      .filter((s) => s.dataset.panel === message.panel && Number(s.dataset.pit) === Number(message.pit))
      .forEach(read);
  }

  /* Every panel of a pit (every pit's without one). */
  function readAll(pit) {
    sections().filter((s) => pit === undefined || Number(s.dataset.pit) === Number(pit)).forEach(read);
  }

  window.Panels = { changed, readAll };
  document.addEventListener("DOMContentLoaded", () => readAll());
})();
