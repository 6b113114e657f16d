// Runs static/js/roads.js and static/js/display.js in Node with a stand-in page, Live and Http:
// feeds the display table notices and answers, and prints what it held and requested after each
// step (tests/pages/test_display_js.py reads it).
"use strict";
const fs = require("fs");
const vm = require("vm");

const [roadsPath, displayPath] = process.argv.slice(2);
const COUNTS = ["rounds", "banker", "player", "tie", "banker_pairs", "player_pairs", "naturals"];

function result(round, winner, extra = {}) {
  return {
    round, winner, player_pair: false, banker_pair: false, natural: false,
    player_total: null, banker_total: null, ...extra,
  };
}

function board(shoe, sequence, results) {
  return { table: { id: 7, name: "MB-1" }, game: "Minibaccarat", shoe, sequence, results };
}

// A stand-in page: the display's elements, timers and the two scripts it talks to.
function open(data) {
  const requests = [];
  const pending = [];
  const intervals = new Map();
  let ids = 0;
  const counts = COUNTS.map((name) => ({ dataset: { count: name }, textContent: "" }));
  const shoe = { textContent: "" };
  const dot = { title: "", stale: false, classList: { toggle: (_, on) => { dot.stale = on; } } };
  const page = { watched: null, reloads: 0 };
  const document = {
    body: { dataset: { table: "7", roadsUrl: "/display/7/roads.json" } },
    getElementById: () => ({ textContent: JSON.stringify(data) }),
    querySelectorAll: (selector) => (selector === "[data-count]" ? counts : []),
    querySelector: (selector) => (selector === "[data-shoe]" ? shoe : dot),
  };
  const window = {
    document,
    addEventListener() {},
    setInterval: (call, ms) => { intervals.set(++ids, { call, ms }); return ids; },
    clearInterval: (id) => { intervals.delete(id); },
    location: { reload: () => { page.reloads += 1; } },
    Http: {
      getJSON: (url) => {
        requests.push(url);
        return new Promise((resolve) => pending.push(resolve));
      },
    },
    Live: {
      watch: (table, onChange, options) => {
        page.watched = { table, onChange, options };
        return { close() {} };
      },
    },
  };
  const context = {
    window, document, requestAnimationFrame: () => 0, cancelAnimationFrame() {}, console,
  };
  vm.createContext(context);
  vm.runInContext(fs.readFileSync(roadsPath, "utf8"), context);
  vm.runInContext(fs.readFileSync(displayPath, "utf8"), context);

  const settle = () => new Promise((resolve) => setImmediate(resolve));
  Object.assign(page, {
    requests,
    notice(detail) { page.watched.onChange(7, detail); },
    changed(change) {
      const sequence = change.events[change.events.length - 1].sequence;
      page.notice({ reason: "changed", sequence, action: change.events[0].action, change });
    },
    async answer(answer) { pending.shift()(answer); await settle(); await settle(); },
    status(state) { page.watched.options.onStatus(state); },
    tick(ms) { for (const { call, ms: every } of intervals.values()) if (every === ms) call(); },
    intervals: () => [...intervals.values()].map((i) => i.ms),
    snap() {
      const state = window.Scoreboard.state();
      return {
        requests: requests.length,
        waiting: pending.length,
        shoe: state.shoe,
        sequence: state.sequence,
        rounds: state.results.map((r) => r.round),
        results: state.results,
        roads: state.roads,
        counts: Object.fromEntries(counts.map((el) => [el.dataset.count, el.textContent])),
        shoeShown: shoe.textContent,
        stale: dot.stale,
        live: document.body.dataset.live || null,
        reloads: page.reloads,
        intervals: page.intervals(),
      };
    },
  });
  return page;
}

// The changes of commands as the API's notices carry them (tablegame.selectors.command_answer).
function round(number, extra = {}) {
  return {
    number, state: "betting", state_label: "", simulated: false, winner: null, tags: [],
    player_total: null, banker_total: null, cards: [], ...extra,
  };
}
function shoePart(number) {
  return { number, state: "in_play", rounds: 0, cards_left: 400 };
}
function change(sequence, actions, parts, patched = []) {
  const events = actions.map((action, i) => ({ sequence: sequence - actions.length + 1 + i, action }));
  const changed = Object.keys(parts).filter((name) => !patched.includes(name));
  return { sequence, events, changed, patched, ...parts };
}
function settled(sequence, shoe, number, winner, tags = [], extra = {}) {
  const game = round(number, {
    state: "settled", winner, tags, player_total: 7, banker_total: 6, ...extra,
  });
  return change(sequence, ["round_settled"], {
    round: game, shoe: shoePart(shoe), table: { id: 7 },
  });
}

