/* The progressive page: the meters of the pits shown come drawn from /progressives/, and their
   amounts follow the tables' notices (live.js, a pit's meters socket per pit: the notices of its
   tables with meters only): a settlement's
   progressive_contributed event carries each meter's new amount, and progressive_reset the amount
   a meter starts again from. A pit's section is read again (/progressives/pits/<id>/) only when a
   notice cannot say what changed there: a must-hit win, a payment, a link or new parameters, a gap
   in a Royal 9 table's notices or a hello that differs, a notice without its change. Notices of
   tables without progressives are ignored. The floor's commands POST JSON to
   /progressives/<command>/ and read their pit's section again. */
"use strict";

(function () {
  const root = document.getElementById("progressives");
  const errorBox = document.getElementById("error");
  if (!root) return;
  const pits = (root.dataset.pits || "").split(",").filter(Boolean).map(Number);
  const ROYAL9 = new Set(["star", "spade", "heart"]);
  // Events whose effect on the page no notice carries (the page's map of event kinds,
  // Live.touches): the meters' set-up, wins and payments. The pit's section is read again.
  const READ_AFTER = { also: ["progressives"] };
  const reading = new Set();
  const again = new Set();

  function showError(message) {
    errorBox.textContent = message || "";
    errorBox.hidden = !message;
  }

  const sectionOf = (pit) => root.querySelector(`.pit-meters[data-pit="${pit}"]`);

  /* "$50,007.50" from "50007.50", without arithmetic on the amount. */
  function money(amount) {
    const [whole, fraction = ""] = String(amount).split(".");
    const sign = whole.startsWith("-") ? "-" : "";
    const digits = whole.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return `${sign}$${digits}.${(fraction + "00").slice(0, 2)}`;
  }

  function setAmount(pit, table, meter, amount) {
    const section = sectionOf(pit);
    if (!section) return;
    const place = ROYAL9.has(meter)
      ? section.querySelector(`.royal9[data-table="${table}"] [data-meter-key="${meter}"] .money`)
      : section.querySelector(`.must-hit[data-meter-name="${CSS.escape(meter)}"] [data-amount]`);
    if (place) place.textContent = money(amount);
  }

  async function read(pit) {
    if (reading.has(pit)) { again.add(pit); return; }
    reading.add(pit);
    try {
      const answer = await Http.getText(`/progressives/pits/${pit}/`);
      if (answer.loggedOut) { window.location.assign("/login/"); return; }
      if (!answer.ok) return;
      const holder = document.createElement("template");
      holder.innerHTML = answer.data.trim();
      const fresh = holder.content.querySelector(".pit-meters");
      const current = sectionOf(pit);
      if (fresh && current) current.replaceWith(fresh);
    } finally {
      reading.delete(pit);
      if (again.delete(pit)) read(pit);
    }
  }

  /* A table's notice: the meters it moved, put in place; or the pit's section read again. */
  function onChange(pit, table, detail) {
    const section = sectionOf(pit);
    const metered = section && section.querySelector(`.royal9[data-table="${table}"]`);
    if (!metered) return;  // a table without progressives
    const events = detail.change && detail.change.events;
    if (detail.reason !== "changed" || !events) { read(pit); return; }
    if (window.Live.touches(events, READ_AFTER)) { read(pit); return; }
    for (const e of events) {
      if (e.action === "progressive_contributed") {
        e.data.meters.forEach((m) => setAmount(pit, table, m.meter, m.amount));
      } else if (e.action === "progressive_reset") {
        setAmount(pit, table, e.data.meter, e.data.amount);
      }
    }
  }

  async function send(command, body, pit) {
    const answer = await Http.post(`/progressives/${command}/`, body);
    showError(answer.ok ? "" : answer.error);
    if (answer.loggedOut) window.location.assign("/login/");
    else if (pit) await read(pit);
  }

  const pitOf = (element) => Number(element.closest(".pit-meters").dataset.pit);

  root.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-command]");
    if (!button) return;
    send(button.dataset.command, JSON.parse(button.dataset.body), pitOf(button));
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
    }, pitOf(form));
  });

  pits.forEach((pit) => {
    const section = sectionOf(pit);
    const sequences = section ? JSON.parse(section.dataset.sequences || "{}") : {};
    window.Live.watchPit(pit, (table, detail) => onChange(pit, table, detail), { sequences, meters: true });
  });
})();
