// The report's script: draws the mechanism from the page's data (script#data) and the charts
// from theirs (script#charts, with the embedded dygraphs), and moves the mechanism, the plots'
// cursors and their values together with the slider. Embedded in the library at build time.
(function () {
  'use strict';
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  var D = JSON.parse(document.getElementById('data').textContent);
  var C = JSON.parse(document.getElementById('charts').textContent);
  var NS = 'http://www.w3.org/2000/svg';
  var scene = document.getElementById('scene');
  var slider = document.getElementById('slider');
  var readout = document.getElementById('readout');
  var play = document.getElementById('play');
  var colours = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  var r = 0.012 * D.size;
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    (parent || scene).appendChild(e);
    return e;
  }

  // The mechanism. A body's frame in frame k: [x, y, angle] (the ground: the identity).
  function pose(body, k) {
    if (body === 0) return [0, 0, 0];
    var p = D.poses[k], i = 3 * (body - 1);
    return [p[i], p[i + 1], p[i + 2]];
  }
  function place(a, k) {  // an anchored point [body, x, y] in the global frame
    var p = pose(a[0], k), c = Math.cos(p[2]), s = Math.sin(p[2]);
    return [p[0] + c * a[1] - s * a[2], p[1] + s * a[1] + c * a[2]];
  }
  function turn(v, body, k) {  // a body-fixed direction in the global frame
    var a = pose(body, k)[2], c = Math.cos(a), s = Math.sin(a);
    return [c * v[0] - s * v[1], s * v[0] + c * v[1]];
  }
  function finite(p) { return p.every(function (v) { return v !== null && isFinite(v); }); }
  Object.keys(D.paths).forEach(function (name) {  // coupler curves
    var p = D.paths[name], s = [];
    for (var k = 0; k + 1 < p.length; k += 2) if (p[k] !== null) s.push(p[k] + ',' + p[k + 1]);
    el('polyline', {'class': 'trace', points: s.join(' ')});
  });
  D.pivots.forEach(function (g) {  // ground pivots
    el('path', {'class': 'pivot', d: 'M' + g[0] + ' ' + g[1] + ' l' + (-1.6 * r) + ' ' + (-2.6 * r) + ' h' + (3.2 * r) + ' z'});
  });
  var wheels = D.wheels.map(function (w) {  // gears and motors' wheels turn with their bodies
    var g = el('g', {'class': 'wheel ' + w.kind});
    el('circle', {r: w.r, cx: 0, cy: 0}, g);
    for (var i = 0; i < 6; ++i) {
      var a = i * Math.PI / 3;
      el('line', {x1: 0, y1: 0, x2: w.r * Math.cos(a), y2: w.r * Math.sin(a)}, g);
    }
    return {g: g, w: w};
  });
  var cams = D.cams.map(function (c) {  // a cam's profile turns with its body; its follower's roller
    var g = el('g', {'class': 'cam'}), s = [];
    for (var k = 0; k + 1 < c.profile.length; k += 2) s.push(c.profile[k] + ',' + c.profile[k + 1]);
    el('polygon', {points: s.join(' ')}, g);
    return {g: g, c: c, roller: c.r > 0 ? el('circle', {'class': 'cam-roller', r: c.r}) : null};
  });
  var guides = D.guides.map(function () { return el('line', {'class': 'guide'}); });
  var sliding = D.blocks.map(function (b) { return b.at[0]; });
  var shapes = D.bodies.map(function (b, i) {
    var c = colours[i % 8], dot = b.n === 1 && sliding.indexOf(i + 1) < 0;  // a lone point, not a slider's
    var shape = el(b.n >= 3 ? 'polygon' : 'polyline', {'class': 'link', stroke: c, fill: b.n >= 3 ? c : 'none'});
    var dots = [];
    for (var j = 0; j < b.n; ++j) dots.push(el('circle', {r: dot ? 2 * r : r, fill: dot ? c : 'white', stroke: c, 'stroke-width': 0.4 * r}));
    return {shape: shape, dots: dots, offset: b.offset, n: b.n};
  });
  var blocks = D.blocks.map(function () { return el('polygon', {'class': 'slider-block'}); });
  var elements = D.elements.map(function (e) { return el('polyline', {'class': e.kind}); });
  var loads = D.loads.map(function (l) {
    var g = el('g', {'class': 'load'});
    return {g: g, line: el('line', {}, g), head: el('polygon', {}, g), l: l};
  });
  function cylinder(a, b, lengths) {  // a barrel from a along a b, a rod from b back into it
    var dx = b[0] - a[0], dy = b[1] - a[1], L = Math.hypot(dx, dy);
    if (!(L > 0)) return '';
    var ux = dx / L, uy = dy / L, w = 1.8 * r;
    function at(s, n) { return [a[0] + ux * s - uy * n, a[1] + uy * s + ux * n]; }
    var head = Math.min(lengths[0], L), piston = Math.max(0, L - lengths[1]);
    return [a, at(0, w), at(head, w), at(head, -w), at(0, -w), a, at(piston, 0), b]
        .map(function (p) { return p[0] + ',' + p[1]; }).join(' ');
  }
  function zigzag(a, b, spring) {  // a spring's coils or a damper's pot between points a and b
    var dx = b[0] - a[0], dy = b[1] - a[1], L = Math.hypot(dx, dy);
    if (!(L > 0)) return '';
    var ux = dx / L, uy = dy / L, w = 1.5 * r, pts = [a];
    function at(s, n) { return [a[0] + ux * s - uy * n, a[1] + uy * s + ux * n]; }
    if (spring) {
      var coils = 8;
      pts.push(at(0.15 * L, 0));
      for (var i = 0; i < 2 * coils; ++i) pts.push(at(0.15 * L + (i + 0.5) * 0.7 * L / (2 * coils), i % 2 ? -w : w));
      pts.push(at(0.85 * L, 0));
    } else {  // a dashpot: a rod into an open pot
      pts.push(at(0.5 * L, 0), at(0.5 * L, w), at(0.5 * L, -w), at(0.5 * L, 0), a, at(0.4 * L, 0));
      pts = [a, at(0.55 * L, 0), at(0.55 * L, 0.7 * w), at(0.55 * L, -0.7 * w), at(0.55 * L, 0), at(0.4 * L, 0),
             at(0.4 * L, w), at(0.7 * L, w), at(0.7 * L, -w), at(0.4 * L, -w), at(0.7 * L, -w), at(0.7 * L, 0)];
    }
    pts.push(b);
    return pts.map(function (p) { return p[0] + ',' + p[1]; }).join(' ');
  }
  function drawMechanism(k) {
    var f = D.frames[k];
    wheels.forEach(function (w) {
      var c = place(w.w.at, k), a = pose(w.w.at[0], k)[2];
      w.g.setAttribute('transform', 'translate(' + c[0] + ' ' + c[1] + ') rotate(' + a * 180 / Math.PI + ')');
    });
    cams.forEach(function (c) {
      var p = pose(c.c.body, k);
      c.g.setAttribute('transform', 'translate(' + p[0] + ' ' + p[1] + ') rotate(' + p[2] * 180 / Math.PI + ')');
      if (c.roller) {
        var q = place(c.c.roller, k);
        c.roller.setAttribute('cx', q[0]);
        c.roller.setAttribute('cy', q[1]);
      }
    });
    D.guides.forEach(function (g, i) {
      var p = place(g.at, k), d = turn(g.dir, g.at[0], k);
      guides[i].setAttribute('x1', p[0] + g.span[0] * d[0]); guides[i].setAttribute('y1', p[1] + g.span[0] * d[1]);
      guides[i].setAttribute('x2', p[0] + g.span[1] * d[0]); guides[i].setAttribute('y2', p[1] + g.span[1] * d[1]);
    });
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
    D.blocks.forEach(function (b, i) {
      var g = D.guides[b.guide], c = place(b.at, k), d = turn(g.dir, g.at[0], k), h = b.size[0] / 2, w = b.size[1] / 2;
      var corners = [[h, w], [-h, w], [-h, -w], [h, -w]].map(function (q) {
        return (c[0] + q[0] * d[0] - q[1] * d[1]) + ',' + (c[1] + q[0] * d[1] + q[1] * d[0]);
      });
      blocks[i].setAttribute('points', corners.join(' '));
    });
    D.elements.forEach(function (e, i) {
      var a = place(e.ends[0], k), b = place(e.ends[1], k);
      elements[i].setAttribute('points', e.kind === 'cylinder' ? cylinder(a, b, e.lengths) : zigzag(a, b, e.kind === 'spring'));
    });
    loads.forEach(function (a) {  // an arrow ending at its point, its length scaled to the force
      var F = [a.l.force[2 * k], a.l.force[2 * k + 1]], p = place(a.l.at, k);
      var L = Math.hypot(F[0], F[1]) * D.load_scale;
      a.g.style.display = finite(F) && L > 0 ? '' : 'none';
      if (!(L > 0)) return;
      var u = [F[0] / Math.hypot(F[0], F[1]), F[1] / Math.hypot(F[0], F[1])], head = Math.min(3 * r, 0.5 * L);
      var tail = [p[0] - u[0] * L, p[1] - u[1] * L], base = [p[0] - u[0] * head, p[1] - u[1] * head];
      a.line.setAttribute('x1', tail[0]); a.line.setAttribute('y1', tail[1]);
      a.line.setAttribute('x2', base[0]); a.line.setAttribute('y2', base[1]);
      a.head.setAttribute('points', p[0] + ',' + p[1] + ' ' + (base[0] - u[1] * head / 2) + ',' + (base[1] + u[0] * head / 2) +
          ' ' + (base[0] + u[1] * head / 2) + ',' + (base[1] - u[0] * head / 2));
    });
  }

  // Interactive charts (dygraphs): the values of every series under the cursor in the legend,
  // a legend entry hides or shows its series; the cursor of every chart against the
  // animation's x follows the slider, and moving over such a chart moves the slider.
  function tick(v) { return String(Number(Number(v).toPrecision(6))); }
  function format(v) { return v === null || v === undefined || isNaN(v) ? '-' : Number(v).toPrecision(5); }
  function legend(data) {
    var head = data.x === undefined ? '' : '<span class="at">' + data.dygraph.getLabels()[0] + ' = ' + format(data.x) + '</span>';
    return head + data.series.map(function (s, i) {
      var value = data.x !== undefined && s.isVisible ? ': <b>' + format(s.y) + '</b>' : '';
      return '<span class="entry' + (s.isVisible ? '' : ' hidden') + '" data-series="' + i + '" title="click: hide or show">' +
          s.dashHTML + ' ' + s.labelHTML + value + '</span>';
    }).join('');
  }
  function nearestRow(g, x) {  // the row whose x is nearest (rows sorted by x)
    var lo = 0, hi = g.numRows() - 1;
    if (hi < 0 || x === null || x === undefined) return null;
    while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (g.getValue(mid, 0) < x) lo = mid; else hi = mid; }
    return Math.abs(g.getValue(lo, 0) - x) <= Math.abs(g.getValue(hi, 0) - x) ? lo : hi;
  }
  function nearestFrame(x) {
    var best = 0;
    for (var k = 1; k < D.x.length; ++k) if (Math.abs(D.x[k] - x) < Math.abs(D.x[best] - x)) best = k;
    return best;
  }
  var chartDivs = document.querySelectorAll('div.chart');
  var charts = Array.prototype.map.call(chartDivs, function (div) {
    var c = C[+div.getAttribute('data-chart')];
    if (!c.rows.length) {  // nothing finite to draw (e.g. every value at a dead point)
      div.textContent = c.title + ': no finite value to plot';
      return null;
    }
    var graph = document.createElement('div'), labels = document.createElement('div');
    graph.className = 'graph';
    labels.className = 'legend';
    div.appendChild(graph);
    div.appendChild(labels);
    var chart = {c: c, legend: labels};
    chart.g = new Dygraph(graph, c.rows, {
      labels: c.labels, title: c.title, xlabel: c.xlabel, ylabel: c.ylabel, width: 640, height: 330,
      colors: c.labels.slice(1).map(function (l, i) { return colours[i % colours.length]; }),
      labelsDiv: labels, legend: 'always', legendFormatter: legend, connectSeparatedPoints: c.merged,
      hideOverlayOnMouseOut: false, strokeWidth: 1.6, highlightCircleSize: 3, yLabelWidth: 16,
      axes: {x: {valueFormatter: format, axisLabelFormatter: tick}, y: {valueFormatter: format, axisLabelFormatter: tick, axisLabelWidth: 64}},
      plugins: [new Dygraph.Plugins.Crosshair({direction: 'vertical'})],
      highlightCallback: function (event, x) { follow(chart, x); }
    });
    labels.addEventListener('click', function (e) {
      var entry = e.target.closest('[data-series]');
      if (!entry) return;
      var i = +entry.getAttribute('data-series');
      chart.g.setVisibility(i, !chart.g.visibility()[i]);
    });
    return chart;
  }).filter(Boolean);
  // Charts against the same axis zoom together; their y scales stay their own.
  var groups = {};
  charts.forEach(function (ch) { (groups[ch.c.xlabel] = groups[ch.c.xlabel] || []).push(ch.g); });
  Object.keys(groups).forEach(function (k) {
    if (groups[k].length > 1) Dygraph.synchronize(groups[k], {selection: false, zoom: true, range: false});
  });
  function select(ch, x) { var row = nearestRow(ch.g, x); if (row !== null) ch.g.setSelection(row); }
  function follow(source, x) {  // the mouse over a chart, at x
    if (source.c.linked) {
      var k = nearestFrame(x);
      slider.value = k;
      show(k, source);
    } else {
      charts.forEach(function (ch) { if (ch !== source && !ch.c.linked && ch.c.xlabel === source.c.xlabel) select(ch, x); });
    }
  }

  // Point paths (inline SVG, drawn to scale): a dot per point follows the slider.
  var paths = Array.prototype.slice.call(document.querySelectorAll('svg.plot'));
  function show(k, source) {
    if (!D.frames[k]) return;
    drawMechanism(k);
    paths.forEach(function (p) {
      var d = p.dataset;
      var sx = function (v) { return +d.left + (v - d.x0) / (d.x1 - d.x0) * (d.right - d.left); };
      var sy = function (v) { return +d.bottom - (v - d.y0) / (d.y1 - d.y0) * (d.bottom - d.top); };
      Array.prototype.forEach.call(p.querySelectorAll('circle.marker'), function (c) {
        var t = D.paths[c.getAttribute('data-point')];
        if (!t || t[2 * k] === null) return;
        c.setAttribute('cx', sx(t[2 * k]));
        c.setAttribute('cy', sy(t[2 * k + 1]));
      });
    });
    var x = D.x[k];
    charts.forEach(function (ch) { if (ch.c.linked && ch !== source) select(ch, x); });
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
  // report.html#at=0.3 opens at 30 % of the frames (a link to a position, the screenshots).
  var at = /at=([0-9.]+)/.exec(location.hash);
  slider.value = at ? Math.round(Math.min(1, +at[1]) * (D.frames.length - 1)) : 0;
  show(+slider.value);

  // A built-in check, run when the page is opened as report.html#selftest: every plot is there;
  // the slider moves the mechanism and every linked chart's cursor; the mouse over a chart
  // shows every series' value and moves the slider; a drag zooms; a legend click hides a
  // series; every element of the machine is drawn; no script failed.
  if (location.hash === '#selftest') {
    var expected = +document.body.getAttribute('data-plots');
    var count = paths.length + chartDivs.length;
    var linked = charts.filter(function (ch) { return ch.c.linked && ch.c.rows.length > 2; })[0];
    var shapeBefore = shapes.length ? shapes[0].shape.getAttribute('points') : '';
    slider.value = Math.floor(D.frames.length / 2);
    slider.dispatchEvent(new Event('input'));
    var moved = shapes.length > 0 && shapes[0].shape.getAttribute('points') !== shapeBefore &&
        (!linked || linked.g.getSelection() === nearestRow(linked.g, D.x[+slider.value]));
    function mouse(type, target, px, py, on) {  // at (px, py) in target, dispatched on `on` (default: target)
      var box = target.getBoundingClientRect();
      (on || target).dispatchEvent(new MouseEvent(type, {bubbles: true, cancelable: true, view: window, clientX: box.left + px, clientY: box.top + py, button: 0}));
    }
    var cursor = false, zoomed = false, toggled = false;
    if (linked) {
      var g = linked.g, area = g.getArea(), target = g.mouseEventElement_;
      mouse('mousemove', target, area.x + 0.25 * area.w, area.y + 0.5 * area.h);
      var values = linked.legend.querySelectorAll('.entry b').length;
      cursor = values === linked.c.labels.length - 1 && +slider.value === nearestFrame(g.getValue(g.getSelection(), 0));
      mouse('mousedown', target, area.x + 0.3 * area.w, area.y + 0.5 * area.h);
      mouse('mousemove', target, area.x + 0.5 * area.w, area.y + 0.5 * area.h);
      mouse('mouseup', target, area.x + 0.5 * area.w, area.y + 0.5 * area.h, document);
      var range = g.xAxisRange(), full = g.xAxisExtremes();
      zoomed = g.isZoomed('x') && range[1] - range[0] < 0.5 * (full[1] - full[0]);
      g.resetZoom();
      var entry = linked.legend.querySelector('[data-series="0"]');
      if (entry) entry.dispatchEvent(new MouseEvent('click', {bubbles: true}));
      toggled = g.visibility()[0] === false;
      g.setVisibility(0, true);
    }
    var drawn = {
      blocks: document.querySelectorAll('#scene .slider-block').length, guides: document.querySelectorAll('#scene .guide').length,
      springs: document.querySelectorAll('#scene .spring').length, dampers: document.querySelectorAll('#scene .damper').length,
      loads: document.querySelectorAll('#scene .load').length, wheels: document.querySelectorAll('#scene .wheel').length,
      cams: document.querySelectorAll('#scene .cam').length, curves: document.querySelectorAll('#scene .trace').length
    };
    var complete = drawn.blocks === D.blocks.length && drawn.guides === D.guides.length &&
        drawn.springs + drawn.dampers === D.elements.length && drawn.loads === D.loads.length &&
        drawn.wheels === D.wheels.length && drawn.cams === D.cams.length && drawn.curves === Object.keys(D.paths).length;
    var ok = errors.length === 0 && count === expected && expected > 0 && moved && complete &&
        (!linked || (cursor && zoomed && toggled));
    document.title = 'linkdyn-selftest: ' + (ok ? 'PASS' : 'FAIL') + ' plots ' + count + '/' + expected +
        ' moved ' + moved + ' cursor ' + cursor + ' zoom ' + zoomed + ' toggle ' + toggled +
        ' elements ' + Object.keys(drawn).map(function (k) { return k + ' ' + drawn[k]; }).join(' ') +
        ' frames ' + D.frames.length + ' ms ' + Math.round(performance.now()) + ' errors ' + errors.join('; ');
  }
})();