(async () => {
  const out = {};

  // The page as served: shoe 4 with rounds 1 and 2 (a tie, then a Banker win) at sequence 20.
  let page = open(board(4, 20, [result(1, "tie"), result(2, "banker", { banker_pair: true })]));
  out.loaded = { ...page.snap(), watched: page.watched.options.sequence };

  // A round from its opening to its last card: nothing on the board, nothing fetched.
  page.changed(change(21, ["round_opened"], { round: round(3), shoe: shoePart(4) }));
  page.changed(change(22, ["wager_placed"], { round: round(3) }, ["round"]));
  page.changed(change(23, ["no_more_bets"], { round: round(3, { state: "dealing" }) }, ["round"]));
  for (let s = 24; s < 28; s++) {
    page.changed(change(s, ["card_dealt"], { round: round(3, { state: "dealing" }), shoe: shoePart(4) }));
  }
  page.changed(change(28, ["card_dealt"], {
    round: round(3, { state: "complete", winner: "player", tags: ["player_pair", "player_natural"] }),
    shoe: shoePart(4),
  }));
  out.dealt = page.snap();

  // Its settlement (with the meters' events of the same command) adds it.
  const third = settled(30, 4, 3, "player", ["player_pair", "player_natural"], { player_total: 9 });
  third.events.push({ sequence: 31, action: "progressive_contributed" });
  third.sequence = 31;
  page.changed(third);
  out.settled = page.snap();
  page.changed(settled(31, 4, 3, "player", ["player_pair", "player_natural"]));  // again
  out.again = page.snap();
  page.changed(settled(32, 4, 4, "banker", [], { simulated: true }));
  page.changed(settled(33, 4, 5, null, []));
  out.unshown = page.snap();
  page.changed(settled(34, 4, 6, "tie", ["banker_pair", "banker_natural"]));
  out.tie = page.snap();

  // The shoe ends; the next one arrives and is readied; its first round.
  page.changed(change(40, ["shoe_ended"], { shoe: null, round: round(6, { state: "settled" }) }));
  out.ended = page.snap();
  page.changed(change(41, ["decks_received"], { shoe: shoePart(5), deck_change: {}, round: null }));
  out.received = page.snap();
  for (const [s, action] of [[42, "decks_inspected"], [43, "shuffled"], [44, "cut"], [45, "burned"]]) {
    page.changed(change(s, [action], { shoe: shoePart(5) }));
  }
  page.changed(change(46, ["meter_like_event_nobody_knows"], { meters: {} }));
  out.readied = page.snap();
  page.changed(settled(52, 5, 1, "banker"));
  out.newShoe = page.snap();
  out.requestsSoFar = page.requests.slice();

  // What the board cannot know reads roads.json, once each.
  const later = board(5, 60, [result(1, "banker"), result(2, "player")]);
  const unknowable = {
    noChange: { reason: "changed", sequence: 61, action: "round_settled", change: null },
    gap: { reason: "gap", sequence: 63, action: "round_opened", change: change(63, ["round_opened"], { round: round(3) }) },
    hello: { reason: "hello", sequence: 70 },
    outsideCommand: {
      reason: "changed", sequence: 61, action: "round_settled",
      change: { events: [{ sequence: 61, action: "round_settled" }] },
    },
    otherShoe: { reason: "changed", sequence: 61, action: "shuffled", change: change(61, ["shuffled"], { shoe: shoePart(9) }) },
    newShoeWithoutShoe: {
      reason: "changed", sequence: 61, action: "decks_received",
      change: { events: [{ sequence: 61, action: "decks_received" }] },
    },
  };
  out.unknowable = {};
  for (const [name, detail] of Object.entries(unknowable)) {
    page = open(board(5, 52, [result(1, "banker")]));
    page.notice(detail);
    const asked = page.snap();
    await page.answer({ ok: true, data: later, loggedOut: false });
    out.unknowable[name] = { asked, answered: page.snap(), urls: page.requests };
  }

  // While a read runs: notices newer than its answer are applied to it again; older ones were in
  // it; a hello or gap newer than the answer reads once more; more triggers make no other read.
  page = open(board(5, 52, [result(1, "banker")]));
  page.notice({ reason: "hello", sequence: 52 });
  page.changed(settled(55, 5, 2, "player"));   // in the answer (read at 56)
  page.changed(settled(58, 5, 3, "banker"));   // after it
  page.notice({ reason: "hello", sequence: 55 });  // older than the answer: no read more
  out.inFlight = page.snap();
  await page.answer({
    ok: true, loggedOut: false, data: board(5, 56, [result(1, "banker"), result(2, "player")]),
  });
  out.inFlightAnswered = page.snap();

  page = open(board(5, 52, [result(1, "banker")]));
  page.notice({ reason: "hello", sequence: 52 });
  page.notice({ reason: "gap", sequence: 60, change: change(60, ["round_opened"], { round: round(4) }) });
  await page.answer({ ok: true, loggedOut: false, data: board(5, 56, [result(1, "banker")]) });
  out.gapDuringRead = page.snap();
  await page.answer({ ok: true, loggedOut: false, data: board(5, 60, [result(1, "banker")]) });
  out.gapDuringReadAnswered = page.snap();

  page = open(board(5, 52, [result(1, "banker")]));
  page.notice({ reason: "hello", sequence: 52 });
  page.notice({ reason: "gap", sequence: 54, change: change(54, ["round_opened"], { round: round(4) }) });
  await page.answer({ ok: true, loggedOut: false, data: board(5, 56, [result(1, "banker")]) });
  out.oldGapDuringRead = page.snap();

  // A failed read keeps the board and turns the dot amber; a lost session reloads the page.
  page = open(board(5, 52, [result(1, "banker")]));
  page.notice({ reason: "hello", sequence: 53 });
  await page.answer({ ok: false, status: 0, data: null, loggedOut: false, error: "No answer" });
  out.failed = page.snap();
  page.notice({ reason: "hello", sequence: 53 });
  await page.answer({ ok: false, status: 200, data: null, loggedOut: true });
  out.loggedOut = page.snap();

  // The socket down: a read every 5 s until it is back.
  page = open(board(5, 52, [result(1, "banker")]));
  page.status("closed");
  out.closed = page.snap();
  page.tick(5000);
  out.polled = page.snap();
  await page.answer({ ok: true, loggedOut: false, data: board(5, 52, [result(1, "banker")]) });
  page.status("open");
  out.reopened = page.snap();

  console.log(JSON.stringify(out));
})();
