// The match page's board (templates/play/_board.html): each drawn board fits its box, whole,
// when the page opens; a double tap, or the Zoom button, draws it at its own size (labels
// readable at 12 px), where it pans with a visible cue; once the board is fitted smaller than
// its own size its labels would fall under 12 px, so they wait for the zoom (every place keeps
// its name for assistive tools). After every step (htmx swaps the board) the current
// decision's first target is scrolled into view. Without JavaScript the board keeps its drawn
// size and pans in its box.
(function () {
  "use strict";

  function scaleOf(svg) {
    const box = svg.viewBox && svg.viewBox.baseVal;
    if (!box || !box.width) return 1;
    return svg.getBoundingClientRect().width / box.width;
  }

  function update(scroll) {
    const svg = scroll.querySelector(":scope > svg.board-svg");
    if (!svg) return;
    const zoomed = scroll.classList.contains("zoomed");
    scroll.classList.toggle("small-labels", !zoomed && scaleOf(svg) < 0.995);
    scroll.classList.toggle("pans", scroll.scrollWidth > scroll.clientWidth + 1);
    const button = scroll.parentElement.querySelector(":scope > .zoom-bar button");
    if (button) {
      button.setAttribute("aria-pressed", zoomed ? "true" : "false");
      button.textContent = zoomed ? "Fit the board" : "Zoom in";
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
    cue.textContent = "Drag the board sideways to see the rest; double-tap to fit it.";
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
  // Arrow keys move the checked coin without submitting it: the button does.
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("form.amount .coins")) {
      event.target.closest(".coins").querySelectorAll("input").forEach((i) => { i.dataset.keyboard = "1"; });
    }
  });
  document.addEventListener("pointerdown", (event) => {
    const coins = event.target.closest && event.target.closest("form.amount .coins");
    if (coins) coins.querySelectorAll("input").forEach((i) => { i.dataset.keyboard = ""; });
  });

  function start() {
    document.querySelectorAll("#board .board-scroll").forEach(setUp);
    reveal();
  }

  // A player who chose to skip the Confirm (their preferences): the move is played as soon
  // as a tap completes it. Only after a tap (a swap), never when the page opens.
  function autoConfirm() {
    const form = document.querySelector("#confirm-form[data-auto-confirm]");
    if (form) form.requestSubmit();
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSettle", () => {
    start();
    autoConfirm();
  });
  window.addEventListener("resize", () => document.querySelectorAll("#board .board-scroll.fit").forEach(update));
})();
