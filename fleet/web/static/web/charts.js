/* The cabinet page's charts: each <div class="chart"> names its data (in the page's
   #chart-data JSON) and series; uPlot draws them, as wide as their card. */
(function () {
  "use strict";
  var source = document.getElementById("chart-data");
  if (!source || typeof uPlot === "undefined") { return; }
  var data = JSON.parse(source.textContent);
  var colours = ["#0b57d0", "#b3261e", "#146c2e", "#e08600"];
  var charts = [];
  document.querySelectorAll(".chart[data-chart]").forEach(function (el) {
    var set = data[el.dataset.chart];
    if (!set || !set.t || set.t.length === 0) { el.textContent = "No data in this span."; return; }
    var keys = el.dataset.series.split(",");
    var labels = (el.dataset.label || el.dataset.series).split(",");
    var series = [{}];
    var columns = [set.t];
    keys.forEach(function (key, i) {
      var s = { label: labels[i] || key, stroke: colours[i % colours.length], width: 2 };
      if (el.dataset.step) { s.paths = uPlot.paths.stepped({ align: 1 }); s.fill = "#146c2e22"; }
      series.push(s);
      columns.push(set[key] || []);
    });
    var width = function () { return Math.max(200, el.clientWidth); };
    var chart = new uPlot({ width: width(), height: el.dataset.step ? 120 : 200, series: series,
      scales: el.dataset.step ? { y: { range: [0, 1] } } : {},
      axes: [{}, { size: 50 }] }, columns, el);
    charts.push([chart, el, width]);
  });
  window.addEventListener("resize", function () {
    charts.forEach(function (c) { c[0].setSize({ width: c[2](), height: c[0].height }); });
  });
}());
