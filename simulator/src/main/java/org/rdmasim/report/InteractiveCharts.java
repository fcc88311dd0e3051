package org.rdmasim.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.ReplicationStats;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;


/**
 * interactive.html: the NIC timelines, the per-receiver time CDF and each fan-out's receiver timeline drawn
 * by uPlot in the browser (hover for values, drag to zoom, double-click to reset), beside the PNG/SVG charts. uPlot's script and style
 * are copied from its WebJar into the folder and the data is a script file, so the page opens from
 * file:// with no network (a browser does not let a file:// page fetch a JSON file).
 *
 * <p>The data is the records themselves, not the thinned chart series: each NIC's steps exactly as
 * nic-throughput.csv lists them, each variant's sorted per-receiver times, and each fan-out receiver's
 * arrival, post and finish.
 */
final class InteractiveCharts {
    /** The WebJar's folder (org.webjars.npm:uplot, the version in the parent pom). */
    static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/";
    static final String PAGE = "interactive.html";
    static final String DATA = "interactive-data.js";
    static final String SCRIPT = "uPlot.iife.min.js";
    static final String STYLE = "uPlot.min.css";
    static final String LICENSE = "uPlot-LICENSE.txt";
    /** What the data file starts with; the rest up to the final ";\n" is JSON. */
    static final String DATA_PREFIX = "window.RDMASIM_DATA = ";

    /**
     * Most step records a variant's timeline carries; past this the variant's timeline is left out (the
     * page says so) and nic-throughput.csv and the PNG remain. A browser draws 200k points well.
     */
    static final int MAX_TIMELINE_POINTS = 200_000;

    /**
     * Most receivers a variant's receiver timeline carries; past this every k-th receiver in arrival order
     * is drawn (the page says which), so a 100k-receiver fan-out stays a page of about a megabyte.
     */
    static final int MAX_TIMELINE_RECEIVERS = 10_000;

    private InteractiveCharts() {
    }

    /** The files {@link #write} writes. */
    static final List<String> FILES = List.of(SCRIPT, STYLE, LICENSE, DATA, PAGE);

