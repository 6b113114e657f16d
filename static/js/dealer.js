/* The dealer's tablet. Everything shown comes from GET /api/tables/<id>/ once; every button POSTs
   one command through http.js with an Idempotency-Key (one key per tap, reused if the same tap is
   retried), then puts the answer in place (the parts of the state it changed, or the round's keys
   it patched) and redraws; an answer that does not follow the state shown reloads it. Refusals are
   shown as the server words them, in a banner across the top. The names of wagers, settlement
   steps and irregularities are the engine's, embedded in the page (#labels).
   The tablet's helps are parts of the state (tablegame.tablet), so each command's answer and
   notice carry them when they change and a tap reads nothing more: whom to offer the shoe or
   the player-dealer position (table.curator_offer, table.player_dealer), what the wagers commit
   of the bank (round.bank), the settlement of a complete coup before Settle (round.preview),
   each chair's Royal 9 combination (rules.royal9), and last round's wagers (repeat; the tablet
   leaves out those it cannot place again). A notice withholds the repeat (it is heard by every
   screen that follows the table): a notice that says so ("withheld") reloads the state.
   Every tap is applied in the order tapped or refused on the screen: its command waits in line
   behind those on their way (a refusal drops those still waiting, and the banner says how many);
   a command the server did not answer is sent again with its key, so it lands once. A seat shows
   its wagers as tapped (recorded, plus the chips on their way), and chips tapped while one is on
   its way go together in the next command. Controls stay the same elements across redraws
   (morph()): a press that spans a redraw still clicks. A control that appears where the finger
   just pressed is armed a moment later, so a double tap never also taps what replaced the control
   under it; a control whose command is waiting does not send it again.
   Live notices (live.js) and a gap in sequence numbers trigger a reload, so the screen never
   stays stale. */
"use strict";

