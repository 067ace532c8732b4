// Replay page: arrow keys step through the positions; Play follows "next" every 1.5 s.
(function () {
  "use strict";
  function go(id) {
    var link = document.getElementById(id);
    if (link) { window.location.href = link.href; }
  }
  document.addEventListener("keydown", function (event) {
    var tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    if (event.key === "ArrowLeft") { go("replay-prev"); }
    if (event.key === "ArrowRight") { go("replay-next"); }
    if (event.key === "Home") { go("replay-start"); }
    if (event.key === "End") { go("replay-end"); }
  });
  var play = document.getElementById("replay-play");
  if (play && play.dataset.play === "on") {
    play.href = window.location.pathname + "?n=" + new URLSearchParams(window.location.search).get("n");
    window.setTimeout(function () {
      var next = document.getElementById("replay-next");
      if (next) { window.location.href = next.href + "&play=1"; }
    }, 1500);
  }
})();
