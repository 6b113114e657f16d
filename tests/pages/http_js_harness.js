// Runs static/js/http.js in Node with a scripted fetch, and prints what it sent and answered.
"use strict";
const fs = require("fs");
const vm = require("vm");

const sent = [];
const answers = [];  // what the next fetch answers: a response, or "down" (no answer)
const reply = (status, body, extra = {}) => ({
  ok: status >= 200 && status < 300, status, redirected: false, url: "http://tables.test/api/",
  headers: { get: () => null },  // no Retry-After
  json: async () => (typeof body === "string" ? JSON.parse(body) : body),
  text: async () => (typeof body === "string" ? body : JSON.stringify(body)), ...extra,
});
function load(crypto) {
  const context = {
    window: { crypto }, document: { cookie: "sessionid=s1; csrftoken=tok%2Ben; theme=dark" },
    fetch: async (url, init) => {
      sent.push({ url, method: init.method || "GET", headers: init.headers, body: init.body,
        credentials: init.credentials, cache: init.cache });
      const next = answers.shift();
      if (next === "down") throw new TypeError("Failed to fetch");
      return next;
    },
    URL, JSON, Math, Date, TypeError,
  };
  vm.createContext(context);
  vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), context);
  return context.window.Http;
}

(async () => {
  let uuids = 0;
  const Http = load({ randomUUID: () => `uuid-${++uuids}` });
  const out = {};
  answers.push(reply(200, { sequence: 3 }), reply(200, { sequence: 4 }), reply(200, { sequence: 4 }));
  out.first = await Http.post("/api/tables/7/round/open/", { seat: 1 });
  await Http.post("/api/tables/7/round/open/");
  await Http.post("/api/tables/7/round/open/", {}, { key: "uuid-1" });  // the same tap, retried
  // A double tap: the same command twice before the first is answered shares its key; once
  // answered, the same command again is a new one.
  answers.push(reply(200, { done: true }), reply(200, { done: true }), reply(200, { done: true }));
  await Promise.all([
    Http.post("/dealers/relieve/", { table: 1 }), Http.post("/dealers/relieve/", { table: 1 }),
  ]);
  await Http.post("/dealers/relieve/", { table: 1 });
  out.doubleTap = sent.slice(-3).map((s) => s.headers["Idempotency-Key"]);
  answers.push(reply(409, { error: "No more bets: the wager is refused." }));
  out.refused = await Http.post("/api/tables/7/round/wagers/", {});
  answers.push(reply(500, "<h1>Server Error</h1>"));
  out.broken = await Http.getJSON("/api/tables/7/");
  answers.push("down");
  out.down = await Http.getJSON("/api/tables/7/");
  answers.push(reply(200, "<form>login</form>",
    { redirected: true, url: "http://tables.test/login/?next=/floor/" }));
  out.loggedOut = await Http.getText("/floor/?partial=1");
  answers.push(reply(200, "<div>tile</div>"));
  out.tile = await Http.getText("/surveillance/tables/7/tile/");
  out.cookie = Http.cookie("csrftoken");
  out.missing = Http.cookie("nothing");
  const plain = load({});  // no crypto.randomUUID outside a secure context
  out.fallbackKeys = [plain.newKey(), plain.newKey()];
  out.sent = sent;
  console.log(JSON.stringify(out));
})();
