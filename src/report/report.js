// The report's script: draws the mechanism from the page's data (script#data), and moves it
// and the plots' markers with the slider. Embedded in the library at build time.
(function () {
  'use strict';
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  var D = JSON.parse(document.getElementById('data').textContent);
  var NS = 'http://www.w3.org/2000/svg';
  var scene = document.getElementById('scene');
  var slider = document.getElementById('slider');
  var readout = document.getElementById('readout');
  var play = document.getElementById('play');
  var colours = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];
  var r = 0.012 * D.size;
  function el(name, attrs) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    scene.appendChild(e);
    return e;
  }
  Object.keys(D.paths).forEach(function (name) {
    var p = D.paths[name], s = [];
    for (var k = 0; k + 1 < p.length; k += 2) s.push(p[k] + ',' + p[k + 1]);
    el('polyline', {'class': 'trace', points: s.join(' ')});
  });
  D.ground.forEach(function (g) {
    el('path', {d: 'M' + g[0] + ' ' + g[1] + ' l' + (-1.6 * r) + ' ' + (-2.6 * r) + ' h' + (3.2 * r) + ' z', fill: '#555'});
  });
  var shapes = D.bodies.map(function (b, i) {
    var c = colours[i % colours.length];
    var shape = el(b.n >= 3 ? 'polygon' : 'polyline', {'class': 'link', stroke: c, fill: b.n >= 3 ? c : 'none'});
    var dots = [];
    for (var j = 0; j < b.n; ++j) dots.push(el('circle', {r: b.n === 1 ? 2 * r : r, fill: b.n === 1 ? c : 'white', stroke: c, 'stroke-width': 0.4 * r}));
    return {shape: shape, dots: dots, offset: b.offset, n: b.n};
  });
  var plots = Array.prototype.slice.call(document.querySelectorAll('svg.plot'));
  function show(k) {
    var f = D.frames[k];
    if (!f) return;
    shapes.forEach(function (s) {
      var pts = [];
      for (var j = 0; j < s.n; ++j) {
        var X = f[s.offset + 2 * j], Y = f[s.offset + 2 * j + 1];
        pts.push(X + ',' + Y);
        s.dots[j].setAttribute('cx', X);
        s.dots[j].setAttribute('cy', Y);
      }
      s.shape.setAttribute('points', pts.join(' '));
    });
    var x = D.x[k];
    plots.forEach(function (p) {
      var d = p.dataset;
      var sx = function (v) { return +d.left + (v - d.x0) / (d.x1 - d.x0) * (d.right - d.left); };
      var sy = function (v) { return +d.bottom - (v - d.y0) / (d.y1 - d.y0) * (d.bottom - d.top); };
      if (d.path === '1') {
        Array.prototype.forEach.call(p.querySelectorAll('circle.marker'), function (c) {
          var t = D.paths[c.getAttribute('data-point')];
          if (!t) return;
          c.setAttribute('cx', sx(t[2 * k]));
          c.setAttribute('cy', sy(t[2 * k + 1]));
        });
      } else {
        var m = p.querySelector('line.marker');
        if (m) { var px = sx(x); m.setAttribute('x1', px); m.setAttribute('x2', px); }
      }
    });
    readout.textContent = D.xlabel + ' = ' + (x === null ? '-' : Number(x).toPrecision(6));
  }
  slider.addEventListener('input', function () { show(+slider.value); });
  var timer = null;
  play.addEventListener('click', function () {
    if (timer) { clearInterval(timer); timer = null; play.textContent = 'Play'; return; }
    timer = setInterval(function () {
      slider.value = (+slider.value + 1) % D.frames.length;
      show(+slider.value);
    }, 1000 / 30);
    play.textContent = 'Pause';
  });
  show(0);
  // A built-in check, run when the page is opened as report.html#selftest: every plot is
  // there, moving the slider moves the markers and the mechanism, and no script failed.
  if (location.hash === '#selftest') {
    var expected = +document.body.getAttribute('data-plots');
    var line = plots.map(function (p) { return p.querySelector('line.marker'); }).filter(Boolean)[0];
    var before = line ? line.getAttribute('x1') : '', shapeBefore = shapes.length ? shapes[0].shape.getAttribute('points') : '';
    slider.value = Math.floor(D.frames.length / 2);
    slider.dispatchEvent(new Event('input'));
    var moved = line && line.getAttribute('x1') !== before && shapes[0].shape.getAttribute('points') !== shapeBefore;
    var ok = errors.length === 0 && plots.length === expected && expected > 0 && moved;
    document.title = 'linkdyn-selftest: ' + (ok ? 'PASS' : 'FAIL') + ' plots ' + plots.length + '/' + expected +
        ' moved ' + moved + ' frames ' + D.frames.length + ' ms ' + Math.round(performance.now()) + ' errors ' + errors.join('; ');
  }
})();
