/* The dealer's tablet. Everything shown comes from GET /api/tables/<id>/ once; every button POSTs
   one command through http.js with an Idempotency-Key (one key per tap, reused if the same tap is
   retried), then puts the answer in place (the parts of the state it changed, or the round's keys
   it patched) and redraws; an answer that does not follow the state shown reloads it. Refusals are shown as the server words them. The names
   of wagers, settlement steps and irregularities are the engine's, embedded in the page (#labels).
   Live notices (live.js) and a gap in sequence numbers trigger a reload, so the screen never
   stays stale. */
"use strict";

(function () {
  const root = document.getElementById("tablet");
  const tableId = root.dataset.table;
  const api = `/api/tables/${tableId}/`;
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
  const LABELS = JSON.parse(document.getElementById("labels").textContent);
  const wagerName = (type) => LABELS.wagers[type] || type;
  const stepName = (action) => LABELS.steps[action] || action;
  // The commands this person may give (the access policy); a supervisor's step is waited for.
  const MAY = new Set(JSON.parse(document.getElementById("commands").textContent));
  const waitFor = (who, where) => `Waiting for ${who}: ${where}.`;
  let state = null;
  let busy = false;
  let pad = { rank: null, suit: null };
  let selectedSeat = null;
  const draft = { type: null, amount: "" };  // the wager being typed survives redraws

  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "onclick") node.addEventListener("click", v);
      else if (k === "class") node.className = v;
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(c));
    return node;
  };
  const money = (s) => `$${s}`;
  const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  async function load() {
    const answer = await Http.getJSON(api);
    if (!answer.ok) return showError(`Could not load the table: ${answer.error}`);
    draw(answer.data);
  }

  async function send(route, body = {}, key = Http.newKey()) {
    if (busy) return;
    busy = true;
    document.body.classList.add("busy");
    try {
      const answer = await Http.post(api + route, body, { key });
      if (!answer.ok) {
        showError(answer.error);
        if (answer.status && !answer.loggedOut) await load();
        return false;
      }
      showError(null);
      pad = { rank: null, suit: null };
      const next = applyAnswer(state, answer.data);
      if (next) draw(next);
      else await load();  // something happened in between that this tablet has not seen
      return true;
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  /* The state with a command's answer put in place; null when the answer's first event does not
     follow the state's last one (then the whole state is read again). */
  function applyAnswer(current, answer) {
    const first = answer.events && answer.events.length ? answer.events[0].sequence : null;
    if (!current || first !== current.sequence + 1) return null;
    const next = { ...current, sequence: answer.sequence };
    for (const name of answer.changed) next[name] = answer[name];
    for (const name of answer.patched) {
      if (!current[name] || current[name].number !== answer[name].number) return null;
      next[name] = { ...current[name], ...answer[name] };
    }
    return next;
  }

  function showError(message) {
    const box = $("error");
    box.hidden = !message;
    box.textContent = message || "";
  }

  function button(label, route, body, cls = "") {
    return el("button", { class: `big ${cls}`, onclick: () => send(route, body()) }, label);
  }

  function input(id, attrs = {}) {
    return el("input", { id, ...attrs });
  }

  function field(label, control) {
    return el("label", { class: "field" }, el("span", {}, label), control);
  }

  function draw(next) {
    state = next;
    const t = state.table, shoe = state.shoe, game = state.round;
    $("t-game").textContent = `${state.rules.title} · ${t.pit} · ${t.status}`;
    const facts = $("t-shoe");
    facts.replaceChildren();
    const fact = (k, v) => facts.append(el("dt", {}, k), el("dd", {}, String(v)));
    if (shoe) {
      fact("Shoe", `${shoe.number} · ${shoe.state_label}`);
      fact("Cards left", shoe.cards_left);
      if (shoe.cut_card_round) fact("Cut card", `out in round ${shoe.cut_card_round}`);
      if (shoe.call === "last_hand") fact("Call", "LAST HAND");
      if (shoe.call === "shoe_over") fact("Call", "Shoe over: reshuffle");
    } else {
      fact("Shoe", "none");
    }
    if (game) fact("Round", `${game.number}${game.simulated ? " (simulated)" : ""} · ${game.state_label}`);
    if (state.deck_change && state.deck_change.due) fact("Decks", "CHANGE DUE");
    drawNext();
    drawHands();
    drawSeats();
    drawSteps();
    drawMarkers();
  }

  function setNext(title, detail, actions, form) {
    $("next-title").textContent = title;
    $("next-detail").textContent = detail || "";
    $("actions").replaceChildren(...actions);
    $("next-form").replaceChildren(...(form || []));
  }

  function drawNext() {
    const t = state.table, shoe = state.shoe, game = state.round;
    $("card-pad").hidden = true;
    if (t.status !== "open") {
      return setNext("The table is closed", "", [button("Open the table", "open/", () => ({}))]);
    }
    if (game && !["settled", "void"].includes(game.state)) return drawRound(game);
    if (!shoe) {
      return setNext("Bring decks to the table", "Six to eight decks, or the shuffler's batches.", [
        button("Decks received", "shoe/receive/", () => ({
          decks: Number($("decks").value), automatic_shuffler: $("asm").checked,
          preinspected: $("pre").checked,
        })),
      ], [
        field("Decks", input("decks", { type: "number", min: 1, value: 8 })),
        field("Automatic shuffler", input("asm", { type: "checkbox" })),
        field("Pre-inspected and pre-shuffled", input("pre", { type: "checkbox" })),
      ]);
    }
    const steps = {
      received: ["Inspect the decks for defects", "shoe/inspect/", "Inspection done"],
      inspected: ["A floorperson verifies the inspection", "shoe/verify/", "Verified (floorperson)"],
      verified: ["Spread the cards for the first player", "shoe/spread/", "Cards spread"],
      spread: ["Turn face down, wash and stack", "shoe/wash/", "Washed and stacked"],
    };
    if (steps[shoe.state]) {
      const [title, route, label] = steps[shoe.state];
      if (shoe.state === "inspected" && !MAY.has("verify_inspection")) {
        return setNext(title, waitFor("a floorperson", "they verify it from the pit console"), []);
      }
      return setNext(title, "", [button(label, route, () => ({}))]);
    }
    if (shoe.state === "washed") return drawShuffle(shoe);
    if (shoe.state === "shuffled") return drawCut(shoe);
    if (shoe.state === "cut") {
      return setNext("Burn: expose the first card", "Then burn as many cards face down as it counts.",
        [button("Burn", "shoe/burn/", () => ({ first_card: $("first").value.trim() }))],
        [field("First card (e.g. 7H, KD)", input("first", { size: 4, autocomplete: "off" }))]);
    }
    const actions = [];
    if (shoe.call !== "shoe_over") actions.push(button("Place your bets: open the round", "round/open/", () => ({})));
    actions.push(button("End the shoe", "shoe/end/", () => ({}), "secondary"));
    if (!shoe.cut_card_round) actions.push(button("Cut card came out", "shoe/cut-card/", () => ({}), "secondary"));
    setNext(shoe.call === "shoe_over" ? "The shoe is over: collect markers, then end it" : "Ready for the next round",
      game && game.announcement ? `Last: ${game.announcement}` : "", actions);
  }

  function drawShuffle(shoe) {
    const manual = ["plug", "riffle", "riffle", "turn", "strip", "cut"];
    const extra = { feathered: ["feather"], laced: ["lace"], laced_then_reshuffled: ["lace", "reshuffle"] };
    const procedure = state.rules.shuffle || "feathered";
    const steps = procedure === "wash_and_three_dealers"
      ? ["wash", "dealer_shuffle", "dealer_shuffle", "dealer_shuffle", ...manual]
      : [...manual, ...(extra[procedure] || [])];
    const actions = [button(`Shuffled: ${steps.join(", ")}`, "shoe/shuffle/", () => ({ steps }))];
    if (shoe.automatic_shuffler) actions.push(button("Shuffled by the machine", "shoe/shuffle/", () => ({ machine: true })));
    setNext("Shuffle", "Plug, riffle twice, turn, strip, cut, and the table's procedure.", actions);
  }

  function drawCut(shoe) {
    if (shoe.needs_shuffle_verification) {
      if (!MAY.has("verify_shuffle")) {
        return setNext("A floorperson verifies the feathered shuffle",
          waitFor("a floorperson", "they verify it from the pit console"), []);
      }
      return setNext("A floorperson verifies the feathered shuffle", "",
        [button("Shuffle verified (floorperson)", "shoe/verify-shuffle/", () => ({}))]);
    }
    const seats = state.seats.filter((s) => s.player).map((s) => s.number);
    const who = el("select", { id: "cutter" }, el("option", { value: "" }, "The dealer cuts"),
      ...seats.map((n) => el("option", { value: n }, `Seat ${n}`)));
    setNext("Offer the cut", `Offer it in order: ${(shoe.cut_offer || []).join(", ") || "dealer cuts"}.`, [
      button("Cut made", "shoe/cut/", () => {
        const seat = $("cutter").value ? Number($("cutter").value) : null;
        const order = shoe.cut_offer || [];
        const declined = seat === null ? order : order.slice(0, order.indexOf(seat));
        return { seat, declined, position: Number($("pos").value), cover_from_back: Number($("cover").value) };
      }),
    ], [
      field("Accepted by", who),
      field("Cover card, cards from the top", input("pos", { type: "number", value: 60 })),
      field("Second cover card, cards from the back", input("cover", { type: "number", value: 16 })),
    ]);
  }

  function drawRound(game) {
    if (game.state === "betting") {
      return setNext("Place your bets", "Tap a seat to take its wager.", [
        button("No more bets", "round/no-more-bets/", () => ({}), "stop"),
      ], wagerForm());
    }
    if (game.state === "dealing") {
      $("card-pad").hidden = false;
      $("pad-expected").textContent = game.expected;
      drawPad();
      return setNext(game.expected || "Deal", "Enter each card as it leaves the shoe.", []);
    }
    if (game.state === "house_money") {
      const hm = game.wagers.filter((w) => w.type === "house_money");
      const form = hm.map((w) => field(`Seat ${w.seat}: let the payout ride on`,
        el("select", { id: `ride-${w.seat}` }, el("option", { value: "" }, "No, pay it"),
          ...["player", "banker"].map((w) => el("option", { value: w }, `${wagerName(w)} wager`)))));
      return setNext("Settle House Money before any third card", "From the dealer's right, counterclockwise.", [
        button("House Money settled", "round/house-money/", () => ({
          rides: Object.fromEntries(hm.map((w) => [w.seat, $(`ride-${w.seat}`).value || null])),
        })),
      ], form);
    }
    if (game.state === "complete") {
      return setNext(game.announcement, `${game.drawing}. Collect losing wagers first, then pay in the order listed.`, [
        button("Settle", "round/settle/", () => ({})),
      ]);
    }
    setNext(game.state_label, "", []);
  }

  function wagerForm() {
    if (selectedSeat === null) return [];
    const offered = state.rules.wagers;
    const kind = el("select", { id: "w-type" }, ...offered.map((w) => el("option", {
      value: w, selected: draft.type === w ? "selected" : null,
    }, wagerName(w))));
    kind.addEventListener("change", () => { draft.type = kind.value; });
    const amount = input("w-amount", { inputmode: "decimal", placeholder: "100", value: draft.amount });
    amount.addEventListener("input", () => { draft.amount = amount.value; });
    const take = el("button", {
      class: "big",
      onclick: async () => {
        const ok = await send("round/wagers/", {
          seat: selectedSeat, type: kind.value, amount: amount.value.trim(),
        });
        if (ok) { draft.amount = ""; drawNext(); }
      },
    }, "Take the wager");
    return [el("h3", {}, `Seat ${selectedSeat}`), field("Wager", kind), field("Amount", amount), take];
  }

  function drawPad() {
    const choose = (part, value) => {
      pad[part] = value;
      $("pad-choice").textContent = `${pad.rank || "?"}${pad.suit || "?"}`;
      if (pad.rank && pad.suit) {
        const card = pad.rank + pad.suit;
        send("round/cards/", { card });
      }
      drawPad();
    };
    $("ranks").replaceChildren(...RANKS.map((r) => el("button", {
      class: `key${pad.rank === r ? " on" : ""}`, onclick: () => choose("rank", r),
    }, r === "T" ? "10" : r)));
    $("suits").replaceChildren(...SUITS.map(([s, sym]) => el("button", {
      class: `key suit-${s}${pad.suit === s ? " on" : ""}`, onclick: () => choose("suit", s),
    }, sym)));
    const irregular = (kind, disclosed, seen) => el("button", {
      class: "secondary", onclick: () => {
        if (!pad.rank || !pad.suit) return showError("Choose the card's rank and suit first, then the irregularity.");
        send("round/irregularities/", { kind, card: pad.rank + pad.suit, disclosed });
      },
    }, capitalized(LABELS.irregularities[kind] || kind) + (seen ? `, ${seen}` : ""));
    $("irregular-actions").replaceChildren(
      irregular("card_drawn_in_error", false, "not seen"),
      irregular("card_drawn_in_error", true, "seen"),
      irregular("unauthorized_player_third", false, "not seen"),
      irregular("unauthorized_player_third", true, "seen"),
      irregular("card_face_up", true, ""),
    );
  }

  function cardFace(code) {
    const red = code.endsWith("H") || code.endsWith("D");
    const sym = { S: "♠", H: "♥", D: "♦", C: "♣" }[code.slice(-1)];
    const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
    return el("span", { class: `playing${red ? " red" : ""}` }, rank, sym);
  }

  function drawHands() {
    const game = state.round;
    const show = game && game.cards.length;
    $("hands").hidden = !show;
    if (!show) return;
    $("p-cards").replaceChildren(...game.player.map(cardFace));
    $("b-cards").replaceChildren(...game.banker.map(cardFace));
    $("p-total").textContent = game.player_total ?? "";
    $("b-total").textContent = game.banker_total ?? "";
    $("p-turner").textContent = game.player_turner ? `Cards to seat ${game.player_turner}` : "";
    $("b-turner").textContent = game.banker_turner ? `Cards to seat ${game.banker_turner}` : "";
    $("announcement").textContent = game.announcement || "";
  }

  function drawSeats() {
    const game = state.round;
    const wagers = game && !["settled", "void"].includes(game.state) ? game.wagers : [];
    const markers = state.markers;
    $("seats").replaceChildren(...state.seats.map((seat) => {
      const mine = wagers.filter((w) => w.seat === seat.number);
      const owed = markers.filter((m) => m.seat === seat.number);
      const betting = game && game.state === "betting" && seat.player;
      return el("div", {
        class: `seat${seat.player ? "" : " empty"}${selectedSeat === seat.number ? " chosen" : ""}`,
        onclick: () => {
          if (betting) { selectedSeat = seat.number; drawNext(); drawSeats(); }
        },
      },
      el("div", { class: "seat-no" }, String(seat.number)),
      el("div", { class: "seat-who" }, seat.player || "empty"),
      ...mine.map((w) => el("div", { class: `wager w-${w.type}` }, `${wagerName(w.type)} ${money(w.amount)}`)),
      ...owed.map((m) => el("div", { class: "owed" }, `Marker ${money(m.amount)}`)),
      !seat.player && state.table.status === "open" ? el("button", {
        class: "small", onclick: (e) => {
          e.stopPropagation();
          const name = prompt(`Who sits at seat ${seat.number}?`);
          if (name) send(`seats/${seat.number}/sit/`, { player: name });
        },
      }, "Seat a player") : "");
    }));
  }

  function drawSteps() {
    const game = state.round;
    const steps = game ? game.steps : [];
    $("settlement").hidden = !steps.length;
    $("steps").replaceChildren(...steps.map((s) => el("li", { class: `step a-${s.action}` },
      el("strong", {}, stepName(s.action)), ` seat ${s.seat} `,
      s.type ? `${wagerName(s.type)} ` : "", el("span", { class: "amt" }, money(s.amount)))));
  }

  function drawMarkers() {
    $("markers-card").hidden = !state.markers.length;
    $("markers").replaceChildren(...state.markers.map((m) => el("li", {},
      `Seat ${m.seat}${m.player ? ` (${m.player})` : ""}: ${money(m.amount)} `,
      el("button", { class: "small", onclick: () => send(`markers/${m.id}/collect/`) }, "Collected"),
      el("button", { class: "small secondary", onclick: () => {
        const reason = prompt("Why is the vigorish not collected? (goes on the Complimentary Vigorish Form)");
        if (reason) send(`markers/${m.id}/form/`, { reason });
      } }, "Vigorish form"))));
  }

  load().then(() => {
    const shown = state ? { sequence: state.sequence } : {};
    // A notice for a change this tablet already shows (its own command's answer) is skipped.
    const onChange = (id, detail) => {
      if (detail && detail.reason === "changed" && state && detail.sequence <= state.sequence) return;
      // Another tablet's command: its answer rides on the notice; put it in place if it follows.
      const next = detail && detail.reason === "changed" && detail.change && detail.change.changed
        ? applyAnswer(state, detail.change) : null;
      if (next) draw(next);
      else load();
    };
    if (window.Live && window.Live.watch) window.Live.watch(Number(tableId), onChange, shown);
    else setInterval(() => { if (!busy) load(); }, 5000);
  });
})();
