// aliasplan's memory viewer: draws the plans embedded in #data on one
// canvas per plan. Plain JavaScript, no library, nothing fetched.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var S = D.strs, N = D.cmds.length, R = D.res.length;

  // Layout, in CSS pixels.
  var MINH = 4;          // minimum drawn height of a resource: every one can be hovered
  var LEFT = 76, RIGHT = 14;
  var HEAD = 18;         // a pool panel's title line
  var MIN_PANEL = 64, BUDGET = 360, PANEL_GAP = 6;
  var LIVE_H = 78, BAR_H = 13, SER_H = 16, AXIS_H = 26, TRACK_GAP = 8, LANE_H = 16;
  var QUEUES = ["graphics", "compute", "transfer"], LANE_C = ["#4e79a7", "#f28e2b", "#59a14f"], SEM_C = "#7b3294";
  var MAX_PPC = 96;      // most pixels per command when zoomed in

  var STATUS = ["pooled", "dedicated", "host_visible", "imported", "unused"];
  var KIND = ["hazard", "alias"], BTYPE = ["memory", "buffer", "image"];
  var C = {
    hazard: "#7a7a7a", alias: "#d62728", layout: "#1f77b4", bound: "#1f4e9c", live: "rgba(78,121,167,0.28)",
    liveLine: "#4e79a7", pool: "#222222", ser: "#2ca02c", grid: "#e6e6e6", panel: "#f5f5f5", text: "#1a1a1a",
    muted: "#666666", sel: "#000000", match: "#ffd400", link: "rgba(214,39,40,0.45)"
  };
  var STATUS_C = { dedicated: "#9d9d9d", host_visible: "#c49c6b", imported: "#d0d0d0", unused: "#ffffff" };

  function mib(n) {
    if (n >= 1073741824) return (n / 1073741824).toFixed(2) + " GiB";
    if (n >= 1048576) return (n / 1048576).toFixed(1) + " MiB";
    if (n >= 1024) return (n / 1024).toFixed(1) + " KiB";
    return n + " B";
  }
  function tickLabel(n) { return mib(n).replace(/\.0+ /, " "); }
  function escHTML(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }
  function str(i) { return i < 0 ? "" : S[i]; }
  function pct(a, b) { return b > 0 ? (100 * a / b).toFixed(1) + "%" : "–"; }
  // Fills are the category colours lightened, so that names stay legible
  // on them; edges are the category colours themselves.
  function lighten(hex, f) {
    var n = parseInt(hex.slice(1), 16), out = "#";
    [16, 8, 0].forEach(function (s) {
      var v = (n >> s) & 255;
      out += ("0" + Math.round(v + (255 - v) * f).toString(16)).slice(-2);
    });
    return out;
  }
  var FILL = D.catc.map(function (c) { return lighten(c, 0.42); });
  function colourOf(r) { return FILL[D.rinfo[4 * r + 1]]; }
  function edgeOf(r) { return D.catc[D.rinfo[4 * r + 1]]; }

  // ---- the plans -------------------------------------------------------

  function Plan(pd, k) {
    var P = this, i, r, u;
    P.k = k; P.d = pd;
    P.pos = new Int32Array(N);
    for (i = 0; i < N; i++) P.pos[pd.order[i]] = i;
    P.first = new Int32Array(R); P.last = new Int32Array(R);
    for (r = 0; r < R; r++) {
      var f = N, l = -1;
      for (u = D.us[r]; u < D.us[r + 1]; u++) {
        var p = P.pos[D.u[5 * u]];
        if (p < f) f = p;
        if (p > l) l = p;
      }
      P.first[r] = f; P.last[r] = l;
    }
    var rp = pd.rplan;
    P.status = new Uint8Array(R); P.pool = new Int32Array(R); P.off = new Float64Array(R); P.size = new Float64Array(R);
    for (r = 0; r < R; r++) {
      P.status[r] = rp[9 * r]; P.size[r] = rp[9 * r + 2]; P.pool[r] = rp[9 * r + 6]; P.off[r] = rp[9 * r + 7];
    }
    var np = pd.pools.length / 3;
    P.pools = [];
    for (i = 0; i < np; i++) P.pools.push({ i: i, type: pd.pools[3 * i], cls: S[pd.pools[3 * i + 1]], size: pd.pools[3 * i + 2], members: [], nAlias: 0, yz: 1, yo: 0 });
    P.unpooled = [];
    P.live = new Float64Array(N + 1);
    for (r = 0; r < R; r++) {
      if (P.status[r] !== 0) { if (P.status[r] !== 4) P.unpooled.push(r); continue; }
      var pl = P.pools[P.pool[r]];
      pl.members.push(r);
      if (rp[9 * r + 8]) pl.nAlias++;
      P.live[P.first[r]] += P.size[r]; P.live[P.last[r] + 1] -= P.size[r];
    }
    P.peak = 0;
    for (i = 0, u = 0; i < N; i++) { u += P.live[i]; P.live[i] = u; if (u > P.peak) P.peak = u; }
    // Large first, so that small resources are drawn (and hit) on top.
    P.pools.forEach(function (pl) {
      pl.members.sort(function (a, b) { return P.size[b] - P.size[a] || a - b; });
    });
    P.unpooled.sort(function (a, b) { return P.status[a] - P.status[b] || a - b; });
    // Each group's lower bound goes on the pool where the group's stacked
    // total reaches it.
    P.boundTotal = 0;
    pd.groups.forEach(function (g) {
      P.boundTotal += g.bound;
      var rest = g.bound;
      for (var j = 0; j < g.pools.length; j++) {
        var pl = P.pools[g.pools[j]];
        if (rest <= pl.size || j === g.pools.length - 1) {
          pl.bound = Math.min(rest, pl.size); pl.boundTotal = g.bound; pl.group = g.pools;
          break;
        }
        rest -= pl.size;
      }
    });
    // Barriers: counts per position, per resource, and alias links.
    var nb = pd.bar.length / 11;
    P.nb = nb;
    P.hz = new Uint16Array(N); P.al = new Uint16Array(N); P.lt = new Uint16Array(N);
    P.barPos = new Int32Array(nb);
    var byRes = new Int32Array(R + 1), prevOf = new Int32Array(R + 1);
    P.nAliasBar = 0; P.nLayout = 0;
    var links = [];
    for (i = 0; i < nb; i++) {
      var b = pd.bar, o = 11 * i, at = P.pos[b[o]];
      P.barPos[i] = at;
      if (b[o + 1] === 1) { P.al[at]++; P.nAliasBar++; } else P.hz[at]++;
      if (b[o + 2] === 2 && b[o + 8] !== b[o + 9]) { P.lt[at]++; P.nLayout++; }
      byRes[b[o + 3] + 1]++;
      var pi = b[o + 10], cnt = pd.prev[pi];
      for (var j2 = 1; j2 <= cnt; j2++) {
        prevOf[pd.prev[pi + j2] + 1]++;
        if (b[o + 1] === 1) links.push(pd.prev[pi + j2], b[o + 3], i);
      }
    }
    P.links = new Int32Array(links);
    for (r = 0; r < R; r++) { byRes[r + 1] += byRes[r]; prevOf[r + 1] += prevOf[r]; }
    P.resBarStart = byRes; P.resBar = new Int32Array(nb);
    P.prevStart = prevOf; P.prevBar = new Int32Array(prevOf[R]);
    var fillA = byRes.slice(0, R), fillB = prevOf.slice(0, R);
    for (i = 0; i < nb; i++) {
      var o2 = 11 * i;
      P.resBar[fillA[pd.bar[o2 + 3]]++] = i;
      var pi2 = pd.bar[o2 + 10];
      for (var j3 = 1; j3 <= pd.prev[pi2]; j3++) P.prevBar[fillB[pd.prev[pi2 + j3]]++] = i;
    }
    P.maxBar = 1;
    for (i = 0; i < N; i++) P.maxBar = Math.max(P.maxBar, P.hz[i], P.al[i], P.lt[i]);
    P.ser = pd.ser || null;
    P.queues = pd.queues || null; // per command its queue (plans with submissions)
    P.sems = pd.sems || [];
    P.xalias = pd.xalias || [];
  }

  var plans = D.plans.map(function (pd, k) { return new Plan(pd, k); });
  var maxPooled = 1;
  plans.forEach(function (P) {
    var s = 0;
    P.pools.forEach(function (pl) { s += pl.size; });
    maxPooled = Math.max(maxPooled, s);
  });

  // ---- shared view state ----------------------------------------------

  var V = { x0: 0, ppc: 1, width: 800, sel: null, hl: null, hlCols: null, hlBars: null, q: "", links: true };
  var dpr = window.devicePixelRatio || 1;

  function plotW() { return Math.max(50, V.width - LEFT - RIGHT); }
  function fitPPC() { return plotW() / Math.max(N, 1); }
  function clampView() {
    V.ppc = Math.min(Math.max(V.ppc, fitPPC()), Math.max(MAX_PPC, fitPPC()));
    var span = plotW() / V.ppc;
    V.x0 = Math.min(Math.max(V.x0, 0), Math.max(0, N - span));
  }
  function X(p) { return LEFT + (p - V.x0) * V.ppc; }
  function posAt(x) { return V.x0 + (x - LEFT) / V.ppc; }

  // ---- page structure -------------------------------------------------

  var plansEl = document.getElementById("plans");
  var tip = document.getElementById("tip");
  var details = document.getElementById("details");
  var rangeEl = document.getElementById("range");
  var matchesEl = document.getElementById("matches");

  plans.forEach(function (P) {
    var sec = document.createElement("section");
    sec.className = "plan";
    var head = document.createElement("div");
    head.className = "plan-head";
    var st = P.d.stats;
    var gap = st[2] > 0 ? " (+" + pct(st[1] - st[2], st[2]) + ")" : "";
    head.innerHTML = "<b>" + escHTML(P.d.name) + "</b> · pooled <b>" + mib(st[1]) + "</b>" + gap +
      " · lower bound " + mib(st[2]) + (st[4] > 0 ? " · execution-order bound " + mib(st[4]) : "") + " · peak live " + mib(P.peak) + " · without aliasing " + mib(st[0]) +
      " (saves " + pct(st[0] - st[1], st[0]) + ") · " + P.pools.length + " pools · " + P.nb + " barriers (" +
      P.nAliasBar + " alias, " + P.nLayout + " layout transitions)" + (P.ser ? " · " + P.ser.length / 5 + " serializations" : "");
    sec.appendChild(head);
    var cv = document.createElement("canvas");
    cv.setAttribute("data-plan", String(P.k));
    sec.appendChild(cv);
    plansEl.appendChild(sec);
    P.canvas = cv; P.ctx = cv.getContext("2d"); P.head = head;
    layoutPlan(P);
    attach(P);
  });

  // Summary and, for several plans, the comparison table.
  (function () {
    var s = document.getElementById("summary");
    var P0 = plans[0];
    var txt = N + " commands · " + R + " resources · requirements: " + escHTML(P0.d.req) +
      (P0.d.req.indexOf("profile") >= 0 ? " (estimates)" : "") + " · dedicated and host-visible " + mib(P0.d.stats[3]);
    if (plans.length > 1) {
      var anyExec = plans.some(function (P) { return P.d.stats[4] > 0; });
      var best = Math.min.apply(null, plans.map(function (P) { return P.d.stats[1]; }));
      txt += '<table id="compare"><tr><th>plan</th><th>pooled</th><th>lower bound</th><th>above bound</th><th>peak live</th>' + (anyExec ? "<th>execution-order bound</th>" : "") + '<th>saves</th><th>pools</th><th>barriers</th><th>alias barriers</th></tr>';
      plans.forEach(function (P) {
        var st = P.d.stats;
        txt += "<tr><td>" + escHTML(P.d.name) + '</td><td class="' + (st[1] === best ? "best" : "") + '">' + mib(st[1]) + "</td><td>" + mib(st[2]) +
          "</td><td>" + pct(st[1] - st[2], st[2]) + "</td><td>" + mib(P.peak) + "</td>" + (anyExec ? "<td>" + (st[4] > 0 ? mib(st[4]) : "–") + "</td>" : "") + "<td>" + pct(st[0] - st[1], st[0]) + "</td><td>" +
          P.pools.length + "</td><td>" + P.nb + "</td><td>" + P.nAliasBar + "</td></tr>";
      });
      txt += "</table>";
    }
    s.innerHTML = txt;
  })();

  // Legend: what each colour and mark means.
  (function () {
    var h = "<b>resources by use:</b>";
    D.cats.forEach(function (name, i) { h += '<span class="k"><i style="background:' + FILL[i] + ";border-color:" + D.catc[i] + '"></i>' + escHTML(name) + "</span>"; });
    h += '<span class="k"><i style="background:#fff;border:2px solid #000"></i>selected</span>';
    h += '<span class="k"><i style="background:' + C.match + '"></i>search match</span>';
    h += "<b>tracks:</b>";
    h += '<span class="k"><i style="background:' + C.live + ';border-color:' + C.liveLine + '"></i>live bytes</span>';
    h += '<span class="k"><i class="line" style="border-color:' + C.pool + '"></i>pool size</span>';
    h += '<span class="k"><i class="dash" style="border-color:' + C.bound + '"></i>lower bound</span>';
    h += '<span class="k"><i style="background:' + C.hazard + '"></i>hazard barrier</span>';
    h += '<span class="k"><i style="background:' + C.alias + '"></i>alias barrier</span>';
    h += '<span class="k"><i style="background:' + C.layout + '"></i>layout transition</span>';
    h += '<span class="k"><i class="line" style="border-color:' + C.link + '"></i>alias link (old → new occupant)</span>';
    if (plans.some(function (P) { return P.ser; })) h += '<span class="k"><i style="background:' + C.ser + '"></i>serialization (last use → first use it orders)</span>';
    if (plans.some(function (P) { return P.queues; })) h += '<span class="k"><i class="line" style="border-color:' + SEM_C + '"></i>semaphore (signal → wait); dashed: alias across queues</span>';
    if (plans.some(function (P) { return P.d.stats[4] > 0; })) h += '<span class="k"><i class="dash" style="border-color:' + C.ser + '"></i>execution-order bound</span>';
    h += "<b>not pooled:</b>";
    ["dedicated", "host_visible", "imported"].forEach(function (s) { h += '<span class="k"><i style="background:' + STATUS_C[s] + '"></i>' + s + "</span>"; });
    document.getElementById("legend").innerHTML = h;
  })();

  function layoutPlan(P) {
    var y = 4;
    P.pools.forEach(function (pl) {
      pl.h = Math.max(MIN_PANEL, Math.round(pl.size / maxPooled * BUDGET));
      pl.y = y + HEAD;
      y = pl.y + pl.h + PANEL_GAP;
    });
    if (!P.pools.length) y += HEAD + 24;
    y += TRACK_GAP;
    P.liveY = y + 12; y = P.liveY + LIVE_H + TRACK_GAP;
    P.barY = y; y += 3 * BAR_H + TRACK_GAP;
    if (P.ser) { P.serY = y; y += SER_H + TRACK_GAP; }
    if (P.queues) { P.qY = y + 12; y = P.qY + QUEUES.length * LANE_H + TRACK_GAP; }
    P.axisY = y; y += AXIS_H;
    P.h = y;
  }

  function sizeCanvases() {
    V.width = Math.max(300, plansEl.clientWidth);
    dpr = window.devicePixelRatio || 1;
    plans.forEach(function (P) {
      P.canvas.style.width = V.width + "px";
      P.canvas.style.height = P.h + "px";
      P.canvas.width = Math.round(V.width * dpr);
      P.canvas.height = Math.round(P.h * dpr);
    });
  }

  // ---- drawing --------------------------------------------------------

  function poolY(pl, off) { return pl.y + (off - pl.yo) / pl.size * pl.h * pl.yz; }
  function resRect(P, r) {
    var pl = P.pools[P.pool[r]];
    var x1 = X(P.first[r]), x2 = X(P.last[r] + 1);
    var y = poolY(pl, P.off[r]);
    var h = Math.max(MINH, P.size[r] / pl.size * pl.h * pl.yz);
    // A small resource at the end of its pool grows upwards, inside it.
    var bottom = poolY(pl, pl.size);
    if (y + h > bottom) y = Math.max(poolY(pl, 0), bottom - h);
    var w = x2 - x1;
    if (w > 3) w -= 1;
    return { x: x1, y: y, w: Math.max(w, 1), h: h };
  }


  function drawPlan(P) {
    var ctx = P.ctx, W = V.width, i, r;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, W, P.h);
    ctx.font = "11px system-ui, 'DejaVu Sans', Helvetica, Arial, sans-serif";
    ctx.textBaseline = "alphabetic";
    var lo = Math.max(0, Math.floor(V.x0)), hi = Math.min(N, Math.ceil(posAt(LEFT + plotW())));
    var labelStep = Math.max(1, Math.ceil(90 / V.ppc));
    var dim = V.hl !== null;

    P.pools.forEach(function (pl) {
      ctx.fillStyle = C.text;
      ctx.font = "bold 11px system-ui, 'DejaVu Sans', Helvetica, Arial, sans-serif";
      ctx.fillText("pool " + pl.i + " · " + pl.cls + " · memory type " + pl.type + " · " + mib(pl.size) + " · " +
        pl.members.length + " resources, " + pl.nAlias + " aliased" + (pl.yz > 1 ? " · bytes ×" + pl.yz.toFixed(1) : ""), LEFT, pl.y - 5);
      ctx.font = "11px system-ui, 'DejaVu Sans', Helvetica, Arial, sans-serif";
      ctx.fillStyle = C.panel;
      ctx.fillRect(LEFT, pl.y, plotW(), pl.h);
      ctx.save();
      ctx.beginPath(); ctx.rect(LEFT, pl.y, plotW(), pl.h); ctx.clip();
      // Column grid where the axis has labels.
      if (V.ppc >= 4) {
        ctx.fillStyle = C.grid;
        for (i = Math.ceil(lo / labelStep) * labelStep; i <= hi; i += labelStep) ctx.fillRect(Math.round(X(i)), pl.y, 1, pl.h);
      }
      // Highlighted columns: the uses of what is selected or found.
      if (V.hlCols) {
        ctx.fillStyle = "rgba(255,212,0,0.22)";
        V.hlCols[P.k].forEach(function (p) { ctx.fillRect(X(p), pl.y, Math.max(1, V.ppc), pl.h); });
      }
      var m = pl.members, n = m.length;
      for (i = 0; i < n; i++) {
        r = m[i];
        if (X(P.last[r] + 1) < LEFT || X(P.first[r]) > W) continue;
        var q = resRect(P, r);
        if (q.y > pl.y + pl.h || q.y + q.h < pl.y) continue;
        var on = !dim || V.hl[r] > 0;
        ctx.globalAlpha = on ? 1 : 0.22;
        ctx.fillStyle = V.hl && V.hl[r] === 2 ? C.match : colourOf(r);
        ctx.fillRect(q.x, q.y, q.w, q.h);
        if (q.w > 4 && q.h > 4) {
          ctx.strokeStyle = edgeOf(r); ctx.lineWidth = 1;
          ctx.strokeRect(q.x + 0.5, q.y + 0.5, q.w - 1, q.h - 1);
        }
        if (q.h >= 12 && q.w >= 40) {
          var name = D.res[r], maxc = Math.floor((q.w - 6) / 6.2);
          if (maxc >= 4) {
            if (name.length > maxc) name = name.slice(0, maxc - 1) + "…";
            ctx.fillStyle = C.text;
            ctx.fillText(name, Math.max(q.x, LEFT) + 3, q.y + Math.min(q.h / 2 + 4, 12));
            if (q.h >= 26) {
              ctx.fillStyle = C.muted;
              ctx.fillText(mib(P.size[r]), Math.max(q.x, LEFT) + 3, q.y + 24);
            }
          }
        }
      }
      ctx.globalAlpha = 1;
      // Alias links: from the old occupant's end to the new one's start.
      // All of them when the box is ticked; those of what is selected or
      // found always.
      if (V.links || dim) {
        var L = P.links;
        for (i = 0; i < L.length; i += 3) {
          var a = L[i], b = L[i + 1];
          if (P.pool[b] !== pl.i) continue;
          var rel = V.hl && (V.hl[a] >= 2 || V.hl[b] >= 2);
          if (dim && !rel) continue;
          var xa = X(P.last[a] + 1), xb = X(P.first[b]);
          if (Math.max(xa, xb) < LEFT || Math.min(xa, xb) > W) continue;
          var qa = resRect(P, a), qb = resRect(P, b);
          var ya = qa.y + Math.min(qa.h, 40) / 2, yb = qb.y + Math.min(qb.h, 40) / 2;
          ctx.strokeStyle = rel ? C.alias : C.link; ctx.lineWidth = rel ? 1.6 : 1;
          ctx.beginPath(); ctx.moveTo(xa, ya);
          var mx = (xa + xb) / 2;
          ctx.bezierCurveTo(mx, ya, mx, yb, xb, yb);
          ctx.stroke();
          ctx.fillStyle = rel ? C.alias : C.link;
          ctx.beginPath(); ctx.moveTo(xb, yb); ctx.lineTo(xb - 5, yb - 3); ctx.lineTo(xb - 5, yb + 3); ctx.fill();
        }
      }
      // The selected resource, outlined on top.
      if (V.sel && V.sel.plan === P.k && V.sel.res >= 0 && P.pool[V.sel.res] === pl.i) {
        var qs = resRect(P, V.sel.res);
        ctx.strokeStyle = C.sel; ctx.lineWidth = 2;
        ctx.strokeRect(qs.x - 1, qs.y - 1, qs.w + 2, qs.h + 2);
      }
      // Lower bound.
      if (pl.bound !== undefined) {
        var yb2 = poolY(pl, pl.bound);
        ctx.strokeStyle = C.bound; ctx.lineWidth = 1.5; ctx.setLineDash([6, 4]);
        ctx.beginPath(); ctx.moveTo(LEFT, yb2); ctx.lineTo(LEFT + plotW(), yb2); ctx.stroke();
        ctx.setLineDash([]);
        var lbl = "lower bound " + mib(pl.boundTotal) + (pl.group.length > 1 ? " (pools " + pl.group[0] + "–" + pl.group[pl.group.length - 1] + " stacked)" : "");
        ctx.font = "bold 11px system-ui, 'DejaVu Sans', Helvetica, Arial, sans-serif";
        var tw = ctx.measureText(lbl).width, ty = yb2 - 4 < pl.y + 12 ? yb2 + 13 : yb2 - 4;
        ctx.fillStyle = "rgba(255,255,255,0.85)"; ctx.fillRect(LEFT + plotW() - tw - 6, ty - 10, tw + 4, 13);
        ctx.fillStyle = C.bound; ctx.textAlign = "right"; ctx.fillText(lbl, LEFT + plotW() - 4, ty); ctx.textAlign = "left";
        ctx.font = "11px system-ui, 'DejaVu Sans', Helvetica, Arial, sans-serif";
      }
      ctx.restore();
      ctx.strokeStyle = "#888"; ctx.lineWidth = 1;
      ctx.strokeRect(LEFT - 0.5, pl.y - 0.5, plotW() + 1, pl.h + 1);
      // Byte axis: powers of two bytes, about every 40 px.
      var top = pl.yo, span = pl.size / pl.yz, want = span / Math.max(1, pl.h / 40), step = 1;
      while (step < want) step *= 2;
      ctx.fillStyle = C.muted; ctx.textAlign = "right";
      for (var t = Math.ceil(top / step) * step; t <= top + span + 0.5; t += step) {
        var yt = poolY(pl, t);
        ctx.fillRect(LEFT - 4, Math.round(yt), 4, 1);
        ctx.fillText(tickLabel(t), LEFT - 6, Math.min(Math.max(yt + 4, pl.y + 8), pl.y + pl.h + 4));
      }
      ctx.textAlign = "left";
    });
    if (!P.pools.length) { ctx.fillStyle = C.muted; ctx.fillText("no pooled resources: nothing aliases", LEFT, 30); }

    drawLive(P, lo, hi);
    drawBarriers(P, lo, hi);
    if (P.ser) drawSer(P);
    if (P.queues) drawQueues(P, lo, hi);
    drawAxis(P, lo, hi, labelStep);
  }

  function drawLive(P, lo, hi) {
    var ctx = P.ctx, y0 = P.liveY, h = LIVE_H, pooled = P.d.stats[1], bound = P.boundTotal;
    var top = Math.max(pooled, P.peak, bound, 1) * 1.08;
    function Y(v) { return y0 + h - v / top * h; }
    ctx.fillStyle = C.text;
    ctx.font = "bold 11px system-ui, 'DejaVu Sans', Helvetica, Arial, sans-serif";
    ctx.fillText("live bytes in this order · peak " + mib(P.peak) + " · pools " + mib(pooled) + " · lower bound " + mib(bound) +
      (P.d.stats[4] > 0 ? " · execution-order bound " + mib(P.d.stats[4]) : ""), LEFT, y0 - 4);
    ctx.font = "11px system-ui, 'DejaVu Sans', Helvetica, Arial, sans-serif";
    ctx.fillStyle = "#fafafa"; ctx.fillRect(LEFT, y0, plotW(), h);
    ctx.save(); ctx.beginPath(); ctx.rect(LEFT, y0, plotW(), h); ctx.clip();
    ctx.beginPath(); ctx.moveTo(X(lo), Y(0));
    var step = V.ppc < 1 ? 1 / V.ppc : 1;
    for (var p = lo; p < hi; p += step) {
      // Where several commands share a pixel, the pixel shows their maximum.
      var i0 = Math.floor(p), i1 = Math.min(hi, Math.floor(p + step)), v = 0;
      for (var i = i0; i < Math.max(i1, i0 + 1); i++) v = Math.max(v, P.live[i]);
      ctx.lineTo(X(i0), Y(v)); ctx.lineTo(X(Math.max(i1, i0 + 1)), Y(v));
    }
    ctx.lineTo(X(hi), Y(0)); ctx.closePath();
    ctx.fillStyle = C.live; ctx.fill();
    ctx.strokeStyle = C.liveLine; ctx.lineWidth = 1; ctx.stroke();
    // The peak, where it first happens.
    for (var pk = 0; pk < N && P.live[pk] < P.peak; pk++);
    if (pk < N && P.peak > 0) {
      var xp = X(pk + 0.5), yp = Y(P.peak);
      ctx.fillStyle = C.liveLine;
      ctx.beginPath(); ctx.moveTo(xp, yp + 1); ctx.lineTo(xp - 4, yp + 7); ctx.lineTo(xp + 4, yp + 7); ctx.fill();
      ctx.fillText("peak " + mib(P.peak), Math.min(xp + 6, LEFT + plotW() - 80), Math.min(yp + 12, y0 + h - 3));
    }
    ctx.strokeStyle = C.pool; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(LEFT, Y(pooled)); ctx.lineTo(LEFT + plotW(), Y(pooled)); ctx.stroke();
    ctx.strokeStyle = C.bound; ctx.setLineDash([6, 4]);
    ctx.beginPath(); ctx.moveTo(LEFT, Y(bound)); ctx.lineTo(LEFT + plotW(), Y(bound)); ctx.stroke();
    if (P.d.stats[4] > 0) {
      // The execution-order bound: what this order needs at least.
      ctx.strokeStyle = C.ser; ctx.setLineDash([2, 3]);
      ctx.beginPath(); ctx.moveTo(LEFT, Y(P.d.stats[4])); ctx.lineTo(LEFT + plotW(), Y(P.d.stats[4])); ctx.stroke();
    }
    ctx.setLineDash([]);
    if (V.hlCols) { ctx.fillStyle = "rgba(255,212,0,0.35)"; V.hlCols[P.k].forEach(function (q) { ctx.fillRect(X(q), y0, Math.max(1, V.ppc), h); }); }
    ctx.restore();
    ctx.strokeStyle = "#bbb"; ctx.strokeRect(LEFT - 0.5, y0 - 0.5, plotW() + 1, h + 1);
    ctx.fillStyle = C.muted; ctx.textAlign = "right";
    ctx.fillText(tickLabel(pooled), LEFT - 6, Y(pooled) + 4);
    ctx.fillText("0", LEFT - 6, y0 + h);
    ctx.textAlign = "left";
  }

  function barH(n, P) { return Math.max(3, n / P.maxBar * (BAR_H - 2)); }

  function drawBarriers(P, lo, hi) {
    var ctx = P.ctx, rows = [["hazard", P.hz, C.hazard], ["alias", P.al, C.alias], ["layout", P.lt, C.layout]];
    rows.forEach(function (row, k) {
      var y = P.barY + k * BAR_H, arr = row[1];
      ctx.fillStyle = "#fafafa"; ctx.fillRect(LEFT, y, plotW(), BAR_H - 2);
      ctx.fillStyle = C.muted; ctx.textAlign = "right"; ctx.fillText(row[0], LEFT - 6, y + 10); ctx.textAlign = "left";
      ctx.save(); ctx.beginPath(); ctx.rect(LEFT, y, plotW(), BAR_H); ctx.clip();
      ctx.fillStyle = row[2];
      ctx.beginPath();
      if (V.ppc >= 1) {
        var w = Math.max(1, V.ppc - (V.ppc > 3 ? 1 : 0));
        for (var i = lo; i < hi; i++) {
          if (arr[i]) ctx.rect(X(i), y + BAR_H - 2 - barH(arr[i], P), w, barH(arr[i], P));
        }
      } else {
        // Several commands per pixel: one bar per pixel, their maximum.
        for (var px = 0; px < plotW(); px++) {
          var a = Math.max(lo, Math.floor(posAt(LEFT + px))), b = Math.min(hi, Math.floor(posAt(LEFT + px + 1))), m = 0;
          for (var j = a; j < Math.max(b, a + 1) && j < hi; j++) if (arr[j] > m) m = arr[j];
          if (m) ctx.rect(LEFT + px, y + BAR_H - 2 - barH(m, P), 1, barH(m, P));
        }
      }
      ctx.fill();
      ctx.restore();
    });
    // Barriers of what is selected or found, marked in black.
    ctx.save(); ctx.beginPath(); ctx.rect(LEFT, P.barY, plotW(), 3 * BAR_H); ctx.clip();
    if (V.hlBars && V.hlBars[P.k]) {
      ctx.fillStyle = C.sel;
      V.hlBars[P.k].forEach(function (b) {
        var o = 11 * b, k = P.d.bar[o + 1] === 1 ? 1 : 0, x = X(P.barPos[b]);
        ctx.fillRect(x, P.barY + k * BAR_H, Math.max(2, V.ppc - 1), 4);
        if (P.d.bar[o + 2] === 2 && P.d.bar[o + 8] !== P.d.bar[o + 9]) ctx.fillRect(x, P.barY + 2 * BAR_H, Math.max(2, V.ppc - 1), 4);
      });
    }
    ctx.restore();
  }

  function drawSer(P) {
    var ctx = P.ctx, y = P.serY, s = P.ser;
    ctx.fillStyle = C.muted; ctx.textAlign = "right"; ctx.fillText("serial", LEFT - 6, y + 11); ctx.textAlign = "left";
    ctx.save(); ctx.beginPath(); ctx.rect(LEFT, y, plotW(), SER_H); ctx.clip();
    ctx.strokeStyle = C.ser; ctx.fillStyle = C.ser; ctx.lineWidth = 2;
    for (var i = 0; i < s.length; i += 5) {
      var xa = X(P.pos[s[i + 2]] + 1), xb = X(P.pos[s[i + 3]]);
      ctx.beginPath(); ctx.moveTo(xa, y + SER_H / 2); ctx.lineTo(xb, y + SER_H / 2); ctx.stroke();
      ctx.fillRect(xa - 1, y + 3, 2, SER_H - 6); ctx.fillRect(xb - 1, y + 3, 2, SER_H - 6);
    }
    ctx.restore();
  }

  // drawQueues draws a lane per queue: each command a cell in its queue's
  // lane, each semaphore a line from the command it is signalled after to
  // the one it is waited before, each alias across queues a dashed link
  // from the old occupant's last use to the new one's first.
  function drawQueues(P, lo, hi) {
    var ctx = P.ctx, y0 = P.qY, w = Math.max(1, V.ppc - 1);
    ctx.fillStyle = C.text; ctx.fillText("queues", LEFT, y0 - 3);
    ctx.textAlign = "right";
    for (var q = 0; q < QUEUES.length; q++) {
      ctx.fillStyle = C.panel; ctx.fillRect(LEFT, y0 + q * LANE_H, plotW(), LANE_H - 2);
      ctx.fillStyle = C.muted; ctx.fillText(QUEUES[q], LEFT - 6, y0 + q * LANE_H + 11);
    }
    ctx.textAlign = "left";
    ctx.save(); ctx.beginPath(); ctx.rect(LEFT, y0, plotW(), QUEUES.length * LANE_H); ctx.clip();
    for (var p = Math.max(0, Math.floor(lo)); p < Math.min(N, Math.ceil(hi) + 1); p++) {
      var qq = P.queues[P.d.order[p]];
      ctx.fillStyle = LANE_C[qq]; ctx.fillRect(X(p), y0 + qq * LANE_H + 2, w, LANE_H - 6);
    }
    var mid = function (c) { return y0 + P.queues[c] * LANE_H + LANE_H / 2; };
    ctx.strokeStyle = SEM_C; ctx.fillStyle = SEM_C; ctx.lineWidth = 1.5;
    for (var i = 0; i < P.sems.length; i += 2) {
      var a = P.sems[i], b = P.sems[i + 1], xb = X(P.pos[b]);
      ctx.beginPath(); ctx.moveTo(X(P.pos[a] + 1), mid(a)); ctx.lineTo(xb, mid(b)); ctx.stroke();
      ctx.beginPath(); ctx.arc(xb, mid(b), 2.5, 0, 2 * Math.PI); ctx.fill();
    }
    ctx.setLineDash([3, 2]); ctx.lineWidth = 1.2;
    for (i = 0; i < P.xalias.length; i += 4) {
      var l = P.xalias[i + 2], f = P.xalias[i + 3];
      ctx.beginPath(); ctx.moveTo(X(P.pos[l] + 1), mid(l) + 5); ctx.lineTo(X(P.pos[f]), mid(f) + 5); ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.restore();
  }

  function drawAxis(P, lo, hi, stepL) {
    var ctx = P.ctx, y = P.axisY;
    ctx.fillStyle = C.muted;
    ctx.fillRect(LEFT, y, plotW(), 1);
    var first = Math.ceil(lo / stepL) * stepL;
    ctx.save(); ctx.beginPath(); ctx.rect(LEFT - 1, y - 3, plotW() + 2, AXIS_H + 3); ctx.clip();
    for (var i = first; i < hi; i += stepL) {
      var x = X(i);
      ctx.fillRect(Math.round(x), y, 1, 4);
      var name = "#" + i + (V.ppc * stepL >= 60 ? " " + D.cmds[P.d.order[i]] : "");
      var maxc = Math.floor((V.ppc * stepL - 8) / 6.2);
      if (name.length > maxc) name = name.slice(0, Math.max(1, maxc - 1)) + "…";
      ctx.fillText(name, x + 2, y + 14);
    }
    if (V.hlCols) { ctx.fillStyle = "#c79a00"; V.hlCols[P.k].forEach(function (q) { ctx.fillRect(X(q), y - 3, Math.max(2, V.ppc), 3); }); }
    ctx.restore();
    ctx.fillStyle = C.muted;
    ctx.fillText("execution order →", LEFT, y + AXIS_H - 1);
  }

  var pending = false, firstDone = false;
  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; drawAll(); });
  }
  function drawAll() {
    clampView();
    plans.forEach(drawPlan);
    var a = Math.max(0, Math.floor(V.x0)), b = Math.min(N, Math.ceil(V.x0 + plotW() / V.ppc)) - 1;
    rangeEl.textContent = N === 0 ? "no commands" : "commands #" + a + "–#" + b + " of " + N + " · " +
      (V.ppc >= 1 ? V.ppc.toFixed(1) + " px per command" : (1 / V.ppc).toFixed(1) + " commands per px");
    if (!firstDone) {
      firstDone = true;
      var t = performance.now();
      window.aliasplanFirstRender = t;
      document.documentElement.setAttribute("data-first-render-ms", t.toFixed(1));
    }
  }

  // ---- hit testing ----------------------------------------------------

  function hit(P, x, y) {
    var i;
    for (i = 0; i < P.pools.length; i++) {
      var pl = P.pools[i];
      if (y < pl.y || y > pl.y + pl.h || x < LEFT || x > LEFT + plotW()) continue;
      // Of the drawn rectangles under the pointer (the minimum height can
      // make small neighbours overlap), the one whose true extent is
      // nearest; on a tie the smaller, which is drawn on top.
      var best = -1, bestD = Infinity;
      for (var j = pl.members.length - 1; j >= 0; j--) {
        var r = pl.members[j], q = resRect(P, r);
        if (x < q.x || x > q.x + q.w || y < q.y || y > q.y + q.h) continue;
        var t0 = poolY(pl, P.off[r]), t1 = poolY(pl, P.off[r] + P.size[r]);
        var d = y < t0 ? t0 - y : y > t1 ? y - t1 : 0;
        if (d < bestD) { best = r; bestD = d; }
        if (d === 0) break;
      }
      if (best >= 0) return { kind: "res", res: best, pool: pl };
      return { kind: "pool", pool: pl };
    }
    if (x < LEFT || x > LEFT + plotW()) return null;
    var p = Math.floor(posAt(x));
    if (p < 0 || p >= N) return null;
    if (y >= P.liveY && y <= P.liveY + LIVE_H) return { kind: "live", pos: p };
    if (y >= P.barY && y < P.barY + 3 * BAR_H) return { kind: "bar", pos: p, row: Math.floor((y - P.barY) / BAR_H) };
    if (P.ser && y >= P.serY && y < P.serY + SER_H) return { kind: "ser", pos: p };
    if (P.queues && y >= P.qY && y < P.qY + QUEUES.length * LANE_H) return { kind: "cmd", pos: p };
    if (y >= P.axisY - 2 && y <= P.axisY + AXIS_H) return { kind: "cmd", pos: p };
    return null;
  }

  function cmdLabel(P, p) { return "#" + p + " " + D.cmds[P.d.order[p]] + (P.queues ? " (" + QUEUES[P.queues[P.d.order[p]]] + " queue)" : ""); }

  function tipText(P, h) {
    var r, s;
    if (h.kind === "res") {
      r = h.res;
      s = D.res[r] + "\n" + S[D.rinfo[4 * r]] + " · " + D.cats[D.rinfo[4 * r + 1]] +
        "\n" + mib(P.size[r]) + " at " + mib(P.off[r]) + " in pool " + P.pool[r] +
        "\nlive " + cmdLabel(P, P.first[r]) + " → " + cmdLabel(P, P.last[r]);
      var sh = sharers(P, r);
      if (sh.length) s += "\nshares bytes with " + sh.slice(0, 6).map(function (o) { return D.res[o]; }).join(", ") + (sh.length > 6 ? " and " + (sh.length - 6) + " more" : "");
      return s + "\n(click for uses and barriers)";
    }
    if (h.kind === "pool") return "pool " + h.pool.i + " (" + h.pool.cls + ", " + mib(h.pool.size) + ")";
    var p = h.pos;
    s = cmdLabel(P, p);
    if (h.kind === "live") s += "\nlive " + mib(P.live[p]) + " of " + mib(P.d.stats[1]) + " pooled (lower bound " + mib(P.boundTotal) + ")";
    if (h.kind === "bar" || h.kind === "cmd") {
      s += "\n" + P.hz[p] + " hazard, " + P.al[p] + " alias barriers, " + P.lt[p] + " layout transitions before it";
      var bs = barriersAt(P, p);
      bs.slice(0, 8).forEach(function (b) { s += "\n  " + barrierLine(P, b); });
      if (bs.length > 8) s += "\n  … " + (bs.length - 8) + " more";
    }
    if (h.kind === "ser") {
      var ss = P.ser;
      for (var i = 0; i < ss.length; i += 5) {
        var a = P.pos[ss[i + 2]], b = P.pos[ss[i + 3]];
        if (p >= Math.min(a, b) && p <= Math.max(a, b)) s += "\nserialization: " + D.res[ss[i]] + " / " + D.res[ss[i + 1]] + ", " + D.cmds[ss[i + 2]] + " before " + D.cmds[ss[i + 3]] + ", saves " + mib(ss[i + 4]);
      }
    }
    return s;
  }

  function barriersAt(P, p) {
    // Barriers are grouped by the position of Before: binary search.
    var lo = 0, hi = P.nb;
    while (lo < hi) { var m = (lo + hi) >> 1; if (P.barPos[m] < p) lo = m + 1; else hi = m; }
    var out = [];
    for (var i = lo; i < P.nb && P.barPos[i] === p; i++) out.push(i);
    if (!out.length) for (i = 0; i < P.nb; i++) if (P.barPos[i] === p) out.push(i); // not grouped after all
    return out;
  }

  function barrierLine(P, b) {
    var d = P.d.bar, o = 11 * b, s = KIND[d[o + 1]] + " " + BTYPE[d[o + 2]] + " barrier for " + D.res[d[o + 3]];
    if (d[o + 1] === 1) {
      var pi = d[o + 10], prev = [];
      for (var j = 1; j <= P.d.prev[pi]; j++) prev.push(D.res[P.d.prev[pi + j]]);
      s += " (takes over from " + prev.join(", ") + ")";
    }
    if (d[o + 8] >= 0 && d[o + 8] !== d[o + 9]) s += " · layout " + S[d[o + 8]] + " → " + S[d[o + 9]];
    return s;
  }

  // sharers are the pooled resources sharing a byte with r (at any time).
  function sharers(P, r) {
    if (P.status[r] !== 0) return [];
    var pl = P.pools[P.pool[r]], a = P.off[r], b = a + P.size[r], out = [];
    pl.members.forEach(function (o) {
      if (o !== r && P.off[o] < b && P.off[o] + P.size[o] > a) out.push(o);
    });
    return out.sort(function (x, y) { return P.first[x] - P.first[y]; });
  }

  // ---- details --------------------------------------------------------

  function resLink(r, k) { return '<a data-res="' + r + '" data-plan="' + k + '">' + escHTML(D.res[r]) + "</a>"; }
  function cmdLink(P, p) { return '<a data-pos="' + p + '" data-plan="' + P.k + '">#' + p + " " + escHTML(D.cmds[P.d.order[p]]) + "</a>"; }

  function barrierHTML(P, b) {
    var d = P.d.bar, o = 11 * b, kind = KIND[d[o + 1]];
    var s = '<div class="bar ' + kind + '">' + kind + " " + BTYPE[d[o + 2]] + " barrier";
    if (d[o + 1] === 1) {
      var pi = d[o + 10], prev = [];
      for (var j = 1; j <= P.d.prev[pi]; j++) prev.push(resLink(P.d.prev[pi + j], P.k));
      s += ", takes over from " + prev.join(", ");
    }
    s += '<br><code>src ' + escHTML(S[d[o + 4]]) + " / " + escHTML(S[d[o + 5]]) + "<br>dst " + escHTML(S[d[o + 6]]) + " / " + escHTML(S[d[o + 7]]);
    if (d[o + 8] >= 0) s += "<br>layout " + escHTML(S[d[o + 8]]) + " → " + escHTML(S[d[o + 9]]);
    return s + "</code></div>";
  }

  function showRes(P, r) {
    var rp = P.d.rplan, o = 9 * r, st = STATUS[rp[o]];
    var h = "<h3>" + escHTML(D.res[r]) + "</h3>";
    h += '<div class="muted">' + escHTML(S[D.rinfo[4 * r]]) + " · " + escHTML(D.cats[D.rinfo[4 * r + 1]]) + (plans.length > 1 ? " · plan " + escHTML(P.d.name) : "") + "</div><table>";
    h += "<tr><th>status</th><td>" + st + (rp[o + 1] >= 0 ? ": " + escHTML(S[rp[o + 1]]) : "") + "</td></tr>";
    if (rp[o + 2] > 0) {
      var fl = [];
      if (rp[o + 5] & 1) fl.push("prefers dedicated");
      if (rp[o + 5] & 2) fl.push("requires dedicated");
      h += "<tr><th>requirements</th><td>size " + mib(rp[o + 2]) + " (" + rp[o + 2] + " B), alignment " + rp[o + 3] +
        ", memory types 0x" + rp[o + 4].toString(16) + (fl.length ? ", " + fl.join(", ") : "") + "</td></tr>";
    }
    if (rp[o] === 0) {
      h += "<tr><th>placement</th><td>pool " + rp[o + 6] + " at " + mib(rp[o + 7]) + " (" + rp[o + 7] + "), " + mib(P.size[r]) + (rp[o + 8] ? ", aliased" : ", not aliased") + "</td></tr>";
    }
    if (P.last[r] >= 0) h += "<tr><th>lifetime</th><td>" + cmdLink(P, P.first[r]) + " → " + cmdLink(P, P.last[r]) + "</td></tr>";
    var sh = sharers(P, r);
    if (sh.length) h += "<tr><th>shares bytes</th><td>" + sh.map(function (x) { return resLink(x, P.k); }).join(", ") + "</td></tr>";
    h += "</table>";
    // Barriers handing its memory on.
    var after = [];
    for (var i = P.prevStart[r]; i < P.prevStart[r + 1]; i++) after.push(P.prevBar[i]);
    // Uses in execution order, each with the barriers recorded before it.
    var uses = [];
    for (var u = D.us[r]; u < D.us[r + 1]; u++) uses.push(u);
    uses.sort(function (a, b) { return P.pos[D.u[5 * a]] - P.pos[D.u[5 * b]]; });
    h += "<h4>" + uses.length + " uses</h4><table>";
    uses.forEach(function (u) {
      var cmd = D.u[5 * u], p = P.pos[cmd];
      h += '<tr class="use"><td>' + cmdLink(P, p) + '<br><code>stages ' + escHTML(S[D.u[5 * u + 1]]) + "<br>access " + escHTML(S[D.u[5 * u + 2]]) +
        (D.u[5 * u + 3] >= 0 ? "<br>layout " + escHTML(S[D.u[5 * u + 4]]) + " → " + escHTML(S[D.u[5 * u + 3]]) : "") + "</code>";
      for (var j = P.resBarStart[r]; j < P.resBarStart[r + 1]; j++) {
        var b = P.resBar[j];
        if (P.barPos[b] === p) h += barrierHTML(P, b);
      }
      h += "</td></tr>";
    });
    h += "</table>";
    if (after.length) {
      h += "<h4>hands its memory on</h4>";
      after.forEach(function (b) { h += '<div class="bar alias">before ' + cmdLink(P, P.barPos[b]) + " to " + resLink(P.d.bar[11 * b + 3], P.k) + "</div>"; });
    }
    details.innerHTML = h;
  }

  function showCmd(P, p) {
    var cmd = P.d.order[p], h = "<h3>#" + p + " " + escHTML(D.cmds[cmd]) + "</h3>";
    h += '<div class="muted">command ' + cmd + (plans.length > 1 ? " · plan " + escHTML(P.d.name) : "") + " · live " + mib(P.live[p]) + "</div>";
    h += "<h4>uses</h4><table>";
    for (var r = 0; r < R; r++) {
      for (var u = D.us[r]; u < D.us[r + 1]; u++) {
        if (D.u[5 * u] !== cmd) continue;
        h += '<tr class="use"><td>' + resLink(r, P.k) + '<br><code>' + escHTML(S[D.u[5 * u + 1]]) + " / " + escHTML(S[D.u[5 * u + 2]]) +
          (D.u[5 * u + 3] >= 0 ? " / " + escHTML(S[D.u[5 * u + 3]]) : "") + "</code></td></tr>";
      }
    }
    h += "</table>";
    var bs = barriersAt(P, p);
    h += "<h4>" + bs.length + " barriers before it</h4>";
    bs.forEach(function (b) { h += "<div>" + resLink(P.d.bar[11 * b + 3], P.k) + "</div>" + barrierHTML(P, b); });
    details.innerHTML = h;
  }

  function showOverview() {
    var P = plans[0];
    var h = "<h3>Details</h3><div class=\"muted\">Hover a resource, a track or the command axis; click to pin its details here.</div>";
    h += "<h4>not pooled (" + P.unpooled.length + ")</h4><table>";
    P.unpooled.forEach(function (r) {
      var o = 9 * r, st = STATUS[P.d.rplan[o]];
      h += '<tr class="use"><td><i style="display:inline-block;width:10px;height:10px;background:' + (STATUS_C[st] || "#fff") + ';border:1px solid #999"></i> ' + st +
        "</td><td>" + resLink(r, 0) + '<br><span class="muted">' + escHTML(str(P.d.rplan[o + 1])) + "</span></td><td>" + (P.d.rplan[o + 2] ? mib(P.d.rplan[o + 2]) : "") + "</td></tr>";
    });
    details.innerHTML = h + "</table>";
  }

  details.addEventListener("click", function (e) {
    var a = e.target.closest("a");
    if (!a) return;
    var P = plans[+a.getAttribute("data-plan") || 0];
    if (a.hasAttribute("data-res")) select(P, +a.getAttribute("data-res"), -1, true);
    else select(P, -1, +a.getAttribute("data-pos"), true);
  });

  function select(P, r, p, reveal) {
    V.sel = { plan: P.k, res: r, pos: p };
    if (r >= 0) {
      showRes(P, r);
      if (reveal && P.last[r] >= 0) ensureVisible(P.first[r], P.last[r] + 1);
    } else {
      showCmd(P, p);
      if (reveal) ensureVisible(p, p + 1);
    }
    highlight();
  }

  function ensureVisible(a, b) {
    var span = plotW() / V.ppc;
    if (a >= V.x0 && b <= V.x0 + span) return;
    if (b - a > span * 0.9) V.ppc = Math.max(fitPPC(), plotW() / ((b - a) * 1.25));
    span = plotW() / V.ppc;
    V.x0 = (a + b) / 2 - span / 2;
  }

  // ---- highlight: search results and the selection ----------------------

  function highlight() {
    var q = V.q, hl = null, cols = null, bars = null;
    var resM = [], cmdM = [];
    if (q) {
      for (var r = 0; r < R; r++) if (D.res[r].toLowerCase().indexOf(q) >= 0) resM.push(r);
      for (var c = 0; c < N; c++) if (D.cmds[c].toLowerCase().indexOf(q) >= 0) cmdM.push(c);
    } else if (V.sel) {
      if (V.sel.res >= 0) resM.push(V.sel.res);
      else cmdM.push(plans[V.sel.plan].d.order[V.sel.pos]);
    }
    if (resM.length || cmdM.length) {
      hl = new Uint8Array(R); cols = []; bars = [];
      // The commands to mark: the uses of the matches and the matching
      // commands; each plan marks them at its own positions.
      var cmdSet = new Uint8Array(N), isCmd = new Uint8Array(N);
      cmdM.forEach(function (c) { isCmd[c] = 1; });
      // 2: a search match, drawn in the match colour; 3: the selection,
      // drawn in its own colour (outlined); 1: shares bytes with one.
      var mark = q ? 2 : 3;
      resM.forEach(function (r) {
        hl[r] = mark;
        for (var u = D.us[r]; u < D.us[r + 1]; u++) cmdSet[D.u[5 * u]] = 1;
      });
      // A command's match: the resources it uses.
      if (cmdM.length) {
        // (in their own colours: only names that match are painted as matches)
        for (var r2 = 0; r2 < R; r2++) for (var u2 = D.us[r2]; u2 < D.us[r2 + 1]; u2++) if (isCmd[D.u[5 * u2]] && !hl[r2]) hl[r2] = q ? 1 : mark;
        cmdM.forEach(function (c) { cmdSet[c] = 1; });
      }
      // Aliases: the resources sharing bytes with a match, in each plan (few
      // matches only: a search for "a" should not scan everything twice).
      if (resM.length <= 64) plans.forEach(function (P) { resM.forEach(function (r) { sharers(P, r).forEach(function (o) { if (!hl[o]) hl[o] = 1; }); }); });
      plans.forEach(function (P) {
        var list = [];
        for (var b = 0; b < P.nb; b++) {
          var o = 11 * b, br = P.d.bar[o + 3], mine = hl[br] >= 2 && resM.length ? true : isCmd[P.d.bar[o]] === 1;
          if (!mine && P.d.bar[o + 1] === 1) {
            var pi = P.d.bar[o + 10];
            for (var j = 1; j <= P.d.prev[pi] && !mine; j++) mine = resM.length > 0 && hl[P.d.prev[pi + j]] >= 2;
          }
          if (mine) list.push(b);
        }
        bars[P.k] = list;
      });
      plans.forEach(function (P) {
        var list = [];
        for (var c2 = 0; c2 < N; c2++) if (cmdSet[c2]) list.push(P.pos[c2]);
        cols[P.k] = list;
      });
    }
    V.hl = hl; V.hlCols = cols; V.hlBars = bars;
    if (q) {
      var m = resM.length + " resource" + (resM.length === 1 ? "" : "s") + ", " + cmdM.length + " command" + (cmdM.length === 1 ? "" : "s");
      var links = resM.slice(0, 6).map(function (r) { return '<a data-res="' + r + '">' + escHTML(D.res[r]) + "</a>"; })
        .concat(cmdM.slice(0, 4).map(function (c) { return '<a data-cmd="' + c + '">' + escHTML(D.cmds[c]) + "</a>"; }));
      matchesEl.innerHTML = m + (links.length ? ":" + links.join("") : "");
      V.matches = { res: resM, cmd: cmdM };
    } else {
      matchesEl.textContent = "";
      V.matches = null;
    }
    redraw();
  }

  matchesEl.addEventListener("click", function (e) {
    var a = e.target.closest("a");
    if (!a) return;
    if (a.hasAttribute("data-res")) selectKeep(plans[0], +a.getAttribute("data-res"), -1);
    else selectKeep(plans[0], -1, plans[0].pos[+a.getAttribute("data-cmd")]);
  });
  function selectKeep(P, r, p) {
    // Select without clearing the search highlight.
    V.sel = { plan: P.k, res: r, pos: p };
    if (r >= 0) { showRes(P, r); if (P.last[r] >= 0) zoomTo(P.first[r], P.last[r] + 1); } else { showCmd(P, p); zoomTo(p - 10, p + 11); }
    redraw();
  }
  function zoomTo(a, b) {
    a = Math.max(0, a); b = Math.min(N, b);
    var span = Math.max(b - a, 8) * 1.4;
    V.ppc = plotW() / span;
    V.x0 = (a + b) / 2 - span / 2;
    clampView();
  }

  var search = document.getElementById("search");
  search.addEventListener("input", function () { V.q = search.value.trim().toLowerCase(); highlight(); });
  search.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && V.matches) {
      if (V.matches.res.length) selectKeep(plans[0], V.matches.res[0], -1);
      else if (V.matches.cmd.length) selectKeep(plans[0], -1, plans[0].pos[V.matches.cmd[0]]);
      e.preventDefault();
    } else if (e.key === "Escape") { search.value = ""; V.q = ""; highlight(); search.blur(); }
  });

  // ---- interaction ----------------------------------------------------

  function zoomAt(x, f) {
    var p = posAt(x);
    V.ppc *= f;
    clampView();
    V.x0 = p - (x - LEFT) / V.ppc;
    clampView();
    redraw();
  }

  function local(P, e) {
    var b = P.canvas.getBoundingClientRect();
    return { x: e.clientX - b.left, y: e.clientY - b.top };
  }

  var drag = null;
  function attach(P) {
    var cv = P.canvas;
    cv.addEventListener("wheel", function (e) {
      e.preventDefault();
      var m = local(P, e), f = Math.exp(-e.deltaY * 0.0015);
      var h = hit(P, m.x, m.y);
      if ((e.shiftKey || e.ctrlKey) && h && (h.kind === "pool" || h.kind === "res")) {
        var pl = h.pool, at = pl.yo + (m.y - pl.y) / pl.h / pl.yz * pl.size;
        pl.yz = Math.min(Math.max(pl.yz * f, 1), 1e5);
        pl.yo = Math.min(Math.max(at - (m.y - pl.y) / pl.h / pl.yz * pl.size, 0), pl.size - pl.size / pl.yz);
        redraw();
        return;
      }
      zoomAt(Math.max(m.x, LEFT), f);
    }, { passive: false });
    cv.addEventListener("mousedown", function (e) {
      var m = local(P, e), h = hit(P, m.x, m.y);
      drag = { P: P, x: e.clientX, y: e.clientY, x0: V.x0, moved: false, pool: h && h.pool ? h.pool : null, yo: h && h.pool ? h.pool.yo : 0 };
      e.preventDefault();
    });
    cv.addEventListener("mousemove", function (e) {
      if (drag) return;
      var m = local(P, e), h = hit(P, m.x, m.y);
      if (!h) { tip.style.display = "none"; return; }
      tip.textContent = tipText(P, h);
      tip.style.display = "block";
      var x = e.clientX + 14, y = e.clientY + 14;
      if (x + tip.offsetWidth > window.innerWidth) x = e.clientX - tip.offsetWidth - 14;
      if (y + tip.offsetHeight > window.innerHeight) y = Math.max(0, e.clientY - tip.offsetHeight - 14);
      tip.style.left = x + "px"; tip.style.top = y + "px";
    });
    cv.addEventListener("mouseleave", function () { if (!drag) tip.style.display = "none"; });
  }
  window.addEventListener("mousemove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag.moved = true;
    drag.P.canvas.classList.add("dragging");
    tip.style.display = "none";
    V.x0 = drag.x0 - dx / V.ppc;
    var pl = drag.pool;
    if (pl && pl.yz > 1) pl.yo = Math.min(Math.max(drag.yo - dy / pl.h / pl.yz * pl.size, 0), pl.size - pl.size / pl.yz);
    clampView();
    redraw();
  });
  window.addEventListener("mouseup", function (e) {
    if (!drag) return;
    var d = drag;
    drag = null;
    d.P.canvas.classList.remove("dragging");
    if (d.moved) return;
    var m = local(d.P, e), h = hit(d.P, m.x, m.y);
    if (!h) return;
    if (h.kind === "res") select(d.P, h.res, -1, false);
    else if (h.pos !== undefined) select(d.P, -1, h.pos, false);
  });

  document.addEventListener("keydown", function (e) {
    if (e.target === search || e.altKey || e.metaKey || e.ctrlKey) return;
    var span = plotW() / V.ppc, c = LEFT + plotW() / 2;
    switch (e.key) {
      case "+": case "=": zoomAt(c, 1.5); break;
      case "-": case "_": zoomAt(c, 1 / 1.5); break;
      case "ArrowLeft": V.x0 -= span * 0.15; redraw(); break;
      case "ArrowRight": V.x0 += span * 0.15; redraw(); break;
      case "ArrowUp": case "ArrowDown":
        plans.forEach(function (P) {
          P.pools.forEach(function (pl) {
            var f = e.key === "ArrowUp" ? 1.5 : 1 / 1.5, mid = pl.yo + pl.size / pl.yz / 2;
            pl.yz = Math.min(Math.max(pl.yz * f, 1), 1e5);
            pl.yo = Math.min(Math.max(mid - pl.size / pl.yz / 2, 0), pl.size - pl.size / pl.yz);
          });
        });
        redraw(); break;
      case "0": case "Home": reset(); break;
      case "/": search.focus(); break;
      case "Escape": V.sel = null; search.value = ""; V.q = ""; showOverview(); highlight(); break;
      default: return;
    }
    e.preventDefault();
  });

  function reset() {
    V.ppc = fitPPC(); V.x0 = 0;
    plans.forEach(function (P) { P.pools.forEach(function (pl) { pl.yz = 1; pl.yo = 0; }); });
    redraw();
  }
  document.getElementById("zoomin").addEventListener("click", function () { zoomAt(LEFT + plotW() / 2, 1.5); });
  document.getElementById("zoomout").addEventListener("click", function () { zoomAt(LEFT + plotW() / 2, 1 / 1.5); });
  document.getElementById("reset").addEventListener("click", reset);
  document.getElementById("links").addEventListener("change", function (e) { V.links = e.target.checked; redraw(); });
  window.addEventListener("resize", function () {
    var span = plotW() / V.ppc, fit = Math.abs(V.ppc - fitPPC()) < 1e-9;
    sizeCanvases();
    V.ppc = fit ? fitPPC() : plotW() / span;
    redraw();
  });

  // For tests and the curious: where a resource is drawn, in page
  // coordinates, and the view state.
  window.aliasplanViewer = {
    resourceCenter: function (name, k) {
      var P = plans[k || 0], r = D.res.indexOf(name);
      if (r < 0 || P.status[r] !== 0) return null;
      var q = resRect(P, r), b = P.canvas.getBoundingClientRect();
      var x = Math.min(Math.max(q.x + q.w / 2, LEFT + 1), LEFT + plotW() - 1);
      return { x: b.left + x, y: b.top + q.y + q.h / 2 };
    },
    plotCenter: function (k) {
      var P = plans[k || 0], b = P.canvas.getBoundingClientRect(), pl = P.pools[0];
      return { x: b.left + LEFT + plotW() / 2, y: b.top + (pl ? pl.y + pl.h / 2 : P.liveY + LIVE_H / 2) };
    },
    view: function () { return { x0: V.x0, ppc: V.ppc }; },
    // trackPoint is where position p of plan k is on a track: "axis",
    // "live", "bar" or "queues" (the first lane).
    trackPoint: function (k, p, track) {
      var P = plans[k || 0], b = P.canvas.getBoundingClientRect();
      var y = track === "axis" ? P.axisY + 10 : track === "live" ? P.liveY + LIVE_H / 2 : track === "queues" ? P.qY + LANE_H / 2 : P.barY + BAR_H / 2;
      return { x: b.left + X(p + 0.5), y: b.top + y };
    },
    // redrawCost draws everything n times and returns the mean, in ms.
    redrawCost: function (n) {
      var t = performance.now();
      for (var i = 0; i < n; i++) drawAll();
      return (performance.now() - t) / n;
    }
  };

  // Every alias link at once is a help up to a few hundred, a red haze
  // beyond: then they start hidden (a search or a click still shows its
  // own).
  var nLinks = 0;
  plans.forEach(function (P) { nLinks = Math.max(nLinks, P.links.length / 3); });
  V.links = nLinks <= 300;
  document.getElementById("links").checked = V.links;
  sizeCanvases();
  V.ppc = fitPPC();
  showOverview();
  drawAll();
})();
