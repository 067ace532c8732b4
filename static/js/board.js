// The match page's board (templates/play/_board.html): each drawn board fits its box, whole,
// when the page opens; a double tap, or the Zoom button, draws it at its own size (labels
// readable at 12 px), where it pans with a visible cue; once the board is fitted smaller than
// its own size its labels would fall under 12 px, so each is drawn at 12 px on screen where
// it fits in its box and the others wait for the zoom (every place keeps its name for
// assistive tools), and a building shows its short mark instead, named in a legend under
// the board. After every step (htmx swaps the board) the current
// decision's first target is scrolled into view. Without JavaScript the board keeps its drawn
// size and pans in its box.
(function () {
  "use strict";

  // The words it writes, from the page (templates/play/match.html: #board-words), in the
  // reader's language; English without them.
  function word(key, english) {
    const words = document.getElementById("board-words");
    return (words && words.dataset[key]) || english;
  }

  function scaleOf(svg) {
    const box = svg.viewBox && svg.viewBox.baseVal;
    if (!box || !box.width) return 1;
    return svg.getBoundingClientRect().width / box.width;
  }

  // The labels of a board fitted smaller than drawn, at 12 px on screen where they fit: each
  // is drawn larger (in the board's units) and shown only if it stays inside its box (the
  // topmost shape under its middle, a space, a card, a track's box; else the board, as
  // tests/e2e/test_board_captions.py reads a caption) and clear of the labels shown before
  // it, short ones first (a coordinate, a number, a code), so a phone reads what fits and
  // the zoom shows the rest (issue 41, item 5).
  function asDrawn(t) {
    const attributes = { "font-size": t.dataset.size, textLength: t.dataset.length, transform: t.dataset.transform };
    for (const [name, value] of Object.entries(attributes)) {
      if (value) t.setAttribute(name, value);
      else t.removeAttribute(name);
    }
  }

  function fitLabels(svg, fitted, scale) {
    const texts = Array.from(svg.querySelectorAll("text:not(.mark)"));
    texts.forEach((t) => {
      if (t.dataset.size === undefined) {
        t.dataset.size = t.getAttribute("font-size") || "";
        t.dataset.length = t.getAttribute("textLength") || "";
        t.dataset.transform = t.getAttribute("transform") || "";
      }
      t.classList.remove("fits");
      asDrawn(t);
    });
    if (!fitted || !(scale > 0)) return;
    const least = 12.5 / scale;
    const board = svg.getBoundingClientRect();
    const shapes = Array.from(svg.querySelectorAll("rect, ellipse, circle, polygon"))
      .map((e) => Object.assign(e.getBoundingClientRect().toJSON(), { element: e }))
      .filter((r) => r.width > 0 && r.height > 0);
    const taken = Array.from(svg.querySelectorAll("text.mark"))
      .filter((t) => t.getClientRects().length)
      .map((t) => t.getBoundingClientRect());
    const meets = (r, o) => r.right > o.left && r.left < o.right && r.bottom > o.top && r.top < o.bottom;
    const within = (r, o) => r.left >= o.left - 0.5 && r.right <= o.right + 0.5
      && r.top >= o.top - 0.5 && r.bottom <= o.bottom + 0.5;
    const boxOf = (r) => {
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const under = shapes.filter((o) => o.left <= x && x <= o.right && o.top <= y && y <= o.bottom
        && o.width * o.height > (r.width * r.height) / 4);
      return under.length ? under[under.length - 1] : board;
    };
    texts
      .filter((t) => t.textContent.trim())
      .sort((a, b) => a.textContent.trim().length - b.textContent.trim().length)
      .forEach((t) => {
        const drawn = parseFloat(t.dataset.size) || 12;
        t.setAttribute("font-size", String(Math.max(drawn, least)));
        t.removeAttribute("textLength");
        let r = t.getBoundingClientRect();
        const box = boxOf(r);
        if (r.width > 0 && r.width <= box.width && r.height <= box.height && !within(r, box)) {
          // Grown past its box's edge (a name at a card's top): moved back inside it.
          const dx = Math.max(box.left - r.left, 0) + Math.min(box.right - r.right, 0);
          const dy = Math.max(box.top - r.top, 0) + Math.min(box.bottom - r.bottom, 0);
          const moved = `translate(${dx / scale} ${dy / scale})`;
          t.setAttribute("transform", t.dataset.transform ? `${moved} ${t.dataset.transform}` : moved);
          r = t.getBoundingClientRect();
        }
        // ... and, on no box of its own, not under a shape drawn after it (a row's name
        // under the row's tiles).
        const own = boxOf(r);
        const covered = own === board && shapes.some((o) => meets(r, o)
          && t.compareDocumentPosition(o.element) & Node.DOCUMENT_POSITION_FOLLOWING);
        if (r.width > 0 && within(r, own) && !covered && !taken.some((o) => meets(r, o))) {
          t.classList.add("fits");
          taken.push(r);
          return;
        }
        asDrawn(t); // no room: as it was drawn, hidden until the zoom
      });
  }

  function update(scroll) {
    const svg = scroll.querySelector(":scope > svg.board-svg");
    if (!svg) return;
    const zoomed = scroll.classList.contains("zoomed");
    const scale = scaleOf(svg);
    scroll.classList.toggle("small-labels", !zoomed && scale < 0.995);
    // A building's mark, drawn instead of its name there: 12 px on screen (site.css).
    if (scale > 0) svg.querySelectorAll("text.mark").forEach((t) => { t.style.fontSize = `${12.5 / scale}px`; });
    fitLabels(svg, !zoomed && scale < 0.995, scale);
    scroll.classList.toggle("pans", scroll.scrollWidth > scroll.clientWidth + 1);
    const button = scroll.parentElement.querySelector(":scope > .zoom-bar button");
    if (button) {
      button.setAttribute("aria-pressed", zoomed ? "true" : "false");
      button.textContent = zoomed ? word("fit", "Fit the board") : word("zoomIn", "Zoom in");
      button.parentElement.hidden = !zoomed && !scroll.classList.contains("small-labels");
      button.nextElementSibling.hidden = !scroll.classList.contains("pans");
    }
  }

  function toggle(scroll) {
    scroll.classList.toggle("zoomed");
    update(scroll);
    reveal(scroll);
  }

  function setUp(scroll) {
    if (scroll.dataset.fitted) return;
    const svg = scroll.querySelector(":scope > svg.board-svg");
    if (!svg) return;
    scroll.dataset.fitted = "1";
    scroll.classList.add("fit");
    const bar = document.createElement("div");
    bar.className = "zoom-bar";
    bar.hidden = true;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "small";
    button.addEventListener("click", () => toggle(scroll));
    const cue = document.createElement("span");
    cue.className = "pan-cue";
    cue.textContent = word("pan", "Drag the board sideways to see the rest; double-tap to fit it.");
    bar.append(button, cue);
    scroll.before(bar);
    svg.addEventListener("dblclick", (event) => {
      event.preventDefault();
      toggle(scroll);
    });
    update(scroll);
  }

  function inView(element) {
    const r = element.getBoundingClientRect();
    const bar = document.getElementById("action-bar");
    const bottom = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
    return r.width > 0 && r.top >= 0 && r.bottom <= bottom && r.left >= 0 && r.right <= window.innerWidth;
  }

  // The current decision's first target (a place on the board, a piece beside it) or the
  // Confirm, scrolled into view unless one is already in view.
  function reveal(within) {
    const root = within || document.getElementById("board");
    if (!root) return;
    const targets = root.querySelectorAll(
      "svg a.target, [data-component] a[data-target], form[data-component], #confirm"
    );
    if (!targets.length || Array.from(targets).some(inView)) return;
    targets[0].scrollIntoView({ block: "center", inline: "center" });
  }

  // An amount (templates/play/_pieces.html): a tapped coin is the step, as a tapped place is;
  // the form's button (the total picked) is for keyboards and a page without JavaScript.
  document.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest("form.amount");
    const total = form && form.querySelector("output");
    if (!total || !event.target.checked) return;
    total.textContent = event.target.nextElementSibling.textContent;
    if (event.target.dataset.keyboard !== "1") form.requestSubmit();
  });
  // A trade at the market (templates/play/_pieces.html): once a chip of every choice is
  // tapped, the trade is the step; the button is for keyboards and without JavaScript.
  document.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest("form.trade");
    if (!form || !event.target.checked || event.target.dataset.keyboard === "1") return;
    const groups = new Set(Array.from(form.querySelectorAll("input[type=radio]"), (i) => i.name));
    const chosen = new Set(Array.from(form.querySelectorAll("input[type=radio]:checked"), (i) => i.name));
    if (chosen.size === groups.size) form.requestSubmit();
  });
  // The trades open over the market drawn on the board (templates/play/_pieces.html): with
  // JavaScript they wait out of sight until the market is tapped (or chosen by keyboard), then
  // sit at its bottom edge, as wide as the screen allows; Close, Escape, a tap elsewhere or
  // on the market again put them away. Without JavaScript the market links to them.
  function marketParts() {
    const trades = document.getElementById("market-trades");
    const opener = document.querySelector("#board svg a.market-open");
    return trades && opener ? { trades, opener } : null;
  }

  function placeMarket(parts) {
    const { trades, opener } = parts;
    const market = opener.getBoundingClientRect();
    const origin = (trades.offsetParent || document.body).getBoundingClientRect();
    const width = trades.offsetWidth;
    const left = Math.max(8, Math.min(market.left + (market.width - width) / 2, window.innerWidth - width - 8));
    const top = market.bottom - Math.min(24, market.height / 2);
    trades.style.left = `${left - origin.left}px`;
    trades.style.top = `${top - origin.top}px`;
  }

  function openMarket(parts) {
    parts.trades.classList.add("open");
    parts.opener.setAttribute("aria-expanded", "true");
    placeMarket(parts);
    parts.trades.scrollIntoView({ block: "nearest" });
    const first = parts.trades.querySelector("input[type=radio]");
    if (first) first.focus({ preventScroll: true });
  }

  function closeMarket(parts, refocus) {
    parts.trades.classList.remove("open");
    parts.opener.setAttribute("aria-expanded", "false");
    if (refocus) parts.opener.focus();
  }

  function setUpMarket() {
    const parts = marketParts();
    if (!parts || parts.trades.classList.contains("popover")) return;
    parts.trades.classList.add("popover");
    parts.trades.setAttribute("role", "dialog");
    parts.opener.setAttribute("aria-expanded", "false");
    parts.opener.setAttribute("role", "button");
    parts.trades.querySelectorAll("[data-trade-close]").forEach((b) => { b.hidden = false; });
  }

  document.addEventListener("click", (event) => {
    const parts = marketParts();
    if (!parts || !parts.trades.classList.contains("popover")) return;
    if (event.target.closest && event.target.closest("#board svg a.market-open")) {
      event.preventDefault();
      if (parts.trades.classList.contains("open")) closeMarket(parts, false);
      else openMarket(parts);
    } else if (event.target.closest && event.target.closest("[data-trade-close]")) {
      closeMarket(parts, true);
    }
  });
  document.addEventListener("pointerdown", (event) => {
    const parts = marketParts();
    if (!parts || !parts.trades.classList.contains("open") || !event.target.closest) return;
    if (!event.target.closest("#market-trades, #board svg a.market-open")) closeMarket(parts, false);
  });
  document.addEventListener("keydown", (event) => {
    const parts = marketParts();
    if (event.key === "Escape" && parts && parts.trades.classList.contains("open")) {
      closeMarket(parts, true);
    }
  });
  // The board pans when zoomed and the window turns: the trades keep to the market.
  document.addEventListener("scroll", () => {
    const parts = marketParts();
    if (parts && parts.trades.classList.contains("open")) placeMarket(parts);
  }, true);

  // Arrow keys move the checked coin (or chip) without submitting it: the button does.
  document.addEventListener("keydown", (event) => {
    const row = event.target.closest && event.target.closest("form.amount .coins, form.trade .chips");
    if (row) row.querySelectorAll("input").forEach((i) => { i.dataset.keyboard = "1"; });
  });
  document.addEventListener("pointerdown", (event) => {
    const row = event.target.closest && event.target.closest("form.amount .coins, form.trade .chips");
    if (row) row.querySelectorAll("input").forEach((i) => { i.dataset.keyboard = ""; });
  });

  // The action bar's height, for the page's bottom padding (static/css/site.css): its status
  // may wrap to two or three lines.
  let barWatch = null;
  function measureBar() {
    const bar = document.getElementById("action-bar");
    const height = bar ? bar.getBoundingClientRect().height : 0;
    document.documentElement.style.setProperty("--action-bar-height", `${Math.ceil(height)}px`);
    if (barWatch) barWatch.disconnect();
    if (bar && window.ResizeObserver) {
      barWatch = new ResizeObserver(() => {
        const now = bar.getBoundingClientRect().height;
        document.documentElement.style.setProperty("--action-bar-height", `${Math.ceil(now)}px`);
      });
      barWatch.observe(bar);
    }
  }

  function start() {
    measureBar();
    document.querySelectorAll("#board .board-scroll").forEach(setUp);
    setUpMarket();
    reveal();
  }

  // A player who chose to skip the Confirm (their preferences): the move is played as soon
  // as a tap completes it. Only after a tap (a swap), never when the page opens.
  function autoConfirm() {
    const form = document.querySelector("#confirm-form[data-auto-confirm]");
    if (form) form.requestSubmit();
  }

  // Any other player: the move a tap completed is drawn on the board and played after
  // the seconds its form says (data-undo-window), so that tap is the last one; meanwhile Undo takes the tap back (the
  // board is swapped and the countdown ends with it), Wait holds the move for the Confirm,
  // and the Confirm plays it at once. Only after a tap, never when the page opens.
  let countdown = null;

  function stopCountdown(form) {
    clearInterval(countdown);
    countdown = null;
    document.querySelectorAll("[data-countdown], [data-wait]").forEach((e) => { e.hidden = true; });
    document.querySelectorAll("[data-confirm-note]").forEach((e) => { e.hidden = false; });
    if (form) delete form.dataset.undoWindow;
  }

  function startCountdown() {
    const form = document.querySelector("#confirm-form[data-undo-window]");
    if (!form || countdown !== null) return;
    let left = Number(form.dataset.undoWindow) || 5;
    const show = () => document.querySelectorAll("[data-countdown]").forEach((e) => {
      e.textContent = e.dataset.countdown.replace("{seconds}", left);
      e.hidden = false;
    });
    show();
    document.querySelectorAll("[data-wait]").forEach((e) => { e.hidden = false; });
    document.querySelectorAll("[data-confirm-note]").forEach((e) => { e.hidden = true; });
    countdown = setInterval(() => {
      if (!form.isConnected) return stopCountdown(null);
      left -= 1;
      if (left > 0) return show();
      stopCountdown(form);
      form.requestSubmit();
    }, 1000);
  }

  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("[data-wait]")) {
      stopCountdown(document.getElementById("confirm-form"));
    }
  });
  document.addEventListener("submit", (event) => {
    if (event.target.id === "confirm-form") stopCountdown(event.target);
  });
  // A step or an undo on its way: the countdown must not play the move meanwhile (the poll's
  // requests, outside the board, leave it running).
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.target.closest && event.target.closest("#board")) stopCountdown(null);
  });

  document.addEventListener("DOMContentLoaded", () => {
    // A move complete when the page opens (a link with every step) waits for its Confirm.
    const form = document.getElementById("confirm-form");
    if (form) {
      delete form.dataset.undoWindow;
      delete form.dataset.autoConfirm;
    }
    start();
  });
  document.addEventListener("htmx:afterSettle", () => {
    start();
    autoConfirm();
    startCountdown();
  });
  window.addEventListener("resize", () => {
    document.querySelectorAll("#board .board-scroll.fit").forEach(update);
    const parts = marketParts();
    if (parts && parts.trades.classList.contains("open")) placeMarket(parts);
  });
})();
