/* The Complimentary Vigorish Forms page: each button posts its action (/floor/forms/<command>/)
   with the inputs beside it and the pit, form or marker of its row; a refusal is shown in the
   server's words, anything done reloads the page. Every person acts on their own screen. */
"use strict";

(function () {
  const page = document.getElementById("forms");
  let busy = false;

  function showError(message) {
    const box = document.getElementById("error");
    box.hidden = !message;
    box.textContent = message || "";
    if (message) box.scrollIntoView({ block: "nearest" });
  }

  function bodyFor(button) {
    const body = {};
    const pit = button.closest("[data-pit]");
    const form = button.closest("[data-form]");
    const marker = button.closest("[data-marker]");
    if (pit) body.pit = Number(pit.dataset.pit);
    if (form) body.form = Number(form.dataset.form);
    if (marker) body.marker = Number(marker.dataset.marker);
    const scope = button.closest(".row-form") || button.parentElement;
    scope.querySelectorAll("input[name]").forEach((input) => { body[input.name] = input.value; });
    return body;
  }

  page.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-command]");
    if (!button || busy) return;
    busy = true;
    button.disabled = true;
    const answer = await Http.post(`/floor/forms/${button.dataset.command}/`, bodyFor(button));
    busy = false;
    if (answer.ok) {
      window.location.reload();
      return;
    }
    button.disabled = false;
    showError(answer.error);
  });

  // Others sign on their own screens: pick their signatures up while nobody is typing here.
  setInterval(() => {
    const typing = document.activeElement && document.activeElement.tagName === "INPUT";
    if (!busy && !typing && document.getElementById("error").hidden) window.location.reload();
  }, 15000);
})();
