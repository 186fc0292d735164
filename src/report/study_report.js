// Draws a study's charts with Chart.js from the JSON in <script id="data">
// (report::study_report_html). Sets document.body.dataset.charts to the number drawn.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('data').textContent);
  const root = document.getElementById('charts');
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
  let drawn = 0;

  function section(title) {
    const h = document.createElement('h2');
    h.textContent = title;
    root.appendChild(h);
  }
  function chart(id, config) {
    const box = document.createElement('div');
    box.className = 'chart';
    const canvas = document.createElement('canvas');
    canvas.id = id;
    box.appendChild(canvas);
    root.appendChild(box);
    config.options = Object.assign({ animation: false, responsive: true, maintainAspectRatio: false,
      interaction: { mode: 'nearest', intersect: false } }, config.options || {});
    new Chart(canvas, config);
    drawn += 1;
  }
  function axes(x, y) {
    return { x: { type: 'linear', title: { display: true, text: x } }, y: { title: { display: true, text: y } } };
  }

  section('Histograms of the metrics');
  data.metrics.forEach(function (m, k) {
    const h = m.histogram;
    const bars = h.counts.map(function (c, b) { return { x: (h.edges[b] + h.edges[b + 1]) / 2, y: c }; });
    const width = h.edges.length > 1 ? h.edges[1] - h.edges[0] : 1;
    chart('histogram-' + k, { type: 'bar', data: { datasets: [{ label: m.name, data: bars,
      backgroundColor: colours[k % colours.length], barPercentage: 1.0, categoryPercentage: 1.0 }] },
      options: { scales: axes(m.name, 'variants'), parsing: true,
        plugins: { tooltip: { callbacks: { title: function (items) {
          const x = items[0].raw.x;
          return (x - width / 2).toPrecision(6) + ' to ' + (x + width / 2).toPrecision(6);
        } } } } } });
  });

  section('Each metric against each parameter');
  data.metrics.forEach(function (m, k) {
    data.parameters.forEach(function (p, j) {
      const ok = [], failed = [];
      p.values.forEach(function (x, i) {
        if (data.ok[i] && m.values[i] !== null) ok.push({ x: x, y: m.values[i] });
      });
      const sets = [{ label: m.name, data: ok, pointRadius: 2, backgroundColor: colours[k % colours.length] }];
      if (data.best)
        sets.unshift({ label: 'best design', data: [{ x: data.best.parameters[j], y: data.best.metrics[k] }],
          pointRadius: 7, pointStyle: 'star', borderColor: '#000000', borderWidth: 2, backgroundColor: '#000000' });
      chart('scatter-' + k + '-' + j, { type: 'scatter', data: { datasets: sets },
        options: { scales: axes(p.name, m.name) } });
    });
  });

  if (data.metrics.length && data.metrics[0].src) {
    section('Sensitivity: standardised regression coefficients and first-order Sobol indices');
    data.metrics.forEach(function (m, k) {
      chart('sensitivity-' + k, { type: 'bar', data: { labels: data.parameters.map(function (p) { return p.name; }),
        datasets: [{ label: 'SRC', data: m.src, backgroundColor: '#1f77b4' },
                   { label: 'Sobol S1', data: m.sobol, backgroundColor: '#ff7f0e' }] },
        options: { indexAxis: 'y', scales: { x: { title: { display: true, text: m.name + ' (R^2 of the regression ' +
          (m.r2 === null ? '-' : m.r2.toFixed(3)) + ')' } } } } });
    });
  }

  if (data.convergence) {
    section('Convergence of the optimisation');
    chart('convergence', { type: 'line', data: { datasets: data.convergence.runs.map(function (r, k) {
      return { label: 'run ' + r.run, data: r.best.map(function (p) { return { x: p[0], y: p[1] }; }),
        stepped: true, borderColor: colours[k % colours.length], pointRadius: 1 };
    }) }, options: { scales: axes('evaluation', 'best feasible ' + data.convergence.metric) } });
  }

  if (data.pareto) {
    section('Pareto front');
    const all = [];
    const a = data.metrics[data.pareto.a].values, b = data.metrics[data.pareto.b].values;
    a.forEach(function (x, i) { if (data.ok[i] && x !== null && b[i] !== null) all.push({ x: x, y: b[i] }); });
    chart('pareto', { type: 'scatter', data: { datasets: [
      { label: 'front', data: data.pareto.front.map(function (p) { return { x: p[0], y: p[1] }; }),
        showLine: true, borderColor: '#d62728', backgroundColor: '#d62728', pointRadius: 4 },
      { label: 'evaluated designs', data: all, pointRadius: 1.5, backgroundColor: '#bbbbbb' }] },
      options: { scales: axes(data.pareto.x, data.pareto.y) } });
  }
  document.body.dataset.charts = String(drawn);

  // #selftest: every chart drawn, a value shown under the cursor, a series hidden from the legend.
  if (window.location.hash === '#selftest') {
    const problems = [];
    let expected = data.metrics.length * (1 + data.parameters.length);
    if (data.metrics.length && data.metrics[0].src) expected += data.metrics.length;
    if (data.convergence) expected += 1;
    if (data.pareto) expected += 1;
    if (drawn !== expected) problems.push('charts ' + drawn + ' of ' + expected);
    document.querySelectorAll('canvas').forEach(function (canvas) {
      const c = Chart.getChart(canvas);
      if (!c) { problems.push(canvas.id + ' has no chart'); return; }
      if (!(canvas.width > 0 && canvas.height > 0)) problems.push(canvas.id + ' is empty');
      const set = c.data.datasets.findIndex(function (d) { return d.data.length > 0; });
      if (set < 0) return;
      const point = c.getDatasetMeta(set).data[0];
      c.tooltip.setActiveElements([{ datasetIndex: set, index: 0 }], { x: point.x, y: point.y });
      c.update();
      const body = c.tooltip.body || [];
      if (!body.length || !body[0].lines.join('').length) problems.push(canvas.id + ': no value under the cursor');
      c.setDatasetVisibility(set, false);
      c.update();
      if (c.isDatasetVisible(set)) problems.push(canvas.id + ': a series cannot be hidden');
      c.setDatasetVisibility(set, true);
      c.update();
    });
    document.title = problems.length ? 'linkdyn-selftest: FAIL ' + problems.join('; ') : 'linkdyn-selftest: PASS';
  }
}());
