/* The dealers page: Assign and Relieve POST to /dealers/assign/ and /dealers/relieve/, then reload. */
"use strict";

(function () {
  const errorBox = document.getElementById("error");
  document.addEventListener("click", async (event) => {
    const assign = event.target.closest("button[data-assign]");
    const relieve = event.target.closest("button[data-relieve]");
    if (!assign && !relieve) return;
    let answer;
    if (assign) {
      const table = Number(assign.dataset.assign);
      const dealer = document.querySelector(`select[data-dealer-for="${table}"]`).value;
      answer = await Http.post("/dealers/assign/", { table, dealer });
    } else {
      answer = await Http.post("/dealers/relieve/", { table: Number(relieve.dataset.relieve) });
    }
    if (answer.ok) window.location.reload();
    else { errorBox.textContent = answer.error; errorBox.hidden = false; }
  });
})();
