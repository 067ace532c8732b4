// Fills a form's hidden time_zone field with the browser's own zone (sign-up), and on the
// preferences page offers it when the saved zone differs. Without JavaScript nothing is
// filled and the server keeps UTC until the player picks a zone.
(function () {
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
  if (!zone) { return; }
  document.querySelectorAll('input[type=hidden][name=time_zone]').forEach(function (field) {
    if (!field.value) { field.value = zone; }
  });
  document.querySelectorAll('[data-browser-zone-offer]').forEach(function (offer) {
    var select = document.getElementById(offer.getAttribute('data-browser-zone-offer'));
    if (!select || select.value === zone || !select.querySelector('option[value="' + zone + '"]')) { return; }
    offer.querySelector('[data-zone-name]').textContent = zone;
    offer.querySelector('button').addEventListener('click', function () { select.value = zone; offer.hidden = true; });
    offer.hidden = false;
  });
})();
