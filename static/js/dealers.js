/* The dealers page: Assign and Relieve POST to /dealers/assign/ and /dealers/relieve/ (a dealer at
   a table), or to /dealers/supervise/ and /dealers/unsupervise/ (a person in a pit), then reload. */
"use strict";

(function () {
  const errorBox = document.getElementById("error");
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-assign], button[data-relieve], button[data-supervise], button[data-unsupervise]");
    if (!button) return;
    let answer;
    if (button.dataset.assign) {
      const table = Number(button.dataset.assign);
      const dealer = document.querySelector(`select[data-dealer-for="${table}"]`).value;
      answer = await Http.post("/dealers/assign/", { table, dealer });
    } else if (button.dataset.relieve) {
      answer = await Http.post("/dealers/relieve/", { table: Number(button.dataset.relieve) });
    } else if (button.dataset.supervise) {
      const pit = Number(button.dataset.supervise);
      const person = document.querySelector(`select[data-person-for="${pit}"]`).value;
      answer = await Http.post("/dealers/supervise/", { pit, person });
    } else {
      answer = await Http.post("/dealers/unsupervise/", { pit: Number(button.dataset.unsupervise), person: button.dataset.person });
    }
    if (answer.ok) window.location.reload();
    else { errorBox.textContent = answer.error; errorBox.hidden = false; }
  });
})();
