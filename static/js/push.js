// Push on this browser (the preferences page): register the service worker, subscribe with
// the server's VAPID key, and hand the subscription to the server. Shown only where the
// browser can push.
(function () {
  const box = document.getElementById("push");
  if (!box || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  box.hidden = false;
  const state = box.querySelector("[data-push-state]");
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]");

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  box.querySelector("[data-push-on]").addEventListener("click", async () => {
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        state.textContent = "The browser did not allow notifications.";
        return;
      }
      const worker = await navigator.serviceWorker.register(box.dataset.pushWorker);
      const subscription = await worker.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.pushKey),
      });
      const answer = await fetch(box.dataset.pushUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
        body: JSON.stringify(subscription.toJSON()),
      });
      state.textContent = answer.ok ? "On: your turns come to this browser." : "Not saved.";
    } catch (error) {
      state.textContent = "Push could not be turned on here: " + error.message;
    }
  });
})();
