/* A table's Rules Submission: "File" sends the preset, the stated time and only the options
   changed on the form (the server sets them over the rules in force at that time); "Change the
   pit's procedure" sends the rules text, the settlement or shuffle procedure chosen where changed
   (each table changes only what differs then) and their time. Refusals are shown in the server's
   words. */
"use strict";

(function () {
  const page = document.getElementById("rules");
  const value = (name) => (page.querySelector(`[name="${name}"]`) || { value: "" }).value;
  // A select's choice when changed from what is in force now; blank: unchanged (kept as filed).
  const changed = (name) => {
    const field = page.querySelector(`[name="${name}"]`);
    return field && field.value !== field.dataset.initial ? field.value : "";
  };

  function show(id, message) {
    const box = document.getElementById(id);
    box.hidden = !message;
    box.textContent = message || "";
  }

  async function send(url, body, button) {
    button.disabled = true;
    show("error", "");
    const answer = await Http.post(url, body);
    button.disabled = false;
    if (answer.ok) {
      window.location.reload();
    } else {
      show("error", answer.error);
      document.getElementById("error").scrollIntoView({ block: "nearest" });
    }
  }

  page.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-command]");
    if (!button) return;
    if (button.dataset.command === "file") {
      const options = {};
      page.querySelectorAll("[data-option]").forEach((field) => {
        if (field.value !== field.dataset.initial) options[field.dataset.option] = field.value;
      });
      send(`/floor/tables/${page.dataset.table}/rules/file/`,
        { profile: value("profile"), effective_at: value("effective_at"), options }, button);
    } else if (button.dataset.command === "seats") {
      send(`/floor/tables/${page.dataset.table}/seats/`,
        { seats: Number(value("seats")), reason: value("seats_reason") }, button);
    } else if (button.dataset.command === "procedure") {
      send("/floor/procedure/", {
        pit: Number(page.dataset.pit),
        source: button.closest("[data-source]").dataset.source,
        settlement: changed("settlement"),
        shuffle: changed("shuffle"),
        effective_at: value("pit_effective_at"),
      }, button);
    }
  });
})();
