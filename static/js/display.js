/* The table display (scoreboard): draws the five roads as SVG and keeps them current.

   The page embeds the scoreboard (`#board-data`, the document of /display/<id>/roads.json): the
   shoe shown, its results (each with its round number) and the table's sequence when read. The
   roads are computed here from the results (`Roads.roads`, static/js/roads.js, a port of
   baccarat/roads.py). Each road is a grid 6 cells high; cells come with their (col, row). The grid
   shows as many columns as fit at the height of its box, scrolled so the newest column shows.

   It follows the table from its notices (`Live.watch`, static/js/live.js), and fetches nothing
   for them:
     - a notice whose events include `round_settled`, whose round is decided, not simulated and
       of the shoe shown (its `shoe` part), adds that result (once: a round number already held
       is left alone) and draws again;
     - a notice whose events include `decks_received` and whose `shoe` part has another number
       than the shoe shown starts that shoe, with no results;
     - any other notice changes nothing.
   It reads roads.json again only when it cannot know what changed: Live's "hello" (its sequence
   differs from the one seen, or on the first connect from the page's: changes made meanwhile, or
   a notice lost, which the server's hello every 30 s or so reveals), "gap", a notice without
   its change, a settlement or new shoe whose notice lacks its `round`
   or `shoe` part (an action taken outside an API command), or a `shoe` part of another shoe
   without `decks_received` (a notice missed). One read at a time: the notices that come during
   a read are applied again to its answer when newer than it, and a hello, gap or unknowable
   notice newer than the answer reads once more. Every 5 seconds while live.js is not on the page
   or its socket is down. The dot at the top right is green while the last read succeeded, amber
   while the server cannot be reached. Requests go through http.js.

   For tests: `body.dataset.live` is Live's socket status; `Scoreboard.state()` what it holds. */
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const UNIT = 10;  // one cell is 10 × 10 in SVG units; shapes are centred on (5, 5)
  const POLL_MS = 5000;
  const COLOUR = {
    banker: "#c8102e",
    player: "#1746c9",
    tie: "#12843f",
    red: "#c8102e",
    blue: "#1746c9",
    natural: "#f2b705",
  };
  const LETTER = { banker: "B", player: "P", tie: "T" };

  const body = document.body;
  // {shoe, sequence, results, ...}: what the board shows; `drawn` is Roads.roads(board.results).
  let board = JSON.parse(document.getElementById("board-data").textContent);
  let drawn = window.Roads.roads(board.results);

  function node(name, attrs, parent) {
    const el = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
    if (parent) parent.appendChild(el);
    return el;
  }

  function pairs(g, cell) {
    const halo = { stroke: "#fff", "stroke-width": 0.6 };
    if (cell.banker_pair) {
      node("circle", { class: "pair banker-pair", cx: 1.9, cy: 1.9, r: 1.5, fill: COLOUR.banker, ...halo }, g);
    }
    if (cell.player_pair) {
      node("circle", { class: "pair player-pair", cx: 8.1, cy: 8.1, r: 1.5, fill: COLOUR.player, ...halo }, g);
    }
  }

  function tieMark(g, count) {
    node("line", { class: "tie-mark", x1: 1.4, y1: 8.6, x2: 8.6, y2: 1.4, stroke: COLOUR.tie, "stroke-width": 1.3, "stroke-linecap": "round" }, g);
    if (count > 1) {
      const text = node("text", { class: "tie-count", x: 5, y: 5.2, fill: COLOUR.tie }, g);
      text.textContent = String(count);
    }
  }

  // How each road draws one cell, inside a 10 × 10 group.
  const DRAW = {
    bead_plate(g, cell) {
      node("circle", { cx: 5, cy: 5, r: 4.2, fill: COLOUR[cell.winner] }, g);
      const text = node("text", { class: "bead-letter", x: 5, y: 5.3, fill: "#fff" }, g);
      text.textContent = LETTER[cell.winner];
      pairs(g, cell);
      if (cell.natural) {
        node("circle", { class: "natural", cx: 8.1, cy: 1.9, r: 1.5, fill: COLOUR.natural, stroke: "#fff", "stroke-width": 0.6 }, g);
      }
    },
    big_road(g, cell) {
      node("circle", { cx: 5, cy: 5, r: 3.7, fill: "none", stroke: COLOUR[cell.winner], "stroke-width": 1.3 }, g);
      pairs(g, cell);
      if (cell.ties) tieMark(g, cell.ties);
    },
    big_eye_boy(g, cell) {
      node("circle", { cx: 5, cy: 5, r: 3.5, fill: "none", stroke: COLOUR[cell.colour], "stroke-width": 1.6 }, g);
    },
    small_road(g, cell) {
      node("circle", { cx: 5, cy: 5, r: 3.9, fill: COLOUR[cell.colour] }, g);
    },
    cockroach_pig(g, cell) {
      node("line", { x1: 2, y1: 8, x2: 8, y2: 2, stroke: COLOUR[cell.colour], "stroke-width": 1.9, "stroke-linecap": "round" }, g);
    },
  };

  function cellsOf(name) {
    const road = drawn[name];
    return name === "big_road" ? road.cells : road;
  }

  function drawRoad(svg) {
    const name = svg.dataset.road;
    const rows = drawn.rows;
    const cells = cellsOf(name);
    const box = svg.getBoundingClientRect();
    const size = box.height / rows;
    const cols = Math.max(1, Math.floor(box.width / size));
    const last = cells.reduce((most, c) => Math.max(most, c.col), -1);
    const first = Math.max(0, last + 2 - cols);  // keep a free column after the newest
    const width = cols * UNIT;
    const height = rows * UNIT;

    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
    svg.dataset.cells = String(cells.length);

    const lines = [];
    for (let x = 0; x <= cols; x++) lines.push(`M${x * UNIT} 0V${height}`);
    for (let y = 0; y <= rows; y++) lines.push(`M0 ${y * UNIT}H${width}`);
    node("path", { class: "grid", d: lines.join("") }, svg);

    const group = node("g", { class: "cells" }, svg);
    for (const cell of cells) {
      if (cell.col < first || cell.col >= first + cols) continue;
      const g = node("g", {
        class: "cell",
        transform: `translate(${(cell.col - first) * UNIT} ${cell.row * UNIT})`,
        "data-col": cell.col,
        "data-row": cell.row,
      }, group);
      DRAW[name](g, cell);
    }

    // Ties before the first win: a tie mark on the first cell of the Big Road.
    const leading = name === "big_road" ? drawn.big_road.leading_ties : 0;
    if (leading && first === 0) {
      const own = cells.length ? cells[0].ties : 0;
      tieMark(node("g", { class: "leading-ties" }, group), leading + own);
    }
  }

  function draw() {
    document.querySelectorAll("svg[data-road]").forEach(drawRoad);
    const counts = drawn.counts;
    document.querySelectorAll("[data-count]").forEach((el) => {
      el.textContent = String(counts[el.dataset.count]);
    });
    document.querySelector("[data-shoe]").textContent = board.shoe === null ? "–" : String(board.shoe);
  }

  function status(fresh) {
    const el = document.querySelector("[data-status]");
    el.classList.toggle("stale", !fresh);
    el.title = fresh ? "Up to date" : "Reconnecting…";
  }

  // The results again: after a notice or a read changed them.
  function show() {
    drawn = window.Roads.roads(board.results);
    draw();
  }

  // --- notices ------------------------------------------------------------------------------

  const held = (number) => board.results.some((r) => r.round === number);

  // A settled round as baccarat.roads.Result has it (tablegame.views_display.shoe_rounds).
  function resultOf(round) {
    const tags = round.tags || [];
    return {
      round: round.number,
      winner: round.winner,
      player_pair: tags.includes("player_pair"),
      banker_pair: tags.includes("banker_pair"),
      natural: tags.includes("player_natural") || tags.includes("banker_natural"),
      player_total: round.player_total === undefined ? null : round.player_total,
      banker_total: round.banker_total === undefined ? null : round.banker_total,
    };
  }

  // In round order: a settlement is of the shoe's last round, but an answer read meanwhile may
  // hold later ones.
  function add(result) {
    let at = board.results.length;
    while (at > 0 && board.results[at - 1].round > result.round) at -= 1;
    board.results.splice(at, 0, result);
  }

  /* What a command's change (the notice's `change`: its events and the parts they changed) does
     to the board: "same", "changed" (draw again) or "unknown" (read roads.json). */
  function apply(change) {
    const actions = new Set((change.events || []).map((e) => e.action));
    const shoe = change.shoe;
    let outcome = "same";
    if (actions.has("decks_received")) {
      if (!shoe) return "unknown";
      if (shoe.number !== board.shoe) {
        board.shoe = shoe.number;
        board.results = [];
        outcome = "changed";
      }
    } else if (shoe && shoe.number !== board.shoe) {
      return "unknown";  // another shoe than the one shown, and not a new one: missed something
    }
    if (actions.has("round_settled")) {
      const round = change.round;
      if (!round || !shoe) return "unknown";
      const counts = round.winner && !round.simulated && round.state !== "void";
      if (counts && shoe.number === board.shoe && !held(round.number)) {
        add(resultOf(round));
        outcome = "changed";
      }
    }
    return outcome;
  }

  // One read at a time. While it runs: the notices that came (applied again to its answer when
  // newer than it), and the newest sequence a hello or gap said the board must reach.
  let pending = null;
  let during = [];
  let wanted = 0;

  function refresh() {
    if (pending) return pending;
    during = [];
    wanted = 0;
    pending = window.Http.getJSON(body.dataset.roadsUrl).then((answer) => {
      pending = null;
      if (answer.loggedOut) {
        window.location.reload();  // the page sends this screen to the login form
      } else if (answer.ok) {
        board = answer.data;
        let again = wanted > board.sequence;
        for (const detail of during) {
          if (detail.change && detail.sequence > board.sequence) {
            again = apply(detail.change) === "unknown" || again;
          }
        }
        show();
        status(true);
        if (again) refresh();
      } else {
        status(false);
      }
      during = [];
    });
    return pending;
  }

  function unknown(detail) {
    if (pending) wanted = Math.max(wanted, detail.sequence || 0);
    refresh();
  }

  function notice(table, detail) {
    if (pending) during.push(detail);
    if (detail.reason !== "changed" || !detail.change) {
      unknown(detail);  // hello, gap, or a notice without its change
    } else {
      const outcome = apply(detail.change);
      if (outcome === "changed") show();
      if (outcome === "unknown") unknown(detail);
    }
  }

  let resizing = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(draw);
  });

  let polling = 0;
  function poll(on) {
    if (on && !polling) polling = window.setInterval(refresh, POLL_MS);
    if (!on && polling) {
      window.clearInterval(polling);
      polling = 0;
    }
  }

  // Live's socket: "open" (notices arrive), "closed" (it retries; poll meanwhile) or "refused"
  // (final, e.g. logged out: reloading sends this screen to the login form).
  function liveStatus(state) {
    body.dataset.live = state;
    if (state === "refused") window.location.reload();
    poll(state !== "open");
  }

  draw();
  if (window.Live && typeof window.Live.watch === "function") {
    // The page's sequence: the first hello reads again only if the table changed since.
    window.Live.watch(Number(body.dataset.table), notice, {
      sequence: board.sequence,
      onStatus: liveStatus,
    });
  } else {
    poll(true);
  }
  window.Scoreboard = {
    refresh,
    state: () => ({ shoe: board.shoe, sequence: board.sequence, results: board.results, roads: drawn }),
  };
})();