    static void write(Path dir, String scenario, List<VariantOutcome> outcomes) throws IOException {
        copy(UPLOT + "dist/" + SCRIPT, dir.resolve(SCRIPT));
        copy(UPLOT + "dist/" + STYLE, dir.resolve(STYLE));
        copy(UPLOT + "LICENSE", dir.resolve(LICENSE));
        Files.writeString(dir.resolve(DATA), DATA_PREFIX + json(scenario, outcomes) + ";\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(PAGE), page(scenario), StandardCharsets.UTF_8);
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = InteractiveCharts.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("uPlot is missing from the class path (" + resource
                        + "): rebuild rdmasim with the org.webjars.npm:uplot dependency");
            }
            Files.write(to, in.readAllBytes());
        }
    }

    /**
     * One variant's CDF: each distinct per-receiver time once, with the fraction of receivers done by
     * then (the last of equal times, so the step reaches its full height at that time).
     */
    record Cdf(String variant, double[] seconds, double[] fraction) {
        static Cdf of(String variant, double[] times) {
            double[] sorted = times.clone();
            java.util.Arrays.sort(sorted);
            int n = sorted.length;
            List<double[]> points = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (i + 1 < n && sorted[i + 1] == sorted[i]) {
                    continue;
                }
                points.add(new double[] {sorted[i], (i + 1) / (double) n});
            }
            return new Cdf(variant, points.stream().mapToDouble(p -> p[0]).toArray(),
                    points.stream().mapToDouble(p -> p[1]).toArray());
        }
    }

    static String json(String scenario, List<VariantOutcome> outcomes) {
        StringBuilder b = new StringBuilder("{\"scenario\": ").append(JsonText.quote(scenario)).append(",\n\"cdf\": [");
        boolean first = true;
        for (VariantOutcome o : outcomes) {
            if (o.result() == null || o.result().refit() != null) {
                // a refit's ranks receive in every cycle: first start to last finish would add its cycles up
                continue;
            }
            double[] times = ReplicationStats.pullSeconds(o.result());
            if (times.length == 0) {
                continue;
            }
            Cdf c = Cdf.of(o.name(), times);
            b.append(first ? "\n" : ",\n").append("{\"variant\": ").append(JsonText.quote(o.name()))
                    .append(", \"label\": ").append(JsonText.quote(CalibratedLimit.seriesName(o)))
                    .append(", \"fanout\": ")
                    .append(o.result().fanout() != null).append(", \"seconds\": ");
            array(b, c.seconds());
            b.append(", \"fraction\": ");
            array(b, c.fraction());
            b.append('}');
            first = false;
        }
        b.append("],\n\"timelines\": [");
        first = true;
        for (VariantOutcome o : outcomes) {
            if (o.result() == null || o.result().nicSeries().isEmpty()) {
                continue;
            }
            int points = o.result().nicSeries().stream().mapToInt(s -> s.timeSeconds().length).sum();
            b.append(first ? "\n" : ",\n").append("{\"variant\": ").append(JsonText.quote(o.name()));
            // the calibrated (or assumed) numbers the PNG/SVG chart of these NICs names under it
            b.append(", \"notes\": [");
            List<String> notes = CalibratedLimit.nicNotes(o);
            for (int i = 0; i < notes.size(); i++) {
                b.append(i > 0 ? ", " : "").append(JsonText.quote(notes.get(i)));
            }
            b.append(']');
            if (points > MAX_TIMELINE_POINTS) {
                b.append(", \"omitted\": ").append(points).append(", \"nics\": []}");
                first = false;
                continue;
            }
            b.append(", \"nics\": [");
            boolean firstNic = true;
            for (RunResult.LoadSeries s : o.result().nicSeries()) {
                b.append(firstNic ? "\n " : ",\n ").append("{\"nic\": ").append(JsonText.quote(s.label()))
                        .append(", \"from_s\": ");
                array(b, s.timeSeconds());
                b.append(", \"gbps\": ");
                array(b, s.gbps());
                b.append('}');
                firstNic = false;
            }
            b.append("]}");
            first = false;
        }
        b.append("],\n\"receivers\": [");
        first = true;
        for (VariantOutcome o : outcomes) {
            if (o.result() == null || o.result().fanout() == null || o.result().fanout().pulls().isEmpty()) {
                continue;
            }
            b.append(first ? "\n" : ",\n");
            receivers(b, o.name(), o.result().fanout(), CalibratedLimit.pullsNote(o).orElse(null));
            first = false;
        }
        return b.append("]}").toString();
    }

    /**
     * A fan-out's receivers in arrival order (the order of the PNG timeline; equal arrivals keep the order
     * they were recorded in), each named as summary.json names it (host, or host@cycleN over several
     * refit cycles), with its arrival, post and finish.
     */
    private static void receivers(StringBuilder b, String variant, FanoutResult f, String note) {
        boolean cycles = f.cycles().size() > 1;
        List<FanoutResult.ReceiverPull> pulls = new ArrayList<>(f.pulls());
        pulls.sort(java.util.Comparator.comparingDouble(FanoutResult.ReceiverPull::arrivalSeconds));
        int n = pulls.size();
        int every = Math.max(1, (n + MAX_TIMELINE_RECEIVERS - 1) / MAX_TIMELINE_RECEIVERS);
        List<FanoutResult.ReceiverPull> drawn = new ArrayList<>();
        for (int i = 0; i < n; i += every) {
            drawn.add(pulls.get(i));
        }
        b.append("{\"variant\": ").append(JsonText.quote(variant))
                .append(", \"note\": ").append(note == null ? "null" : JsonText.quote(note)).append(", \"of\": ").append(n).append(", \"every\": ")
                .append(every).append(", \"names\": [");
        for (int i = 0; i < drawn.size(); i++) {
            FanoutResult.ReceiverPull p = drawn.get(i);
            b.append(i > 0 ? "," : "").append(JsonText.quote(cycles ? p.receiver() + "@cycle" + p.cycle() : p.receiver()));
        }
        b.append("],\n \"arrival_s\": ");
        array(b, drawn.stream().mapToDouble(FanoutResult.ReceiverPull::arrivalSeconds).toArray());
        b.append(",\n \"post_s\": ");
        array(b, drawn.stream().mapToDouble(FanoutResult.ReceiverPull::postSeconds).toArray());
        b.append(",\n \"finish_s\": ");
        array(b, drawn.stream().mapToDouble(FanoutResult.ReceiverPull::finishSeconds).toArray());
        b.append('}');
    }

    private static void array(StringBuilder b, double[] v) {
        b.append('[');
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            // shortest text that reads back as the same double: the same run gives the same bytes
            double x = v[i];
            if (x == Math.rint(x) && Math.abs(x) < 1e15) {
                b.append((long) x);
            } else {
                b.append(Double.toString(x));
            }
        }
        b.append(']');
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    static String page(String scenario) {
        return """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>rdmasim interactive charts: %s</title>
                <link rel="stylesheet" href="%s">
                <style>body{font-family:sans-serif;margin:2em;max-width:75em}.note{color:#555;font-size:14px}
                .chart{margin:1.5em 0}.hover{font-family:monospace;font-size:13px;min-height:1.3em;margin:.2em 0}
                .key{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle}</style>
                <script src="%s"></script>
                <script src="%s"></script>
                </head><body>
                <h1>Interactive charts: %s</h1>
                <p class="note">Hover for values (the legend under each chart shows them), drag across a chart to
                zoom in on that time span, double-click to zoom back out, click a legend entry to hide or show its
                line. The lines are the records themselves: each NIC's transmit rate as the steps nic-throughput.csv
                lists, and each variant's per-receiver times (for a fan-out, from asking to having the model; otherwise
                from a receiving GPU's first transfer start to its last finish), and each fan-out receiver's wait for a
                source (arrival to post) and pull (post to finish) as transfers.csv and summary.json list them. uPlot
                (<a href="%s">MIT licence</a>) draws them; this page needs no network. Where a profile's calibrated or
                assumed number (a figure fitted to a measurement, not a mechanism) limits what a chart draws, the note
                under that chart names it, as the PNG/SVG charts do.
                <a href="index.html">Back to the report</a>.</p>
                <div id="charts"></div>
                <script>
                (function () {
                  var D = window.RDMASIM_DATA;
                  var root = document.getElementById("charts");
                  var palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                    "#7f7f7f", "#bcbd22", "#17becf"];
                  function fmt(v) { return v == null ? "-" : String(+v.toPrecision(5)); }
                  function notes(lines) {
                    (lines || []).forEach(function (line) {
                      if (line == null) { return; }
                      var p = document.createElement("p"); p.className = "note calibrated"; p.textContent = line;
                      root.appendChild(p);
                    });
                  }
                  function section(title) {
                    var h = document.createElement("h2"); h.textContent = title; root.appendChild(h);
                  }
                  function draw(title, xLabel, yLabel, names, tables) {
                    var div = document.createElement("div"); div.className = "chart"; root.appendChild(div);
                    var series = [{ label: xLabel, value: function (u, v) { return fmt(v); } }];
                    names.forEach(function (n, i) {
                      series.push({ label: n, stroke: palette[i %% palette.length], width: 1.5, spanGaps: true,
                        paths: uPlot.paths.stepped({ align: 1 }), value: function (u, v) { return fmt(v); } });
                    });
                    new uPlot({ title: title, width: Math.min(1000, window.innerWidth - 60), height: 380,
                      scales: { x: { time: false } }, series: series,
                      axes: [{ label: xLabel }, { label: yLabel }] }, uPlot.join(tables), div);
                  }
                  if (D.cdf.length > 0) {
                    section("Time per receiver, cumulative");
                    draw("fraction of receivers done", "seconds", "fraction of receivers",
                      D.cdf.map(function (c) { return c.label + (c.fanout ? "" : " (first start to last finish)"); }),
                      D.cdf.map(function (c) {
                        // from no receiver done at time 0 up to the first finish
                        return c.seconds[0] > 0 ? [[0].concat(c.seconds), [0].concat(c.fraction)] : [c.seconds, c.fraction];
                      }));
                  }
                  if (D.timelines.length > 0) {
                    section("Transmit rate per NIC over time");
                  }
                  D.timelines.forEach(function (t) {
                    if (t.omitted) {
                      var p = document.createElement("p"); p.className = "note";
                      p.textContent = t.variant + ": " + t.omitted + " steps, too many to draw here; see nic-throughput.csv";
                      root.appendChild(p); notes(t.notes); return;
                    }
                    draw(t.variant, "time (s)", "transmit Gbps",
                      t.nics.map(function (n) { return n.nic; }),
                      t.nics.map(function (n) { return [n.from_s, n.gbps]; }));
                    notes(t.notes);
                  });
                  function spans(r) {
                    var n = r.names.length, lo = Number.MAX_VALUE, hi = -Number.MAX_VALUE;
                    for (var i = 0; i < n; i++) {
                      lo = Math.min(lo, r.arrival_s[i]); hi = Math.max(hi, r.finish_s[i]);
                    }
                    var WAIT = "#ffbb78", PULL = "#1f77b4";
                    var div = document.createElement("div"); div.className = "chart"; root.appendChild(div);
                    var key = document.createElement("p"); key.className = "note";
                    key.innerHTML = '<span class="key" style="background:' + WAIT + '"></span>waiting for a source (arrival to post)' +
                      '<span class="key" style="background:' + PULL + '"></span>pulling (post to finish)';
                    var info = document.createElement("p"); info.className = "hover";
                    var idle = "hover over a receiver for its name and times";
                    info.textContent = idle;
                    function bars(u) {
                      var ctx = u.ctx, b = u.bbox;
                      ctx.save(); ctx.beginPath(); ctx.rect(b.left, b.top, b.width, b.height); ctx.clip();
                      var h = Math.max(1, 0.8 * Math.abs(u.valToPos(1, "y", true) - u.valToPos(0, "y", true)));
                      for (var i = 0; i < n; i++) {
                        var y = u.valToPos(i, "y", true) - h / 2;
                        var a = u.valToPos(r.arrival_s[i], "x", true), p = u.valToPos(r.post_s[i], "x", true),
                          f = u.valToPos(r.finish_s[i], "x", true);
                        if (r.post_s[i] > r.arrival_s[i]) { ctx.fillStyle = WAIT; ctx.fillRect(a, y, Math.max(1, p - a), h); }
                        ctx.fillStyle = PULL; ctx.fillRect(p, y, Math.max(1, f - p), h);
                      }
                      ctx.restore();
                    }
                    function hover(u) {
                      var top = u.cursor.top, i = top == null || top < 0 ? -1 : Math.round(u.posToVal(top, "y"));
                      if (i < 0 || i >= n) { info.textContent = idle; return; }
                      info.textContent = r.names[i] + ": arrived " + fmt(r.arrival_s[i]) + " s, posted " + fmt(r.post_s[i]) +
                        " s (waited " + fmt(r.post_s[i] - r.arrival_s[i]) + " s), finished " + fmt(r.finish_s[i]) +
                        " s (pulled " + fmt(r.finish_s[i] - r.post_s[i]) + " s)";
                    }
                    var sampled = r.every > 1 ? ", every " + r.every + "th of " + r.of + " receivers" : "";
                    new uPlot({ title: r.variant + " (" + n + " receivers in arrival order" + sampled + ")",
                      width: Math.min(1000, window.innerWidth - 60), height: Math.min(640, Math.max(300, 160 + 2 * n)),
                      scales: { x: { time: false }, y: { auto: false, range: [-0.5, n - 0.5], dir: -1 } },
                      series: [{ label: "time (s)" }, { label: "receivers", stroke: "transparent", points: { show: false } }],
                      legend: { show: false }, cursor: { points: { show: false } },
                      axes: [{ label: "time (s)" }, { label: "receiver, arrival order (row)", size: 60 }],
                      hooks: { draw: [bars], setCursor: [hover] } }, [[lo, hi], [-0.5, n - 0.5]], div);
                    div.appendChild(key); div.appendChild(info);
                    notes([r.note]);
                  }
                  if (D.receivers.length > 0) {
                    section("Receivers over time: arrival, post, finish");
                  }
                  D.receivers.forEach(spans);
                })();
                </script>
                </body></html>
                """.formatted(esc(scenario), STYLE, SCRIPT, DATA, esc(scenario), LICENSE);
    }
}
