// The service worker of push (notifications.push): show "your turn in ..." and open the
// match when the notification is clicked.
self.addEventListener("push", (event) => {
  const data = event.data ? event.data.json() : {};
  event.waitUntil(
    self.registration.showNotification(data.title || "Your turn", {
      body: data.body || "",
      data: { url: data.url || "/" },
      tag: data.url || "turn",
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(clients.openWindow(event.notification.data.url));
});
