/*
 * playground.js: the SVM playground of the book's HTML pages.
 *
 * A canvas on which readers place points of two classes, and controls for
 * C, sigma and the kernel; the SVM is trained in the page by smo.js (the
 * book's SMO with WSS 2, see that file), so it works from file:// and from
 * any static host, offline. Three modes:
 *
 *   sweep: every change retrains to the end and redraws the decision
 *          regions, the boundary f = 0, the margins f = +-1 and the support
 *          vectors, with the training accuracy and the number of support
 *          vectors;
 *   step:  each click of "Step" takes one SMO step and highlights the pair
 *          (i, j) it chose, the gain of the step and the maximal KKT
 *          violation; "Run to the end" finishes;
 *   regression: epsilon-SVR on points (x, z) with one input x; every
 *          change retrains to the end (the same solver, on the 2n
 *          variables [alpha; alpha*] of LIBSVM's form, see smo.js) and
 *          redraws the regression curve f(x), the epsilon-tube
 *          f(x) +- epsilon and the support vectors (the points on or
 *          outside the tube), with a slider for epsilon besides C and sigma.
 *
 * The markup comes from the `svm-playground` directive (_ext/playground.py):
 * a <div class="svm-playground"> with the settings and the initial points
 * in data- attributes (no fetch(), which file:// pages cannot use) and a
 * <noscript> still image. Everything else is built here. No dependencies.
 */
