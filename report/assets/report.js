(function () {
  var cards = Array.prototype.slice.call(document.querySelectorAll('#cards > .card'));
  var controls = document.getElementById('controls');
  controls.hidden = false;
  var boxes = controls.querySelectorAll('input.filter');
  function filter() {
    var on = {};
    boxes.forEach(function (b) { on[b.value] = b.checked; });
    cards.forEach(function (c) { c.hidden = on[c.dataset.verdict] === false; });
  }
  boxes.forEach(function (b) { b.addEventListener('change', filter); });
  document.getElementById('sort').addEventListener('change', function (ev) {
    var key = ev.target.value, numeric = key !== 'id';
    var sorted = cards.slice().sort(function (a, b) {
      var x = a.dataset[key], y = b.dataset[key];
      if (numeric) { return Number(x) - Number(y) || Number(a.dataset.order) - Number(b.dataset.order); }
      return x < y ? -1 : x > y ? 1 : 0;
    });
    var main = document.getElementById('cards');
    sorted.forEach(function (c) { main.appendChild(c); });
  });
})();