(function () {
  const root = document.getElementById("tablet");
  const tableId = root.dataset.table;
  const api = `/api/tables/${tableId}/`;
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const CHIPS = ["5", "25", "100", "500", "1000", "5000"];
  const LABELS = JSON.parse(document.getElementById("labels").textContent);
  // Each suit's symbol by its letter (baccarat.cards.SUIT_SYMBOLS), in the order of the keys' rows.
  const SUITS = Object.entries(LABELS.suits);
  const wagerName = (type) => LABELS.wagers[type] || type;
  const shortName = (type) => LABELS.wagers_short[type] || wagerName(type);
  // The main wagers have a spot on every seat, marked as on the layout: the chip in hand goes
  // there with one tap.
  const SPOTS = Object.fromEntries(LABELS.main.map((t) => [t, LABELS.marks[t]]));
  // Every card, a key each: one tap enters it (the suits in rows, the ranks across).
  const DECK = SUITS.flatMap(([s]) => RANKS.map((r) => r + s));
  const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const stepName = (action) => LABELS.steps[action] || action;
  // The commands this person may give (the access policy); a supervisor's step is waited for.
  const MAY = new Set(JSON.parse(document.getElementById("commands").textContent));
  const waitFor = (who, where) => `Waiting for ${who}: ${where}.`;
  let state = null;
  let help = null;  // the tablet's helps, from the state (helps())
  const line = [];  // commands tapped and not yet sent, in the order tapped
  let sending = false;  // a command is on its way
  const BUSY_TRIES = 3;  // a command on a busy table: sent at most this many times (post)
  const SKIP = Symbol("already sent");  // a chip whose cents went with an earlier tap's command
  // Chips tapped per "seat:type" and not yet recorded: cents waiting in line, and the amount the
  // command on its way sets (null: none on its way). The seat shows what was tapped.
  const tapped = new Map();
  // A control that appears where the finger pressed within the last second is armed a second
  // after that press: a double tap's second touch, or a quick tap meant for the control it
  // replaced, never taps a different command.
  const ARM_MS = 1000;
  // A card key tapped is lit this long; a second touch while it is lit is a double tap (the next
  // card alike leaves the shoe later than that).
  const LIT_MS = 450;
  let tapping = null;  // the control whose tap is being handled (send() ties its command to it)
  let lastPress = null;  // where and when the screen was last pressed: { x, y, at }
  document.addEventListener("pointerdown", (e) => {
    lastPress = { x: e.clientX, y: e.clientY, at: performance.now() };
  }, { capture: true });
  // The card chosen for an irregularity. (A card key tapped is lit for LIT_MS: a second touch
  // while it is lit is a double tap, one card.)
  let pad = { card: null };
  const lit = new Set();  // the card keys lit by a tap this moment
  // The chip in hand: a seat's spot adds it; the chips of the wager pad choose it.
  let inHand = localStorage.getItem(`chip-in-hand:${tableId}`) || "25";
  let opening = false;  // a spot tapped between rounds opened the round: its command is in line
  let opens = false;  // a round may be opened now (the seats' spots open it)
  let voiding = false;  // the dealer asks to void the round in play
  let padRound = null;  // the round the pad was last drawn for
  let selectedSeat = null;
  const draft = { type: null, amount: "", bank: null };  // what is being typed survives redraws
  const declined = { shoe: [], position: [] };  // seats that declined the offer on screen
  let offeringShoe = false;  // the dealer holds the big table's shoe and offers it again
  let reporting = false;  // the coup is complete and the dealer reports a card in question
  let fixing = null;  // the card being corrected: { position, card, hand, right }
  const DEALT = ["dealing", "house_money"];  // the round's cards are being dealt
  const CORRECTABLE = [...DEALT, "complete"];

  const $ = (id) => document.getElementById(id);
  /* An element; its click runs node.act, which morph() hands on to the element kept on screen. */
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "onclick") {
        node.act = v;
        listen(node);
      }
      else if (k === "class") node.className = v;
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(c));
    return node;
  };
  /* A tappable element runs its ``act`` (replaced as it is redrawn); a tile answers the keyboard
     too. While a tap is handled, ``tapping`` is the element (send() ties its command to it). */
  function listen(node) {
    if (node.listening) return;
    node.listening = true;
    node.addEventListener("click", (e) => {
      if (node.disabled || node.waiting || !node.act) return;  // its command is still in line
      tapping = node;
      try { node.act(e); } finally { tapping = null; }
    });
    if (node.tagName !== "BUTTON") {  // a tile's Enter or Space is its click, with its guards
      node.addEventListener("keydown", (e) => {
        if ((e.key === "Enter" || e.key === " ") && node.getAttribute("role") === "button") {
          e.preventDefault();
          node.click();
        }
      });
    }
  }

  /* What identifies an element across redraws: its data-key, its id, or a button's words. */
  const keyOf = (node) => (node.nodeType !== 1 ? null
    : node.dataset.key || node.id || (node.tagName === "BUTTON" ? `button:${node.textContent}` : null));

  /* Make ``box``'s children ``fresh``, keeping each element already there that has the same key
     (or, without a key, the same tag in the same order): its attributes, words and action are
     brought up to date in place, so a control under a finger is never replaced. A new button
     that appears under the finger is armed a moment later (arm()). */
  function morph(box, fresh) {
    const old = [...box.childNodes];
    const byKey = new Map();
    for (const node of old) if (keyOf(node)) byKey.set(keyOf(node), node);
    const used = new Set();
    const born = [];
    const plain = old.filter((node) => !keyOf(node));
    const result = fresh.map((node) => {
      if (!(node instanceof Node)) node = document.createTextNode(String(node));
      const key = keyOf(node);
      const kept = key ? byKey.get(key) : plain.find((o) => !used.has(o) && o.nodeName === node.nodeName);
      if (!kept || used.has(kept) || kept.nodeName !== node.nodeName) {
        if (node.tagName === "BUTTON") born.push(node);
        return node;
      }
      used.add(kept);
      patch(kept, node);
      return kept;
    });
    for (const node of old) if (!result.includes(node)) node.remove();
    result.forEach((node, i) => { if (box.childNodes[i] !== node) box.insertBefore(node, box.childNodes[i] || null); });
    for (const node of born) if (underTheFinger(node)) arm(node);
  }

  /* Whether a control that just appeared is where the last press was, moments ago: then the
     second touch of a double tap would land on it. */
  function underTheFinger(node) {
    const since = lastPress ? performance.now() - lastPress.at : Infinity;
    if (since >= ARM_MS) return false;
    const r = node.getBoundingClientRect();
    const m = 12;  // a finger's second touch lands a few pixels off the first
    return lastPress.x >= r.left - m && lastPress.x <= r.right + m && lastPress.y >= r.top - m && lastPress.y <= r.bottom + m;
  }

  function patch(kept, node) {
    if (node.nodeType !== 1) {
      if (kept.data !== node.data) kept.data = node.data;
      return;
    }
    for (const { name } of [...kept.attributes]) {
      if (!node.hasAttribute(name) && !(name === "disabled" && kept.arming)) kept.removeAttribute(name);
    }
    for (const { name, value } of [...node.attributes]) {
      if (name === "disabled" && kept.arming) { kept.wantDisabled = true; continue; }
      const now = name === "class" && kept.arming ? `${value} arming` : value;
      if (kept.getAttribute(name) !== now) kept.setAttribute(name, now);
    }
    if (kept.arming && !node.hasAttribute("disabled")) kept.wantDisabled = false;
    kept.act = node.act;
    if (node.act) listen(kept);
    if (node.ontoggle) kept.ontoggle = node.ontoggle;
    morph(kept, [...node.childNodes]);
  }

  /* A control that appeared under the finger takes taps once a double tap's second touch is
     past (ARM_MS after the press); it is disabled until then, and drawn so. */
  function arm(node) {
    node.arming = true;
    node.wantDisabled = node.disabled;
    node.disabled = true;
    node.classList.add("arming");
    setTimeout(() => {
      node.arming = false;
      node.disabled = node.wantDisabled;
      node.classList.remove("arming");
    }, Math.max(0, ARM_MS - (performance.now() - lastPress.at)));
  }

  const money = (s) => `$${s}`;
  const cents = (s) => Math.round(Number(s || 0) * 100);
  const dollars = (n) => (n / 100).toFixed(2);
  const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const seatOf = (n) => state.seats.find((s) => s.number === n);
  /* Who sits at a seat, as the record names them: name, card number, or both. */
  const playerOf = (seat) => (seat.player && seat.card ? `${seat.player} · card ${seat.card}` : seat.player || (seat.card ? `card ${seat.card}` : ""));
  const seated = (seat) => Boolean(seat && (seat.player || seat.card));
  // On the seat's head, where room is short: the name, else the card.
  const shortPlayer = (seat) => seat.player || (seat.card ? `card ${seat.card}` : "");
  const seatName = (n) => {
    const seat = seatOf(n);
    return seated(seat) ? `seat ${n} (${playerOf(seat)})` : `seat ${n}`;
  };
  // The 24-hour deck change has come (000 §3(c)): new decks before the next round.
  const decksDue = () => Boolean(state.deck_change && state.deck_change.due);
  const inPlay = (game) => game && !["settled", "void"].includes(game.state);
  const helpIsCurrent = () => Boolean(help);

  async function load() {
    const answer = await Http.getJSON(api);
    if (!answer.ok) return showError(`Could not load the table: ${answer.error}`);
    // A read that left before a command's answer came back may arrive after it: older, not shown.
    if (state && answer.data.sequence < state.sequence) return;
    draw(answer.data);
  }

  /* Send one command, in line behind those tapped before it. ``body`` may be a function, read
     as the command leaves (a chip adds to the wager as it stands then; SKIP: nothing to send).
     The control tapped sends nothing more while its command waits (a double tap is one tap),
     unless ``again``: each tap of a chip or a card key is one more. */
  function send(route, body = {}, { again = false, after = null } = {}) {
    const control = again ? null : tapping;
    if (control) control.waiting = true;
    return new Promise((resolve) => {
      line.push({ route, body, key: Http.newKey(), done: (ok) => {
        if (control) control.waiting = false;
        if (after) after(ok);
        resolve(ok);
      } });
      pump();
    });
  }

  async function pump() {
    if (sending) return;
    sending = true;
    document.body.classList.add("busy");
    try {
      while (line.length) {
        const command = line.shift();
        const ok = await post(command);
        command.done(ok);
        if (!ok && line.length) {  // the rest were tapped on what the server just refused
          const dropped = line.splice(0);
          for (const d of dropped) d.done(false);
          const said = $("error").hidden ? "" : $("error").textContent.replace(/^⚠ /, "");
          showError(`${said} ${dropped.length === 1 ? "The tap after it was" : `The ${dropped.length} taps after it were`} not sent.`.trim());
        }
      }
    } finally {
      sending = false;
      document.body.classList.remove("busy");
    }
  }

  /* One command: sent again with the same key when no answer came (it lands once), and when
     the table was busy (503: nothing was done, the key is unspent), after the server's
     Retry-After, up to BUSY_TRIES times in all. */
  async function post({ route, body, key }) {
    const data = typeof body === "function" ? body() : body;
    if (data === SKIP) return true;
    if (data === null) return false;
    let answer = null;
    let busy = 0;
    for (const wait of [0, 300, 1000, 2500]) {
      if (wait) await new Promise((r) => setTimeout(r, wait));
      answer = await Http.post(api + route, data, { key });
      while (answer.status === 503 && answer.retryAfter !== null && ++busy < BUSY_TRIES) {
        await new Promise((r) => setTimeout(r, answer.retryAfter * 1000));
        answer = await Http.post(api + route, data, { key });
      }
      if (answer.status !== 0) break;
    }
    if (!answer.ok) {
      showError(answer.status === 0
        ? `${answer.error} The screen shows what the server has recorded.` : answer.error);
      if (!answer.loggedOut) load();  // not waited for: the control tapped takes taps again now
      return false;
    }
    showError(null);
    // Its notice may have come first, with the same change: then it is shown already.
    if (state && answer.data.sequence <= state.sequence) return true;
    const next = applyAnswer(state, answer.data);
    if (next) draw(next);
    else await load();  // something happened in between that this tablet has not seen
    return true;
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

  /* The helps, from the state the tablet holds. */
  function helps() {
    const t = state.table, game = state.round;
    const playing = inPlay(game) ? game : null;
    return {
      curator: t.curator_offer ? { seat: t.curator_seat, offer: t.curator_offer } : null,
      player_dealer: t.player_dealer ? { ...t.player_dealer, seat: t.player_dealer_seat } : null,
      bank: playing ? playing.bank : null,
      preview: game && game.state === "complete" ? game.preview : null,
      repeat: repeatable(playing),
      royal9: state.rules.royal9,
    };
  }

  /* Last round's wagers that can be placed again: at seats still taken, not the player-dealer's,
     not already on the layout. */
  function repeatable(playing) {
    const sitting = new Set(state.seats.filter(seated).map((s) => s.number));
    const banker = playing ? playing.player_dealer_seat : state.table.player_dealer_seat;
    const taken = new Set((playing && playing.wagers ? playing.wagers : []).map((w) => `${w.seat}:${w.type}`));
    return (state.repeat || []).filter((w) => sitting.has(w.seat) && w.seat !== banker
      && !taken.has(`${w.seat}:${w.type}`));
  }

  function showError(message) {
    const box = $("error");
    box.hidden = !message;
    box.textContent = message ? `⚠ ${message}` : "";
  }

  /* The page's own dialog: a question with a text answer (null: cancelled), or only OK/Cancel
     when no ``label`` is given. */
  function ask(title, { label = null, value = "", ok = "OK" } = {}) {
    const dialog = $("ask");
    $("ask-title").textContent = title;
    $("ask-field").hidden = label === null;
    $("ask-label").textContent = label || "";
    $("ask-input").value = value;
    $("ask-input").required = label !== null;
    $("ask-ok").textContent = ok;
    dialog.returnValue = "";
    dialog.showModal();
    if (label !== null) $("ask-input").focus();
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => {
        if (dialog.returnValue !== "ok") return resolve(null);
        resolve(label === null ? true : $("ask-input").value.trim() || null);
      }, { once: true });
    });
  }

  /* Seat a player: a name, a card number or both, typed, or one of the players seated here last
     shoe or this one who are not seated now (the server's list, read as the dialog opens), tapped.
     Resolves to { player, card }, or null when cancelled. */
  function askPlayer(number) {
    const dialog = $("sit");
    $("sit-title").textContent = `Seat a player at seat ${number}`;
    $("sit-name").value = "";
    $("sit-card").value = "";
    $("sit-missing").hidden = true;
    $("sit-recent").hidden = true;
    $("sit-chips").replaceChildren();
    let picked = null;
    Http.getJSON(`${api}players/recent/`).then((answer) => {
      const players = answer.ok ? answer.data.players : [];
      if (!players.length || !dialog.open) return;
      $("sit-chips").replaceChildren(...players.map((p) => el("button", {
        type: "button", class: "recent-player", onclick: () => { picked = p; dialog.close("ok"); },
      }, playerOf(p))));
      $("sit-recent").hidden = false;
    });
    $("sit-ok").onclick = (event) => {
      if ($("sit-name").value.trim() || $("sit-card").value.trim()) return;
      event.preventDefault();  // neither: the dialog stays, and says what it needs
      $("sit-missing").hidden = false;
      $("sit-name").focus();
    };
    dialog.returnValue = "";
    dialog.showModal();
    $("sit-name").focus();
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => {
        if (dialog.returnValue !== "ok") return resolve(null);
        resolve(picked ? { player: picked.player || "", card: picked.card || "" }
          : { player: $("sit-name").value.trim(), card: $("sit-card").value.trim() });
      }, { once: true });
    });
  }

  function button(label, route, body, cls = "") {
    return el("button", { type: "button", class: `big ${cls}`, onclick: () => send(route, body()) }, label);
  }

  function input(id, attrs = {}) {
    return el("input", { id, ...attrs });
  }

  function field(label, control) {
    return el("label", { class: "field" }, el("span", {}, label), control);
  }

  function draw(next) {
    state = next;
    help = helps();
    const t = state.table, shoe = state.shoe, game = state.round;
    $("t-game").textContent = `${state.rules.title} · ${t.pit}${t.status === "open" ? "" : ` · ${t.status}`}`;
    const facts = $("t-shoe");
    facts.replaceChildren();
    const fact = (k, v) => facts.append(el("div", {}, el("dt", {}, k), el("dd", {}, String(v))));
    if (shoe) {
      fact("Shoe", `${shoe.number} · ${shoe.state_label}`);
      fact("Cards left", shoe.cards_left);
    } else {
      fact("Shoe", "none");
    }
    if (game) fact("Round", `${game.number}${game.simulated ? " (simulated)" : ""} · ${game.state_label}`);
    if (help && help.curator) {
      const holder = t.curator_seat;
      fact("Shoe held by", holder === null ? "nobody" : holder === 0 ? "the dealer" : `seat ${holder}`);
    }
    if (help && help.player_dealer) {
      const pd = t.player_dealer_seat;
      // The hands banked change only as a round is settled: the helps read last say them.
      const banked = pd !== null && help.player_dealer.seat === pd ? help.player_dealer.hands : null;
      const of = banked === null ? "" : `of ${help.player_dealer.rotation}`;
      const hand = banked === null ? "" : inPlay(game) ? ` · hand ${banked + 1} ${of}` : ` · ${banked} ${of} hands banked`;
      fact("Player-dealer", pd === null ? "nobody" : `seat ${pd}${hand}`);
    }
    if (state.deck_change && state.deck_change.due) fact("Decks", "CHANGE DUE");
    drawCall();
    drawNext();
    drawHands();
    drawSeats();
    drawSteps();
    drawMarkers();
  }

  /* "Last hand" and the shoe's end, in a banner nobody misses. */
  function drawCall() {
    const shoe = state.shoe, game = state.round;
    const box = $("call");
    let text = "", cls = "call";
    const cut = shoe && shoe.cut_card_round;
    if (cut && inPlay(game) && game.number === cut + 1) [text, cls] = ["LAST HAND of this shoe", "call last"];
    else if (cut && inPlay(game) && game.number === cut) [text, cls] = ["Cut card out: one more hand after this one", "call last"];
    else if (cut && !inPlay(game) && shoe.call === "last_hand") [text, cls] = ["Next round is the LAST HAND", "call last"];
    else if (shoe && shoe.call === "shoe_over" && !inPlay(game)) [text, cls] = ["Shoe over: collect markers, end the shoe", "call over"];
    else if (decksDue() && inPlay(game)) [text, cls] = ["Decks due for change: after this round, end the shoe", "call over"];
    else if (decksDue() && shoe) [text, cls] = ["Decks due for change (every 24 hours): end the shoe, bring new decks", "call over"];
    else if (decksDue()) [text, cls] = ["Decks due for change (every 24 hours): bring new decks", "call over"];
    box.hidden = !text;
    box.className = cls;
    box.textContent = text;
  }

  /* What to do next. Its controls and fields are morphed into place: a button that stays the
     same stays the same element, a field being typed in keeps its focus, its words and caret
     (the helps arriving, a live notice), and a new step's button is armed a moment later. */
  function setNext(title, detail, actions, form) {
    if ($("next-title").textContent !== title) $("next-title").textContent = title;
    if ($("next-detail").textContent !== (detail || "")) $("next-detail").textContent = detail || "";
    morph($("actions"), actions);
    morph($("next-form"), form || []);
  }

  function drawNext() {
    const t = state.table, shoe = state.shoe, game = state.round;
    root.dataset.phase = inPlay(game) ? game.state : "between";  // the board's columns follow it
    const playing = inPlay(game) ? game.number : null;
    if (playing !== padRound) {  // a new round: nothing chosen on the pad, its panels closed
      padRound = playing;
      pad = { card: null };
      voiding = false;
      $("card-pad").querySelector("details").open = false;
      $("pad-choice").textContent = "—";
      reporting = false;
    }
    $("card-pad").hidden = true;
    $("wager-pad").hidden = true;
    $("correction").hidden = true;
    $("voiding").hidden = true;
    opens = false;
    if (t.status !== "open") {
      return setNext("The table is closed", "", [button("Open the table", "open/", () => ({}))]);
    }
    if (inPlay(game)) return drawRound(game);
    if (help && help.curator && (t.curator_seat === null || (offeringShoe && t.curator_seat === 0))) return drawShoeOffer();
    if (help && help.player_dealer && t.player_dealer_seat === null) return drawPositionOffer();
    if (!shoe) return drawDecks();
    const steps = {
      received: ["Inspect the decks for defects", "shoe/inspect/", "Inspection done"],
      inspected: ["A floorperson verifies the inspection", "shoe/verify/", "Verified (floorperson)"],
      verified: ["Spread the cards for the first player", "shoe/spread/", "Cards spread"],
      spread: ["Turn face down, wash and stack", "shoe/wash/", "Washed and stacked"],
    };
    if (shoe.automatic_shuffler) {  // the batches are spread and washed apart (000 §4(d), 002 (d))
      steps.verified = ["Spread each batch apart for the first player", "shoe/spread/", "Both batches spread"];
      steps.spread = ["Turn each batch face down, wash and stack it apart", "shoe/wash/", "Batches washed and stacked"];
    }
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
    const due = decksDue();
    const over = shoe.call === "shoe_over" || due;
    opens = !over && MAY.has("open_round") && MAY.has("place_wager");
    if (opens) drawWagerPad(game);
    if (!over) actions.push(button("Place your bets: open the round", "round/open/", () => ({})));
    if (help && help.curator && t.curator_seat === 0 && !over) {  // the dealer holds it (004 §7(d))
      actions.push(el("button", { type: "button", class: "big secondary", onclick: () => { offeringShoe = true; declined.shoe = []; drawNext(); } },
        "Offer the shoe to the players"));
    }
    if (help && help.curator && t.curator_seat) {
      actions.push(button("Curator passes the shoe", "curator/pass/", () => ({ ordered: false }), "secondary"));
      actions.push(button("Pass the shoe (dealer's call)", "curator/pass/", () => ({ ordered: true }), "secondary"));
    }
    // Ending a shoe cannot be undone: the page asks first.
    actions.push(el("button", { type: "button", class: `big ${over ? "" : "secondary"}`, onclick: async () => {
      const left = shoe.cards_left;
      if (await ask(over ? "End the shoe?" : `End the shoe now, with ${left} cards left?`, { ok: "End the shoe" })) send("shoe/end/", {});
    } }, "End the shoe"));
    if (!shoe.cut_card_round) actions.push(button("Cut card came out before the next round", "shoe/cut-card/", () => ({}), "secondary"));
    const title = due ? "The decks are due for change: end the shoe"
      : over ? "The shoe is over: collect markers, then end it"
        : shoe.call === "last_hand" ? "Ready for the LAST HAND" : "Ready for the next round";
    const last = game && game.announcement ? `Last: ${game.announcement}` : "";
    setNext(title, due ? `Decks are changed at least every 24 hours. Collect markers, end the shoe, then bring new decks. ${last}`.trim()
      : last, actions);
  }

  function drawDecks() {
    const change = state.deck_change;
    const actions = [button("New decks received", "shoe/receive/", () => ({
      decks: Number($("decks").value), automatic_shuffler: Boolean($("asm") && $("asm").checked),
      preinspected: $("pre").checked,
    }))];
    if (change && !change.every_shoe && !change.due) {  // the decks in use: as many, as shuffled
      const inUse = change.decks ? ` (${change.decks}${change.automatic_shuffler ? ", automatic shuffler" : ""})` : "";
      actions.push(button(`Reshuffle the decks in use${inUse}`, "shoe/receive/", () => (change.decks
        ? { new_decks: false }
        : { decks: Number($("decks").value), automatic_shuffler: Boolean($("asm") && $("asm").checked), new_decks: false }
      ), "secondary"));
    }
    const due = change && change.due;
    const counts = decksAllowed(state.rules);
    const fields = [field("Decks", input("decks", { type: "number", min: 1, value: counts.usual }))];
    if (state.rules.shuffler_decks) fields.push(field("Automatic shuffler", input("asm", { type: "checkbox" })));
    fields.push(field("Pre-inspected and pre-shuffled", input("pre", { type: "checkbox" })));
    setNext(due ? "Bring new decks to the table" : "Bring decks to the table", due
      ? `The decks are due for change (every 24 hours): new decks only. ${counts.said}`
      : counts.said, actions, fields);
  }

  /* The decks this table's rules take: in a manual shoe, and with the automatic shuffler (both
     batches), as the Rules Submission on file says (rules.decks, rules.shuffler_decks). */
  function decksAllowed(rules) {
    const span = ([low, high]) => (low === high ? `${low}` : `${low} to ${high}`);
    const manual = rules.decks || [6, 8];
    let said = `${span(manual)} decks in the shoe`;
    if (rules.shuffler_decks) {
      said += rules.shuffler_batches
        ? `, or ${span(rules.shuffler_decks)} with the automatic shuffler (two equal batches of different backs, used by turns)`
        : `, or ${span(rules.shuffler_decks)} in the automatic shuffler`;
    }
    return { said: `${said}.`, usual: Math.min(Math.max(8, manual[0]), manual[1]) };
  }

  /* Big table: the shoe is offered seat by seat in the text's order (004 §7(b), §14(b)). */
  function drawShoeOffer() {
    if (!helpIsCurrent()) return setNext("Offer the shoe", "Reading whom to offer it to…", []);
    const order = help.curator.offer;
    const next = order.find((s) => !declined.shoe.includes(s));
    const lost = state.round && state.round.state === "settled" && state.round.winner === "player"
      && state.round.curator_seat ? `The Banker's hand lost: seat ${state.round.curator_seat} passes the shoe. ` : "";
    const said = lost + (declined.shoe.length ? `Declined: ${declined.shoe.map((s) => `seat ${s}`).join(", ")}.` : "");
    const take = (seat) => () => ({ seat, declined: order.slice(0, seat === null ? order.length : order.indexOf(seat)) });
    if (next === undefined) {
      return setNext("Nobody takes the shoe", `${said} The dealer deals the shoe.`, [
        offeringShoe
          ? el("button", { type: "button", class: "big", onclick: () => { offeringShoe = false; drawNext(); } }, "The dealer keeps the shoe")
          : button("The dealer takes the shoe", "curator/", take(null)),
        el("button", { type: "button", class: "big secondary", onclick: () => { declined.shoe = []; drawNext(); } }, "Offer again"),
      ]);
    }
    setNext(`Offer the shoe to ${seatName(next)}`,
      `${said} In order: ${order.map((s) => `seat ${s}`).join(", ")}.`.trim(), [
        el("button", { type: "button", class: "big", onclick: async () => {
          if (await send("curator/", take(next)())) { declined.shoe = []; offeringShoe = false; }
        } }, `Seat ${next} takes the shoe`),
        el("button", { type: "button", class: "big secondary", onclick: () => { declined.shoe.push(next); drawNext(); } },
          `Seat ${next} declines`),
      ]);
  }

  /* California: the player-dealer position, offered clockwise; it rotates every two hands (001). */
  function drawPositionOffer() {
    if (!helpIsCurrent()) return setNext("Offer the player-dealer position", "Reading whom to offer it to…", []);
    const pd = help.player_dealer;
    // Clockwise from the last player-dealer, and round again to them (001: offered continuously).
    const order = pd.again === null || pd.again === undefined ? pd.offer : [...pd.offer, pd.again];
    const takeIt = (seat) => el("button", { type: "button", class: "big", onclick: async () => {
      const before = pd.first ? [] : order.slice(0, order.indexOf(seat));
      if (await send("player-dealer/", { seat, declined: before })) declined.position = [];
    } }, `Seat ${seat} takes the position`);
    if (pd.first) {
      if (!pd.offer.length) return setNext("Seat the players", "The player-dealer is one of the seated players.", []);
      return setNext("Who banks the game?", "The player-dealer position: any seated player may take it first. "
        + "The house does not bank: no wagers until a player takes it.", pd.offer.map(takeIt));
    }
    const next = order.find((s) => !declined.position.includes(s));
    const was = state.round && state.round.state === "settled" && state.round.player_dealer_seat;
    const moved = was ? `Seat ${was} banked ${pd.rotation} hands: the position moves on clockwise. ` : "";
    const said = moved + (declined.position.length ? `Declined: ${declined.position.map((s) => `seat ${s}`).join(", ")}.` : "");
    if (next === undefined) {
      return setNext("Nobody takes the player-dealer position",
        (`${said} The house does not bank: no wagers until a player takes the position. `
        + "Keep offering it clockwise, as a player asks for it or sits down.").trim(), [
          el("button", { type: "button", class: "big", onclick: () => { declined.position = []; drawNext(); } },
            order.length ? `Offer it again, seat ${order[0]} first` : "Offer it again"),
        ]);
    }
    setNext(`Offer the player-dealer position to ${seatName(next)}`,
      `${said} Clockwise: ${order.map((s) => `seat ${s}`).join(", ")}.`.trim(), [
        takeIt(next),
        el("button", { type: "button", class: "big secondary", onclick: () => { declined.position.push(next); drawNext(); } },
          `Seat ${next} declines`),
      ]);
  }

  function drawShuffle(shoe) {
    const manual = ["plug", "riffle", "riffle", "turn", "strip", "cut"];
    const extra = { feathered: ["feather"], laced: ["lace"], laced_then_reshuffled: ["lace", "reshuffle"] };
    const procedure = state.rules.shuffle || "feathered";
    const steps = procedure === "wash_and_three_dealers"
      ? ["wash", "dealer_shuffle", "dealer_shuffle", "dealer_shuffle", ...manual]
      : [...manual, ...(extra[procedure] || [])];
    if (shoe.automatic_shuffler) {  // the machine shuffles this batch; the other waits in it
      return setNext("Shuffle in the automatic shuffler",
        `This shoe deals ${shoe.back_colour || "one batch"} (${shoe.decks} decks); the other batch waits in the shuffler for the next shoe.`,
        [button("Shuffled by the machine", "shoe/shuffle/", () => ({ machine: true }))]);
    }
    const actions = [button(`Shuffled: ${steps.join(", ")}`, "shoe/shuffle/", () => ({ steps }))];
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
    const seats = state.seats.filter(seated).map((s) => s.number);
    const who = el("select", { id: "cutter" }, el("option", { value: "" }, "The dealer cuts"),
      ...seats.map((n) => el("option", { value: n }, `Seat ${n}`)));
    setNext("Offer the cut", `Offer it in order: ${(shoe.cut_offer || []).join(", ") || "dealer cuts"}.`, [
      button("Cut made", "shoe/cut/", () => {
        const seat = $("cutter").value ? Number($("cutter").value) : null;
        const order = shoe.cut_offer || [];
        const before = seat === null ? order : order.slice(0, order.indexOf(seat));
        return { seat, declined: before, position: Number($("pos").value), cover_from_back: Number($("cover").value) };
      }),
    ], [
      field("Accepted by", who),
      field("Cover card, cards from the top", input("pos", { type: "number", value: 60 })),
      field("Second cover card, from the back", input("cover", { type: "number", value: 16 })),
    ]);
  }

  /* The cut card comes out during a hand: recorded then, the hand is completed and the next is
     the last (000 §9(e), 002, 004 §9(d)). */
  function cutCardOut() {
    if (!state.shoe) return [];
    if (!state.shoe.cut_card_round) return [button("Cut card came out", "shoe/cut-card/", () => ({}), "secondary")];
    // Recorded: the button stays, done, so nothing below it moves under the dealer's finger.
    return [el("button", { type: "button", class: "big secondary", disabled: "disabled", "data-key": "cut-card-done" },
      state.round && state.shoe.cut_card_round === state.round.number ? "Cut card out: one more hand" : "Cut card out")];
  }

  /* A round dealt may be voided (the shoe ran out, or a floorperson approves): the panel asks. */
  function voidRound() {
    return MAY.has("void_round") && !voiding ? [el("button", { type: "button", class: "big secondary", onclick: () => {
      voiding = true;
      draw(state);
    } }, "Void the round…")] : [];
  }

  function drawRound(game) {
    if (game.state !== "complete") reporting = false;
    if (fixing && !CORRECTABLE.includes(game.state)) fixing = null;
    if (fixing) drawCorrection(game);
    if (voiding && !DEALT.includes(game.state)) voiding = false;
    if (voiding) drawVoiding();
    if (game.state === "betting") {
      const last = state.shoe && state.shoe.cut_card_round && game.number === state.shoe.cut_card_round + 1;
      const actions = [button("No more bets", "round/no-more-bets/", () => ({}), "stop")];
      const again = helpIsCurrent() ? help.repeat : [];
      if (again.length) {
        actions.push(el("button", { type: "button", class: "big secondary", id: "repeat", "data-wagers": JSON.stringify(again), onclick: () => {
          // The last command holds the button: a second tap while they are in line is none.
          again.forEach((w, i) => send("round/wagers/", { seat: w.seat, type: w.type, amount: w.amount },
            { again: i < again.length - 1 }));
        } }, `Repeat last round's wagers (${again.length})`));
      }
      drawWagerPad(game);
      return setNext(last ? "Place your bets: LAST HAND" : "Place your bets",
        "P, B or T on a seat: the chip in hand. Other wagers: tap the seat.",
        actions, bankForm(game));
    }
    if (game.state === "complete" && game.simulated) {
      return setNext(`Simulated round: ${game.announcement}`, "No wagers to settle. Put its cards in the discard rack.", [
        button("Cards in the discard rack", "round/settle/", () => ({})),
      ]);
    }
    if (game.state === "dealing") {
      $("card-pad").hidden = fixing !== null || voiding;
      $("pad-expected").textContent = game.expected;
      drawPad();
      if (game.simulated) {  // 000 §13(c)(2), (d): no wagers
        return setNext(`Simulated round: ${game.expected}`, "No wagers. The disclosed card is its first card; "
          + "deal it by the rules, then its cards go to the discard rack and the round it interrupted goes on.", cutCardOut());
      }
      return setNext(game.expected || "Deal", MAY.has("correct_card")
        ? "Tap each card as dealt. Mis-keyed: tap it in its hand." : "Tap each card as dealt.",
        [...cutCardOut(), ...voidRound()]);
    }
    if (game.state === "house_money") {  // on the first four cards' pairs, before any third card
      const decided = game.house_money || [];
      const form = decided.map((w) => {
        const said = w.result === "win"
          ? `Seat ${w.seat}: House Money ${money(w.amount)} wins, pay ${money(w.payout)}`
          : `Seat ${w.seat}: House Money ${money(w.amount)} loses, collect it`;
        if (!w.ride_on.length) return el("p", { class: `hm hm-${w.result}`, "data-key": `hm:${w.seat}` }, said);
        const part = w.may_ride === w.payout ? "the payout" : `${money(w.may_ride)} of it`;
        return field(`${said}. Let ${part} ride on`, el("select", { id: `ride-${w.seat}` },
          el("option", { value: "" }, "No, pay it"),
          ...w.ride_on.map((t) => el("option", { value: t }, `the ${wagerName(t)} wager`))));
      });
      const rides = () => ({
        // A wager may ride only where it won (the server says where: ride_on).
        rides: Object.fromEntries(decided.filter((w) => w.ride_on.length).map((w) => [w.seat, $(`ride-${w.seat}`).value || null])),
      });
      return setNext("Settle House Money before any third card",
        "From the dealer's right, counterclockwise: collect the losing wagers, then pay the winners.", [
          button("House Money settled", "round/house-money/", rides),
          ...cutCardOut(),
          ...voidRound(),
        ], form);
    }
    if (game.state === "complete") {
      if (reporting && !fixing) {
        $("card-pad").hidden = false;
        $("pad-expected").textContent = "the card in question";
        $("card-pad").querySelector("details").open = true;
        drawPad();
      }
      return setNext(game.announcement, `${game.drawing}.`, [
        button("Settle", "round/settle/", () => ({})),
        el("button", { type: "button", class: "big secondary", onclick: () => {
          reporting = !reporting;
          drawNext();
          drawSteps();
        } }, reporting ? "No irregularity" : "Irregularity with a card"),
        ...cutCardOut(),
      ]);
    }
    setNext(game.state_label, "", []);
  }

  /* A mis-keyed card: the right card, and a floorperson's approval (their name and password). */
  function drawCorrection(game) {
    $("correction").hidden = false;
    $("settlement").hidden = true;
    const hand = fixing.hand === "player" ? "Player" : "Banker";
    $("c-title").textContent = `Correct card ${fixing.position}, ${face(fixing.card)} to the ${hand}: `
      + `${fixing.right ? face(fixing.right) : "which card was it?"}`;
    morph($("c-deck"), deckKeys((card) => { fixing.right = card; drawCorrection(game); }, fixing.right));
    onTap($("c-send"), async () => {
      if (!fixing.right) return showError("Tap the card that was dealt.");
      const body = {
        position: fixing.position, card: fixing.right, reason: $("c-why").value.trim(),
        floorperson: $("c-who").value.trim(), password: $("c-pass").value,
      };
      $("c-pass").value = "";
      const done = await send("round/corrections/", body);
      if (done) {
        fixing = null;
        $("c-why").value = "";
        drawNext();
        drawSteps();
      }
    });
    onTap($("c-cancel"), () => { fixing = null; drawNext(); drawSteps(); });
  }

  /* Voiding the round in play: a reason, and a floorperson's approval unless the shoe ran out
     (000 §13(e)); every wager is returned. */
  function drawVoiding() {
    $("voiding").hidden = false;
    $("card-pad").hidden = true;
    onTap($("v-send"), async () => {
      const body = { reason: $("v-why").value.trim() };
      const who = $("v-who").value.trim();
      if (who) Object.assign(body, { floorperson: who, password: $("v-pass").value });
      $("v-pass").value = "";
      if (await send("round/void/", body)) {
        voiding = false;
        $("v-why").value = "";
        $("v-who").value = "";
        draw(state);
      }
    });
    onTap($("v-cancel"), () => { voiding = false; draw(state); });
  }

  /* California: the player-dealer's bank, what the wagers already commit of it, the fees. */
  function bankForm(game) {
    if (game.player_dealer_seat === null || game.player_dealer_seat === undefined) return [];
    const bank = input("bank", { inputmode: "decimal", autocomplete: "off", value: draft.bank ?? (game.player_dealer_bank || "") });
    bank.addEventListener("input", () => { draft.bank = bank.value; });
    const parts = [
      field(`Seat ${game.player_dealer_seat} banks`, bank),
      el("button", { type: "button", class: "big", id: "bank-set", onclick: () => send("round/player-dealer-bank/", () => ({ bank: $("bank").value.trim() })).then((ok) => { if (ok) draft.bank = null; }) },
        game.player_dealer_bank ? "Change the bank" : "Record the bank"),
    ];
    const b = helpIsCurrent() && help.bank;
    if (b) {
      const lines = [];
      if (b.bank) {
        lines.push(el("span", { id: "bank-commit" }, `Bank ${money(b.bank)}: the wagers commit ${money(b.committed)}`
          + (b.worst_when && cents(b.committed) > 0 ? ` (at worst, ${b.worst_when})` : "") + `, ${money(b.free)} free.`));
        if (cents(b.short) > 0) lines.push(el("strong", { class: "short" }, ` ${money(b.short)} of the action is beyond the bank: returned uncovered.`));
      } else {
        lines.push(el("strong", { class: "short" }, "Record the bank before no more bets."));
      }
      const f = help.player_dealer && help.player_dealer.fees;
      if (f) lines.push(el("span", { id: "bank-fees" }, ` Fees this hand: ${money(b.fees)} (${money(f.player)} a bet, ${money(f.player_dealer)} the player-dealer's).`));
      parts.push(el("p", { class: "bank-figures" }, ...lines));
    }
    return parts;
  }

  function wagerAt(seat, type) {
    return state.round.wagers.find((w) => w.seat === seat && w.type === type);
  }

  /* The wager pad: while betting, the seat tapped, its wager, chips and an exact amount; between
     rounds, the chips only (the chip in hand for the seats' spots). */
  function drawWagerPad(game) {
    const between = !inPlay(game);
    const pd = between ? state.table.player_dealer_seat : game.player_dealer_seat;
    if (between || (selectedSeat !== null && (!seated(seatOf(selectedSeat)) || selectedSeat === pd))) selectedSeat = null;
    $("wager-pad").hidden = false;
    $("w-types").hidden = between;
    $("wager-pad").querySelector(".exact").hidden = between;
    const seat = selectedSeat;
    $("w-seat").textContent = between ? "Chips for the next round" : seat === null ? "Tap a seat to take its wagers" : `Seat ${seat}: ${playerOf(seatOf(seat))}`;
    const limit = draft.type && state.limits[draft.type];
    if (limit && limit.minimum !== limit.maximum) {
      $("w-seat").append(el("small", { id: "w-limit" }, `${money(limit.minimum)} to ${money(limit.maximum)}`));
    }
    const offered = state.rules.wagers;
    if (draft.type && !offered.includes(draft.type)) draft.type = null;
    morph($("w-types"), offered.map((w) => el("button", {
      type: "button", class: `type${draft.type === w ? " on" : ""}`, "data-type": w, "data-key": `type:${w}`,
      "aria-pressed": draft.type === w ? "true" : "false",
      onclick: () => { draft.type = w; drawWagerPad(state.round); },
    }, shortName(w))));
    const ready = seat !== null && draft.type !== null;
    const fixed = limit && limit.minimum === limit.maximum ? limit.minimum : null;
    if (fixed) {  // a wager of one amount (Royal 9): one chip places it
      morph($("chips"), [el("button", {
        type: "button", class: "chip fixed", disabled: ready ? null : "disabled", "data-key": "chip:fixed",
        onclick: () => send("round/wagers/", { seat, type: draft.type, amount: fixed }),
      }, `${wagerName(draft.type)} ${money(fixed)}`)]);
    } else {  // a chip: added to the seat's wager chosen, and taken in hand for the spots
      morph($("chips"), CHIPS.map((c) => el("button", {
        type: "button", class: `chip${inHand === c ? " in" : ""}`, "data-key": `chip:${c}`,
        onclick: () => {
          if (inHand !== c) {
            inHand = c;
            localStorage.setItem(`chip-in-hand:${tableId}`, c);
          }
          if (ready) addChip(seat, draft.type, cents(c));
          drawWagerPad(state.round);
          drawSeats();
        },
      }, `+${c}`)));
    }
    $("in-hand").hidden = Boolean(fixed) || seat !== null;  // a seat chosen: its chips add to it
    $("in-hand").textContent = between ? `In hand: $${inHand}. P, B or T on a seat places it and opens the round.`
      : ready ? `Chips add to seat ${seat}'s ${shortName(draft.type)}; $${inHand} in hand for the spots.`
        : `In hand: $${inHand} for the P, B and T spots.`;
    const amount = $("w-amount");
    if (amount.value !== draft.amount) amount.value = draft.amount;
    amount.oninput = () => { draft.amount = amount.value; };
    $("w-take").disabled = !ready;
    $("w-amount").hidden = $("w-take").hidden = Boolean(fixed);
    $("w-take").textContent = ready && wagerAt(seat, draft.type) ? "Change to this amount" : "Take the wager";
    onTap($("w-take"), async () => {
      if (await send("round/wagers/", { seat, type: draft.type, amount: amount.value.trim() })) {
        draft.amount = "";
        amount.value = "";
      }
    });
    const mine = seat === null || between ? [] : game.wagers.filter((w) => w.seat === seat);
    const actions = mine.map((w) => el("button", {
      type: "button", class: "small withdraw", "data-key": `withdraw:${w.type}`,
      onclick: () => send("round/wagers/withdraw/", { seat, type: w.type }),
      "aria-label": `Withdraw ${wagerName(w.type)} ${money(w.amount)}`,
    }, `Withdraw ${shortName(w.type)}`));
    if (seat !== null) {
      actions.push(el("button", { type: "button", class: "small", "data-key": "leave", onclick: async () => {
        if (await ask(`Seat ${seat} leaves the table?`, { ok: "The player leaves" })) send(`seats/${seat}/leave/`, {});
      } }, "Player leaves"));
    }
    morph($("w-seat-actions"), actions);
  }

  /* A chip tapped on a seat's wager: shown on the seat at once, sent in line. Chips tapped while
     a command is on its way go together in the next one (what it sets: the wager as recorded,
     plus every chip tapped since). */
  function addChip(seat, type, chip) {
    const where = `${seat}:${type}`;
    const chips = tapped.get(where) || { waiting: 0, flying: null };
    tapped.set(where, chips);
    chips.waiting += chip;
    drawSeats();
    send("round/wagers/", () => {
      if (!chips.waiting) return SKIP;  // it went with an earlier tap's command
      const now = wagerAt(seat, type);
      chips.flying = cents(now && now.amount) + chips.waiting;
      chips.waiting = 0;
      return { seat, type, amount: dollars(chips.flying) };
    }, { again: true, after: (ok) => {
      chips.flying = null;
      if (!ok) chips.waiting = Math.max(0, chips.waiting - chip);  // refused, or dropped after a refusal
      if (!chips.waiting && tapped.get(where) === chips) tapped.delete(where);
      if (state && state.round) drawSeats();
    } });
  }

  /* A spot's tap: the chip in hand on the seat's wager. Between rounds the first spot tapped
     opens the round (its command goes first, in line). */
  function placeChip(seat, type) {
    if (!inPlay(state.round) && !opening) {
      opening = true;
      send("round/open/", {}, { again: true, after: () => { opening = false; } });
    }
    addChip(seat, type, cents(inHand));
  }

  /* The amount a seat shows for a wager: as recorded, or as tapped while chips are on their way. */
  function shownCents(seat, type, recorded) {
    const chips = tapped.get(`${seat}:${type}`);
    if (!chips) return recorded;
    return (chips.flying ?? recorded) + chips.waiting;
  }

  /* A static control's tap: runs ``act`` as a tap of that control (send() ties its command to it). */
  function onTap(node, act) {
    listen(node);
    node.act = act;
  }

  /* The 52 keys of a card pad: ``chosen`` is drawn as chosen; a tap runs ``pick(card)``. */
  function deckKeys(pick, chosen) {
    return DECK.map((code) => el("button", {
      type: "button", class: `key suit-${code.slice(-1)}${chosen === code ? " on" : ""}${lit.has(code) ? " just" : ""}`,
      "data-key": `card:${code}`, "data-card": code,
      "aria-label": `${code[0] === "T" ? "10" : code.slice(0, -1)} of ${SUIT_NAMES[code.slice(-1)]}`,
      onclick: () => pick(code),
    }, face(code)));
  }

  function drawPad() {
    const irregular = $("card-pad").querySelector("details");
    /* One tap, one card. With the irregularity panel open, the tap chooses the card in question
       instead. The same key tapped again within LIT_MS is a double tap: one card (a second card
       alike leaves the shoe later than that). */
    const pick = (card) => {
      if (irregular.open) {
        pad.card = card;
        $("pad-choice").textContent = `${face(card)}: now the irregularity`;
        return drawKeys();
      }
      if (lit.has(card)) {  // its second touch: the card is in already
        $("pad-choice").textContent = `${face(card)} once (tapped twice at once)`;
        return;
      }
      lit.add(card);  // lit a moment: the tap is in
      drawKeys();
      setTimeout(() => { lit.delete(card); drawKeys(); }, LIT_MS);
      $("pad-choice").textContent = `${face(card)} sent`;
      send("round/cards/", { card }, { again: true }).then((dealt) => {
        if (!dealt && $("pad-choice").textContent === `${face(card)} sent`) $("pad-choice").textContent = `${face(card)} not dealt`;
      });
    };
    const drawKeys = () => morph($("deck"), deckKeys(pick, irregular.open ? pad.card : null));
    drawKeys();
    irregular.ontoggle = () => {
      pad.card = null;
      $("pad-choice").textContent = irregular.open ? "the card, then the irregularity" : "—";
      drawKeys();
    };
    const report = (kind, disclosed, seen) => el("button", {
      type: "button", class: "big secondary", onclick: async () => {
        if (!pad.card) return showError("Tap the card first, then the irregularity.");
        const card = pad.card;
        pad.card = null;
        if (await send("round/irregularities/", { kind, card, disclosed })) {
          irregular.open = false;
          reporting = false;
          drawNext();
          drawSteps();
        }
      },
    }, capitalized(LABELS.irregularities[kind] || kind) + (seen ? `, ${seen}` : ""));
    morph($("irregular-actions"), [
      report("card_drawn_in_error", false, "not seen"),
      report("card_drawn_in_error", true, "seen"),
      report("unauthorized_player_third", false, "not seen"),
      report("unauthorized_player_third", true, "seen"),
      report("card_face_up", true, ""),
    ]);
  }

  function face(code) {
    const sym = LABELS.suits[code.slice(-1)];
    return `${code.slice(0, -1) === "T" ? "10" : code.slice(0, -1)}${sym}`;
  }

  /* A card of a hand; while the round is dealt, a tap starts its correction. */
  function cardFace(dealt, game) {
    const code = dealt.card;
    const red = code.endsWith("H") || code.endsWith("D");
    const cls = `playing${red ? " red" : ""}${fixing && fixing.position === dealt.position ? " fixing" : ""}`;
    if (!MAY.has("correct_card") || !CORRECTABLE.includes(game.state)) return el("span", { class: cls }, face(code));
    return el("button", {
      type: "button", class: cls, "data-position": dealt.position, "data-key": `card:${dealt.position}`,
      "aria-label": `Correct card ${dealt.position}, ${face(code)}`,
      onclick: () => {
        fixing = { position: dealt.position, card: code, hand: dealt.hand, right: null };
        drawNext();
        drawHands();
      },
    }, face(code));
  }

  function drawHands() {
    const game = state.round;
    const found = game && inPlay(game) ? game.irregularities || [] : [];
    // A card that started a simulated round: once that round is dealt, this one goes on.
    const said = (i) => (i.disposition === "simulated_round" && !game.simulated
      ? `${i.instruction} Done: this round goes on.` : i.instruction);
    $("irregularities").replaceChildren(...found.map((i) => el("li", {},
      el("strong", {}, `${capitalized(LABELS.irregularities[i.kind] || i.kind)}, ${face(i.card)}: `), said(i))));
    // Shown from "no more bets" on, before the first card: the pad below never jumps as it appears.
    const show = game && (game.cards.length || found.length || (inPlay(game) && game.state !== "betting"));
    $("hands").hidden = !show;
    const of = (hand) => (show ? game.cards.filter((c) => c.hand === hand).map((c) => cardFace(c, game)) : []);
    morph($("p-cards"), of("player"));
    morph($("b-cards"), of("banker"));
    if (!show) return;
    $("p-total").textContent = game.player_total ?? "";
    $("b-total").textContent = game.banker_total ?? "";
    const turning = DEALT.includes(game.state) && MAY.has("relinquish_cards");
    /* Who turns a hand's cards; the player may give up the right, or be made to (000 §8(d)):
       it passes counterclockwise, to the dealer if nobody takes it. */
    const turner = (hand, seat) => (seat ? [`Cards to seat ${seat} `, turning ? el("button", {
      type: "button", class: "small", "data-key": `relinquish:${hand}`,
      onclick: () => send("round/relinquish/", { hand }),
    }, `Seat ${seat} gives them up`) : ""] : []);
    morph($("p-turner"), turner("player", inPlay(game) && game.player_turner));
    morph($("b-turner"), turner("banker", inPlay(game) && game.banker_turner));
    // The announcement is the next step's title (or "Last: ..."), not said twice.
    $("announcement").textContent = "";
  }

  function drawSeats() {
    const game = state.round;
    const wagers = inPlay(game) ? game.wagers : [];
    const markers = state.markers;
    const betting = game && game.state === "betting";
    const pd = inPlay(game) ? game.player_dealer_seat : state.table.player_dealer_seat;
    const curator = state.table.curator_seat;
    const shares = seatShares();
    $("seats").style.gridTemplateColumns = shares.map((share) => `minmax(0, ${share}fr)`).join(" ");
    const fits = lineFits(shares);
    const main = state.rules.wagers.filter((w) => SPOTS[w]).sort((a, b) => LABELS.main.indexOf(a) - LABELS.main.indexOf(b));
    morph($("seats"), state.seats.map((seat) => {
      const mine = wagers.filter((w) => w.seat === seat.number);
      const owed = markers.filter((m) => m.seat === seat.number);
      const takes = betting && seated(seat) && seat.number !== pd;
      const spots = (betting || opens) && seated(seat) && seat.number !== pd && MAY.has("place_wager")
        ? [el("div", { class: "spots" }, ...main.map((type) => el("button", {
          type: "button", class: `spot s-${type}`, "data-key": `spot:${type}`, "data-type": type,
          "aria-label": `${wagerName(type)} at seat ${seat.number}: add the $${inHand} chip`,
          onclick: (e) => { e.stopPropagation(); placeChip(seat.number, type); },
        }, SPOTS[type])))] : [];
      const roles = [];
      if (pd === seat.number) roles.push(el("span", { class: "role" }, "Player-dealer"));
      if (curator && curator === seat.number) roles.push(el("span", { class: "role" }, "Holds the shoe"));
      const choose = () => {
        if (takes) { selectedSeat = seat.number; drawWagerPad(state.round); drawSeats(); }
      };
      /* The head: the seat's number and player (and role). While wagers are taken it is the
         button that chooses the seat for the wager pad; an empty seat's head holds the button
         that seats a player while the table is open. */
      const number = el("span", { class: "seat-no" }, String(seat.number));
      const head = takes
        ? el("button", { type: "button", class: "seat-head", "data-key": "head", onclick: choose,
          "aria-label": `Seat ${seat.number}, ${playerOf(seat)}: other wagers and amounts` },
        number, el("span", { class: "seat-who", title: playerOf(seat) }, shortPlayer(seat)), ...roles)
        : el("div", { class: "seat-head", "data-key": "head" }, number,
          !seated(seat) && state.table.status === "open" ? el("button", {
            type: "button", class: "small sit", onclick: async (e) => {
              e.stopPropagation();
              const player = await askPlayer(seat.number);
              if (player) send(`seats/${seat.number}/sit/`, player);
            },
            "aria-label": `Seat a player at seat ${seat.number}`,
          }, "+ Player") : el("span", { class: "seat-who", title: playerOf(seat) || null }, shortPlayer(seat) || "empty"), ...roles);
      return el("div", {
        class: `seat${seated(seat) ? "" : " empty"}${selectedSeat === seat.number ? " chosen" : ""}${takes ? " takes" : ""}`,
        "data-seat": seat.number, "data-key": `seat:${seat.number}`, onclick: choose,
      },
      head,
      ...wagersShown(seat.number, mine, fits),
      ...spots,
      ...owed.map((m) => el("div", { class: "owed" }, `Marker ${money(m.amount)}`)));
    }));
  }

  /* A seat's wagers as tapped: each recorded one (with the chips on their way added), then those
     whose first chips are still on their way (drawn dashed); ``fits`` tells whether a line fits
     a player's seat (lineFits). */
  function wagersShown(seat, mine, fits) {
    const recorded = new Map(mine.map((w) => [w.type, cents(w.amount)]));
    const onTheirWay = [...tapped.keys()].filter((where) => where.startsWith(`${seat}:`))
      .map((where) => where.split(":")[1]).filter((type) => !recorded.has(type));
    return [...recorded.keys(), ...onTheirWay].flatMap((type) => {
      const was = recorded.get(type) ?? 0;
      const shown = shownCents(seat, type, was);
      const sending = !recorded.has(type) || shown !== was;
      // One line; the amount is never cut short: a narrow seat cuts the wager's name from its
      // start (the line runs right to left, its words left to right). Dashed: on its way.
      const amount = money(dollars(shown));
      const name = fits(`${shortName(type)} ${amount}`) ? shortName(type) : LABELS.marks[type];
      return [el("div", { class: `wager w-${type}${sending ? " sending" : ""}`, title: `${wagerName(type)} ${amount}` },
        `${name} ${amount}`), ...(type === "royal9" ? royalOf(seat) : [])];
    });
  }

  /* The seats' columns, as shares of the row: a big table's seats in two rows, a mini table's
     in one, a player's seat twice as wide as an empty one. */
  function seatShares() {
    if (state.seats.length > 9) return Array(Math.ceil(state.seats.length / 2)).fill(1);
    return state.seats.map((seat) => (seated(seat) ? 2 : 1));
  }

  /* Whether a wager's line fits a player's seat as the seats are laid out now (else the wager is
     named by its mark: B $1000.00); the room and the font are read once, the lines measured. */
  function lineFits(shares) {
    const box = $("seats");
    const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
    const share = Math.max(...shares);  // a player's seat
    // Less the tile's border and padding and the line's padding, with a few pixels to spare.
    const room = (box.clientWidth - gap * (shares.length - 1)) * share / shares.reduce((a, b) => a + b, 0) - 16;
    lineFits.canvas = lineFits.canvas || document.createElement("canvas").getContext("2d");
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    lineFits.canvas.font = `${0.78 * rem}px ${getComputedStyle(box).fontFamily}`;
    return (text) => lineFits.canvas.measureText(text).width <= room;
  }

  /* A chair with a Royal 9 wager: its Personal King-9 combination, pre-printed on the layout. */
  function royalOf(seat) {
    const royal = help && help.royal9;
    if (!royal || !royal.personal[seat]) return [];
    const cards = royal.personal[seat].map(face).join(" ");
    return [el("div", { class: "personal", title: `Personal King-9: ${cards}` }, cards)];
  }

  function drawSteps() {
    const game = state.round;
    if (fixing || (reporting && game && game.state === "complete")) {
      $("settlement").hidden = true;
      return;
    }
    let steps = game ? game.steps : [];
    let title = "Settlement, in order";
    if (game && game.state === "complete" && helpIsCurrent() && help.preview) {
      steps = help.preview;
      title = "To settle, in order";
    } else if (game && game.state === "settled") {
      title = `Round ${game.number} settled, in order`;
    } else if (game && game.state === "void") {
      title = `Round ${game.number} void: every wager returned`;
    }
    $("settlement").hidden = !steps.length;
    $("settlement-title").replaceChildren(title, game && game.state === "complete"
      ? el("small", {}, "Collect the losing wagers first, then pay.") : "");
    // In columns, a line a step: a full big table's settlement fits beside nothing else.
    $("steps").replaceChildren(...steps.map((s) => el("li", { class: `step a-${s.action}` },
      el("strong", {}, stepName(s.action)), " ", el("span", { class: "st-seat" }, el("span", { class: "sr" }, "seat "), String(s.seat)), " ",
      s.type ? el("span", { title: wagerName(s.type) }, `${shortName(s.type)} `) : "", el("span", { class: "amt" }, money(s.amount)))));
  }

  function drawMarkers() {
    $("markers-card").hidden = !state.markers.length;
    morph($("markers"), state.markers.map((m) => el("li", { "data-key": `marker:${m.id}` },
      `Seat ${m.seat}${m.player ? ` (${m.player})` : ""}: ${money(m.amount)} `,
      el("button", { type: "button", class: "small", onclick: () => send(`markers/${m.id}/collect/`) }, "Collected"),
      el("button", { type: "button", class: "small secondary", onclick: async () => {
        const reason = await ask("Complimentary Vigorish Form", { label: "Why is the vigorish not collected?", ok: "Request the form" });
        if (reason) send(`markers/${m.id}/form/`, { reason });
      } }, "Vigorish form"))));
  }

  $("error").addEventListener("click", () => showError(null));

  load().then(() => {
    const shown = state ? { sequence: state.sequence } : {};
    // A notice for a change this tablet already shows (its own command's answer) is skipped.
    const onChange = (id, detail) => {
      if (detail && detail.reason === "changed" && state && detail.sequence <= state.sequence) return;
      // Another tablet's command: its answer rides on the notice; put it in place if it follows.
      // A notice never carries last round's wagers (every screen on the floor hears it): when it
      // withholds them (a settlement), the state is read again, as only this table's own may.
      const change = detail && detail.reason === "changed" ? detail.change : null;
      const next = change && change.changed && !(change.withheld && change.withheld.length)
        ? applyAnswer(state, change) : null;
      if (next) draw(next);
      else load();
    };
    if (window.Live && window.Live.watch) window.Live.watch(Number(tableId), onChange, shown);
    else setInterval(() => { if (!sending) load(); }, 5000);
  });
})();