(function () {
  "use strict";

  var MAX_POINTS = 500;
  var TOL = 1e-3; // svmlib's default tol
  var MAX_STEPS = 200000; // a page must not freeze: stop there
  var CELL = 5; // CSS pixels per cell of the decision-function grid
  var COLORS = {
    pos: "#d95f02",
    neg: "#1f6fb4",
    posRegion: [253, 208, 162],
    negRegion: [189, 215, 238],
    point: "#1f6fb4", // regression: the points
    tube: "rgba(217, 95, 2, 0.16)", // regression: the epsilon-tube
    tubeEdge: "#b35806",
    curve: "#222222",
    grid: "#e3e3e3",
    axis: "#555555",
  };
  // regression: the plot area inside the canvas, room for the axes' ticks
  // and labels (CSS pixels); the classifier's plot fills the canvas
  var PAD_REGRESSION = { l: 46, r: 10, t: 10, b: 40 };
  var PAD_NONE = { l: 0, r: 0, t: 0, b: 0 };
  var instances = [];

  function fmt(x, digits) {
    if (!isFinite(x)) return String(x);
    return Number(x.toPrecision(digits || 3)).toString();
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        if (key === "text") node.textContent = attrs[key];
        else if (key === "className") node.className = attrs[key];
        else node.setAttribute(key, attrs[key]);
      });
    }
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  /** "support vector" or "support vectors": the noun for a count of n. */
  function noun(n, singular) {
    return n === 1 ? singular : singular + "s";
  }

  /** "1 point", "0 points", "12 points". */
  function count(n, singular) {
    return n + " " + noun(n, singular);
  }

  var counter = 0;

  /** One playground in a <div class="svm-playground">. */
  function Playground(root) {
    this.root = root;
    this.id = "svmpg-" + ++counter;
    var d = root.dataset;
    this.regression = d.mode === "regression";
    this.mode = d.mode === "step" ? "step" : "sweep";
    this.pad = this.regression ? PAD_REGRESSION : PAD_NONE;
    this.epsilon = this.regression ? Number(d.epsilon) : 0;
    this.kernel = d.kernel === "linear" ? "linear" : "rbf";
    this.C = Number(d.c);
    this.sigma = Number(d.sigma);
    this.box = JSON.parse(d.box); // [x1 min, x1 max, x2 min, x2 max]
    // [[x1, x2, label], ...]; regression: [[x, z], ...]
    this.initial = JSON.parse(d.points);
    this.initialSettings = {
      kernel: this.kernel,
      C: this.C,
      sigma: this.sigma,
      epsilon: this.epsilon,
    };
    this.points = [];
    this.y = [];
    this.cursor = [0, 0];
    this.showCursor = false;
    this.drag = null;
    this.lastTiming = { trainMs: 0, drawMs: 0 };
    this.build();
    this.setPoints(this.initial);
  }

  Playground.prototype.build = function () {
    var self = this;
    var id = this.id;
    this.root.classList.add("svmpg-ready");
    var help =
      "Click the plot to add a point of the selected class, drag a point " +
      "to move it, shift-click (or right-click) a point to remove it. " +
      "Keyboard: focus the plot, move the cross with the arrow keys " +
      "(Shift: faster), Enter or Space adds a point, Delete removes the " +
      "point nearest the cross. In the plot: the shading is the predicted " +
      "class (paler inside the margin), the solid line is f = 0, the " +
      "dashed lines are the margins f = \u00b11, and filled markers are " +
      "the support vectors.";
    if (this.regression) {
      help =
        "Click the plot to add a point (x, z), drag a point to move it, " +
        "shift-click (or right-click) a point to remove it. Keyboard: " +
        "focus the plot, move the cross with the arrow keys, Enter or " +
        "Space adds a point, Delete removes the point nearest the cross. " +
        "In the plot: the solid curve is the regression function f(x), " +
        "the shaded band between the dashed curves is the \u03b5-tube " +
        "f(x) \u00b1 \u03b5, and filled markers are the support vectors, " +
        "the points on or outside the tube.";
    }
    this.canvas = el("canvas", {
      className: "svmpg-canvas",
      tabindex: "0",
      role: "application",
      "aria-label": this.regression
        ? "SVR playground: points (x, z), the regression curve and its " +
          "epsilon-tube"
        : "SVM playground: points of two classes and the decision regions",
      "aria-describedby": id + "-help",
    });
    var figure = el("div", { className: "svmpg-figure" }, [this.canvas]);

    // class of new points
    var classes = el("fieldset", { className: "svmpg-group" }, [
      el("legend", { text: "New points" }),
    ]);
    [
      ["1", "class +1 (triangles)"],
      ["-1", "class \u22121 (circles)"],
    ].forEach(function (pair, k) {
      var input = el("input", {
        type: "radio",
        name: id + "-class",
        id: id + "-class-" + k,
        value: pair[0],
      });
      if (k === 0) input.checked = true;
      classes.appendChild(
        el("label", { for: id + "-class-" + k }, [
          input,
          document.createTextNode(" " + pair[1]),
        ])
      );
    });
    this.classInputs = classes.querySelectorAll("input");

    // kernel
    var kernels = el("fieldset", { className: "svmpg-group" }, [
      el("legend", { text: "Kernel" }),
    ]);
    [
      ["rbf", "Gaussian (RBF)"],
      ["linear", "linear"],
    ].forEach(function (pair, k) {
      var input = el("input", {
        type: "radio",
        name: id + "-kernel",
        id: id + "-kernel-" + k,
        value: pair[0],
      });
      input.checked = pair[0] === self.kernel;
      input.addEventListener("change", function () {
        if (input.checked) {
          self.kernel = pair[0];
          self.sigmaInput.disabled = self.kernel === "linear";
          self.retrain();
        }
      });
      kernels.appendChild(
        el("label", { for: id + "-kernel-" + k }, [
          input,
          document.createTextNode(" " + pair[1]),
        ])
      );
    });

    // sliders on log scales: the value is log10 of the parameter (linear:
    // the value is the parameter, for epsilon, which may be 0)
    function slider(name, label, min, max, value, onInput, linear) {
      var input = el("input", {
        type: "range",
        id: id + "-" + name,
        className: "svmpg-" + name,
        min: String(min),
        max: String(max),
        step: linear ? "0.01" : "0.05",
      });
      input.value = String(linear ? value : Math.log10(value));
      var output = el("output", {
        for: id + "-" + name,
        className: "svmpg-" + name + "-value",
      });
      input.addEventListener("input", function () {
        var v = Number(input.value);
        onInput(linear ? v : Math.pow(10, v));
      });
      var row = el("div", { className: "svmpg-slider" }, [
        el("label", { for: id + "-" + name, text: label }),
        input,
        output,
      ]);
      return { input: input, output: output, row: row };
    }
    var cSlider = slider("C", "C (log scale)", -2, 3, this.C, function (v) {
      self.C = v;
      self.retrain();
    });
    var sSlider = slider(
      "sigma",
      "\u03c3 (log scale)",
      -1.3,
      0.7,
      this.sigma,
      function (v) {
        self.sigma = v;
        self.retrain();
      }
    );
    this.cInput = cSlider.input;
    this.cOutput = cSlider.output;
    this.sigmaInput = sSlider.input;
    this.sigmaOutput = sSlider.output;
    this.sigmaInput.disabled = this.kernel === "linear";
    var eSlider = null;
    if (this.regression) {
      eSlider = slider(
        "epsilon",
        "\u03b5 (tube half-width)",
        0,
        1,
        this.epsilon,
        function (v) {
          self.epsilon = v;
          self.retrain();
        },
        true
      );
      this.epsilonInput = eSlider.input;
      this.epsilonOutput = eSlider.output;
    }

    // buttons
    function button(text, className, onClick) {
      var b = el("button", { type: "button", className: className, text: text });
      b.addEventListener("click", onClick);
      return b;
    }
    var buttons = el("div", { className: "svmpg-buttons" });
    if (this.mode === "step") {
      this.stepButton = button("Step", "svmpg-step", function () {
        self.stepOnce();
      });
      this.runButton = button("Run to the end", "svmpg-run", function () {
        self.runToEnd();
      });
      buttons.appendChild(this.stepButton);
      buttons.appendChild(this.runButton);
      buttons.appendChild(
        button("Restart from \u03b1 = 0", "svmpg-restart", function () {
          self.retrain();
        })
      );
    }
    buttons.appendChild(
      button("Reset", "svmpg-reset", function () {
        self.kernel = self.initialSettings.kernel;
        self.C = self.initialSettings.C;
        self.sigma = self.initialSettings.sigma;
        self.epsilon = self.initialSettings.epsilon;
        if (self.epsilonInput) {
          self.epsilonInput.value = String(self.epsilon);
        }
        self.cInput.value = String(Math.log10(self.C));
        self.sigmaInput.value = String(Math.log10(self.sigma));
        self.sigmaInput.disabled = self.kernel === "linear";
        kernels.querySelectorAll("input").forEach(function (input) {
          input.checked = input.value === self.kernel;
        });
        self.setPoints(self.initial);
      })
    );
    buttons.appendChild(
      button("Clear all points", "svmpg-clear", function () {
        self.setPoints([]);
      })
    );

    this.status = el("p", {
      className: "svmpg-status",
      "aria-live": "polite",
    });
    this.stepStatus = el("p", {
      className: "svmpg-step-status",
      "aria-live": "polite",
    });
    var controls = el(
      "div",
      { className: "svmpg-controls" },
      this.regression
        ? [kernels, cSlider.row, eSlider.row, sSlider.row, buttons]
        : [classes, kernels, cSlider.row, sSlider.row, buttons]
    );
    var helpLine = el("p", {
      className: "svmpg-help",
      id: id + "-help",
      text: help,
    });
    var parts = [figure, controls, this.status];
    if (this.mode === "step") parts.push(this.stepStatus);
    parts.push(helpLine);
    parts.forEach(function (part) {
      self.root.appendChild(part);
    });

    this.bindCanvas();
    if (window.ResizeObserver) {
      new ResizeObserver(function () {
        self.draw();
      }).observe(this.canvas);
    }
  };

  Playground.prototype.newClass = function () {
    for (var k = 0; k < this.classInputs.length; k++) {
      if (this.classInputs[k].checked) return Number(this.classInputs[k].value);
    }
    return 1;
  };

  // ---------------------------------------------------------------------
  // Coordinates
  // ---------------------------------------------------------------------

  Playground.prototype.size = function () {
    var rect = this.canvas.getBoundingClientRect();
    return { w: Math.max(rect.width, 1), h: Math.max(rect.height, 1) };
  };

  /** The plot area in CSS pixels: {x, y, w, h} (the axes around it). */
  Playground.prototype.plotArea = function () {
    var s = this.size();
    var pad = this.pad;
    return {
      x: pad.l,
      y: pad.t,
      w: Math.max(s.w - pad.l - pad.r, 1),
      h: Math.max(s.h - pad.t - pad.b, 1),
    };
  };

  Playground.prototype.toWorld = function (px, py) {
    var a = this.plotArea();
    var b = this.box;
    return [
      b[0] + ((px - a.x) / a.w) * (b[1] - b[0]),
      b[3] - ((py - a.y) / a.h) * (b[3] - b[2]),
    ];
  };

  Playground.prototype.toPixel = function (x1, x2) {
    var a = this.plotArea();
    var b = this.box;
    return [
      a.x + ((x1 - b[0]) / (b[1] - b[0])) * a.w,
      a.y + ((b[3] - x2) / (b[3] - b[2])) * a.h,
    ];
  };

  Playground.prototype.nearest = function (x1, x2, radius) {
    var best = -1;
    var bestD = radius * radius;
    for (var k = 0; k < this.points.length; k++) {
      var d0 = this.points[k][0] - x1;
      var d1 = this.points[k][1] - x2;
      var d = d0 * d0 + d1 * d1;
      if (d <= bestD) {
        bestD = d;
        best = k;
      }
    }
    return best;
  };

  Playground.prototype.clamp = function (p) {
    var b = this.box;
    return [
      Math.min(Math.max(p[0], b[0]), b[1]),
      Math.min(Math.max(p[1], b[2]), b[3]),
    ];
  };

  // ---------------------------------------------------------------------
  // Mouse, touch and keyboard
  // ---------------------------------------------------------------------

  Playground.prototype.bindCanvas = function () {
    var self = this;
    var canvas = this.canvas;
    function world(event) {
      var rect = canvas.getBoundingClientRect();
      return self.toWorld(event.clientX - rect.left, event.clientY - rect.top);
    }
    function pickRadius() {
      return (10 / self.plotArea().w) * (self.box[1] - self.box[0]);
    }
    canvas.addEventListener("contextmenu", function (event) {
      event.preventDefault();
    });
    canvas.addEventListener("pointerdown", function (event) {
      var p = world(event);
      var k = self.nearest(p[0], p[1], pickRadius());
      if (k >= 0 && (event.shiftKey || event.button === 2)) {
        self.removePoint(k);
      } else if (k >= 0) {
        self.drag = { index: k, pointerId: event.pointerId };
        canvas.setPointerCapture(event.pointerId);
      } else if (event.button === 0) {
        self.addPoint(self.clamp(p), self.newClass());
      }
      event.preventDefault();
    });
    canvas.addEventListener("pointermove", function (event) {
      if (!self.drag) return;
      var p = self.clamp(world(event));
      self.points[self.drag.index] = p;
      self.scheduleRetrain();
    });
    function endDrag() {
      self.drag = null;
    }
    canvas.addEventListener("pointerup", endDrag);
    canvas.addEventListener("pointercancel", endDrag);
    canvas.addEventListener("focus", function () {
      self.showCursor = true;
      self.draw();
    });
    canvas.addEventListener("blur", function () {
      self.showCursor = false;
      self.draw();
    });
    canvas.addEventListener("keydown", function (event) {
      var stepSize = (event.shiftKey ? 0.5 : 0.1);
      var moves = {
        ArrowLeft: [-stepSize, 0],
        ArrowRight: [stepSize, 0],
        ArrowUp: [0, stepSize],
        ArrowDown: [0, -stepSize],
      };
      if (moves[event.key]) {
        self.cursor = self.clamp([
          self.cursor[0] + moves[event.key][0],
          self.cursor[1] + moves[event.key][1],
        ]);
        self.showCursor = true;
        self.draw();
      } else if (event.key === "Enter" || event.key === " ") {
        self.addPoint(self.cursor.slice(), self.newClass());
      } else if (event.key === "Delete" || event.key === "Backspace") {
        var k = self.nearest(self.cursor[0], self.cursor[1], 0.3);
        if (k >= 0) self.removePoint(k);
      } else {
        return;
      }
      event.preventDefault();
    });
  };

  Playground.prototype.addPoint = function (p, label) {
    if (this.points.length >= MAX_POINTS) return;
    this.points.push(p);
    if (!this.regression) this.y.push(label);
    this.retrain();
  };

  Playground.prototype.removePoint = function (k) {
    this.points.splice(k, 1);
    if (!this.regression) this.y.splice(k, 1);
    this.retrain();
  };

  /**
   * Replace the points: [[x1, x2, label], ...] (regression: [[x, z], ...],
   * no labels); retrains.
   */
  Playground.prototype.setPoints = function (points) {
    this.points = points.map(function (p) {
      return [Number(p[0]), Number(p[1])];
    });
    var regression = this.regression;
    this.y = regression
      ? []
      : points.map(function (p) {
          return Number(p[2]) > 0 ? 1 : -1;
        });
    this.retrain();
  };

  Playground.prototype.scheduleRetrain = function () {
    var self = this;
    if (this.pending) return;
    this.pending = true;
    window.requestAnimationFrame(function () {
      self.pending = false;
      self.retrain();
    });
  };

  // ---------------------------------------------------------------------
  // Training
  // ---------------------------------------------------------------------

  /** Whether there is a problem to solve: regression, one point is one. */
  Playground.prototype.canTrain = function () {
    return this.regression ? this.points.length > 0 : this.bothClasses();
  };

  Playground.prototype.bothClasses = function () {
    var pos = 0;
    for (var k = 0; k < this.y.length; k++) if (this.y[k] > 0) pos++;
    return pos > 0 && pos < this.y.length;
  };

  /**
   * A new problem: the Gram matrix and alpha = 0; in sweep mode, solved to
   * the end (smo.js: solveWss2, as svmlib's smo).
   */
  Playground.prototype.retrain = function () {
    var t0 = performance.now();
    var n = this.points.length;
    if (this.regression) {
      // epsilon-SVR: the 2n variables [alpha; alpha*] with y = [+1; -1]
      // and p = [epsilon - z; epsilon + z] (smo.js: svrProblem, svrGram)
      var problem = SvmSmo.svrProblem(this.targets(), this.epsilon);
      this.K = SvmSmo.svrGram(
        SvmSmo.gramMatrix(this.inputs(), this.kernel, this.sigma), n
      );
      this.state = new SvmSmo.SMOState(
        this.K, 2 * n, problem.y, this.C, problem.p
      );
    } else {
      this.K = SvmSmo.gramMatrix(this.points, this.kernel, this.sigma);
      this.state = new SvmSmo.SMOState(this.K, n, this.y, this.C);
    }
    this.lastStep = null;
    this.finished = false;
    if (this.mode === "sweep" && this.canTrain()) {
      SvmSmo.solveWss2(this.state, TOL, MAX_STEPS);
      this.finished = true;
    } else if (!this.canTrain()) {
      this.finished = true;
    }
    var t1 = performance.now();
    this.lastTiming.trainMs = t1 - t0;
    this.draw();
    this.lastTiming.drawMs = performance.now() - t1;
  };

  /** One SMO step (smo.js: selectWss2, then SMOState.step). */
  Playground.prototype.stepOnce = function () {
    if (this.finished || !this.bothClasses()) {
      this.finished = true;
      this.report();
      return false;
    }
    var state = this.state;
    var W0 = state.dualObjective();
    var selection = SvmSmo.selectWss2(state, TOL);
    if (selection.i === null) {
      this.finished = true;
      this.lastStep = null;
      this.draw();
      return false;
    }
    var alpha_i = state.alpha[selection.i];
    var alpha_j = state.alpha[selection.j];
    var moved = state.step(selection.i, selection.j, selection.K_i);
    this.lastStep = {
      i: selection.i,
      j: selection.j,
      violation: selection.violation,
      predicted: selection.gain / 2,
      gain: state.dualObjective() - W0,
      alphaBefore: [alpha_i, alpha_j],
      alphaAfter: [state.alpha[selection.i], state.alpha[selection.j]],
      moved: moved,
    };
    // done when the next selection would find no pair (m - M <= tol)
    if (!moved || state.nIter >= MAX_STEPS || state.violation() <= TOL) {
      this.finished = true;
    }
    this.draw();
    return true;
  };

  Playground.prototype.runToEnd = function () {
    if (this.finished) return;
    this.lastStep = null;
    SvmSmo.solveWss2(this.state, TOL, MAX_STEPS);
    this.finished = true;
    this.draw();
  };

  // ---------------------------------------------------------------------
  // Drawing
  // ---------------------------------------------------------------------

  /** Regression: the inputs [[x], ...] and the targets z. */
  Playground.prototype.inputs = function () {
    return this.points.map(function (p) {
      return [p[0]];
    });
  };

  Playground.prototype.targets = function () {
    return this.points.map(function (p) {
      return p[1];
    });
  };

  /** Regression: beta_i = alpha_i - alpha*_i, b and f(x). */
  Playground.prototype.regressionFit = function () {
    var n = this.points.length;
    var beta = SvmSmo.svrCoefficients(this.state.alpha, n);
    var b = this.state.intercept();
    var xs = this.points.map(function (p) {
      return p[0];
    });
    return {
      beta: beta,
      b: b,
      f: SvmSmo.regressionFunction(xs, beta, b, this.kernel, this.sigma),
    };
  };

  Playground.prototype.decision = function () {
    var state = this.state;
    var b = state.intercept();
    return {
      b: b,
      f: SvmSmo.decisionFunction(
        this.points, this.y, state.alpha, b, this.kernel, this.sigma
      ),
    };
  };

  Playground.prototype.draw = function () {
    if (!this.state) return;
    var canvas = this.canvas;
    var s = this.size();
    var ratio = window.devicePixelRatio || 1;
    var W = Math.round(s.w * ratio);
    var H = Math.round(s.h * ratio);
    if (canvas.width !== W || canvas.height !== H) {
      canvas.width = W;
      canvas.height = H;
    }
    var ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, s.w, s.h);
    if (this.regression) {
      this.drawRegression(ctx);
      if (this.showCursor) this.drawCursor(ctx);
      this.report();
      return;
    }
    var trained = this.bothClasses() && this.state.nIter > 0;
    if (trained) this.drawRegions(ctx, s);
    this.drawPoints(ctx);
    if (this.lastStep) this.drawPair(ctx);
    if (this.showCursor) this.drawCursor(ctx);
    this.report();
  };

  Playground.prototype.drawRegions = function (ctx, s) {
    var decision = this.decision();
    var f = decision.f;
    var gw = Math.max(2, Math.round(s.w / CELL));
    var gh = Math.max(2, Math.round(s.h / CELL));
    var b = this.box;
    // values at the grid's corners (gw + 1) x (gh + 1)
    var F = new Float64Array((gw + 1) * (gh + 1));
    for (var r = 0; r <= gh; r++) {
      var x2 = b[3] - (r / gh) * (b[3] - b[2]);
      for (var c = 0; c <= gw; c++) {
        var x1 = b[0] + (c / gw) * (b[1] - b[0]);
        F[r * (gw + 1) + c] = f(x1, x2);
      }
    }
    // shading: a small image, scaled up smoothly
    var off = document.createElement("canvas");
    off.width = gw + 1;
    off.height = gh + 1;
    var octx = off.getContext("2d");
    var image = octx.createImageData(gw + 1, gh + 1);
    for (var k = 0; k < F.length; k++) {
      var v = F[k];
      var color = v > 0 ? COLORS.posRegion : COLORS.negRegion;
      // full color beyond the margin, lighter inside it
      var t = Math.min(Math.abs(v), 1) * 0.55 + 0.45;
      image.data[4 * k] = Math.round(255 + (color[0] - 255) * t);
      image.data[4 * k + 1] = Math.round(255 + (color[1] - 255) * t);
      image.data[4 * k + 2] = Math.round(255 + (color[2] - 255) * t);
      image.data[4 * k + 3] = 255;
    }
    octx.putImageData(image, 0, 0);
    ctx.imageSmoothingEnabled = true;
    var cw = s.w / gw;
    var ch = s.h / gh;
    ctx.drawImage(off, -cw / 2, -ch / 2, s.w + cw, s.h + ch);
    // contours f = -1, 0, +1 (marching squares)
    var levels = [
      [0, [], 2],
      [1, [6, 4], 1.3],
      [-1, [6, 4], 1.3],
    ];
    ctx.strokeStyle = "#222222";
    for (var q = 0; q < levels.length; q++) {
      ctx.setLineDash(levels[q][1]);
      ctx.lineWidth = levels[q][2];
      ctx.beginPath();
      contour(F, gw, gh, levels[q][0], cw, ch, ctx);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  };

  /**
   * Marching squares: the curves {f = level} added to ctx's path, the
   * segments of neighbouring cells joined into polylines (so that dashes
   * run along a curve instead of restarting in every cell).
   */
  function contour(F, gw, gh, level, cw, ch, ctx) {
    function at(r, c) {
      return F[r * (gw + 1) + c] - level;
    }
    function cross(a, b) {
      return a / (a - b);
    }
    var segments = []; // [key, x, y, key, x, y]
    var byKey = {}; // edge key -> indices of the segments that end there
    function add(p, q) {
      var k = segments.length;
      segments.push([p, q]);
      (byKey[p[0]] = byKey[p[0]] || []).push(k);
      (byKey[q[0]] = byKey[q[0]] || []).push(k);
    }
    for (var r = 0; r < gh; r++) {
      for (var c = 0; c < gw; c++) {
        var tl = at(r, c);
        var tr = at(r, c + 1);
        var br = at(r + 1, c + 1);
        var bl = at(r + 1, c);
        var pts = [];
        // crossings on the edges: top, right, bottom, left
        if (tl > 0 !== tr > 0) {
          pts.push(["h" + r + "," + c, (c + cross(tl, tr)) * cw, r * ch]);
        }
        if (tr > 0 !== br > 0) {
          pts.push([
            "v" + r + "," + (c + 1), (c + 1) * cw, (r + cross(tr, br)) * ch,
          ]);
        }
        if (bl > 0 !== br > 0) {
          pts.push([
            "h" + (r + 1) + "," + c, (c + cross(bl, br)) * cw, (r + 1) * ch,
          ]);
        }
        if (tl > 0 !== bl > 0) {
          pts.push(["v" + r + "," + c, c * cw, (r + cross(tl, bl)) * ch]);
        }
        if (pts.length === 2) {
          add(pts[0], pts[1]);
        } else if (pts.length === 4) {
          // a saddle: pair the crossings by the value at the centre
          var centre = (tl + tr + br + bl) / 4;
          if (centre > 0 === tl > 0) {
            add(pts[0], pts[1]);
            add(pts[2], pts[3]);
          } else {
            add(pts[0], pts[3]);
            add(pts[2], pts[1]);
          }
        }
      }
    }
    var used = new Uint8Array(segments.length);
    function next(key) {
      var list = byKey[key];
      for (var m = 0; m < list.length; m++) {
        if (!used[list[m]]) return list[m];
      }
      return -1;
    }
    for (var k = 0; k < segments.length; k++) {
      if (used[k]) continue;
      used[k] = 1;
      // walk backwards from the first end, then forwards from the second
      var line = [segments[k][0], segments[k][1]];
      var q;
      while ((q = next(line[0][0])) >= 0) {
        used[q] = 1;
        var sq = segments[q];
        line.unshift(sq[0][0] === line[0][0] ? sq[1] : sq[0]);
      }
      while ((q = next(line[line.length - 1][0])) >= 0) {
        used[q] = 1;
        var sr = segments[q];
        var end = line[line.length - 1][0];
        line.push(sr[0][0] === end ? sr[1] : sr[0]);
      }
      ctx.moveTo(line[0][1], line[0][2]);
      for (var t = 1; t < line.length; t++) {
        ctx.lineTo(line[t][1], line[t][2]);
      }
    }
  }

  Playground.prototype.drawPoints = function (ctx) {
    var alpha = this.state.alpha;
    for (var k = 0; k < this.points.length; k++) {
      var p = this.toPixel(this.points[k][0], this.points[k][1]);
      var positive = this.y[k] > 0;
      var color = positive ? COLORS.pos : COLORS.neg;
      var support = alpha[k] > 0;
      ctx.beginPath();
      if (positive) {
        ctx.moveTo(p[0], p[1] - 6.5);
        ctx.lineTo(p[0] + 6, p[1] + 4.5);
        ctx.lineTo(p[0] - 6, p[1] + 4.5);
        ctx.closePath();
      } else {
        ctx.arc(p[0], p[1], 5, 0, 2 * Math.PI);
      }
      ctx.fillStyle = support ? color : "#ffffff";
      ctx.fill();
      ctx.lineWidth = 1.6;
      ctx.strokeStyle = support ? "#111111" : color;
      ctx.stroke();
    }
  };

  // ---------------------------------------------------------------------
  // Drawing the regression: axes, the tube, f(x), the points
  // ---------------------------------------------------------------------

  /** Tick positions: multiples of 1 (of 0.5 on a short axis). */
  function ticks(lo, hi) {
    var stepSize = hi - lo <= 3 ? 0.5 : 1;
    var out = [];
    for (var t = Math.ceil(lo / stepSize) * stepSize; t <= hi + 1e-9;
      t += stepSize) {
      out.push(Math.round(t * 100) / 100);
    }
    return out;
  }

  Playground.prototype.drawRegression = function (ctx) {
    var a = this.plotArea();
    var b = this.box;
    var self = this;
    // grid and frame
    ctx.lineWidth = 1;
    ctx.strokeStyle = COLORS.grid;
    ctx.beginPath();
    var xt = ticks(b[0], b[1]);
    var zt = ticks(b[2], b[3]);
    xt.forEach(function (t) {
      var px = self.toPixel(t, 0)[0];
      ctx.moveTo(px, a.y);
      ctx.lineTo(px, a.y + a.h);
    });
    zt.forEach(function (t) {
      var py = self.toPixel(0, t)[1];
      ctx.moveTo(a.x, py);
      ctx.lineTo(a.x + a.w, py);
    });
    ctx.stroke();
    ctx.strokeStyle = COLORS.axis;
    ctx.strokeRect(a.x, a.y, a.w, a.h);
    // tick labels and axis labels
    ctx.fillStyle = "#222222";
    ctx.font = "12px sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    xt.forEach(function (t) {
      ctx.fillText(fmt(t), self.toPixel(t, 0)[0], a.y + a.h + 4);
    });
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    zt.forEach(function (t) {
      ctx.fillText(fmt(t), a.x - 5, self.toPixel(0, t)[1]);
    });
    ctx.font = "italic 17px serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "bottom";
    ctx.fillText("x", a.x + a.w / 2, a.y + a.h + 39);
    ctx.save();
    ctx.translate(a.x - 34, a.y + a.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = "middle";
    ctx.fillText("z", 0, 0);
    ctx.restore();

    var fit = this.canTrain() && this.finished ? this.regressionFit() : null;
    ctx.save();
    ctx.beginPath();
    ctx.rect(a.x, a.y, a.w, a.h);
    ctx.clip();
    if (fit) {
      // f sampled every 2 CSS pixels across the plot
      var m = Math.max(2, Math.ceil(a.w / 2));
      var X = new Float64Array(m + 1);
      var F = new Float64Array(m + 1);
      for (var k = 0; k <= m; k++) {
        X[k] = b[0] + (k / m) * (b[1] - b[0]);
        F[k] = fit.f(X[k]);
      }
      var eps = this.epsilon;
      var path = function (offset) {
        for (var q = 0; q <= m; q++) {
          var p = self.toPixel(X[q], F[q] + offset);
          if (q === 0) ctx.moveTo(p[0], p[1]);
          else ctx.lineTo(p[0], p[1]);
        }
      };
      // the tube: the band between f - epsilon and f + epsilon
      ctx.beginPath();
      path(eps);
      for (var r = m; r >= 0; r--) {
        var p = self.toPixel(X[r], F[r] - eps);
        ctx.lineTo(p[0], p[1]);
      }
      ctx.closePath();
      ctx.fillStyle = COLORS.tube;
      ctx.fill();
      ctx.strokeStyle = COLORS.tubeEdge;
      ctx.lineWidth = 1.4;
      ctx.setLineDash([6, 4]);
      ctx.beginPath();
      path(eps);
      path(-eps);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.strokeStyle = COLORS.curve;
      ctx.lineWidth = 2.2;
      ctx.beginPath();
      path(0);
      ctx.stroke();
    }
    ctx.restore();
    this.drawLegend(ctx, a);
    // the points (over the key): support vectors (beta != 0) filled
    for (var i = 0; i < this.points.length; i++) {
      var q = this.toPixel(this.points[i][0], this.points[i][1]);
      var support = fit !== null && fit.beta[i] !== 0;
      ctx.beginPath();
      ctx.arc(q[0], q[1], 5, 0, 2 * Math.PI);
      ctx.fillStyle = support ? COLORS.point : "#ffffff";
      ctx.fill();
      ctx.lineWidth = 1.6;
      ctx.strokeStyle = support ? "#111111" : COLORS.point;
      ctx.stroke();
    }
  };

  /** Regression: a small key in the plot's top left corner. */
  Playground.prototype.drawLegend = function (ctx, a) {
    var x = a.x + 8;
    var y = a.y + 8;
    var rows = [
      ["curve", "f(x)"],
      ["tube", "f(x) \u00b1 \u03b5"],
      ["sv", "support vector"],
      ["point", "other point"],
    ];
    ctx.font = "12px sans-serif";
    var width = 0;
    rows.forEach(function (row) {
      width = Math.max(width, ctx.measureText(row[1]).width);
    });
    ctx.fillStyle = "rgba(255, 255, 255, 0.88)";
    ctx.strokeStyle = "#bbbbbb";
    ctx.lineWidth = 1;
    ctx.fillRect(x, y, width + 44, rows.length * 17 + 8);
    ctx.strokeRect(x, y, width + 44, rows.length * 17 + 8);
    rows.forEach(function (row, k) {
      var cy = y + 12 + 17 * k;
      var cx = x + 18;
      ctx.beginPath();
      if (row[0] === "curve") {
        ctx.strokeStyle = COLORS.curve;
        ctx.lineWidth = 2.2;
        ctx.moveTo(cx - 11, cy);
        ctx.lineTo(cx + 11, cy);
        ctx.stroke();
      } else if (row[0] === "tube") {
        ctx.fillStyle = COLORS.tube;
        ctx.fillRect(cx - 11, cy - 5, 22, 10);
        ctx.strokeStyle = COLORS.tubeEdge;
        ctx.lineWidth = 1.4;
        ctx.setLineDash([4, 3]);
        ctx.moveTo(cx - 11, cy - 5);
        ctx.lineTo(cx + 11, cy - 5);
        ctx.moveTo(cx - 11, cy + 5);
        ctx.lineTo(cx + 11, cy + 5);
        ctx.stroke();
        ctx.setLineDash([]);
      } else {
        var sv = row[0] === "sv";
        ctx.arc(cx, cy, 4.5, 0, 2 * Math.PI);
        ctx.fillStyle = sv ? COLORS.point : "#ffffff";
        ctx.fill();
        ctx.lineWidth = 1.6;
        ctx.strokeStyle = sv ? "#111111" : COLORS.point;
        ctx.stroke();
      }
      ctx.fillStyle = "#222222";
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      ctx.fillText(row[1], x + 36, cy);
    });
  };

  Playground.prototype.drawPair = function (ctx) {
    var step = this.lastStep;
    var names = [
      [step.i, "i"],
      [step.j, "j"],
    ];
    ctx.font = "bold 13px sans-serif";
    for (var m = 0; m < 2; m++) {
      var k = names[m][0];
      var p = this.toPixel(this.points[k][0], this.points[k][1]);
      ctx.beginPath();
      ctx.arc(p[0], p[1], 11, 0, 2 * Math.PI);
      ctx.lineWidth = 3;
      ctx.strokeStyle = "#7b2cbf";
      ctx.stroke();
      // the label on a white halo, readable over points and lines
      var label = names[m][1] + " = " + k;
      ctx.lineWidth = 4;
      ctx.strokeStyle = "#ffffff";
      ctx.lineJoin = "round";
      ctx.strokeText(label, p[0] + 13, p[1] - 9);
      ctx.fillStyle = "#4a1486";
      ctx.fillText(label, p[0] + 13, p[1] - 9);
    }
  };

  Playground.prototype.drawCursor = function (ctx) {
    var p = this.toPixel(this.cursor[0], this.cursor[1]);
    ctx.strokeStyle = "#000000";
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(p[0] - 9, p[1]);
    ctx.lineTo(p[0] + 9, p[1]);
    ctx.moveTo(p[0], p[1] - 9);
    ctx.lineTo(p[0], p[1] + 9);
    ctx.stroke();
  };

  // ---------------------------------------------------------------------
  // Live text
  // ---------------------------------------------------------------------

  Playground.prototype.counts = function () {
    var state = this.state;
    var n = this.points.length;
    var nSV = 0;
    var correct = 0;
    var b = state.intercept();
    for (var k = 0; k < n; k++) {
      if (state.alpha[k] > 0) nSV++;
      // f(x_k) = E_k + y_k + b; predicted +1 where f > 0 (as svmlib.SVC)
      var f = state.E[k] + this.y[k] + b;
      if ((f > 0 ? 1 : -1) === this.y[k]) correct++;
    }
    return { n: n, nSV: nSV, accuracy: n ? correct / n : 0 };
  };

  function span(className, text) {
    return el("span", { className: className, text: text });
  }

  /**
   * Regression: the support vectors (beta != 0), of them those with a free
   * multiplier (0 < |beta| < C: on the tube's edge, within tol) and those
   * at the bound C (on or outside the tube); the others (beta = 0) lie in
   * the tube (within tol).
   */
  Playground.prototype.regressionCounts = function () {
    var n = this.points.length;
    var alpha = this.state.alpha;
    var nSV = 0;
    var atC = 0;
    for (var i = 0; i < n; i++) {
      var beta = alpha[i] - alpha[i + n];
      if (beta !== 0) nSV++;
      if (Math.abs(beta) >= this.C) atC++;
    }
    return { n: n, nSV: nSV, atC: atC, free: nSV - atC };
  };

  Playground.prototype.reportRegression = function () {
    var status = this.status;
    status.textContent = "";
    this.epsilonOutput.textContent = "\u03b5 = " + fmt(this.epsilon);
    this.epsilonInput.setAttribute(
      "aria-valuetext", "epsilon = " + fmt(this.epsilon)
    );
    if (!this.canTrain()) {
      status.appendChild(
        document.createTextNode("No points: click the plot to add some.")
      );
      this.root.dataset.nSv = "0";
      this.root.dataset.steps = "0";
      return;
    }
    var c = this.regressionCounts();
    var state = this.state;
    var violation = state.violation();
    [
      span("svmpg-nsv", String(c.nSV)),
      document.createTextNode(
        " " + noun(c.nSV, "support vector") + " of " + count(c.n, "point") +
          " (" + c.free + " on the tube\u2019s edge, " + c.atC +
          " at the bound C, on or outside it); " +
          (c.n - c.nSV === 1
            ? "the other 1 lies in the tube \u00b7 "
            : "the other " + (c.n - c.nSV) + " lie in the tube \u00b7 ")
      ),
      span("svmpg-steps", String(state.nIter)),
      document.createTextNode(
        (state.nIter === 1 ? " SMO step" : " SMO steps") +
          (violation <= TOL
            ? " (KKT conditions hold within tol = " + TOL + ")"
            : " (stopped before the KKT conditions hold: m \u2212 M = " +
              fmt(violation) + ")")
      ),
    ].forEach(function (part) {
      status.appendChild(part);
    });
    this.root.dataset.nSv = String(c.nSV);
    this.root.dataset.steps = String(state.nIter);
  };

  Playground.prototype.report = function () {
    this.cOutput.textContent = "C = " + fmt(this.C);
    this.sigmaOutput.textContent =
      this.kernel === "linear" ? "(linear kernel)" : "\u03c3 = " + fmt(this.sigma);
    this.cInput.setAttribute("aria-valuetext", "C = " + fmt(this.C));
    this.sigmaInput.setAttribute(
      "aria-valuetext", "sigma = " + fmt(this.sigma)
    );
    if (this.regression) {
      this.reportRegression();
      return;
    }
    var c = this.counts();
    var status = this.status;
    status.textContent = "";
    if (!this.bothClasses()) {
      status.appendChild(
        document.createTextNode(
          count(c.n, "point") +
            ": add points of both classes to train an SVM."
        )
      );
      this.root.dataset.nSv = "0";
      this.root.dataset.accuracy = "";
    } else {
      var state = this.state;
      var parts = [
        document.createTextNode("Training accuracy "),
        span("svmpg-accuracy", (100 * c.accuracy).toFixed(1) + "%"),
        document.createTextNode(" \u00b7 "),
        span("svmpg-nsv", String(c.nSV)),
        document.createTextNode(
          " " + noun(c.nSV, "support vector") + " of " +
            count(c.n, "point") + " \u00b7 "
        ),
        span("svmpg-steps", String(state.nIter)),
        document.createTextNode(state.nIter === 1 ? " SMO step" : " SMO steps"),
      ];
      if (this.finished) {
        var violation = state.violation();
        parts.push(
          document.createTextNode(
            violation <= TOL
              ? " (KKT conditions hold within tol = " + TOL + ")"
              : " (stopped before the KKT conditions hold: m \u2212 M = " +
                  fmt(violation) + ")"
          )
        );
      }
      parts.forEach(function (part) {
        status.appendChild(part);
      });
      this.root.dataset.nSv = String(c.nSV);
      this.root.dataset.accuracy = String(c.accuracy);
    }
    this.root.dataset.steps = String(this.state.nIter);
    if (this.mode === "step") this.reportStep();
  };

  Playground.prototype.reportStep = function () {
    var state = this.state;
    var out = this.stepStatus;
    var W = state.dualObjective();
    var violation = state.violation();
    var text;
    if (!this.bothClasses()) {
      text = "";
    } else if (this.lastStep) {
      var s = this.lastStep;
      text =
        "Step " + state.nIter + ": WSS 2 chose the pair (i, j) = (" +
        s.i + ", " + s.j + ") at a maximal KKT violation m \u2212 M = " +
        fmt(s.violation, 4) + "; \u03b1_i " + fmt(s.alphaBefore[0], 4) +
        " \u2192 " + fmt(s.alphaAfter[0], 4) + ", \u03b1_j " +
        fmt(s.alphaBefore[1], 4) + " \u2192 " + fmt(s.alphaAfter[1], 4) +
        "; the dual objective W rose by " + fmt(s.gain, 4) +
        " (unclipped prediction " + fmt(s.predicted, 4) + ") to " +
        fmt(W, 6) + ". Now m \u2212 M = " + fmt(violation, 4) + ".";
    } else if (state.nIter === 0) {
      text =
        "\u03b1 = 0, W = 0, m \u2212 M = " + fmt(violation, 4) +
        ": press Step to take the first SMO step.";
    } else {
      text =
        "After " + state.nIter + " steps: W = " + fmt(W, 6) +
        ", m \u2212 M = " + fmt(violation, 4) + ".";
    }
    if (this.finished && this.bothClasses()) {
      text += " Done: m \u2212 M \u2264 tol = " + TOL + ".";
    }
    out.textContent = text;
    if (this.stepButton) {
      this.stepButton.disabled = this.finished;
      this.runButton.disabled = this.finished;
    }
  };

  function init() {
    var roots = document.querySelectorAll("div.svm-playground");
    for (var k = 0; k < roots.length; k++) {
      if (!roots[k].classList.contains("svmpg-ready")) {
        instances.push(new Playground(roots[k]));
      }
    }
  }

  window.SvmPlayground = { instances: instances, init: init };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
