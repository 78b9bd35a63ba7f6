(function () {
  var state = window.__INITIAL_STATE__;
  var root = document.getElementById('root');
  if (!state || !root) { return; }
  var html = '';
  if (state.page === 'product') {
    var p = state.product;
    html += '<article class="product"><h1>' + p.name + '</h1>';
    html += '<p class="price">Price: ' + p.price + ' pounds</p>';
    p.paragraphs.forEach(function (t) { html += '<p>' + t + '</p>'; });
    html += '<table class="specs">';
    p.specs.forEach(function (s) { html += '<tr><th>' + s[0] + '</th><td>' + s[1] + '</td></tr>'; });
    html += '</table></article>';
  } else {
    html += '<main><h1>' + state.title + '</h1><p>' + state.intro + '</p><ul>';
    state.items.forEach(function (p) {
      html += '<li><a href="/products/' + p.id + '.html">' + p.name + '</a> ' + p.summary + '</li>';
    });
    html += '</ul></main>';
  }
  // Content arrives a moment after load, as it does from an API.
  setTimeout(function () { root.innerHTML = html; }, 50);
})();
